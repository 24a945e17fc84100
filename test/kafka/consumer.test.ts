import type { Kafka } from 'kafkajs';
import { pino } from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type LocalRedis, startLocalRedis } from '../../src/dev/redis-server.js';
import { DedupEngine } from '../../src/engine/engine.js';
import { initHashing } from '../../src/hash/xxhash.js';
import { type BatchStats, type ConsumerHooks, DoppelConsumer } from '../../src/kafka/consumer.js';
import type { InputRecord } from '../../src/kafka/input.js';
import { BatchProcessor } from '../../src/kafka/processor.js';
import { ensureTopics } from '../../src/kafka/topics.js';
import { LexiconSet } from '../../src/lexicon/lexicon.js';
import { MessageFlow } from '../../src/pipeline/flow.js';
import { Signer } from '../../src/signatures/signer.js';
import { openStore } from '../../src/store/open.js';
import { MAX_DELIMITER_LINES } from '../../src/text/decode/mail.js';
import {
  endOffsetSum,
  readTopic,
  testConsumerConfig,
  testKafka,
  uniqueName,
  waitFor,
  waitForCommitted,
} from '../support/kafka.js';
import { knownStream, type StreamMessage } from '../support/kafka-stream.js';
import { redisUrl, uniqueNamespace } from '../support/redis.js';

const logger = pino({ level: process.env.DOPPEL_TEST_LOG ?? 'silent' });

function consumerFor(options: {
  hooks?: ConsumerHooks;
  profile: 'news' | 'mail';
  inputs: Array<{ topic: string; format: string }>;
  mode?: 'tag' | 'drop';
  exactlyOnce?: boolean;
  redis?: string;
  extra?: Record<string, unknown>;
}): DoppelConsumer {
  const group = uniqueName('group');
  const config = testConsumerConfig(
    {
      consumer: {
        inputs: options.inputs,
        groupId: group,
        transactionalId: `${group}-tx`,
        namespace: uniqueNamespace('kafka'),
        exactlyOnce: options.exactlyOnce ?? false,
        retryInitialMs: 100,
        retryMaxMs: 1_000,
        ...options.extra,
      },
      ...(options.mode ? { mode: options.mode } : {}),
    },
    { profile: options.profile, redis: options.redis },
  );
  return new DoppelConsumer({ config, logger, ...(options.hooks ? { hooks: options.hooks } : {}) });
}

async function produce(
  kafka: Kafka,
  topic: string,
  messages: ReadonlyArray<Pick<StreamMessage, 'partition' | 'key' | 'value'>>,
): Promise<void> {
  const producer = kafka.producer();
  await producer.connect();
  await producer.send({
    topic,
    acks: -1,
    messages: messages.map((m) => ({
      partition: m.partition,
      key: m.key ?? null,
      value: m.value,
    })),
  });
  await producer.disconnect();
}

