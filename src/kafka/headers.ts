import type { EngineVerdict } from '../engine/engine.js';
import type { DoppelError } from '../errors.js';
import type { InputRecord } from './input.js';

/**
 * Kafka headers doppel writes. The payload is passed through untouched; the verdict travels in
 * headers (docs/kafka.md lists them). Header values are UTF-8 strings.
 */
export const HEADER = {
  id: 'doppel-id',
  verdict: 'doppel-verdict',
  cluster: 'doppel-cluster',
  duplicateOf: 'doppel-duplicate-of',
  similarity: 'doppel-similarity',
  method: 'doppel-method',
  evidence: 'doppel-evidence',
  replay: 'doppel-replay',
  conflict: 'doppel-conflict',
  warningCode: 'doppel-warning-code',
  warningParts: 'doppel-warning-parts',
  errorCode: 'doppel-error-code',
  errorReason: 'doppel-error-reason',
  errorRetryable: 'doppel-error-retryable',
  sourceTopic: 'doppel-source-topic',
  sourcePartition: 'doppel-source-partition',
  sourceOffset: 'doppel-source-offset',
  sourceTimestamp: 'doppel-source-timestamp',
} as const;

export type Headers = Record<string, string>;

function sourceHeaders(record: InputRecord): Headers {
  return {
    [HEADER.sourceTopic]: record.topic,
    [HEADER.sourcePartition]: String(record.partition),
    [HEADER.sourceOffset]: record.offset,
    [HEADER.sourceTimestamp]: record.timestamp,
  };
}

export function verdictHeaders(verdict: EngineVerdict, record: InputRecord): Headers {
  const h: Headers = {
    [HEADER.id]: verdict.id,
    [HEADER.verdict]: verdict.verdict,
    [HEADER.cluster]: verdict.clusterId,
    ...sourceHeaders(record),
  };
  if (verdict.duplicateOf !== undefined) h[HEADER.duplicateOf] = verdict.duplicateOf;
  if (verdict.similarity !== undefined) h[HEADER.similarity] = String(verdict.similarity);
  if (verdict.method !== undefined) h[HEADER.method] = verdict.method;
  if (verdict.evidence) h[HEADER.evidence] = JSON.stringify(verdict.evidence);
  if (verdict.replay) h[HEADER.replay] = 'true';
  if (verdict.conflict) h[HEADER.conflict] = 'true';
  // The CLI's and the API's `warning` object: a mail judged on its first text parts only.
  if (verdict.truncatedParts !== undefined) {
    h[HEADER.warningCode] = 'MAIL_TRUNCATED';
    h[HEADER.warningParts] = String(verdict.truncatedParts);
  }
  return h;
}

/** Reasons are truncated: a header is not a log (and never carries the message body). */
const MAX_REASON = 512;

export function errorHeaders(error: DoppelError, id: string, record: InputRecord): Headers {
  return {
    [HEADER.id]: id,
    [HEADER.verdict]: 'invalid',
    [HEADER.errorCode]: error.code,
    [HEADER.errorReason]: error.message.slice(0, MAX_REASON),
    [HEADER.errorRetryable]: String(error.retryable),
    ...sourceHeaders(record),
  };
}

/** kafkajs header values (Buffer | string | array) to plain strings; for readers and tests. */
export function readHeaders(headers: Record<string, unknown> | undefined): Headers {
  const out: Headers = {};
  for (const [name, value] of Object.entries(headers ?? {})) {
    const v = Array.isArray(value) ? value[0] : value;
    if (v === undefined || v === null) continue;
    // Defined, not assigned: a header named "__proto__" is a header like any other.
    Object.defineProperty(out, name, {
      value: Buffer.isBuffer(v) ? v.toString('utf8') : String(v),
      enumerable: true,
      writable: true,
      configurable: true,
    });
  }
  return out;
}
