import {
  type Context,
  isSpanContextValid,
  type Link,
  ROOT_CONTEXT,
  type Span,
  SpanKind,
  SpanStatusCode,
  trace,
} from '@opentelemetry/api';
import type { KafkaMessage } from 'kafkajs';
import type { DoppelError } from '../errors.js';
import { extractTraceContext, injectTraceHeaders, type SpanOptions } from '../telemetry/trace.js';
import type { Headers } from './headers.js';
import type { TopicMessages } from './processor.js';

/** The batch attributes the span carries (a subset of BatchInfo, kept here to avoid a cycle). */
export interface TracedBatch {
  topic: string;
  partition: number;
  firstOffset: string;
  lastOffset: string;
  size: number;
}

/**
 * Options of the `doppel.batch` span (kind CONSUMER, messaging attributes). A batch has one
 * parent per message, so, as the OpenTelemetry messaging conventions say for batch receive, the
 * span starts a trace of its own and LINKS to each message's context (W3C `traceparent` /
 * `tracestate` in its headers). Links are only extracted when `withLinks` (tracing exported):
 * per-message work costs nothing when telemetry is off. The SDK keeps at most its link limit
 * (128 by default) per span; the rest are counted as dropped.
 */
export function batchSpanOptions(
  batch: TracedBatch,
  meta: { profile: string; groupId: string },
  messages: readonly Pick<KafkaMessage, 'headers' | 'offset'>[],
  withLinks: boolean,
): SpanOptions {
  const options: SpanOptions = {
    kind: SpanKind.CONSUMER,
    attributes: {
      'messaging.system': 'kafka',
      'messaging.operation.type': 'process',
      'messaging.destination.name': batch.topic,
      'messaging.destination.partition.id': String(batch.partition),
      'messaging.consumer.group.name': meta.groupId,
      'messaging.batch.message_count': batch.size,
      'doppel.profile': meta.profile,
      'doppel.batch.first_offset': Number(batch.firstOffset),
      'doppel.batch.last_offset': Number(batch.lastOffset),
    },
  };
  if (!withLinks) return options;
  const links: Link[] = [];
  for (const message of messages) {
    if (!message.headers) continue;
    const linked = trace.getSpanContext(extractTraceContext(message.headers, ROOT_CONTEXT));
    if (linked && isSpanContextValid(linked))
      links.push({ context: linked, attributes: { 'messaging.kafka.offset': Number(message.offset) } });
  }
  if (links.length > 0) options.links = links;
  return options;
}

/**
 * Writes the W3C trace context of `ctx` (the batch span) into every output's headers (tagged,
 * duplicates, stories, dlq), so a downstream consumer continues the batch's trace and, through
 * its links, reaches each input's trace. The header values are computed once per batch; the
 * doppel-* headers are left as they are. Idempotent (a delivery retry writes the same values).
 */
export function stampTraceContext(outputs: readonly TopicMessages[], ctx: Context): void {
  const carrier = injectTraceHeaders<Headers>({}, ctx);
  if (carrier.traceparent === undefined) return;
  for (const topic of outputs) for (const message of topic.messages) Object.assign(message.headers, carrier);
}

/**
 * A failed attempt of the batch, on the batch span: an `exception` event with the code and the
 * attempt; when it is given up (dead-lettered or left uncommitted), status ERROR and the code.
 * The failing child span (a `store.*` or `produce`) has its own error recorded by withSpan.
 */
export function recordAttempt(span: Span, error: DoppelError, attempt: number, willRetry: boolean): void {
  span.addEvent('exception', {
    'exception.type': error.code,
    'exception.message': error.message,
    'doppel.error.code': error.code,
    'doppel.attempt': attempt,
    'doppel.will_retry': willRetry,
  });
  if (willRetry) return;
  span.setStatus({ code: SpanStatusCode.ERROR, message: error.message });
  span.setAttributes({ 'error.type': error.code, 'doppel.error.code': error.code });
}