describe('news consumer on a real broker and Redis (tag mode)', () => {
  const kafka = testKafka();
  const admin = kafka.admin();
  beforeAll(() => admin.connect());
  afterAll(() => admin.disconnect());

  it('gives every message of a known stream exactly one output with the planned verdict; count in = count out', async () => {
    const input = uniqueName('news');
    const textInput = uniqueName('text');
    const started: string[] = [];
    const ended: BatchStats[] = [];
    const states: string[] = [];
    const consumer = consumerFor({
      profile: 'news',
      inputs: [
        { topic: input, format: 'json' },
        { topic: textInput, format: 'text' },
      ],
      hooks: {
        onBatchStart: (b) => started.push(`${b.topic}/${b.partition}/${b.firstOffset}`),
        onBatchEnd: (b) => ended.push(b),
        onStateChange: (s) => states.push(s),
      },
    });
    // The consumer creates the missing input (4 partitions) and output topics on start-up.
    await consumer.start();
    const topics = await admin.fetchTopicMetadata({ topics: [input, `${input}.tagged`, `${input}.stories`] });
    expect(topics.topics.map((t) => t.partitions.length)).toEqual([4, 4, 4]);
    await waitFor(() => consumer.ready(), 30_000, 'group join');

    const stream = knownStream({ originals: 60, prefix: input });
    await produce(kafka, input, stream.phase1);
    await waitFor(
      async () => (await endOffsetSum(admin, `${input}.tagged`)) >= stream.phase1.length,
      30_000,
      'phase 1 outputs',
    );
    await produce(kafka, input, stream.phase2);
    // Phase 2 decided before the text topic's copy of original 0 is sent: that copy joins original
    // 0's cluster too, and arriving first it would make the joiner's grown event size 3, not 2.
    await waitFor(
      async () =>
        (await endOffsetSum(admin, `${input}.tagged`)) >=
        [...stream.phase1, ...stream.phase2].filter((m) => m.expect.verdict !== 'invalid').length,
      30_000,
      'phase 2 outputs',
    );
    // Plain-text topic: UTF-8 text (a copy of original 0 in another topic: same index), a
    // windows-1251 text, and white space (dlq); ids from the key, else topic-partition-offset.
    const original0 = JSON.parse(stream.phase1[0]!.value as string) as { text: string };
    const producer = kafka.producer();
    await producer.connect();
    await producer.send({
      topic: textInput,
      acks: -1,
      messages: [
        { partition: 0, key: 'txt-copy', value: original0.text },
        {
          partition: 1,
          key: null,
          value: Buffer.from([
            0xcf, 0xf0, 0xe8, 0xe2, 0xe5, 0xf2, 0x20, 0xec, 0xe8, 0xf0, 0x20, 0xe8, 0x20, 0xf1, 0xee, 0xeb,
            0xed, 0xf6, 0xe5,
          ]),
        },
        { partition: 2, key: 'txt-blank', value: '   \n ' },
      ],
    });
    await producer.disconnect();

    await waitForCommitted(admin, consumer.status().groupId, input);
    await waitForCommitted(admin, consumer.status().groupId, textInput);
    const all = [...stream.phase1, ...stream.phase2];
    const tagged = await readTopic(kafka, `${input}.tagged`, { atLeast: all.length - 7 });
    const dlq = await readTopic(kafka, `${input}.dlq`, { atLeast: 7, settleMs: 300 });
    const duplicates = await readTopic(kafka, `${input}.duplicates`, { settleMs: 300 });
    const stories = await readTopic(kafka, `${input}.stories`, { atLeast: 1, settleMs: 500 });

    // Count in = count out, exactly once each (no crash here, so no replays either).
    expect(duplicates).toHaveLength(0);
    expect(tagged.length + dlq.length + duplicates.length).toBe(all.length);
    const sources = new Set(
      [...tagged, ...dlq].map(
        (m) => `${m.headers['doppel-source-partition']}/${m.headers['doppel-source-offset']}`,
      ),
    );
    expect(sources.size).toBe(all.length);

    // No telemetry in this process: no trace headers are written (no per-message trace work).
    expect([...tagged, ...dlq].filter((m) => m.headers.traceparent !== undefined)).toEqual([]);
    const byId = new Map([...tagged, ...dlq].map((m) => [m.headers['doppel-id'], m]));
    for (const m of all) {
      const out = byId.get(m.id);
      expect(out, m.id).toBeDefined();
      // The payload passes through untouched.
      expect(
        out?.value?.equals(m.value === null ? Buffer.alloc(0) : Buffer.from(m.value)) ?? m.value === null,
        m.id,
      ).toBe(true);
      expect(out?.headers['doppel-verdict'], m.id).toBe(m.expect.verdict);
      if (m.expect.verdict === 'invalid') {
        expect(out?.topic).toBe(`${input}.dlq`);
        expect(out?.headers['doppel-error-code'], m.id).toBe(m.expect.code);
        expect(out?.headers['doppel-error-reason']?.length ?? 0).toBeGreaterThan(0);
        expect(out?.headers['doppel-error-retryable']).toBe('false');
      } else {
        expect(out?.topic).toBe(`${input}.tagged`);
        expect(out?.headers['doppel-cluster'], m.id).toBe(m.expect.cluster);
        if (m.expect.verdict === 'unique') expect(out?.headers['doppel-duplicate-of']).toBeUndefined();
        else {
          expect(out?.headers['doppel-duplicate-of'], m.id).toBe(m.expect.duplicateOf);
          expect(Number(out?.headers['doppel-similarity'])).toBeGreaterThan(0.4);
          expect(JSON.parse(out?.headers['doppel-evidence'] ?? '{}')).toHaveProperty('jaccard');
        }
      }
    }
    // Story members are on another partition than their originals.
    const storyMembers = stream.phase2.filter((m) => m.expect.verdict === 'unique');
    expect(storyMembers.length).toBeGreaterThan(5);
    for (const m of storyMembers) {
      const original = stream.phase1.find((o) => o.id === (m.expect as { cluster: string }).cluster)!;
      expect(m.partition).not.toBe(original.partition);
    }

    // Story events: created for every original, grown for every message that joined.
    const events = stories.map(
      (m) =>
        JSON.parse(m.value!.toString()) as {
          type: string;
          clusterId: string;
          messageId: string;
          size: number;
        },
    );
    const created = events.filter((e) => e.type === 'created');
    const grown = events.filter((e) => e.type === 'grown');
    expect(created.map((e) => e.messageId).sort()).toEqual(stream.phase1.map((m) => m.id).sort());
    const joiners = stream.phase2.filter((m) => m.expect.verdict !== 'invalid');
    expect(grown.map((e) => e.messageId).sort()).toEqual(joiners.map((m) => m.id).sort());
    for (const e of grown) {
      const m = joiners.find((j) => j.id === e.messageId)!;
      expect(e.clusterId).toBe((m.expect as { cluster: string }).cluster);
      expect(e.size).toBe(2);
    }
    expect(stories.every((m) => m.key === m.headers['doppel-cluster'])).toBe(true);

    // The text topic.
    const textTagged = await readTopic(kafka, `${textInput}.tagged`, { atLeast: 2, settleMs: 300 });
    const textDlq = await readTopic(kafka, `${textInput}.dlq`, { atLeast: 1, settleMs: 300 });
    const copy = textTagged.find((m) => m.headers['doppel-id'] === 'txt-copy');
    expect(copy?.headers['doppel-verdict']).toBe('duplicate');
    expect(copy?.headers['doppel-duplicate-of']).toBe(stream.phase1[0]!.id);
    const cp1251 = textTagged.find((m) => m.key === null);
    expect(cp1251?.headers['doppel-id']).toBe(`${textInput}-1-0`);
    expect(cp1251?.headers['doppel-verdict']).toBe('unique');
    expect(textDlq.map((m) => [m.headers['doppel-id'], m.headers['doppel-error-code']])).toEqual([
      ['txt-blank', 'MISSING_CONTENT'],
    ]);

    const status = consumer.status();
    // Hooks for telemetry: one start and one end per batch, sizes and counts add up.
    expect(ended.map((b) => `${b.topic}/${b.partition}/${b.firstOffset}`)).toEqual(started);
    expect(ended.reduce((s, b) => s + b.size, 0)).toBe(all.length + 3);
    expect(ended.reduce((s, b) => s + b.counts.invalid, 0)).toBe(8);
    expect(ended.every((b) => b.attempts === 1 && b.totalMs >= b.engineMs)).toBe(true);
    expect(states[0]).toBe('running');
    expect(status.ready).toBe(true);
    expect(status.messages).toBe(all.length + 3);
    expect(status.counts.invalid).toBe(8);
    await consumer.stop();
    expect(consumer.status().state).toBe('stopped');
    expect(states.slice(-2)).toEqual(['stopping', 'stopped']);
  }, 90_000);
});

