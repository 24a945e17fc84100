import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  type ConsumerProcess,
  countLogLines,
  NEWS_ENTRY,
  spawnConsumer,
  waitForLog,
} from '../support/consumer-process.js';
import { rng } from '../support/engine.js';
import {
  endOffsetSum,
  kafkaBrokers,
  type ReadMessage,
  readTopic,
  testKafka,
  uniqueName,
  waitForCommitted,
} from '../support/kafka.js';
import { knownStream, type StreamMessage } from '../support/kafka-stream.js';
import { redisUrl, uniqueNamespace } from '../support/redis.js';

/**
 * Exactly-once under a crash. The consumer process runs in exactly-once mode (outputs and offsets
 * in one Kafka transaction) with DOPPEL_TEST_HOLD_TRANSACTION_MS: each transaction logs
 * "transaction open" after its outputs are sent and waits before it sends the offsets and
 * commits. The test kills the process (SIGKILL) at a random moment inside that window, after a
 * random number of transactions, several times; the next process with the same transactional id
 * aborts the open transaction and consumes the batch again. A read_committed reader must then see
 * every source offset's output exactly once, and a read_uncommitted reader the aborted copies.
 * DOPPEL_TEST_SEED=<n> replays a run (the seed is printed).
 */
const SEED = Number(process.env.DOPPEL_TEST_SEED ?? 4_242);
const HOLD_MS = 1_500;
const KILLS = 3;
/** The stalled owner's open transaction: long enough to stop the process inside it. */
const FENCE_HOLD_MS = 3_000;

const position = (m: ReadMessage) =>
  `${m.headers['doppel-source-partition']}/${m.headers['doppel-source-offset']}`;

function byPosition(messages: readonly ReadMessage[]): Map<string, ReadMessage[]> {
  const out = new Map<string, ReadMessage[]>();
  for (const m of messages) out.set(position(m), [...(out.get(position(m)) ?? []), m]);
  return out;
}

