import { readFileSync } from 'node:fs';
import kafkajs, { type Kafka, type KafkaConfig, type LogEntry, type SASLOptions } from 'kafkajs';
import type { Logger } from 'pino';
import { DoppelError, isDoppelError, toDoppelError } from '../errors.js';

// kafkajs is CommonJS: named value imports do not resolve under Node's ESM loader.
const { Kafka: KafkaClient, KafkaJSError, logLevel } = kafkajs;

import type { KafkaConnectionConfig } from './config.js';

/** kafkajs log entries into the service's pino logger (component "kafkajs"). */
function logCreator(logger: Logger) {
  const log = logger.child({ component: 'kafkajs' });
  return () =>
    ({ namespace, level, log: entry }: LogEntry) => {
      const { message, timestamp: _t, logger: _l, ...extra } = entry;
      const fields = { namespace, ...extra };
      if (level === logLevel.ERROR) log.error(fields, message);
      else if (level === logLevel.WARN) log.warn(fields, message);
      else if (level === logLevel.INFO) log.info(fields, message);
      else log.debug(fields, message);
    };
}

/** A kafkajs client from the validated connection config (TLS files read here, once). */
export function createKafka(config: KafkaConnectionConfig, logger: Logger): Kafka {
  const options: KafkaConfig = {
    clientId: config.clientId,
    brokers: config.brokers,
    connectionTimeout: config.connectionTimeoutMs,
    requestTimeout: config.requestTimeoutMs,
    logLevel: logger.isLevelEnabled('debug') ? logLevel.DEBUG : logLevel.WARN,
    logCreator: logCreator(logger),
    retry: { initialRetryTime: 300, retries: 8 },
  };
  if (config.tls.enabled) {
    const { caFile, certFile, keyFile, rejectUnauthorized } = config.tls;
    options.ssl = {
      rejectUnauthorized,
      ...(caFile ? { ca: [readFileSync(caFile, 'utf8')] } : {}),
      ...(certFile ? { cert: readFileSync(certFile, 'utf8') } : {}),
      ...(keyFile ? { key: readFileSync(keyFile, 'utf8') } : {}),
    };
  }
  if (config.sasl) {
    options.sasl = {
      mechanism: config.sasl.mechanism,
      username: config.sasl.username,
      password: config.sasl.password,
    } as SASLOptions;
  }
  return new KafkaClient(options);
}

/** The broker's answers to a producer whose transactional id another process has taken. */
const FENCED = new Set(['INVALID_PRODUCER_EPOCH', 'PRODUCER_FENCED']);

/**
 * True when the error says this process was fenced (exactly-once): another process took its
 * transactional id. Retrying cannot help, this producer can never commit again.
 */
export function isFenced(error: DoppelError): boolean {
  for (let e: unknown = error; e instanceof Error; e = e.cause) {
    const type = (e as { type?: unknown }).type;
    if (typeof type === 'string' && FENCED.has(type)) return true;
  }
  return false;
}

/**
 * Any error to a DoppelError: kafkajs errors by their own `retriable` flag (KAFKA_UNAVAILABLE or
 * KAFKA_ERROR), DoppelErrors unchanged, anything else INTERNAL.
 */
export function classifyError(error: unknown): DoppelError {
  if (isDoppelError(error)) return error;
  if (error instanceof KafkaJSError) {
    return new DoppelError(
      error.retriable ? 'KAFKA_UNAVAILABLE' : 'KAFKA_ERROR',
      `${error.name}: ${error.message}`,
      {
        cause: error,
      },
    );
  }
  return toDoppelError(error);
}