function mail(messageId: string | null, subject: string, body: string): string {
  return [
    'From: "Prize Team" <prizes@example.net>',
    'To: someone@example.org',
    `Subject: ${subject}`,
    ...(messageId ? [`Message-ID: <${messageId}>`] : []),
    'Date: Fri, 20 Nov 2026 10:00:00 +0000',
    'MIME-Version: 1.0',
    'Content-Type: text/plain; charset=utf-8',
    '',
    body,
    '',
  ].join('\r\n');
}

/** A multipart/mixed mail of one text/plain part per body. */
function multipartMail(messageId: string, subject: string, bodies: readonly string[]): string {
  return [
    'From: "Planning" <planning@example.net>',
    'To: someone@example.org',
    `Subject: ${subject}`,
    `Message-ID: <${messageId}>`,
    'MIME-Version: 1.0',
    'Content-Type: multipart/mixed; boundary="part"',
    '',
    ...bodies.flatMap((body) => ['--part', 'Content-Type: text/plain; charset=utf-8', '', body]),
    '--part--',
    '',
  ].join('\r\n');
}

const PRIZE =
  'Congratulations! Your e-mail address was selected in our monthly draw and you have won a brand new tablet. To receive your prize, confirm your delivery address within 48 hours. Shipping is free of charge, but unclaimed prizes are given to the next winner on the list. Best wishes, the prize team.';
