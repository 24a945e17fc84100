import {
  type Attributes,
  type Context,
  context,
  type Span,
  SpanStatusCode,
  type TextMapGetter,
  type TextMapSetter,
  trace,
} from '@opentelemetry/api';
import { W3CTraceContextPropagator } from '@opentelemetry/core';
import { INSTRUMENTATION_SCOPE } from './scope.js';

/** The kafkajs header shape: `IHeaders` values are Buffers (consumed) or strings (produced). */
export type KafkaHeaders = Record<string, Buffer | string | (Buffer | string)[] | undefined>;

/**
 * W3C trace context (traceparent, tracestate) in Kafka headers. The propagator is a fixed W3C one,
 * not the global: the headers stay W3C whatever else the process registers, and the helpers work
 * before (or without) startTelemetry.
 */
const w3c = new W3CTraceContextPropagator();

const getter: TextMapGetter<KafkaHeaders> = {
  keys: (carrier) => Object.keys(carrier),
  get: (carrier, key) => {
    // Kafka header names are case-sensitive; W3C names are lower-case, producers may differ.
    const found = Object.keys(carrier).find((k) => k.toLowerCase() === key);
    const value = found === undefined ? undefined : carrier[found];
    const first = Array.isArray(value) ? value[0] : value;
    return first === undefined ? undefined : first.toString();
  },
};

const setter: TextMapSetter<KafkaHeaders> = {
  set: (carrier, key, value) => {
    carrier[key] = value;
  },
};

/**
 * Writes `traceparent` (and `tracestate`) of `ctx` (default: the active context) into `headers`,
 * so the next service continues the trace. Returns the same object. Nothing is written when
 * there is no valid span context.
 */
export function injectTraceHeaders<H extends KafkaHeaders>(headers: H, ctx: Context = context.active()): H {
  w3c.inject(ctx, headers, setter);
  return headers;
}

/** The context carried by a message's headers (the root context with nothing in them). */
export function extractTraceContext(
  headers: KafkaHeaders | undefined,
  base: Context = context.active(),
): Context {
  if (!headers) return base;
  return w3c.extract(base, headers, getter);
}

export interface SpanOptions {
  attributes?: Attributes;
  /** Parent context (e.g. extractTraceContext of a message); default: the active context. */
  parent?: Context;
}

/**
 * Runs `fn` in a new active span: children started inside nest under it. A thrown error is
 * recorded on the span (status ERROR) and rethrown. Spans are no-ops until startTelemetry
 * registers a tracer with an exporter, so hot paths may call this freely.
 */
export async function withSpan<T>(
  name: string,
  fn: (span: Span) => Promise<T> | T,
  options: SpanOptions = {},
): Promise<T> {
  const tracer = trace.getTracer(INSTRUMENTATION_SCOPE);
  const parent = options.parent ?? context.active();
  const spanOptions = options.attributes ? { attributes: options.attributes } : {};
  return tracer.startActiveSpan(name, spanOptions, parent, async (span) => {
    try {
      return await fn(span);
    } catch (error) {
      span.recordException(error instanceof Error ? error : String(error));
      span.setStatus({
        code: SpanStatusCode.ERROR,
        message: error instanceof Error ? error.message : String(error),
      });
      throw error;
    } finally {
      span.end();
    }
  });
}
