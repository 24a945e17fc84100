import {
  type Attributes,
  type Context,
  context,
  type Link,
  type Span,
  type SpanKind,
  SpanStatusCode,
  type TextMapGetter,
  type TextMapSetter,
  trace,
} from '@opentelemetry/api';
import { getRPCMetadata, RPCType, W3CTraceContextPropagator } from '@opentelemetry/core';
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
  /** Links given at creation (samplers see them): e.g. the messages of a consumed batch. */
  links?: Link[];
  kind?: SpanKind;
}

/**
 * True while startTelemetry runs an SDK that exports traces (an OTLP endpoint is set). Hot paths
 * check it before any per-message trace work (extracting links, writing headers): without an
 * exporter that work would be thrown away, and with the API's no-op tracer it would be wasted.
 */
let exporting = false;

export function tracingActive(): boolean {
  return exporting;
}

/** Called by startTelemetry (true when spans are exported) and its shutdown (false). */
export function setTracingActive(active: boolean): void {
  exporting = active;
}

/** The code of a DoppelError (or any error with a string `code`), for the span's attributes. */
function errorCode(error: unknown): string | undefined {
  const code = (error as { code?: unknown } | null)?.code;
  return typeof code === 'string' ? code : undefined;
}

/**
 * Marks `span` failed: status ERROR, an `exception` event, and the error code as `error.type`
 * (the OpenTelemetry convention) and `doppel.error.code` (the same code as logs and metrics).
 */
export function recordSpanError(span: Span, error: unknown): void {
  span.recordException(error instanceof Error ? error : String(error));
  span.setStatus({
    code: SpanStatusCode.ERROR,
    message: error instanceof Error ? error.message : String(error),
  });
  const code = errorCode(error);
  if (code !== undefined) span.setAttributes({ 'error.type': code, 'doppel.error.code': code });
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
  const { attributes, links, kind } = options;
  const spanOptions = {
    ...(attributes ? { attributes } : {}),
    ...(links ? { links } : {}),
    ...(kind !== undefined ? { kind } : {}),
  };
  return tracer.startActiveSpan(name, spanOptions, parent, async (span) => {
    try {
      return await fn(span);
    } catch (error) {
      recordSpanError(span, error);
      throw error;
    } finally {
      span.end();
    }
  });
}

/**
 * Names the matched route of the HTTP request being handled (`/v1/messages/{id}`): the HTTP
 * instrumentation then sets `http.route` on its server span and metric and names the span
 * `METHOD route`. Nothing happens outside an instrumented request.
 */
export function setHttpRoute(route: string): void {
  const rpc = getRPCMetadata(context.active());
  if (rpc?.type === RPCType.HTTP) rpc.route = route;
}