const BANK =
  'We detected unusual sign-in activity on your online banking account. For your protection, access has been temporarily limited. To restore full access, please verify your identity within 24 hours or the account will be suspended. Thank you for banking with us.';
const LUNCH =
  'Hi team, the quarterly planning lunch moves to Thursday at noon in the large meeting room on the third floor. Please bring your roadmap notes and tell me about dietary needs by Wednesday evening.';

describe('mail consumer (drop mode, raw RFC 822)', () => {
  const kafka = testKafka();
  const admin = kafka.admin();
  beforeAll(() => admin.connect());
  afterAll(() => admin.disconnect());

  /** A drop-mode mail consumer of `input`, started and in its group. */
  async function startMailConsumer(input: string): Promise<DoppelConsumer> {
    const consumer = consumerFor({
      profile: 'mail',
      mode: 'drop',
      inputs: [{ topic: input, format: 'mail' }],
    });
    await consumer.start();
    await waitFor(() => consumer.ready(), 30_000, 'group join');
    return consumer;
  }

  it('sends uniques to .tagged, duplicates to .duplicates, bad mail to .dlq; ids from Message-ID, key, or position', async () => {
    const input = uniqueName('mail');
    const consumer = await startMailConsumer(input);
    const producer = kafka.producer();
    await producer.connect();
    const first: Array<{ key: string | null; value: string; partition: number }> = [
      { key: null, value: mail('prize-1@example.net', 'You won', PRIZE), partition: 0 },
      { key: null, value: mail('bank-1@example.net', 'Account limited', BANK), partition: 1 },
      { key: 'lunch-key', value: mail(null, 'Lunch', LUNCH), partition: 2 },
    ];
    await producer.send({ topic: input, acks: -1, messages: first });
    await waitFor(async () => (await endOffsetSum(admin, `${input}.tagged`)) >= 3, 30_000, 'first mails');
    const second = [
      // The same campaign mail again to another recipient: same body, another Message-ID.
      { key: null, value: mail('prize-2@example.net', 'You won', PRIZE), partition: 3 },
      // An edited copy.
      {
        key: null,
        value: mail('bank-2@example.net', 'Account limited', BANK.replace('24 hours', 'two days')),
        partition: 0,
      },
      // No Message-ID, no key: the position names it.
      { key: null, value: mail(null, 'You won', PRIZE), partition: 1 },
      // Not a mail at all.
      { key: 'junk', value: 'just some words, no headers here', partition: 2 },
    ];
    await producer.send({ topic: input, acks: -1, messages: second });
    await producer.disconnect();
    await waitForCommitted(admin, consumer.status().groupId, input);

    const tagged = await readTopic(kafka, `${input}.tagged`, { atLeast: 3, settleMs: 300 });
    const duplicates = await readTopic(kafka, `${input}.duplicates`, { atLeast: 3, settleMs: 300 });
    const dlq = await readTopic(kafka, `${input}.dlq`, { atLeast: 1, settleMs: 300 });
    expect(tagged.length + duplicates.length + dlq.length).toBe(first.length + second.length);
    expect(tagged.map((m) => [m.headers['doppel-id'], m.headers['doppel-verdict']]).sort()).toEqual([
      ['bank-1@example.net', 'unique'],
      ['lunch-key', 'unique'],
      ['prize-1@example.net', 'unique'],
    ]);
    const dups = new Map(duplicates.map((m) => [m.headers['doppel-id'], m.headers]));
    expect(dups.get('prize-2@example.net')?.['doppel-verdict']).toBe('duplicate');
    expect(dups.get('prize-2@example.net')?.['doppel-duplicate-of']).toBe('prize-1@example.net');
    expect(dups.get('bank-2@example.net')?.['doppel-verdict']).toBe('near_duplicate');
    expect(dups.get('bank-2@example.net')?.['doppel-cluster']).toBe('bank-1@example.net');
    expect(dups.get(`${input}-1-1`)?.['doppel-duplicate-of']).toBe('prize-1@example.net');
    expect(dlq.map((m) => [m.headers['doppel-id'], m.headers['doppel-error-code']])).toEqual([
      ['junk', 'INVALID_MAIL'],
    ]);
    await consumer.stop();
  }, 60_000);

  it('headers: doppel-conflict on a Message-ID reused for another mail, MAIL_TRUNCATED on a mail cut by the MIME cap', async () => {
    const input = uniqueName('mail-headers');
    const consumer = await startMailConsumer(input);
    const reused = `${input}-reused@example.net`;
    const cut = `${input}-cut@example.net`;
    // 250 text parts past the cap of MIME boundary lines: judged on the first ones, and said so.
    const parts = Array.from({ length: MAX_DELIMITER_LINES + 250 }, (_, i) => `${LUNCH} (part ${i})`);
    await produce(kafka, input, [
      { value: mail(reused, 'You won', PRIZE), partition: 0 },
      { value: multipartMail(cut, 'Planning', parts), partition: 1 },
    ]);
    await waitFor(async () => (await endOffsetSum(admin, `${input}.tagged`)) >= 2, 30_000, 'first mails');
    // The id again: with another mail (a conflict), and with the same mail (a plain replay).
    await produce(kafka, input, [
      { value: mail(reused, 'Account limited', BANK), partition: 2 },
      { value: mail(reused, 'You won', PRIZE), partition: 3 },
    ]);
    await waitForCommitted(admin, consumer.status().groupId, input);
    await consumer.stop();

    const tagged = await readTopic(kafka, `${input}.tagged`, { atLeast: 4, settleMs: 300 });
    const fromPartition = (p: number) =>
      tagged.filter((m) => m.headers['doppel-source-partition'] === String(p));
    const [first, conflict, replay] = [0, 2, 3].map((p) => fromPartition(p).map((m) => m.headers));
    expect([first?.length, conflict?.length, replay?.length]).toEqual([1, 1, 1]);
    // All three answer with the first verdict; only the other content is a conflict.
    for (const h of [first?.[0], conflict?.[0], replay?.[0]]) {
      expect(h?.['doppel-id']).toBe(reused);
      expect(h?.['doppel-verdict']).toBe('unique');
    }
    expect(first?.[0]?.['doppel-replay']).toBeUndefined();
    expect(first?.[0]?.['doppel-conflict']).toBeUndefined();
    expect([conflict?.[0]?.['doppel-replay'], conflict?.[0]?.['doppel-conflict']]).toEqual(['true', 'true']);
    expect(replay?.[0]?.['doppel-replay']).toBe('true');
    expect(replay?.[0]?.['doppel-conflict']).toBeUndefined();

    const truncated = fromPartition(1).map((m) => m.headers);
    expect(truncated.length).toBe(1);
    expect(truncated[0]?.['doppel-id']).toBe(cut);
    expect(truncated[0]?.['doppel-verdict']).toBe('unique');
    expect([truncated[0]?.['doppel-warning-code'], truncated[0]?.['doppel-warning-parts']]).toEqual([
      'MAIL_TRUNCATED',
      '250',
    ]);
    for (const h of [first?.[0], conflict?.[0], replay?.[0]])
      expect(h?.['doppel-warning-code']).toBeUndefined();
  }, 60_000);
});

