import { randomBytes } from 'node:crypto';
import { type Admin, Kafka, type KafkaMessage, logLevel } from 'kafkajs';
import { inject } from 'vitest';
import { type ConsumerConfig, loadConsumerConfig } from '../../src/kafka/config.js';
import { readHeaders } from '../../src/kafka/headers.js';
import { redisUrl } from './redis.js';

/** The run's broker (test/support/global-kafka.ts); throws with the reason when there is none. */
export function kafkaBrokers(): string[] {
  const brokers = inject('kafkaBrokers');
  if (!brokers) throw new Error('no Kafka broker for this run: java and tools/kafka jars are needed');
  return brokers.split(',');
}

export function testKafka(): Kafka {
  return new Kafka({ clientId: 'doppel-test', brokers: kafkaBrokers(), logLevel: logLevel.NOTHING });
}

/**
 * A consumer's configuration on the run's broker and redis-server (or `redis`): `file` is what a
 * config file would hold, its `consumer` section with at least the inputs and the group.
 */
export function testConsumerConfig(
  file: { consumer: Record<string, unknown> } & Record<string, unknown>,
  options: { profile?: 'news' | 'mail'; redis?: string } = {},
): ConsumerConfig {
  return loadConsumerConfig(
    { DOPPEL_KAFKA_BROKERS: kafkaBrokers().join(','), DOPPEL_REDIS_URL: options.redis ?? redisUrl() },
    { profile: options.profile ?? 'news' },
    file,
  );
}

/** A topic / group name no other test uses. */
export function uniqueName(label: string): string {
  return `t-${label}-${randomBytes(4).toString('hex')}`;
}

export interface ReadMessage {
  topic: string;
  partition: number;
  offset: string;
  key: string | null;
  value: Buffer | null;
  headers: Record<string, string>;
  timestamp: number;
}

function toRead(topic: string, partition: number, m: KafkaMessage): ReadMessage {
  return {
    topic,
    partition,
    offset: m.offset,
    key: m.key ? m.key.toString('utf8') : null,
    value: m.value ?? null,
    headers: readHeaders(m.headers as Record<string, unknown>),
    timestamp: Number(m.timestamp),
  };
}

/**
 * Everything in `topic` (read_committed unless `readUncommitted`: then the outputs of aborted
 * transactions are read too): reads from the
 * beginning with a fresh group until it has `atLeast` messages and nothing new came for `settleMs`.
 */
export async function readTopic(
  kafka: Kafka,
  topic: string,
  options: { atLeast?: number; settleMs?: number; timeoutMs?: number; readUncommitted?: boolean } = {},
): Promise<ReadMessage[]> {
  const out: ReadMessage[] = [];
  const consumer = kafka.consumer({
    groupId: uniqueName('reader'),
    maxWaitTimeInMs: 100,
    readUncommitted: options.readUncommitted ?? false,
  });
  await consumer.connect();
  await consumer.subscribe({ topic, fromBeginning: true });
  let last = Date.now();
  await consumer.run({
    eachMessage: async ({ topic: t, partition, message }) => {
      out.push(toRead(t, partition, message));
      last = Date.now();
    },
  });
  const deadline = Date.now() + (options.timeoutMs ?? 30_000);
  const settle = options.settleMs ?? 1_000;
  const atLeast = options.atLeast ?? 0;
  while (Date.now() < deadline && (out.length < atLeast || Date.now() - last < settle)) {
    await new Promise((r) => setTimeout(r, 50));
  }
  await consumer.disconnect();
  return out.sort((a, b) => a.partition - b.partition || Number(a.offset) - Number(b.offset));
}

/** Sum of a topic's end offsets (messages written, plus transaction markers when transactional). */
export async function endOffsetSum(admin: Admin, topic: string): Promise<number> {
  const offsets = await admin.fetchTopicOffsets(topic);
  return offsets.reduce((sum, p) => sum + Number(p.high), 0);
}

/** Waits until `groupId` has committed every partition of `topic` up to its end. */
export async function waitForCommitted(
  admin: Admin,
  groupId: string,
  topic: string,
  timeoutMs = 45_000,
): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const ends = await admin.fetchTopicOffsets(topic);
    const [committed] = await admin.fetchOffsets({ groupId, topics: [topic] });
    const byPartition = new Map((committed?.partitions ?? []).map((p) => [p.partition, Number(p.offset)]));
    if (ends.every((p) => Number(p.high) === 0 || (byPartition.get(p.partition) ?? -1) >= Number(p.high)))
      return;
    if (Date.now() > deadline) {
      throw new Error(
        `group ${groupId} did not commit ${topic} to its end: ends ${JSON.stringify(ends)}, committed ${JSON.stringify(committed)}`,
      );
    }
    await new Promise((r) => setTimeout(r, 100));
  }
}

export async function waitFor(
  check: () => Promise<boolean> | boolean,
  timeoutMs = 30_000,
  what = 'condition',
): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}
