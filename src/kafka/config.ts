import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { z } from 'zod';
import type { DedupConfig } from '../config/dedup.js';
import { readConfigFile } from '../config/file.js';
import { deepMerge, resolveDedupConfig } from '../config/profiles.js';
import { parseConfig } from '../config/validate.js';
import { DoppelError } from '../errors.js';

/**
 * The consumers' configuration: the `kafka` (cluster connection) and `consumer` sections, from
 * a JSON config file (DOPPEL_CONFIG) with environment variables on top, validated once at
 * start-up. The same file may carry the dedup sections (signatures, index, decision, window,
 * redis, batchSize, mode) that `doppel dedup --config` reads. Every default is in
 * docs/configuration.md.
 */

export const INPUT_FORMATS = ['json', 'text', 'mail'] as const;
export type InputFormat = (typeof INPUT_FORMATS)[number];

const topicName = z.string().regex(/^[A-Za-z0-9._-]{1,249}$/, 'a Kafka topic name');
const template = z.string().regex(/^[A-Za-z0-9._{}-]{1,249}$/, 'a topic name or template with {input}');

export const kafkaConnectionSchema = z
  .object({
    /** host:port of one or more bootstrap brokers. */
    brokers: z.array(z.string().min(1)).min(1),
    clientId: z.string().min(1).default('doppel'),
    /** TLS to the brokers; CA / client certificate files optional (system CAs otherwise). */
    tls: z
      .object({
        enabled: z.boolean().default(false),
        caFile: z.string().optional(),
        certFile: z.string().optional(),
        keyFile: z.string().optional(),
        rejectUnauthorized: z.boolean().default(true),
      })
      .strict()
      .prefault({}),
    /** SASL authentication (PLAIN or SCRAM); usually with TLS. */
    sasl: z
      .object({
        mechanism: z.enum(['plain', 'scram-sha-256', 'scram-sha-512']),
        username: z.string().min(1),
        password: z.string(),
      })
      .strict()
      .optional(),
    connectionTimeoutMs: z.number().int().min(100).default(10_000),
    requestTimeoutMs: z.number().int().min(100).default(30_000),
  })
  .strict();

export const inputTopicSchema = z
  .object({
    topic: topicName,
    /** json: the CLI's message object; text: the value is the text; mail: the value is an RFC 822 mail. */
    format: z.enum(INPUT_FORMATS),
  })
  .strict();