describe('exactly-once mode (Kafka transactions)', () => {
  const kafka = testKafka();
  const admin = kafka.admin();
  beforeAll(() => admin.connect());
  afterAll(() => admin.disconnect());

  it('commits outputs and offsets in transactions: read_committed readers see each message once', async () => {
    const input = uniqueName('eos');
    const consumer = consumerFor({
      profile: 'news',
      exactlyOnce: true,
      inputs: [{ topic: input, format: 'json' }],
      extra: { maxBytesPerPartition: 8192 },
    });
    await consumer.start();
    await waitFor(() => consumer.ready(), 30_000, 'group join');
    const stream = knownStream({ originals: 40, prefix: input });
    const kafkaProducer = kafka.producer();
    await kafkaProducer.connect();
    for (const phase of [stream.phase1, stream.phase2]) {
      await kafkaProducer.send({
        topic: input,
        acks: -1,
        messages: phase.map((m) => ({ partition: m.partition, key: m.key ?? null, value: m.value })),
      });
    }
    await kafkaProducer.disconnect();
    // Offsets reach the end through the transactions (sendOffsets), not a consumer commit.
    await waitForCommitted(admin, consumer.status().groupId, input);
    const total = stream.phase1.length + stream.phase2.length;
    const tagged = await readTopic(kafka, `${input}.tagged`, { atLeast: total - 7, settleMs: 500 });
    const dlq = await readTopic(kafka, `${input}.dlq`, { atLeast: 7, settleMs: 300 });
    expect(tagged.length + dlq.length).toBe(total);
    expect(new Set(tagged.map((m) => m.headers['doppel-id'])).size).toBe(tagged.length);
    // Transaction markers take offsets: the end offset is more than the message count.
    expect(await endOffsetSum(admin, `${input}.tagged`)).toBeGreaterThan(tagged.length);
    expect(consumer.status().batches).toBeGreaterThan(1);
    await consumer.stop();
  }, 60_000);
});

