import type { Kafka } from 'kafkajs';
import { pino } from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { resolveDedupConfig } from '../../src/config/profiles.js';
import { DedupEngine } from '../../src/engine/engine.js';
import { DoppelError } from '../../src/errors.js';
import { initHashing } from '../../src/hash/xxhash.js';
import { DoppelConsumer } from '../../src/kafka/consumer.js';
import type { InputRecord } from '../../src/kafka/input.js';
import { PoolSigner } from '../../src/kafka/pool-signer.js';
import { BatchProcessor, type ProcessorOptions } from '../../src/kafka/processor.js';
import { LexiconSet } from '../../src/lexicon/lexicon.js';
import { MessageFlow } from '../../src/pipeline/flow.js';
import { Signer } from '../../src/signatures/signer.js';
import { MemoryStore } from '../../src/store/memory/store.js';
import {
  type ReadMessage,
  readTopic,
  testConsumerConfig,
  testKafka,
  uniqueName,
  waitFor,
} from '../support/kafka.js';
import { knownStream } from '../support/kafka-stream.js';
import { uniqueNamespace } from '../support/redis.js';

const logger = pino({ level: process.env.DOPPEL_TEST_LOG ?? 'silent' });

/** The known stream (json, bad records included) plus messages whose id or text need decoding. */
function inputValues(prefix: string): Array<string | Buffer | null> {
  const stream = knownStream({ originals: 40, prefix });
  const values = [...stream.phase1, ...stream.phase2].map((m) => m.value);
  const first = JSON.parse(values[0] as string) as { text: string };
  values.push(JSON.stringify({ lang: 'en', text: first.text })); // no id: topic-partition-offset
  values.push(JSON.stringify({ id: `${prefix}-h`, html: `<p>${first.text}</p><script>x()</script>` }));
  values.push(JSON.stringify({ id: `${prefix}-e`, text: '   ' })); // nothing to sign: dlq
  return values;
}

/**
 * What must not depend on the thread count: the headers without the source topic and timestamp,
 * and with the input topic's name (in topic-partition-offset ids) as "IN".
 */
function comparable(messages: readonly ReadMessage[], topic: string): unknown[] {
  return messages.map((m) => {
    const { 'doppel-source-topic': _t, 'doppel-source-timestamp': _s, ...rest } = m.headers;
    return JSON.parse(JSON.stringify(rest).replaceAll(topic, 'IN'));
  });
}

describe('consumer sign threads on a real broker and Redis', () => {
  const kafka: Kafka = testKafka();
  const admin = kafka.admin();
  beforeAll(() => admin.connect());
  afterAll(() => admin.disconnect());

  it('gives the same verdicts, dead letters and story events with signThreads 2 as with 1', async () => {
    const prefix = uniqueName('st');
    const values = inputValues(prefix);
    // One partition per input: the order of the stream (and so its verdicts) is fixed.
    const inputs = [1, 2].map((threads) => `${prefix}-in${threads}`);
    await admin.createTopics({
      waitForLeaders: true,
      topics: inputs.map((topic) => ({ topic, numPartitions: 1 })),
    });
    const producer = kafka.producer();
    await producer.connect();
    // Several sends: a fetch returns whole record batches, so one send would be one consumer batch.
    for (const topic of inputs)
      for (let i = 0; i < values.length; i += 40)
        await producer.send({
          topic,
          acks: -1,
          messages: values.slice(i, i + 40).map((value) => ({ value })),
        });
    await producer.disconnect();

    const outputs: Array<{ tagged: ReadMessage[]; dlq: ReadMessage[]; stories: ReadMessage[] }> = [];
    for (const [i, topic] of inputs.entries()) {
      const group = uniqueName('group');
      const config = testConsumerConfig({
        consumer: {
          inputs: [{ topic, format: 'json' }],
          groupId: group,
          namespace: uniqueNamespace('signthreads'),
          signThreads: i + 1,
          // Small fetches: several batches.
          maxBytesPerPartition: 16_384,
        },
      });
      const consumer = new DoppelConsumer({ config, logger });
      try {
        await consumer.start();
        await waitFor(() => consumer.status().messages >= values.length, 60_000, `${topic} consumed`);
        expect(consumer.status().batches).toBeGreaterThan(1);
      } finally {
        await consumer.stop();
      }
      const status = consumer.status();
      const tagged = await readTopic(kafka, `${topic}.tagged`, {
        atLeast: status.counts.invalid === 0 ? 1 : 0,
      });
      const dlq = await readTopic(kafka, `${topic}.dlq`, { atLeast: status.counts.invalid });
      const stories = await readTopic(kafka, `${topic}.stories`, { atLeast: status.counts.storyEvents });
      outputs.push({ tagged, dlq, stories });
    }
    const [one, two] = outputs as [(typeof outputs)[0], (typeof outputs)[0]];
    expect(one.tagged.length + one.dlq.length).toBe(values.length);
    // The stream has duplicates, near-duplicates and dead letters of several codes.
    const verdicts = new Set(one.tagged.map((m) => m.headers['doppel-verdict']));
    expect(verdicts).toEqual(new Set(['unique', 'duplicate', 'near_duplicate']));
    expect(new Set(one.dlq.map((m) => m.headers['doppel-error-code'])).size).toBeGreaterThan(1);
    const [in1, in2] = inputs as [string, string];
    expect(comparable(two.tagged, in2)).toEqual(comparable(one.tagged, in1));
    expect(comparable(two.dlq, in2)).toEqual(comparable(one.dlq, in1));
    const events = (s: readonly ReadMessage[], topic: string) =>
      s.map((m) => {
        const e = JSON.parse((m.value as Buffer).toString('utf8').replaceAll(topic, 'IN')) as Record<
          string,
          unknown
        >;
        return [e.type, e.clusterId, e.messageId, e.size];
      });
    expect(events(two.stories, in2)).toEqual(events(one.stories, in1));
  }, 180_000);
});

