/**
 * Telemetry for every doppel process. A consumer wires it like this (the API does the same in
 * src/cli/serve.ts):
 *
 *   const telemetry = startTelemetry(config.telemetry, process.env, config.profile);   // once
 *   const logger = createLogger(config.logging, { name: `doppel-${config.profile}` });
 *   const engine = new DedupEngine(config, instrumentStore(store, telemetry.metrics));
 *   const ops = new OpsServer({ prometheus: telemetry.prometheus });
 *   ops.addReadinessCheck('kafka', () => consumerIsRunning);
 *   ops.addReadinessCheck('redis', async () => { await store.resolveCluster('readyz'); return true; });
 *   await ops.listen(Number(process.env.DOPPEL_METRICS_PORT ?? config.telemetry.metricsPort));
 *
 *   // per batch: DoppelConsumer (src/kafka/consumer.ts, tracing.ts) runs it under a
 *   // `doppel.batch` span linked to each message's traceparent (when tracingActive()), with
 *   // `decode`, `signatures`, `store.*` (instrumentStore) and `produce` children, and writes the
 *   // batch span's traceparent into every output's headers (stampTraceContext).
 *   telemetry.metrics.recordVerdicts(profile, verdicts, seconds);   // onBatchEnd hook
 *   telemetry.metrics.recordInvalid(profile, error.code);            // per invalid input
 *   telemetry.metrics.setConsumerLag(topic, partition, highWatermark - committedOffset, groupId);
 *   // on SIGTERM: await ops.close(); await telemetry.shutdown();
 */
export { instrumentStore } from './instrument.js';
export { createLogger, type Logger, maskEmails, REDACTED, redactPaths } from './log.js';
export { DoppelMetrics, METRIC_NAMES } from './metrics.js';
export { OpsServer, type ReadinessCheck } from './ops-server.js';
export { currentTelemetry, startTelemetry, type Telemetry } from './sdk.js';
export {
  extractTraceContext,
  injectTraceHeaders,
  type KafkaHeaders,
  recordSpanError,
  type SpanOptions,
  tracingActive,
  withSpan,
} from './trace.js';