describe('back-pressure: Redis stops answering', () => {
  const kafka = testKafka();
  const admin = kafka.admin();
  let redis: LocalRedis;
  beforeAll(async () => {
    await admin.connect();
    redis = await startLocalRedis();
  });
  afterAll(async () => {
    process.kill(redis.pid, 'SIGCONT');
    await redis.stop();
    await admin.disconnect();
  });

  it('pauses, commits nothing past the stuck batch, and finishes with the right verdicts when Redis is back', async () => {
    const input = uniqueName('outage');
    const errors: string[] = [];
    let pauses = 0;
    const group = uniqueName('group');
    const config = testConsumerConfig(
      {
        consumer: {
          inputs: [{ topic: input, format: 'json' }],
          groupId: group,
          retryInitialMs: 100,
          retryMaxMs: 500,
          // Several partitions fail at once: fetching resumes only when none is failing.
          concurrency: 4,
        },
        redis: { commandTimeoutMs: 300, maxRetries: 1 },
      },
      { redis: redis.url },
    );
    const consumer = new DoppelConsumer({
      config,
      logger,
      hooks: {
        onError: (e) => errors.push(e.code),
        onPause: () => {
          pauses++;
        },
      },
    });
    await consumer.start();
    await waitFor(() => consumer.ready(), 30_000, 'group join');
    const stream = knownStream({ originals: 20, prefix: input });
    const producer = kafka.producer();
    await producer.connect();
    const send = (messages: readonly StreamMessage[]) =>
      producer.send({
        topic: input,
        acks: -1,
        messages: messages.map((m) => ({ partition: m.partition, key: m.key ?? null, value: m.value })),
      });
    await send(stream.phase1);
    await waitForCommitted(admin, group, input);

    process.kill(redis.pid, 'SIGSTOP');
    // Only messages that need the store (a batch of dead letters alone needs no store and may pass).
    const phase2 = stream.phase2.filter((m) => m.expect.verdict !== 'invalid');
    await send(phase2);
    await waitFor(() => consumer.status().state === 'paused', 20_000, 'paused');
    expect(consumer.ready()).toBe(false);
    // Nothing of phase 2 is committed (or produced) while Redis is down.
    const [committed] = await admin.fetchOffsets({ groupId: group, topics: [input] });
    const committedSum = committed!.partitions.reduce((s, p) => s + Number(p.offset), 0);
    expect(committedSum).toBe(stream.phase1.length);
    expect(await endOffsetSum(admin, `${input}.tagged`)).toBe(stream.phase1.length);

    process.kill(redis.pid, 'SIGCONT');
    await waitForCommitted(admin, group, input);
    await waitFor(() => consumer.status().state === 'running', 10_000, 'resumed');
    expect(pauses).toBeGreaterThanOrEqual(1);
    expect(errors.some((c) => c === 'STORE_TIMEOUT' || c === 'STORE_UNAVAILABLE')).toBe(true);

    const all = [...stream.phase1, ...phase2];
    const tagged = await readTopic(kafka, `${input}.tagged`, { atLeast: all.length, settleMs: 300 });
    expect(tagged.length).toBe(all.length);
    const verdicts = new Map(tagged.map((m) => [m.headers['doppel-id'], m.headers]));
    for (const m of phase2) {
      expect(verdicts.get(m.id)?.['doppel-verdict'], m.id).toBe(m.expect.verdict);
      if (m.expect.verdict !== 'invalid')
        expect(verdicts.get(m.id)?.['doppel-cluster'], m.id).toBe(m.expect.cluster);
    }
    await producer.disconnect();
    await consumer.stop();
  }, 90_000);
});

