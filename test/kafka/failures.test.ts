import type { Kafka } from 'kafkajs';
import { pino } from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DedupStore } from '../../src/engine/types.js';
import { DoppelError } from '../../src/errors.js';
import { initHashing } from '../../src/hash/xxhash.js';
import type { ConsumerConfig } from '../../src/kafka/config.js';
import { DoppelConsumer } from '../../src/kafka/consumer.js';
import { openStore } from '../../src/store/open.js';
import { readTopic, testConsumerConfig, testKafka, uniqueName, waitForCommitted } from '../support/kafka.js';
import { redisUrl, uniqueNamespace } from '../support/redis.js';

/**
 * The dlq only ever takes invalid input. A batch that fails for good (a bug, a store
 * error, a namespace that lost its data) is retried a bounded number of times and then the
 * consumer stops with the batch uncommitted; an id repeated after an earlier batch is a replay.
 */
const logger = pino({ level: process.env.DOPPEL_TEST_LOG ?? 'silent' });

function configFor(input: string, namespace: string, group = uniqueName('group')): ConsumerConfig {
  return testConsumerConfig({
    consumer: {
      inputs: [{ topic: input, format: 'json' }],
      groupId: group,
      namespace,
      retryInitialMs: 50,
      retryMaxMs: 200,
      maxFailedAttempts: 3,
      inputPartitions: 1,
    },
  });
}

async function send(kafka: Kafka, topic: string, values: string[]): Promise<void> {
  const producer = kafka.producer();
  await producer.connect();
  await producer.send({ topic, acks: -1, messages: values.map((value) => ({ value })) });
  await producer.disconnect();
}

const story = (i: number) =>
  JSON.stringify({ id: `f${i}`, text: `filler story number ${i} about ${'word '.repeat(i % 7)}things` });

async function committed(kafka: Kafka, group: string, topic: string): Promise<number> {
  const admin = kafka.admin();
  await admin.connect();
  try {
    const [offsets] = await admin.fetchOffsets({ groupId: group, topics: [topic] });
    return Math.max(-1, ...(offsets?.partitions ?? []).map((p) => Number(p.offset)));
  } finally {
    await admin.disconnect();
  }
}

