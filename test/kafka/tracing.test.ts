import { randomBytes } from 'node:crypto';
import { pino } from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { telemetrySchema } from '../../src/config/ops.js';
import { DoppelError } from '../../src/errors.js';
import { DoppelConsumer } from '../../src/kafka/consumer.js';
import { instrumentStore } from '../../src/telemetry/instrument.js';
import { startTelemetry, type Telemetry } from '../../src/telemetry/sdk.js';
import { tracingActive, withSpan } from '../../src/telemetry/trace.js';
import {
  type ReadMessage,
  readTopic,
  testConsumerConfig,
  testKafka,
  uniqueName,
  waitFor,
  waitForCommitted,
} from '../support/kafka.js';
import { knownStream } from '../support/kafka-stream.js';
import { OtlpReceiver } from '../support/otlp-receiver.js';
import { uniqueNamespace } from '../support/redis.js';

// Its own file: startTelemetry is once per process (vitest forks one process per file). The SDK
// exports OTLP/HTTP JSON to a local receiver; Kafka and Redis are the run's real servers.
const receiver = new OtlpReceiver();
let telemetry: Telemetry;
let activeBeforeStart = true;

interface JsonValue {
  stringValue?: string;
  intValue?: number | string;
  boolValue?: boolean;
}
interface JsonAttribute {
  key: string;
  value: JsonValue;
}
interface JsonSpan {
  name: string;
  traceId: string;
  spanId: string;
  parentSpanId?: string;
  kind: number;
  attributes: JsonAttribute[];
  links?: Array<{ traceId: string; spanId: string; traceState?: string; attributes: JsonAttribute[] }>;
  events?: Array<{ name: string; attributes: JsonAttribute[] }>;
  status?: { code?: number; message?: string };
}

function spansOf(bodies: unknown[]): JsonSpan[] {
  const out: JsonSpan[] = [];
  for (const b of bodies as Array<{ resourceSpans: Array<{ scopeSpans: Array<{ spans: JsonSpan[] }> }> }>)
    for (const rs of b.resourceSpans) for (const ss of rs.scopeSpans) out.push(...ss.spans);
  return out;
}

function attr(attributes: JsonAttribute[] | undefined, key: string): string | undefined {
  const v = attributes?.find((a) => a.key === key)?.value;
  if (!v) return undefined;
  return String(v.stringValue ?? v.intValue ?? v.boolValue);
}

/** A W3C traceparent as an upstream producer would write it (sampled). */
function traceparent(): { header: string; traceId: string; spanId: string } {
  const traceId = randomBytes(16).toString('hex');
  const spanId = randomBytes(8).toString('hex');
  return { header: `00-${traceId}-${spanId}-01`, traceId, spanId };
}

const TRACEPARENT = /^00-([0-9a-f]{32})-([0-9a-f]{16})-0[01]$/;

beforeAll(async () => {
  activeBeforeStart = tracingActive();
  const endpoint = await receiver.start();
  telemetry = startTelemetry(
    telemetrySchema.parse({
      otlpEndpoint: endpoint,
      otlpProtocol: 'http/json',
      traceSampleRatio: 1,
      metricExportIntervalMs: 60_000,
    }),
    {},
    'news',
  );
});

afterAll(async () => {
  await telemetry.shutdown();
  await receiver.stop();
});