describe('exactly-once: kill -9 between a transaction’s send and its commit', () => {
  const kafka = testKafka();
  const admin = kafka.admin();
  let dir: string;
  const running: ConsumerProcess[] = [];
  beforeAll(async () => {
    if (!existsSync(NEWS_ENTRY))
      throw new Error(`${NEWS_ENTRY} is missing: run npm run build (npm test does)`);
    dir = mkdtempSync(join(tmpdir(), 'doppel-eos-'));
    await admin.connect();
  });
  afterAll(async () => {
    for (const run of running) if (run.child.exitCode === null) run.child.kill('SIGKILL');
    await admin.disconnect();
    rmSync(dir, { recursive: true, force: true });
  });

  function config(name: string, consumer: Record<string, unknown>): string {
    const file = join(dir, `${name}.json`);
    writeFileSync(file, JSON.stringify({ consumer }));
    return file;
  }

  function start(configFile: string, holdMs: number): ConsumerProcess {
    const run = spawnConsumer({
      DOPPEL_CONFIG: configFile,
      DOPPEL_KAFKA_BROKERS: kafkaBrokers().join(','),
      DOPPEL_REDIS_URL: redisUrl(),
      ...(process.env.DOPPEL_TEST_EOS_LOG ? { DOPPEL_LOG_LEVEL: process.env.DOPPEL_TEST_EOS_LOG } : {}),
      ...(holdMs > 0 ? { DOPPEL_TEST_HOLD_TRANSACTION_MS: String(holdMs) } : {}),
    });
    running.push(run);
    return run;
  }

  async function produce(topic: string, messages: readonly StreamMessage[]): Promise<void> {
    // Idempotent: a send retried under load must not write a message twice.
    const producer = kafka.producer({ idempotent: true, maxInFlightRequests: 1 });
    await producer.connect();
    // Small sends: small record batches, so the 4 KB fetches make many transactions.
    for (let i = 0; i < messages.length; i += 8) {
      await producer.send({
        topic,
        acks: -1,
        messages: messages
          .slice(i, i + 8)
          .map((m) => ({ partition: m.partition, key: m.key ?? null, value: m.value })),
      });
    }
    await producer.disconnect();
  }

  it('read_committed sees each source offset once; the killed transactions are aborted copies', async () => {
    process.stdout.write(`[exactly-once] seed ${SEED} (replay with DOPPEL_TEST_SEED=${SEED})\n`);
    const random = rng(SEED);
    const input = uniqueName('eos-kill');
    const group = uniqueName('eos-group');
    const configFile = config('kill', {
      inputs: [{ topic: input, format: 'json' }],
      groupId: group,
      namespace: uniqueNamespace('eos-kill'),
      exactlyOnce: true,
      // The same transactional id in every life: the next process fences the killed one and aborts
      // its open transaction.
      transactionalId: uniqueName('eos-txn'),
      maxBytesPerPartition: 4096,
      // The killed member holds its partitions until its session times out.
      sessionTimeoutMs: 6000,
    });
    const stream = knownStream({ originals: 40, prefix: input });
    const all = [...stream.phase1, ...stream.phase2];
    await admin.createTopics({ topics: [{ topic: input, numPartitions: 4 }], waitForLeaders: true });
    await produce(input, all);

    const kills: string[] = [];
    const lives: ConsumerProcess[] = [];
    for (let life = 0; life < KILLS; life++) {
      const run = start(configFile, HOLD_MS);
      lives.push(run);
      // After 1 to 3 transactions, at a random moment inside the open window.
      const nth = 1 + Math.floor(random() * 3);
      await waitForLog(run, 'transaction open', nth, 60_000);
      const seenAt = Date.now();
      const delay = Math.floor(random() * HOLD_MS * 0.5);
      await new Promise((r) => setTimeout(r, delay));
      const openCount = countLogLines(run, 'transaction open');
      run.child.kill('SIGKILL');
      expect(await run.exited).toBeNull();
      // Still inside the window of the transaction seen open: no commit happened since.
      expect(Date.now() - seenAt, 'the kill came after the hold ended').toBeLessThan(HOLD_MS);
      kills.push(`life ${life + 1}: transaction ${openCount}, ${delay} ms after it opened`);
    }
    const committedBefore = (await admin.fetchOffsets({ groupId: group, topics: [input] }))[0]!.partitions;
    expect(committedBefore.reduce((s, p) => s + Math.max(0, Number(p.offset)), 0)).toBeLessThan(all.length);

    // The last life has no hold: it finishes the stream and stops on SIGTERM.
    const last = start(configFile, 0);
    lives.push(last);
    try {
      await waitForCommitted(admin, group, input, 90_000);
      await waitForLog(last, 'consumer started');
    } catch (error) {
      last.child.kill('SIGKILL');
      throw new Error(`${(error as Error).message}\n${last.output().slice(-3000)}`);
    }
    last.child.kill('SIGTERM');
    expect(await last.exited, last.output().slice(-3000)).toBe(0);

    const topics = [`${input}.tagged`, `${input}.dlq`];
    const committed: ReadMessage[] = [];
    const uncommitted: ReadMessage[] = [];
    for (const topic of topics) {
      committed.push(...(await readTopic(kafka, topic, { settleMs: 500 })));
      uncommitted.push(...(await readTopic(kafka, topic, { settleMs: 500, readUncommitted: true })));
    }
    expect(await endOffsetSum(admin, input)).toBe(all.length);
    // read_committed: every source offset's output exactly once.
    const once = byPosition(committed);
    const twice = [...once].filter(([, copies]) => copies.length !== 1);
    const claims = lives
      .map(
        (run, i) =>
          `life ${i + 1}: ${run
            .output()
            .split('\n')
            .filter((l) =>
              /"msg":"(partition claimed|joined the consumer group|transaction open|batch left uncommitted|batch failed; retrying|partition claim failed; fetching again)"/.test(
                l,
              ),
            )
            .join('\n')}`,
      )
      .join('\n');
    expect(
      twice.map(([p]) => p),
      `${twice.map(([p, c]) => `${p}: ${c.map((m) => `${m.topic}@${m.offset} replay=${m.headers['doppel-replay'] ?? '-'}`).join(', ')}`).join('; ')}\n${claims}`,
    ).toEqual([]);
    expect(once.size).toBe(all.length);
    expect(new Set(committed.map((m) => m.headers['doppel-id'])).size).toBe(all.length);
    // read_uncommitted: the killed transactions' outputs are there too, aborted (at least one
    // batch per kill), with the same verdicts as the committed copy (the store replays them).
    const seen = byPosition(uncommitted);
    expect(seen.size).toBe(all.length);
    const aborted = uncommitted.length - committed.length;
    process.stdout.write(`[exactly-once] kills: ${kills.join('; ')}; ${aborted} aborted outputs\n`);
    expect(aborted).toBeGreaterThanOrEqual(KILLS);
    for (const [pos, copies] of seen) {
      const kept = once.get(pos)![0]!;
      for (const c of copies) {
        expect(c.headers['doppel-id'], pos).toBe(kept.headers['doppel-id']);
        expect(c.headers['doppel-verdict'], pos).toBe(kept.headers['doppel-verdict']);
        expect(c.headers['doppel-cluster'], pos).toBe(kept.headers['doppel-cluster']);
      }
    }
    // Transaction markers (commits and the aborts) take offsets beyond the messages.
    expect(await endOffsetSum(admin, `${input}.tagged`)).toBeGreaterThan(
      uncommitted.filter((m) => m.topic === `${input}.tagged`).length,
    );
  }, 240_000);

  it('a process that takes a partition over fences its stalled owner, whose transaction is aborted', async () => {
    const input = uniqueName('eos-fence');
    const group = uniqueName('eos-fence-group');
    const configFile = config('fence', {
      inputs: [{ topic: input, format: 'json' }],
      groupId: group,
      namespace: uniqueNamespace('eos-fence'),
      exactlyOnce: true,
      maxBytesPerPartition: 4096,
      sessionTimeoutMs: 6000,
    });
    const stream = knownStream({ originals: 12, partitions: 1, prefix: input });
    await admin.createTopics({ topics: [{ topic: input, numPartitions: 1 }], waitForLeaders: true });
    await produce(input, stream.phase1);

    // The owner stalls (SIGSTOP) inside its first transaction: outputs sent, nothing committed.
    const zombie = start(configFile, FENCE_HOLD_MS);
    await waitForLog(zombie, 'transaction open', 1, 60_000);
    zombie.child.kill('SIGSTOP');
    try {
      // Its session expires; a second process of the group takes the partition over, claims its
      // transactional id and consumes everything.
      const owner = start(configFile, 0);
      await waitForCommitted(admin, group, input, 90_000);
      // The stalled process wakes up: its commit is refused (fenced) at the first attempt; it
      // leaves the batch and goes on running (the partition is the other process's now).
      zombie.child.kill('SIGCONT');
      await waitForLog(zombie, 'batch left uncommitted', 1, 60_000);
      expect(zombie.output()).toMatch(/"attempt":1,"fenced":true/);
      expect(zombie.child.exitCode).toBeNull();
      expect(countLogLines(zombie, 'transaction open')).toBe(1);
      for (const run of [owner, zombie]) {
        run.child.kill('SIGTERM');
        expect(await run.exited, run.output().slice(-3000)).toBe(0);
      }
    } finally {
      zombie.child.kill('SIGCONT');
    }
    // read_committed: each message once; read_uncommitted: the stalled process's aborted copies too.
    const committed = await readTopic(kafka, `${input}.tagged`, {
      atLeast: stream.phase1.length,
      settleMs: 500,
    });
    expect(committed.map((m) => m.headers['doppel-id']).sort()).toEqual(
      stream.phase1.map((m) => m.id).sort(),
    );
    const all = await readTopic(kafka, `${input}.tagged`, { settleMs: 500, readUncommitted: true });
    expect(all.length).toBeGreaterThan(committed.length);
    expect(all[0]?.headers['doppel-source-offset']).toBe('0');
  }, 180_000);
});
