import { z } from 'zod';

/**
 * Operations sections of the config file: telemetry, logging and the HTTP API. Every field has a
 * default (docs/configuration.md), so a config file that names none of them is still valid and
 * the embedded CLI pays nothing for them.
 */

export const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] as const;
export type LogLevel = (typeof LOG_LEVELS)[number];

export const telemetrySchema = z
  .object({
    /** `service.name` resource attribute of every span and metric. */
    serviceName: z.string().min(1).max(128).default('doppel'),
    /**
     * OTLP/HTTP collector base URL (e.g. http://otel-collector:4318); traces go to
     * `<endpoint>/v1/traces`, metrics to `<endpoint>/v1/metrics`. Null: no OTLP export. The
     * standard OTEL_EXPORTER_OTLP_ENDPOINT variable fills it when the file leaves it null.
     */
    otlpEndpoint: z.url().nullable().default(null),
    /** OTLP/HTTP body encoding: protobuf (the collector default) or json. */
    otlpProtocol: z.enum(['http/protobuf', 'http/json']).default('http/protobuf'),
    /** How often metrics are pushed over OTLP (ms). */
    metricExportIntervalMs: z.number().int().min(100).max(3_600_000).default(15_000),
    /** Share of batches traced (parent-based: a traced upstream message is always followed). */
    traceSampleRatio: z.number().min(0).max(1).default(1),
    /**
     * Port of the operations server (/healthz, /readyz, /metrics for Prometheus) in the consumers;
     * 0: none. `doppel serve` serves the same paths on its API port. DOPPEL_METRICS_PORT overrides.
     */
    metricsPort: z.number().int().min(0).max(65_535).default(9464),
  })
  .strict();

export const loggingSchema = z
  .object({
    /** pino level. DOPPEL_LOG_LEVEL overrides. */
    level: z.enum(LOG_LEVELS).default('info'),
    /**
     * Extra pino redaction paths (beside the built-in message text, subject and mail address
     * fields, which are always redacted).
     */
    redact: z.array(z.string().min(1)).default([]),
  })
  .strict();

export const apiSchema = z
  .object({
    /**
     * `doppel serve` listens here (--port and --host override). Loopback by default: the API has
     * no authentication unless DOPPEL_API_TOKEN(_FILE) is set, so listening on every interface is
     * a choice (`--host 0.0.0.0`, as the Helm chart does).
     */
    port: z.number().int().min(0).max(65_535).default(8080),
    host: z.string().min(1).default('127.0.0.1'),
    /** Largest accepted request body; a larger one gets 413 TOO_LARGE before it is parsed. */
    bodyLimitBytes: z
      .number()
      .int()
      .min(1024)
      .max(64 * 1024 * 1024)
      .default(1024 * 1024),
    /**
     * Most messages one POST /v1/messages or /v1/check batch (a JSON array or NDJSON lines) may
     * hold; a larger batch gets 413 TOO_LARGE. The body limit applies as well.
     */
    maxBatchItems: z.number().int().min(1).max(100_000).default(1000),
    /** Cluster members per page of GET /v1/clusters/:id (the `limit` query parameter, at most this). */
    maxPageSize: z.number().int().min(1).max(10_000).default(100),
    /**
     * A request whose headers and body have not all arrived after this gets 408 REQUEST_TIMEOUT;
     * one whose answer is not ready after this gets 503 TIMEOUT. Either way its connection is
     * closed (ms).
     */
    requestTimeoutMs: z.number().int().min(100).max(600_000).default(30_000),
    /** Headers not complete after this: 408 and the connection closed (at most requestTimeoutMs). */
    headersTimeoutMs: z.number().int().min(100).max(600_000).default(10_000),
    /**
     * One `info` log line per answered request (method, route, status, duration, trace id), not
     * for /healthz, /readyz and /metrics. Off by default: a busy API logs a line per message.
     */
    accessLog: z.boolean().default(false),
  })
  .strict();

export type TelemetryConfig = z.infer<typeof telemetrySchema>;
export type LoggingConfig = z.infer<typeof loggingSchema>;
export type ApiConfig = z.infer<typeof apiSchema>;
