import { Redis } from 'ioredis';
import { pino } from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type LocalRedis, startLocalRedis } from '../../src/dev/redis-server.js';
import type { DoppelError } from '../../src/errors.js';
import { DoppelConsumer } from '../../src/kafka/consumer.js';
import {
  endOffsetSum,
  testConsumerConfig,
  testKafka,
  uniqueName,
  waitFor,
  waitForCommitted,
} from '../support/kafka.js';

// Redis refusing the credentials (a rotated password) made the consumer retry for ever
// ("Connection is closed." is retryable). STORE_AUTH fails it instead, and loses nothing.

const logger = pino({ level: process.env.DOPPEL_TEST_LOG ?? 'silent' });

describe('consumer when Redis refuses the credentials', () => {
  const kafka = testKafka();
  const admin = kafka.admin();
  let redis: LocalRedis;
  beforeAll(async () => {
    redis = await startLocalRedis();
    await admin.connect();
  });
  afterAll(async () => {
    await admin.disconnect();
    await redis?.stop();
  });

  it('fails with STORE_AUTH, leaves the batch uncommitted and dead-letters nothing', async () => {
    const input = uniqueName('auth');
    const group = uniqueName('group');
    const config = testConsumerConfig(
      {
        consumer: {
          inputs: [{ topic: input, format: 'json' }],
          groupId: group,
          retryInitialMs: 50,
          retryMaxMs: 200,
        },
        redis: { commandTimeoutMs: 500, maxRetries: 1 },
      },
      { redis: redis.url },
    );
    const errors: string[] = [];
    const consumer = new DoppelConsumer({ config, logger, hooks: { onError: (e) => errors.push(e.code) } });
    await consumer.start();
    await waitFor(() => consumer.ready(), 30_000, 'group join');
    const producer = kafka.producer();
    await producer.connect();
    const send = (ids: string[]) =>
      producer.send({
        topic: input,
        acks: -1,
        messages: ids.map((id) => ({
          value: JSON.stringify({ id, text: `message ${id} about the city tram line` }),
        })),
      });
    await send(['a1', 'a2']);
    await waitForCommitted(admin, group, input);

    const redisAdmin = new Redis(redis.url);
    await redisAdmin.config('SET', 'requirepass', 'rotated-password-123');
    await redisAdmin.client('KILL', 'TYPE', 'normal');
    redisAdmin.disconnect();
    await send(['b1', 'b2']);
    const failure = await consumer.done.then(
      () => null,
      (e: DoppelError) => e,
    );
    expect(failure?.code).toBe('STORE_AUTH');
    expect(consumer.status().state).toBe('failed');
    expect(errors).toContain('STORE_AUTH');
    // The first attempt may see only the closed connection (retryable); then it stops retrying.
    expect(errors.filter((c) => c !== 'STORE_AUTH').length).toBeLessThanOrEqual(
      config.dedup.redis.maxRetries + 1,
    );
    const [committed] = await admin.fetchOffsets({ groupId: group, topics: [input] });
    expect(committed!.partitions.reduce((s, p) => s + Math.max(0, Number(p.offset)), 0)).toBe(2);
    expect(await endOffsetSum(admin, `${input}.dlq`)).toBe(0);
    await producer.disconnect();
    await consumer.stop().catch(() => undefined);
  }, 60_000);
});
