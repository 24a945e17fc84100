import { trace } from '@opentelemetry/api';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { telemetrySchema } from '../../src/config/ops.js';
import type { EngineVerdict } from '../../src/engine/engine.js';
import { MemoryStore } from '../../src/store/memory/store.js';
import { instrumentStore } from '../../src/telemetry/instrument.js';
import { OpsServer } from '../../src/telemetry/ops-server.js';
import { startTelemetry, type Telemetry } from '../../src/telemetry/sdk.js';
import { extractTraceContext, injectTraceHeaders, withSpan } from '../../src/telemetry/trace.js';
import { OtlpReceiver } from '../support/otlp-receiver.js';

// One SDK per process (vitest runs each file in its own fork): OTLP/HTTP JSON to a local receiver.
const receiver = new OtlpReceiver();
let telemetry: Telemetry;
const ops = new OpsServer();
let opsUrl = '';

function verdict(v: Partial<EngineVerdict> & Pick<EngineVerdict, 'id' | 'verdict'>): EngineVerdict {
  return { clusterId: v.id, events: [], candidates: 0, hotBuckets: 0, ...v };
}

interface JsonSpan {
  name: string;
  traceId: string;
  spanId: string;
  parentSpanId?: string;
}
interface JsonPoint {
  asInt?: number | string;
  asDouble?: number;
  count?: number | string;
  sum?: number;
  attributes: Array<{ key: string; value: { stringValue?: string; intValue?: number | string } }>;
}
interface JsonMetric {
  name: string;
  sum?: { dataPoints: JsonPoint[] };
  histogram?: { dataPoints: JsonPoint[] };
  gauge?: { dataPoints: JsonPoint[] };
}

function spansOf(bodies: unknown[]): JsonSpan[] {
  const out: JsonSpan[] = [];
  for (const b of bodies as Array<{ resourceSpans: Array<{ scopeSpans: Array<{ spans: JsonSpan[] }> }> }>)
    for (const rs of b.resourceSpans) for (const ss of rs.scopeSpans) out.push(...ss.spans);
  return out;
}

function metricsOf(bodies: unknown[]): JsonMetric[] {
  const out: JsonMetric[] = [];
  for (const b of bodies as Array<{
    resourceMetrics: Array<{ scopeMetrics: Array<{ metrics: JsonMetric[] }> }>;
  }>)
    for (const rm of b.resourceMetrics) for (const sm of rm.scopeMetrics) out.push(...sm.metrics);
  return out;
}

function attrs(p: JsonPoint): Record<string, string> {
  return Object.fromEntries(
    p.attributes.map((a) => [a.key, String(a.value.stringValue ?? a.value.intValue)]),
  );
}

beforeAll(async () => {
  const endpoint = await receiver.start();
  telemetry = startTelemetry(
    telemetrySchema.parse({
      otlpEndpoint: endpoint,
      otlpProtocol: 'http/json',
      metricExportIntervalMs: 60_000,
    }),
    {},
    'news',
  );
  const o = new OpsServer({ prometheus: telemetry.prometheus });
  Object.assign(ops, o);
  const port = await ops.listen(0, '127.0.0.1');
  opsUrl = `http://127.0.0.1:${port}`;
});

afterAll(async () => {
  await ops.close();
  await telemetry.shutdown();
  await receiver.stop();
});