describe('traces of the Kafka consumer (real broker, Redis, OTLP receiver)', () => {
  it('per-message trace work is off until an SDK exports traces', () => {
    expect(activeBeforeStart).toBe(false);
    expect(tracingActive()).toBe(true);
  });

  it('a failing span has status ERROR, an exception event and the error code', async () => {
    await expect(
      withSpan('failing-store', () => Promise.reject(new DoppelError('STORE_UNAVAILABLE', 'redis down'))),
    ).rejects.toThrow('redis down');
    await telemetry.flush();
    const span = spansOf(receiver.json('/v1/traces')).find((s) => s.name === 'failing-store');
    expect(span?.status?.code).toBe(2);
    expect(attr(span?.attributes, 'doppel.error.code')).toBe('STORE_UNAVAILABLE');
    expect(attr(span?.attributes, 'error.type')).toBe('STORE_UNAVAILABLE');
    const event = span?.events?.find((e) => e.name === 'exception');
    expect(attr(event?.attributes, 'exception.message')).toBe('redis down');
  });

  it('a batch span links to every input trace, has the stage spans as children, and outputs continue its trace', async () => {
    const input = uniqueName('traced');
    const group = uniqueName('group');
    const config = testConsumerConfig({
      consumer: {
        inputs: [{ topic: input, format: 'json' }],
        groupId: group,
        transactionalId: `${group}-tx`,
        namespace: uniqueNamespace('trace'),
        retryInitialMs: 100,
        retryMaxMs: 1_000,
      },
    });
    const consumer = new DoppelConsumer({
      config,
      logger: pino({ level: 'silent' }),
      wrapStore: (store) => instrumentStore(store, telemetry.metrics),
    });
    const kafka = testKafka();
    const admin = kafka.admin();
    await admin.connect();
    try {
      await consumer.start();
      await waitFor(() => consumer.ready(), 30_000, 'group join');

      // Three originals and a bad record with upstream trace context (one with tracestate), and
      // one message with no trace headers at all; all on partition 0.
      const originals = knownStream({ originals: 4, prefix: input }).phase1;
      const traced = [0, 1, 2].map(() => traceparent());
      const bad = traceparent();
      const producer = kafka.producer();
      await producer.connect();
      await producer.send({
        topic: input,
        acks: -1,
        messages: [
          ...traced.map((t, i) => ({
            partition: 0,
            value: originals[i]?.value as string,
            headers:
              i === 0
                ? { traceparent: t.header, tracestate: 'upstream=abc' }
                : { traceparent: Buffer.from(t.header) },
          })),
          { partition: 0, value: '{ not json', headers: { traceparent: bad.header, other: 'kept' } },
          { partition: 0, value: originals[3]?.value as string },
        ],
      });
      await producer.disconnect();
      await waitForCommitted(admin, group, input);

      const tagged = await readTopic(kafka, `${input}.tagged`, { atLeast: 4 });
      const dlq = await readTopic(kafka, `${input}.dlq`, { atLeast: 1 });
      const stories = await readTopic(kafka, `${input}.stories`, { settleMs: 300 });
      await telemetry.flush();
      const spans = spansOf(receiver.json('/v1/traces'));
      const batches = spans.filter(
        (s) => s.name === 'doppel.batch' && attr(s.attributes, 'messaging.destination.name') === input,
      );
      expect(batches.length).toBeGreaterThan(0);

      // (a) + (b): each upstream trace is linked from a batch span whose children are the stages.
      for (const [i, t] of [...traced, bad].entries()) {
        const batch = batches.find((b) => b.links?.some((l) => l.traceId === t.traceId));
        expect(batch, `a batch span links to input ${i}`).toBeDefined();
        const link = batch?.links?.find((l) => l.traceId === t.traceId);
        expect(link?.spanId).toBe(t.spanId);
        if (i === 0) expect(link?.traceState).toBe('upstream=abc');
        // A new trace per batch: the links, not the parent, lead upstream.
        expect(batch?.traceId).not.toBe(t.traceId);
        expect(batch?.parentSpanId ?? '').toBe('');
        expect(batch?.kind).toBe(5); // SPAN_KIND_CONSUMER
        expect(attr(batch?.attributes, 'messaging.destination.partition.id')).toBe('0');
        expect(attr(batch?.attributes, 'doppel.profile')).toBe('news');
        expect(attr(batch?.attributes, 'messaging.consumer.group.name')).toBe(group);
        const size = Number(attr(batch?.attributes, 'messaging.batch.message_count'));
        const first = Number(attr(batch?.attributes, 'doppel.batch.first_offset'));
        const last = Number(attr(batch?.attributes, 'doppel.batch.last_offset'));
        expect(last - first + 1).toBe(size);
        const stages =
          i === 3 ? ['decode', 'signatures', 'produce'] : ['decode', 'signatures', 'store.index', 'produce'];
        for (const name of stages) {
          const child = spans.find((s) => s.name === name && s.parentSpanId === batch?.spanId);
          expect(child, `${name} under the batch of input ${i}`).toBeDefined();
          expect(child?.traceId).toBe(batch?.traceId);
        }
      }
      // The message without trace headers adds no link.
      const linked = new Set(batches.flatMap((b) => (b.links ?? []).map((l) => l.traceId)));
      expect(linked).toEqual(new Set([...traced, bad].map((t) => t.traceId)));

      // (c): every output carries the trace context of the batch that processed its input.
      const batchOf = (m: ReadMessage): JsonSpan | undefined => {
        const offset = Number(m.headers['doppel-source-offset']);
        return batches.find(
          (b) =>
            Number(attr(b.attributes, 'doppel.batch.first_offset')) <= offset &&
            offset <= Number(attr(b.attributes, 'doppel.batch.last_offset')),
        );
      };
      expect(tagged).toHaveLength(4);
      expect(dlq).toHaveLength(1);
      for (const m of [...tagged, ...dlq]) {
        const batch = batchOf(m);
        expect(batch, `batch of offset ${m.headers['doppel-source-offset']}`).toBeDefined();
        const match = TRACEPARENT.exec(m.headers.traceparent ?? '');
        expect(match, `traceparent of ${m.headers['doppel-id']}`).not.toBeNull();
        expect(match?.[1]).toBe(batch?.traceId);
        expect(match?.[2]).toBe(batch?.spanId);
        // The doppel headers are still there.
        expect(m.headers['doppel-verdict']).toBeDefined();
        expect(m.headers['doppel-source-topic']).toBe(input);
      }
      expect(dlq[0]?.headers['doppel-error-code']).toBe('INVALID_JSON');
      // The bad record's dead letter continues the batch's trace, not the upstream one.
      expect(TRACEPARENT.exec(dlq[0]?.headers.traceparent ?? '')?.[1]).not.toBe(bad.traceId);
      const batchTraces = new Set(batches.map((b) => b.traceId));
      for (const m of stories) {
        expect(batchTraces.has(TRACEPARENT.exec(m.headers.traceparent ?? '')?.[1] ?? '')).toBe(true);
      }
    } finally {
      await consumer.stop();
      await admin.disconnect();
    }
  }, 90_000);
});
