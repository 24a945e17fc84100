import { createRequire } from 'node:module';
import { type Meter, metrics, type Tracer, trace } from '@opentelemetry/api';
import { W3CTraceContextPropagator } from '@opentelemetry/core';
import { OTLPMetricExporter as OTLPMetricJsonExporter } from '@opentelemetry/exporter-metrics-otlp-http';
import { OTLPMetricExporter as OTLPMetricProtoExporter } from '@opentelemetry/exporter-metrics-otlp-proto';
import { PrometheusExporter } from '@opentelemetry/exporter-prometheus';
import { OTLPTraceExporter as OTLPTraceJsonExporter } from '@opentelemetry/exporter-trace-otlp-http';
import { OTLPTraceExporter as OTLPTraceProtoExporter } from '@opentelemetry/exporter-trace-otlp-proto';
import { HostMetrics } from '@opentelemetry/host-metrics';
import { HttpInstrumentation } from '@opentelemetry/instrumentation-http';
import { RuntimeNodeInstrumentation } from '@opentelemetry/instrumentation-runtime-node';
import { resourceFromAttributes } from '@opentelemetry/resources';
import { type IMetricReader, PeriodicExportingMetricReader } from '@opentelemetry/sdk-metrics';
import { NodeSDK } from '@opentelemetry/sdk-node';
import {
  BatchSpanProcessor,
  ParentBasedSampler,
  type SpanProcessor,
  TraceIdRatioBasedSampler,
} from '@opentelemetry/sdk-trace-base';
import type { TelemetryConfig } from '../config/ops.js';
import { DoppelError } from '../errors.js';
import { redactUrl } from '../redact.js';
import { DoppelMetrics } from './metrics.js';
import { INSTRUMENTATION_SCOPE } from './scope.js';
import { setTracingActive } from './trace.js';

/** What the process gets from `startTelemetry`: the instruments, the scrape handler, shutdown. */
export interface Telemetry {
  readonly metrics: DoppelMetrics;
  readonly tracer: Tracer;
  /** Renders the Prometheus text format (served at /metrics by the ops server and the API). */
  readonly prometheus: PrometheusExporter;
  /** The OTLP endpoint in use, or null. */
  readonly otlpEndpoint: string | null;
  /** Pushes what is buffered (spans, metrics) to the OTLP endpoint now. */
  flush(): Promise<void>;
  /** Flushes and stops; the process should exit after it. */
  shutdown(): Promise<void>;
}

let current: Telemetry | null = null;

/**
 * Sets up the OpenTelemetry SDK once per process: a Prometheus reader (rendered on demand by the
 * caller's HTTP server, so there is one port per pod, not two), and OTLP/HTTP trace and metric
 * exporters when an endpoint is configured (config, else OTEL_EXPORTER_OTLP_ENDPOINT). Nothing
 * is read from the other OTEL_* variables: the config file is the one source, validated once.
 * A second call returns the first call's telemetry (one SDK, one set of instruments).
 */
export function startTelemetry(
  config: TelemetryConfig,
  env: NodeJS.ProcessEnv = process.env,
  profile = 'none',
): Telemetry {
  if (current) return current;
  const endpoint = resolveEndpoint(config.otlpEndpoint ?? env.OTEL_EXPORTER_OTLP_ENDPOINT ?? null);
  const prometheus = new PrometheusExporter({ preventServerStart: true, withoutScopeInfo: true });
  const readers: IMetricReader[] = [prometheus];
  const spanProcessors: SpanProcessor[] = [];
  let metricReader: PeriodicExportingMetricReader | null = null;
  if (endpoint) {
    const json = config.otlpProtocol === 'http/json';
    const traces = { url: `${endpoint}/v1/traces` };
    const metricOptions = { url: `${endpoint}/v1/metrics` };
    spanProcessors.push(
      new BatchSpanProcessor(json ? new OTLPTraceJsonExporter(traces) : new OTLPTraceProtoExporter(traces)),
    );
    metricReader = new PeriodicExportingMetricReader({
      exporter: json ? new OTLPMetricJsonExporter(metricOptions) : new OTLPMetricProtoExporter(metricOptions),
      exportIntervalMillis: config.metricExportIntervalMs,
      exportTimeoutMillis: Math.min(config.metricExportIntervalMs, 30_000),
    });
    readers.push(metricReader);
  }
  const sdk = new NodeSDK({
    resource: resourceFromAttributes({ 'service.name': config.serviceName, 'doppel.profile': profile }),
    autoDetectResources: false,
    // Explicit (possibly empty) lists: the SDK would otherwise build exporters from OTEL_* variables.
    spanProcessors,
    metricReaders: readers,
    logRecordProcessors: [],
    instrumentations: [httpInstrumentation(), new RuntimeNodeInstrumentation({ monitoringPrecision: 5_000 })],
    sampler: new ParentBasedSampler({ root: new TraceIdRatioBasedSampler(config.traceSampleRatio) }),
    textMapPropagator: new W3CTraceContextPropagator(),
  });
  sdk.start();
  // The HTTP instrumentation patches node:http when it is required after start; this process
  // imported it (as ESM) before, so it is required once more here to apply the patch.
  createRequire(import.meta.url)('http');
  // Process CPU and memory (process.cpu.time, process.memory.usage), beside the runtime's
  // event-loop, heap and GC metrics from RuntimeNodeInstrumentation.
  new HostMetrics({ name: INSTRUMENTATION_SCOPE, metricGroups: ['process.cpu', 'process.memory'] }).start();
  // Per-message trace work (links, trace headers) only when the spans go somewhere.
  setTracingActive(endpoint !== null);
  const meter: Meter = metrics.getMeter(INSTRUMENTATION_SCOPE);
  const telemetry: Telemetry = {
    metrics: new DoppelMetrics(meter),
    tracer: trace.getTracer(INSTRUMENTATION_SCOPE),
    prometheus,
    otlpEndpoint: endpoint,
    async flush() {
      await Promise.all([...spanProcessors.map((p) => p.forceFlush()), metricReader?.forceFlush()]);
    },
    async shutdown() {
      setTracingActive(false);
      await sdk.shutdown();
      current = null;
    },
  };
  current = telemetry;
  return telemetry;
}

/** Paths probed every few seconds by Kubernetes and Prometheus: neither traced nor timed. */
const PROBE_PATHS = new Set(['/healthz', '/readyz', '/metrics']);

/**
 * Server spans and the http.server.request.duration histogram of the OpenTelemetry HTTP semantic
 * conventions for every listener (the API, the consumers' ops port); an incoming `traceparent`
 * becomes the span's parent. Outgoing requests are not instrumented: the only ones are the OTLP
 * exporters' own.
 */
function httpInstrumentation(): HttpInstrumentation {
  return new HttpInstrumentation({
    disableOutgoingRequestInstrumentation: true,
    ignoreIncomingRequestHook: (req) => PROBE_PATHS.has((req.url ?? '').split('?')[0] ?? ''),
  });
}

/** The telemetry started in this process, if any (the engine adapters record through it). */
export function currentTelemetry(): Telemetry | null {
  return current;
}

function resolveEndpoint(value: string | null): string | null {
  if (value === null || value.trim() === '') return null;
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw new DoppelError('INVALID_CONFIG', `telemetry.otlpEndpoint is not a URL: ${redactUrl(value)}`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:')
    throw new DoppelError('INVALID_CONFIG', `telemetry.otlpEndpoint must be http(s): ${redactUrl(value)}`);
  return value.replace(/\/+$/, '');
}