describe('consumer failures on a real broker', () => {
  const kafka = testKafka();
  const admin = kafka.admin();
  beforeAll(async () => {
    await initHashing();
    await admin.connect();
  });
  afterAll(() => admin.disconnect());

  it('answers an id repeated after an earlier batch with its first verdict: no dlq, one verdict per id', async () => {
    const input = uniqueName('repeat');
    const config = configFor(input, uniqueNamespace('repeat'));
    const consumer = new DoppelConsumer({ config, logger });
    await consumer.start();
    const first = [JSON.stringify({ id: 'a', text: 'first story about the harbour' }), story(1), story(2)];
    await send(kafka, input, first);
    await waitForCommitted(admin, config.consumer.groupId, input);
    const again = JSON.stringify({ id: 'a', text: 'again' });
    await send(kafka, input, [story(3), again, again, story(4), 'not json']);
    await waitForCommitted(admin, config.consumer.groupId, input);
    await consumer.stop();
    const tagged = await readTopic(kafka, `${input}.tagged`, { atLeast: 7, settleMs: 300 });
    const dlq = await readTopic(kafka, `${input}.dlq`, { atLeast: 1, settleMs: 300 });
    expect(tagged).toHaveLength(7);
    expect(dlq.map((m) => m.headers['doppel-error-code'])).toEqual(['INVALID_JSON']);
    const a = tagged.filter((m) => m.headers['doppel-id'] === 'a').map((m) => m.headers);
    expect(a).toHaveLength(3);
    expect(new Set(a.map((h) => `${h['doppel-verdict']}/${h['doppel-cluster']}`))).toEqual(
      new Set(['unique/a']),
    );
    expect(a.map((h) => h['doppel-replay'])).toEqual([undefined, 'true', 'true']);
  }, 60_000);

  it('retries a batch that fails for good maxFailedAttempts times, dead-letters nothing, stops uncommitted', async () => {
    const input = uniqueName('internal');
    const namespace = uniqueNamespace('internal');
    const config = configFor(input, namespace);
    const good = await openStore(redisUrl(), { config: config.dedup, namespace });
    let calls = 0;
    // A store with a bug: every index call throws what the engine would (not a DoppelError).
    const broken: DedupStore = Object.assign(Object.create(good) as DedupStore, {
      index: async () => {
        calls++;
        throw new TypeError("Cannot read properties of undefined (reading 'decision')");
      },
    });
    const attempts: Array<{ code: string; willRetry: boolean }> = [];
    const consumer = new DoppelConsumer({
      config,
      logger,
      store: broken,
      hooks: { onError: (e, i) => attempts.push({ code: e.code, willRetry: i.willRetry }) },
    });
    await consumer.start();
    await send(kafka, input, [story(1), story(2), 'not json']);
    await expect(consumer.done).rejects.toMatchObject({ code: 'INTERNAL' });
    expect(attempts).toEqual([
      { code: 'INTERNAL', willRetry: true },
      { code: 'INTERNAL', willRetry: true },
      { code: 'INTERNAL', willRetry: false },
    ]);
    expect(calls).toBe(3);
    expect(consumer.status().state).toBe('failed');
    await consumer.stop();
    expect(await committed(kafka, config.consumer.groupId, input)).toBe(-1);
    expect(await readTopic(kafka, `${input}.dlq`, { settleMs: 500 })).toEqual([]);
    expect(await readTopic(kafka, `${input}.tagged`, { settleMs: 300 })).toEqual([]);

    // Restarted (as Kubernetes would) with the bug fixed: everything comes out once, only the
    // invalid line in the dlq.
    const restarted = new DoppelConsumer({
      config: configFor(input, namespace, config.consumer.groupId),
      logger,
    });
    await restarted.start();
    await waitForCommitted(admin, config.consumer.groupId, input);
    await restarted.stop();
    expect(await readTopic(kafka, `${input}.tagged`, { atLeast: 2, settleMs: 300 })).toHaveLength(2);
    const dlq = await readTopic(kafka, `${input}.dlq`, { atLeast: 1, settleMs: 300 });
    expect(dlq.map((m) => m.headers['doppel-error-code'])).toEqual(['INVALID_JSON']);
  }, 90_000);

  it('stops at once, dead-lettering nothing, when the Redis namespace lost its data', async () => {
    const input = uniqueName('lost');
    const namespace = uniqueNamespace('lost');
    const config = configFor(input, namespace);
    const attempts: string[] = [];
    const consumer = new DoppelConsumer({
      config,
      logger,
      hooks: { onError: (e) => attempts.push(e.code) },
    });
    await consumer.start();
    await send(kafka, input, [story(1)]);
    await waitForCommitted(admin, config.consumer.groupId, input);
    const before = await committed(kafka, config.consumer.groupId, input);
    const { Redis } = await import('ioredis');
    const client = new Redis(redisUrl());
    try {
      await client.del(...(await client.keys(`doppel:{${namespace}}:*`)));
    } finally {
      client.disconnect();
    }
    await send(kafka, input, [story(2), story(3)]);
    await expect(consumer.done).rejects.toMatchObject({ code: 'STORE_DATA_LOST' });
    expect(attempts).toEqual(['STORE_DATA_LOST']);
    await consumer.stop();
    expect(await committed(kafka, config.consumer.groupId, input)).toBe(before);
    expect(await readTopic(kafka, `${input}.dlq`, { settleMs: 500 })).toEqual([]);
    // A restart is refused too, until an operator resets the namespace.
    await expect(openStore(redisUrl(), { config: config.dedup, namespace })).rejects.toBeInstanceOf(
      DoppelError,
    );
  }, 60_000);
});