export const consumerSchema = z
  .object({
    /** Dedup profile (news or mail) and its defaults. */
    profile: z.enum(['news', 'mail']),
    /** Consumer group; default `doppel-<profile>`. */
    groupId: z.string().min(1).optional(),
    inputs: z.array(inputTopicSchema).min(1),
    /** Output topic names; `{input}` is the input topic's name. */
    topics: z
      .object({
        tagged: template.default('{input}.tagged'),
        duplicates: template.default('{input}.duplicates'),
        stories: template.default('{input}.stories'),
        dlq: template.default('{input}.dlq'),
      })
      .strict()
      .prefault({}),
    /** Create missing topics (inputs and outputs) on start-up with the admin client. */
    createTopics: z.boolean().default(true),
    /** Partitions of created output topics; 0: as many as the input topic has. */
    outputPartitions: z.number().int().min(0).default(0),
    /** Partitions of created input topics (only when an input topic is missing). */
    inputPartitions: z.number().int().min(1).default(4),
    /** Replication factor of created topics; -1: the broker's default. */
    replicationFactor: z.number().int().min(-1).default(-1),
    /** Redis URL of the shared index (the consumers always use the Redis store; redis+cluster:// for Redis Cluster). */
    redisUrl: z
      .string()
      .regex(/^rediss?(\+cluster)?:\/\//, 'a redis://, rediss:// or redis+cluster://host:port,host:port URL'),
    /** Store namespace; default the config's redis.namespace. */
    namespace: z
      .string()
      .regex(/^[A-Za-z0-9._-]{1,64}$/)
      .optional(),
    /** Partitions processed at the same time by one process (kafkajs partitionsConsumedConcurrently). */
    concurrency: z.number().int().min(1).max(64).default(1),
    /**
     * Threads that canonicalize and sign a batch's messages (pipeline/sign-pool.ts): 1 signs on
     * the event loop; 0 one per core. Verdicts do not depend on it.
     */
    signThreads: z.number().int().min(0).max(256).default(1),
    /** Exactly-once: outputs and offsets in one Kafka transaction (read_committed downstream). */
    exactlyOnce: z.boolean().default(false),
    /**
     * Exactly-once: prefix of the per-partition transactional ids (`<prefix>-<topic>-<partition>`);
     * default the group id. The same in every process of the group: a process that takes a
     * partition over fences the one that had it by taking the same id.
     */
    transactionalId: z.string().min(1).optional(),
    /**
     * Largest message value accepted (bytes); larger ones go to the dlq as TOO_LARGE, without
     * their value. Keep it below the output topics' max.message.bytes (broker default 1 MiB).
     */
    maxMessageBytes: z.number().int().min(1).default(1_000_000),
    /** Bytes fetched per partition per request (bounds a batch). */
    maxBytesPerPartition: z.number().int().min(1024).default(1_048_576),
    sessionTimeoutMs: z.number().int().min(6_000).default(30_000),
    /** Back-off on retryable errors (store unavailable/timeouts, Kafka send failures): first and cap. */
    retryInitialMs: z.number().int().min(1).default(250),
    retryMaxMs: z.number().int().min(1).default(10_000),
    /**
     * Attempts at a batch that fails in a way waiting does not fix (a bug, STORE_ERROR, Kafka
     * refusing for good), with the back-off above between them; then the consumer stops with exit
     * 1 and the batch uncommitted, so Kubernetes restarts it. Never a dead letter: the dlq only
     * takes invalid input. (A store or broker that is unavailable pauses and waits instead.)
     */
    maxFailedAttempts: z.number().int().min(1).max(100).default(5),
    /** Consumer start position for a new group. */
    fromBeginning: z.boolean().default(true),
    /** pino level; default the config's logging.level (itself `info` by default). */
    logLevel: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).optional(),
  })
  .strict();

export type KafkaConnectionConfig = z.infer<typeof kafkaConnectionSchema>;
export type ConsumerSettings = z.infer<typeof consumerSchema>;
export type InputTopic = z.infer<typeof inputTopicSchema>;

export interface ConsumerConfig {
  kafka: KafkaConnectionConfig;
  consumer: ConsumerSettings & {
    groupId: string;
    transactionalId: string;
    logLevel: NonNullable<ConsumerSettings['logLevel']>;
  };
  dedup: DedupConfig;
}

/** Environment variables read by the consumers (docs/configuration.md lists each). */
export type Env = Readonly<Record<string, string | undefined>>;

function bool(name: string, value: string): boolean {
  if (/^(1|true|yes|on)$/i.test(value)) return true;
  if (/^(0|false|no|off)$/i.test(value)) return false;
  throw new DoppelError('INVALID_CONFIG', `${name}: expected true or false, not "${value}"`);
}

function int(name: string, value: string): number {
  const n = Number(value);
  if (!Number.isInteger(n))
    throw new DoppelError('INVALID_CONFIG', `${name}: expected an integer, not "${value}"`);
  return n;
}

function list(value: string): string[] {
  return value
    .split(',')
    .map((s) => s.trim())
    .filter((s) => s !== '');
}

/** `news.raw:json,mail.in:mail` (format defaults to json). */
export function parseInputsEnv(value: string): Array<{ topic: string; format: string }> {
  return list(value).map((item) => {
    const colon = item.lastIndexOf(':');
    return colon < 0
      ? { topic: item, format: 'json' }
      : { topic: item.slice(0, colon), format: item.slice(colon + 1) };
  });
}