describe('telemetry', () => {
  it('startTelemetry is set up once: a second call returns the same instance', () => {
    expect(startTelemetry(telemetrySchema.parse({}))).toBe(telemetry);
    expect(telemetry.otlpEndpoint).toBe(receiver.url);
  });

  it('W3C trace context round-trips through Kafka-style headers (Buffer values)', async () => {
    const headers: Record<string, Buffer | string | undefined> = {};
    let traceId = '';
    await withSpan('produce', (span) => {
      traceId = span.spanContext().traceId;
      injectTraceHeaders(headers);
    });
    expect(String(headers.traceparent)).toMatch(new RegExp(`^00-${traceId}-[0-9a-f]{16}-01$`));
    // A consumer sees Buffers; a child span continues the same trace under the producer's span.
    const consumed = { traceparent: Buffer.from(String(headers.traceparent)), other: undefined };
    const ctx = extractTraceContext(consumed);
    expect(trace.getSpanContext(ctx)?.traceId).toBe(traceId);
    let childTrace = '';
    await withSpan(
      'batch',
      (span) => {
        childTrace = span.spanContext().traceId;
      },
      { parent: ctx },
    );
    expect(childTrace).toBe(traceId);
    // Without trace headers nothing is extracted.
    expect(trace.getSpanContext(extractTraceContext({ other: Buffer.from('x') }))).toBeUndefined();
  });

  it('exports spans and metrics over OTLP/HTTP JSON to a local receiver', async () => {
    const store = instrumentStore(
      new MemoryStore(
        { windowMs: 1e9, generationMs: 1e6, maxMessages: 0 },
        { maxBucketSize: 8, maxCandidates: 4 },
      ),
      telemetry.metrics,
    );
    await withSpan('doppel.batch', async () => {
      await withSpan('decode', () => undefined);
      await store.index([]);
    });
    await expect(withSpan('failing', () => Promise.reject(new Error('boom')))).rejects.toThrow('boom');
    telemetry.metrics.recordVerdicts(
      'news',
      [
        verdict({
          id: 'a',
          verdict: 'unique',
          candidates: 3,
          events: [
            {
              type: 'created',
              clusterId: 'a',
              messageId: 'a',
              size: 1,
              firstSeen: 0,
              lastSeen: 0,
              representative: 'a',
            },
          ],
        }),
        verdict({ id: 'b', verdict: 'near_duplicate', duplicateOf: 'a', candidates: 1, hotBuckets: 2 }),
        verdict({ id: 'c', verdict: 'unique' }),
      ],
      0.004,
    );
    telemetry.metrics.recordInvalid('news', 'EMPTY_TEXT');
    telemetry.metrics.setConsumerLag('news.in', 3, 42);
    await telemetry.flush();

    const spans = spansOf(receiver.json('/v1/traces'));
    const batch = spans.find((s) => s.name === 'doppel.batch');
    expect(batch).toBeDefined();
    for (const child of ['decode', 'store.index']) {
      const span = spans.find((s) => s.name === child);
      expect(span?.parentSpanId).toBe(batch?.spanId);
      expect(span?.traceId).toBe(batch?.traceId);
    }
    expect(spans.map((s) => s.name)).toContain('failing');

    const metrics = metricsOf(receiver.json('/v1/metrics'));
    if (process.env.DEBUG_OTLP) console.log(JSON.stringify(receiver.json('/v1/metrics')).slice(0, 3000));
    const byName = (n: string) => metrics.find((m) => m.name === n);
    const messages = byName('doppel_messages')?.sum?.dataPoints ?? [];
    const count = (verdictName: string) =>
      Number(
        messages.find((p) => attrs(p).verdict === verdictName && attrs(p).profile === 'news')?.asInt ?? 0,
      );
    expect(count('unique')).toBe(2);
    expect(count('near_duplicate')).toBe(1);
    expect(count('invalid')).toBe(1);
    const invalid = byName('doppel_invalid_inputs')?.sum?.dataPoints[0];
    expect(invalid && attrs(invalid)).toEqual({ code: 'EMPTY_TEXT', profile: 'news' });
    expect(Number(byName('doppel_hot_buckets')?.sum?.dataPoints[0]?.asInt)).toBe(2);
    expect(Number(byName('doppel_clusters_created')?.sum?.dataPoints[0]?.asInt)).toBe(1);
    const decision = byName('doppel_decision_duration_seconds')?.histogram?.dataPoints[0];
    expect(Number(decision?.count)).toBe(3);
    expect(decision?.sum).toBeCloseTo(0.012, 6);
    const candidates = byName('doppel_candidates')?.histogram?.dataPoints[0];
    expect(Number(candidates?.count)).toBe(3);
    expect(candidates?.sum).toBe(4);
    const store1 = byName('doppel_store_round_trip_seconds')?.histogram?.dataPoints[0];
    expect(store1 && attrs(store1)).toEqual({ store: 'memory', op: 'index' });
    const lag = byName('doppel_consumer_lag')?.gauge?.dataPoints[0];
    expect(Number(lag?.asInt ?? lag?.asDouble)).toBe(42);
  });

  it('serves the same metrics in Prometheus text at /metrics over HTTP', async () => {
    telemetry.metrics.recordVerdicts(
      'mail',
      [verdict({ id: 'm1', verdict: 'duplicate', duplicateOf: 'm0' })],
      0.002,
    );
    const res = await fetch(`${opsUrl}/metrics`);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toContain('text/plain');
    const text = await res.text();
    const line = (re: RegExp) => text.split('\n').find((l) => re.test(l));
    expect(line(/^doppel_messages_total\{.*verdict="duplicate".*profile="mail".*\} 1$/)).toBeDefined();
    expect(line(/^doppel_messages_total\{.*verdict="unique".*profile="news".*\} 2$/)).toBeDefined();
    expect(line(/^doppel_invalid_inputs_total\{.*code="EMPTY_TEXT".*\} 1$/)).toBeDefined();
    expect(
      line(/^doppel_decision_duration_seconds_bucket\{.*profile="mail".*le="0.0025"\} 1$/),
    ).toBeDefined();
    expect(line(/^doppel_consumer_lag\{.*topic="news.in".*\} 42$/)).toBeDefined();
    expect(text).toContain('# TYPE doppel_store_round_trip_seconds histogram');
  });

  it('/healthz is always 200; /readyz is 200 only when every readiness check passes', async () => {
    expect((await fetch(`${opsUrl}/healthz`)).status).toBe(200);
    ops.addReadinessCheck('redis', () => true);
    let res = await fetch(`${opsUrl}/readyz`);
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ status: 'ready', checks: { redis: 'ok' } });
    ops.addReadinessCheck('kafka', () => false);
    ops.addReadinessCheck('consuming', () => Promise.reject(new Error('not joined')));
    res = await fetch(`${opsUrl}/readyz`);
    expect(res.status).toBe(503);
    expect(await res.json()).toEqual({
      status: 'not ready',
      checks: { redis: 'ok', kafka: 'not ready', consuming: 'failed: not joined' },
    });
    ops.removeReadinessCheck('kafka');
    ops.removeReadinessCheck('consuming');
    expect((await fetch(`${opsUrl}/readyz`)).status).toBe(200);
    expect((await fetch(`${opsUrl}/nope`)).status).toBe(404);
    expect((await fetch(`${opsUrl}/healthz`, { method: 'POST' })).status).toBe(405);
  });
});