describe('PoolSigner', () => {
  it('fails a batch as INTERNAL when a worker dies (no dead letter), then signs with a new pool', async () => {
    await initHashing();
    const config = resolveDedupConfig('news');
    const signer = new PoolSigner({ threads: 2, config });
    await signer.start();
    const options = (pool?: PoolSigner): ProcessorOptions => ({
      mode: 'tag',
      formatOf: (t) => (t === 'mail' ? 'mail' : 'json'),
      outputsOf: (t) => ({ tagged: `${t}.t`, duplicates: `${t}.d`, stories: `${t}.s`, dlq: `${t}.q` }),
      maxMessageBytes: 1 << 20,
      ...(pool ? { pool } : {}),
    });
    const processor = (pool?: PoolSigner) =>
      new BatchProcessor(
        new MessageFlow(
          new DedupEngine(config, new MemoryStore(config.window, config.index)),
          new Signer(config.signatures, LexiconSet.defaults()),
        ),
        options(pool),
      );
    const records: InputRecord[] = inputValues('ps').map((value, i) => ({
      topic: 'in',
      partition: 0,
      offset: String(i),
      key: null,
      value: value === null ? null : Buffer.from(value),
      timestamp: '0',
    }));
    // Mail without a key: the id comes from the decoded Message-ID (in the worker), else the position.
    const body = 'The quarterly planning lunch moves to Thursday at noon in the large meeting room.';
    records.push(
      ...[`<lunch-1@example.org>`, `<lunch-2@example.org>`, null, 'not a mail \u0000'].map((id, i) => ({
        topic: 'mail',
        partition: 0,
        offset: String(i),
        key: null,
        value: Buffer.from(
          id?.startsWith('<')
            ? `From: a@example.org\r\nTo: b@example.org\r\nSubject: Lunch\r\nMessage-ID: ${id}\r\n\r\n${body}\r\n`
            : id === null
              ? `From: a@example.org\r\nSubject: Lunch\r\n\r\n${body}\r\n`
              : '',
        ),
        timestamp: '0',
      })),
    );
    const headers = (r: Awaited<ReturnType<BatchProcessor['process']>>) =>
      r.outputs.flatMap((t) => t.messages.map((m) => [t.topic, m.headers]));
    try {
      const expected = headers(await processor().process(records));
      const mailIds = expected
        .filter(([t]) => t === 'mail.t')
        .map(([, h]) => (h as Record<string, string>)['doppel-id']);
      expect(mailIds).toEqual(['lunch-1@example.org', 'lunch-2@example.org', 'mail-0-2']);
      // With the workers: the same outputs (ids, verdicts, dead letters).
      expect(headers(await processor(signer).process(records))).toEqual(expected);
      // A worker killed: the pool is broken.
      const internal = signer as unknown as {
        pool: Promise<{ slots: Array<{ worker: { terminate(): Promise<number> } }> }>;
      };
      await (await internal.pool).slots[0]?.worker.terminate();
      const failed = await processor(signer)
        .process(records)
        .then(
          () => null,
          (e: unknown) => e,
        );
      expect(failed).toBeInstanceOf(DoppelError);
      expect((failed as DoppelError).code).toBe('INTERNAL');
      // The retry starts a new pool and gives what one thread gives.
      expect(headers(await processor(signer).process(records))).toEqual(expected);
    } finally {
      await signer.close();
    }
  }, 60_000);
});