/** Environment variables as a partial config (only those that are set). */
export function envOverrides(env: Env): {
  kafka: Record<string, unknown>;
  consumer: Record<string, unknown>;
  /** DOPPEL_INPUT_TOPIC named a topic without a format: the profile's default format applies. */
  inputTopicOnly: boolean;
} {
  const kafka: Record<string, unknown> = {};
  const consumer: Record<string, unknown> = {};
  let inputTopicOnly = false;
  const set = (name: string, apply: (value: string) => void) => {
    const value = env[name];
    if (value !== undefined && value !== '') apply(value);
  };
  set('DOPPEL_KAFKA_BROKERS', (v) => {
    kafka.brokers = list(v);
  });
  set('DOPPEL_KAFKA_CLIENT_ID', (v) => {
    kafka.clientId = v;
  });
  const tls: Record<string, unknown> = {};
  set('DOPPEL_KAFKA_TLS', (v) => {
    tls.enabled = bool('DOPPEL_KAFKA_TLS', v);
  });
  set('DOPPEL_KAFKA_TLS_CA_FILE', (v) => {
    tls.caFile = v;
  });
  set('DOPPEL_KAFKA_TLS_CERT_FILE', (v) => {
    tls.certFile = v;
  });
  set('DOPPEL_KAFKA_TLS_KEY_FILE', (v) => {
    tls.keyFile = v;
  });
  set('DOPPEL_KAFKA_TLS_REJECT_UNAUTHORIZED', (v) => {
    tls.rejectUnauthorized = bool('DOPPEL_KAFKA_TLS_REJECT_UNAUTHORIZED', v);
  });
  // The Helm chart's contract (docs/operations.md): a directory with ca.crt, tls.crt, tls.key.
  set('DOPPEL_KAFKA_TLS_DIR', (dir) => {
    tls.enabled = true;
    const file = (name: string) => join(dir, name);
    if (existsSync(file('ca.crt'))) tls.caFile ??= file('ca.crt');
    if (existsSync(file('tls.crt')) && existsSync(file('tls.key'))) {
      tls.certFile ??= file('tls.crt');
      tls.keyFile ??= file('tls.key');
    }
  });
  if (Object.keys(tls).length > 0) kafka.tls = tls;
  if (env.DOPPEL_KAFKA_SASL_MECHANISM) {
    kafka.sasl = {
      mechanism: env.DOPPEL_KAFKA_SASL_MECHANISM.toLowerCase(),
      username: env.DOPPEL_KAFKA_SASL_USERNAME ?? '',
      password: env.DOPPEL_KAFKA_SASL_PASSWORD ?? '',
    };
  }
  set('DOPPEL_PROFILE', (v) => {
    consumer.profile = v;
  });
  set('DOPPEL_GROUP_ID', (v) => {
    consumer.groupId = v;
  });
  // One topic (the Helm chart's DOPPEL_INPUT_TOPIC; the format is the profile's unless given as
  // topic:format) or several (DOPPEL_INPUT_TOPICS, which wins).
  set('DOPPEL_INPUT_TOPIC', (v) => {
    consumer.inputs = parseInputsEnv(v).slice(0, 1);
    inputTopicOnly = !v.includes(':');
  });
  set('DOPPEL_INPUT_TOPICS', (v) => {
    consumer.inputs = parseInputsEnv(v);
    inputTopicOnly = false;
  });
  const topics: Record<string, unknown> = {};
  for (const kind of ['tagged', 'duplicates', 'stories', 'dlq'] as const) {
    set(`DOPPEL_TOPIC_${kind.toUpperCase()}`, (v) => {
      topics[kind] = v;
    });
  }
  if (Object.keys(topics).length > 0) consumer.topics = topics;
  set('DOPPEL_CREATE_TOPICS', (v) => {
    consumer.createTopics = bool('DOPPEL_CREATE_TOPICS', v);
  });
  set('DOPPEL_REDIS_URL', (v) => {
    consumer.redisUrl = v;
  });
  set('DOPPEL_NAMESPACE', (v) => {
    consumer.namespace = v;
  });
  set('DOPPEL_CONCURRENCY', (v) => {
    consumer.concurrency = int('DOPPEL_CONCURRENCY', v);
  });
  set('DOPPEL_SIGN_THREADS', (v) => {
    consumer.signThreads = int('DOPPEL_SIGN_THREADS', v);
  });
  set('DOPPEL_EXACTLY_ONCE', (v) => {
    consumer.exactlyOnce = bool('DOPPEL_EXACTLY_ONCE', v);
  });
  set('DOPPEL_TRANSACTIONAL_ID', (v) => {
    consumer.transactionalId = v;
  });
  set('DOPPEL_LOG_LEVEL', (v) => {
    consumer.logLevel = v;
  });
  return { kafka, consumer, inputTopicOnly };
}

