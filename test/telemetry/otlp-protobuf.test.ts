import { afterAll, expect, it } from 'vitest';
import { telemetrySchema } from '../../src/config/ops.js';
import { startTelemetry } from '../../src/telemetry/sdk.js';
import { withSpan } from '../../src/telemetry/trace.js';
import { OtlpReceiver } from '../support/otlp-receiver.js';

// The default protocol (http/protobuf, what collectors expect) in its own process. Protobuf
// strings are their UTF-8 bytes, so names are found in the body without a decoder.
const receiver = new OtlpReceiver();
afterAll(() => receiver.stop());

it('exports over OTLP/HTTP protobuf with the endpoint taken from OTEL_EXPORTER_OTLP_ENDPOINT', async () => {
  const endpoint = await receiver.start();
  const telemetry = startTelemetry(telemetrySchema.parse({ metricExportIntervalMs: 60_000 }), {
    OTEL_EXPORTER_OTLP_ENDPOINT: `${endpoint}/`,
  });
  expect(telemetry.otlpEndpoint).toBe(endpoint);
  await withSpan('doppel.batch', () => undefined);
  telemetry.metrics.recordInvalid('mail', 'INVALID_MAIL');
  await telemetry.flush();
  await telemetry.shutdown();
  const traces = receiver.requests.filter((r) => r.path === '/v1/traces');
  const metrics = receiver.requests.filter((r) => r.path === '/v1/metrics');
  expect(traces[0]?.contentType).toBe('application/x-protobuf');
  expect(traces.some((r) => r.body.includes('doppel.batch'))).toBe(true);
  expect(metrics[0]?.contentType).toBe('application/x-protobuf');
  expect(
    metrics.some((r) => r.body.includes('doppel_invalid_inputs') && r.body.includes('INVALID_MAIL')),
  ).toBe(true);
});