describe('a crash between the store commit and the offset commit', () => {
  const kafka = testKafka();
  const admin = kafka.admin();
  beforeAll(() => admin.connect());
  afterAll(() => admin.disconnect());

  /**
   * The first life of a consumer: the known stream decided and committed to the store, then
   * "killed" before any offset commit, with its outputs sent (`sent`) or lost (a crash before the
   * send). Then a real consumer (the second life) consumes everything again.
   */
  async function crashAndRestart(name: string, sent: boolean) {
    const input = uniqueName(name);
    const namespace = uniqueNamespace(name);
    const group = uniqueName('group');
    const config = testConsumerConfig({
      consumer: { inputs: [{ topic: input, format: 'json' }], groupId: group, namespace },
    });
    const outputs = await ensureTopics(admin, config.consumer, logger);
    const stream = knownStream({ originals: 24, prefix: input });
    const producer = kafka.producer();
    await producer.connect();
    const offsets = [0, 0, 0, 0];
    const records: InputRecord[][] = [];
    for (const phase of [stream.phase1, stream.phase2]) {
      await producer.send({
        topic: input,
        acks: -1,
        messages: phase.map((m) => ({ partition: m.partition, key: m.key ?? null, value: m.value })),
      });
      records.push(
        phase.map((m) => ({
          topic: input,
          partition: m.partition,
          offset: String(offsets[m.partition]!++),
          key: m.key === undefined ? null : Buffer.from(m.key),
          value: m.value === null ? null : Buffer.from(m.value),
          timestamp: String(Date.now()),
        })),
      );
    }
    await initHashing();
    const store = await openStore(redisUrl(), { config: config.dedup, namespace });
    const processor = new BatchProcessor(
      new MessageFlow(
        new DedupEngine(config.dedup, store),
        new Signer(config.dedup.signatures, LexiconSet.defaults()),
      ),
      {
        mode: 'tag',
        formatOf: () => 'json',
        outputsOf: (t) => outputs.get(t)!,
        maxMessageBytes: 1 << 20,
      },
    );
    for (const batch of records) {
      const result = await processor.process(batch);
      if (sent) await producer.sendBatch({ topicMessages: result.outputs, acks: -1 });
    }
    await store.close();
    await producer.disconnect();

    // The second life consumes everything again (nothing was committed).
    const consumer = new DoppelConsumer({ config, logger });
    await consumer.start();
    await waitForCommitted(admin, group, input);
    const total = stream.phase1.length + stream.phase2.length;
    return { input, consumer, total, invalid: 7 };
  }

  it('replays the batch: the same verdicts again, marked as replays, nothing lost', async () => {
    const { input, consumer, total, invalid } = await crashAndRestart('replay', true);
    const tagged = await readTopic(kafka, `${input}.tagged`, {
      atLeast: 2 * (total - invalid),
      settleMs: 500,
    });
    const dlq = await readTopic(kafka, `${input}.dlq`, { atLeast: 2 * invalid, settleMs: 300 });
    expect(tagged.length + dlq.length).toBe(2 * total);
    const byId = new Map<string, Array<Record<string, string>>>();
    for (const m of tagged)
      byId.set(m.headers['doppel-id']!, [...(byId.get(m.headers['doppel-id']!) ?? []), m.headers]);
    expect(byId.size).toBe(total - invalid);
    for (const [id, copies] of byId) {
      // One first verdict and one replay of it (output partitions interleave the two lives).
      expect(copies, id).toHaveLength(2);
      const first = copies.find((h) => h['doppel-replay'] === undefined);
      const again = copies.find((h) => h['doppel-replay'] === 'true');
      expect(first, id).toBeDefined();
      expect(again, id).toBeDefined();
      expect(again?.['doppel-verdict'], id).toBe(first?.['doppel-verdict']);
      expect(again?.['doppel-cluster'], id).toBe(first?.['doppel-cluster']);
      expect(again?.['doppel-duplicate-of'], id).toBe(first?.['doppel-duplicate-of']);
    }
    expect(consumer.status().counts.replays).toBe(total - invalid);
    await consumer.stop();
  }, 60_000);

  it('with the outputs lost before the send: every verdict and every story event comes again', async () => {
    const { input, consumer, total, invalid } = await crashAndRestart('lostsend', false);
    const tagged = await readTopic(kafka, `${input}.tagged`, { atLeast: total - invalid, settleMs: 500 });
    const stories = await readTopic(kafka, `${input}.stories`, { atLeast: total - invalid, settleMs: 300 });
    expect(tagged).toHaveLength(total - invalid);
    expect(tagged.every((m) => m.headers['doppel-replay'] === 'true')).toBe(true);
    // One story event per valid message (as its first decision made), each for its cluster now.
    const clusterOf = new Map(tagged.map((m) => [m.headers['doppel-id']!, m.headers['doppel-cluster']!]));
    expect(stories).toHaveLength(total - invalid);
    for (const m of stories) {
      const event = JSON.parse(String(m.value)) as {
        type: string;
        clusterId: string;
        messageId: string;
        size: number;
        replay?: boolean;
      };
      expect(event.replay).toBe(true);
      expect(m.headers['doppel-replay']).toBe('true');
      expect(event.clusterId, event.messageId).toBe(clusterOf.get(event.messageId));
      expect(event.type, event.messageId).toBe(event.clusterId === event.messageId ? 'created' : 'grown');
      expect(event.size).toBeGreaterThanOrEqual(event.type === 'created' ? 1 : 2);
    }
    expect(new Set(stories.map((m) => JSON.parse(String(m.value)).messageId)).size).toBe(total - invalid);
    await consumer.stop();
  }, 60_000);
});