function section(file: unknown, name: string): unknown {
  return file && typeof file === 'object' && Object.hasOwn(file, name)
    ? (file as Record<string, unknown>)[name]
    : {};
}

/**
 * The config from a file (optional) and the environment (wins), validated. `defaults.profile`
 * is the entry point's profile (news or mail); a file or DOPPEL_PROFILE may override it.
 */
export function loadConsumerConfig(
  env: Env,
  defaults: { profile: 'news' | 'mail'; inputs?: Array<{ topic: string; format: string }> },
  fileOverride?: unknown,
): ConsumerConfig {
  const file = fileOverride ?? (env.DOPPEL_CONFIG ? readConfigFile(env.DOPPEL_CONFIG) : {});
  const fromEnv = envOverrides(env);
  const kafka = parseConfig(
    kafkaConnectionSchema,
    deepMerge(section(file, 'kafka'), fromEnv.kafka),
    env.DOPPEL_CONFIG ?? 'kafka config',
  );
  const consumerInput = deepMerge(
    deepMerge(
      { profile: defaults.profile, ...(defaults.inputs ? { inputs: defaults.inputs } : {}) },
      section(file, 'consumer'),
    ),
    fromEnv.consumer,
  );
  const consumer = parseConfig(consumerSchema, consumerInput, env.DOPPEL_CONFIG ?? 'consumer config');
  if (fromEnv.inputTopicOnly && consumer.inputs[0]) {
    consumer.inputs[0].format = consumer.profile === 'mail' ? 'mail' : 'json';
  }
  if (consumer.retryMaxMs < consumer.retryInitialMs) {
    throw new DoppelError('INVALID_CONFIG', 'consumer.retryMaxMs must not be below consumer.retryInitialMs');
  }
  const dedupSections: Record<string, unknown> = {};
  if (file && typeof file === 'object') {
    for (const [key, value] of Object.entries(file)) {
      if (key !== 'kafka' && key !== 'consumer') dedupSections[key] = value;
    }
  }
  dedupSections.profile = consumer.profile;
  if (env.DOPPEL_MODE) dedupSections.mode = env.DOPPEL_MODE;
  const dedup = resolveDedupConfig(consumer.profile, dedupSections, env.DOPPEL_CONFIG ?? 'profile');
  const groupId = consumer.groupId ?? `doppel-${consumer.profile}`;
  return {
    kafka,
    consumer: {
      ...consumer,
      groupId,
      transactionalId: consumer.transactionalId ?? groupId,
      logLevel: consumer.logLevel ?? dedup.logging.level,
    },
    dedup,
  };
}

/** The four output topic names of one input topic. */
export interface OutputTopics {
  tagged: string;
  duplicates: string;
  stories: string;
  dlq: string;
}

export function outputTopics(settings: Pick<ConsumerSettings, 'topics'>, input: string): OutputTopics {
  const fill = (t: string) => t.replaceAll('{input}', input);
  return {
    tagged: fill(settings.topics.tagged),
    duplicates: fill(settings.topics.duplicates),
    stories: fill(settings.topics.stories),
    dlq: fill(settings.topics.dlq),
  };
}
