import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type Admin, Kafka, logLevel, type Producer } from 'kafkajs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type LocalKafka, startLocalKafka } from '../../src/dev/kafka-broker.js';
import { type LocalRedis, startLocalRedis } from '../../src/dev/redis-server.js';
import { type ConsumerProcess, NEWS_ENTRY, spawnConsumer } from '../support/consumer-process.js';
import { rng } from '../support/engine.js';
import { type ReadMessage, readTopic } from '../support/kafka.js';
import { type ChaosMessage, chaosStream } from './support/chaos-stream.js';
import { INPUT_ERROR_CODES } from './support/hostile.js';
import { faultSeed } from './support/seed.js';

/**
 * Kafka chaos with the real broker and the real redis-server, both started (and restarted) by this
 * suite: 20,000 messages over 4 partitions through two news consumer processes (dist/consumers/
 * news.js) on the Redis store, while consumers are killed with SIGKILL at seeded random points
 * (and restarted), Redis is killed and restarted (AOF persistence, fsync always: the index
 * survives) and the broker is restarted. Phase 1 runs at-least-once, phase 2 exactly-once
 * (Kafka transactions: there, each input position's output is read once). Then, from the output topics: every id in is out (tagged
 * + duplicates + dlq), no id has two different verdicts, no valid message is in the dlq, and the
 * verdicts are the ones the stream was built to get.
 */

const SEED = faultSeed('kafka chaos', 12_012);
const SCALE = Number(process.env.DOPPEL_FAULTS_CHAOS_SCALE ?? 1);
const PARTITIONS = 4;
const PREFIX = `chaos${SEED}`;
const stream = chaosStream({
  seed: SEED,
  prefix: PREFIX,
  originals: Math.round(12_000 * SCALE),
  invalid1: Math.round(100 * SCALE),
  copies: Math.round(3_000 * SCALE),
  nears: Math.round(3_000 * SCALE),
  replays: Math.round(1_500 * SCALE),
  invalid2: Math.round(400 * SCALE),
  partitions: PARTITIONS,
});
const ALL = [...stream.phase1, ...stream.phase2];

const log = (line: string) => process.stdout.write(`[chaos] ${line}\n`);

interface Proc extends ConsumerProcess {
  name: string;
  /** Killed or stopped by the test (any other exit is unexpected). */
  intended: boolean;
}

// No skip without java or redis-server: the suite fails with the launcher's reason (npm run
// test:faults installs both through scripts/ensure-servers.sh).
describe('Kafka chaos: kill -9 consumers, restart Redis and the broker', () => {
  let dir: string;
  let kafka: LocalKafka;
  let redis: LocalRedis;
  const redisSettings = (dataDir: string) => ({
    dir: dataDir,
    appendonly: 'yes',
    appendfsync: 'always',
  });
  let client: Kafka;
  let admin: Admin;
  let configFile: string;
  const input = `${PREFIX}-news`;
  const group = `${PREFIX}-group`;
  const procs = new Map<string, Proc>();
  const unexpected: string[] = [];
  let stopping = false;

  beforeAll(async () => {
    if (!existsSync(NEWS_ENTRY))
      throw new Error(`${NEWS_ENTRY} is missing: run npm run build (npm run test:faults does)`);
    dir = mkdtempSync(join(tmpdir(), 'doppel-chaos-'));
    mkdirSync(join(dir, 'redis'));
    const started = performance.now();
    [kafka, redis] = await Promise.all([
      startLocalKafka({ dir: join(dir, 'kafka') }),
      startLocalRedis({ settings: redisSettings(join(dir, 'redis')) }),
    ]);
    log(
      `broker ${kafka.broker}, redis ${redis.url} (AOF, fsync always) up in ${((performance.now() - started) / 1000).toFixed(1)} s`,
    );
    client = new Kafka({ clientId: 'doppel-chaos', brokers: [kafka.broker], logLevel: logLevel.NOTHING });
    admin = client.admin();
    await admin.connect();
    configFile = join(dir, 'consumer.json');
    writeFileSync(
      configFile,
      JSON.stringify({
        consumer: {
          inputs: [{ topic: input, format: 'json' }],
          groupId: group,
          namespace: `${PREFIX}-ns`,
          // Small fetches: many batches, so every fault lands in the middle of some.
          maxBytesPerPartition: 16_384,
          // A killed member holds its partitions until its session times out.
          sessionTimeoutMs: 6_000,
          retryInitialMs: 100,
          retryMaxMs: 2_000,
        },
        redis: { commandTimeoutMs: 2_000 },
      }),
    );
  }, 300_000);

  afterAll(async () => {
    stopping = true;
    for (const p of procs.values()) {
      p.intended = true;
      if (p.child.exitCode === null && p.child.signalCode === null) p.child.kill('SIGKILL');
    }
    await admin?.disconnect().catch(() => undefined);
    await kafka?.kill();
    await redis?.stop();
    if (dir) rmSync(dir, { recursive: true, force: true });
  }, 120_000);

  function startConsumer(
    name: string,
    options: { config?: string; env?: Record<string, string>; supervise?: boolean } = {},
  ): Proc {
    const run = spawnConsumer(
      {
        DOPPEL_CONFIG: options.config ?? configFile,
        DOPPEL_KAFKA_BROKERS: kafka.broker,
        DOPPEL_REDIS_URL: redis.url,
        ...options.env,
      },
      { keepOutput: 8_000 },
    );
    const { child } = run;
    const proc: Proc = { name, ...run, intended: false };
    procs.set(name, proc);
    // What Kubernetes does: a consumer that exits on its own is started again (and counted).
    void proc.exited.then((code) => {
      if (proc.intended || stopping || options.supervise === false) return;
      unexpected.push(`${name} exited ${String(code ?? child.signalCode)}: ${proc.output().slice(-1500)}`);
      log(`${name} exited on its own (${String(code ?? child.signalCode)}); restarting it`);
      setTimeout(() => {
        if (!stopping) startConsumer(name);
      }, 1_000);
    });
    return proc;
  }

  async function kill9(name: string): Promise<void> {
    const proc = procs.get(name)!;
    proc.intended = true;
    proc.child.kill('SIGKILL');
    await proc.exited;
    startConsumer(name);
  }

  async function restartRedis(): Promise<void> {
    const port = redis.port;
    process.kill(redis.pid, 'SIGKILL');
    await redis.stop();
    // Down for a while: the consumers see STORE_UNAVAILABLE, pause and retry.
    await new Promise((r) => setTimeout(r, 2_000));
    redis = await startLocalRedis({ port, settings: redisSettings(join(dir, 'redis')) });
  }

  async function restartBroker(): Promise<void> {
    const { port, controllerPort } = kafka;
    await admin.disconnect().catch(() => undefined);
    await kafka.stop();
    kafka = await startLocalKafka({ port, controllerPort, dir: join(dir, 'kafka') });
    admin = client.admin();
    await admin.connect();
  }

  /** Offsets the group has committed on the input (0 while the broker cannot say). */
  let lastCommitted = 0;
  async function committed(): Promise<number> {
    try {
      const [offsets] = await admin.fetchOffsets({ groupId: group, topics: [input] });
      lastCommitted = (offsets?.partitions ?? []).reduce((s, p) => s + Math.max(0, Number(p.offset)), 0);
    } catch {}
    return lastCommitted;
  }

  async function produce(producer: Producer, messages: readonly ChaosMessage[]): Promise<void> {
    for (let i = 0; i < messages.length; i += 500) {
      await producer.send({
        topic: input,
        acks: -1,
        messages: messages
          .slice(i, i + 500)
          .map((m) => ({ partition: m.partition, key: m.id, value: m.value })),
      });
    }
  }

  interface Fault {
    name: string;
    /** Fraction of the phase's messages committed when it is due. */
    at: number;
    run: () => Promise<void>;
  }
  const fired: string[] = [];

  /** Runs the faults in order as the group's commits pass their points, until `total` is committed. */
  async function runPhase(
    label: string,
    base: number,
    total: number,
    faults: Fault[],
    timeoutMs: number,
  ): Promise<void> {
    const started = performance.now();
    const deadline = Date.now() + timeoutMs;
    const queue = [...faults].sort((a, b) => a.at - b.at);
    for (;;) {
      const done = (await committed()) - base;
      const next = queue[0];
      if (next && done >= next.at * total) {
        queue.shift();
        // Mid-stream: the phase is not finished when the fault strikes.
        expect(done, `${next.name} came after the end of ${label}`).toBeLessThan(total);
        const t = performance.now();
        await next.run();
        const line = `${label}: ${next.name} at ${done}/${total} committed (planned ${(next.at * 100).toFixed(0)}%), ${((performance.now() - t) / 1000).toFixed(1)} s`;
        fired.push(line);
        log(line);
        continue;
      }
      if (done >= total && queue.length === 0) break;
      if (Date.now() > deadline) {
        const tails = [...procs.values()].map((p) => `--- ${p.name}\n${p.output().slice(-2500)}`).join('\n');
        throw new Error(`${label}: ${done}/${total} committed after ${timeoutMs / 1000} s\n${tails}`);
      }
      await new Promise((r) => setTimeout(r, 50));
    }
    log(`${label}: ${total} messages committed in ${((performance.now() - started) / 1000).toFixed(1)} s`);
  }

  it('loses nothing, never gives an id two verdicts, and sends no valid message to the dlq', async () => {
    const random = rng(SEED);
    const between = (lo: number, hi: number) => lo + random() * (hi - lo);
    const pick = () => (random() < 0.5 ? 'consumer-a' : 'consumer-b');
    const t0 = performance.now();
    await admin.createTopics({
      topics: [{ topic: input, numPartitions: PARTITIONS }],
      waitForLeaders: true,
    });
    const producer = client.producer({ idempotent: true });
    await producer.connect();
    await produce(producer, stream.phase1);
    await producer.disconnect();
    log(`seed ${SEED}: phase 1 produced (${stream.phase1.length} messages)`);

    startConsumer('consumer-a');
    startConsumer('consumer-b');
    const n1 = stream.phase1.length;
    await runPhase(
      'phase 1',
      0,
      n1,
      [
        { name: 'kill -9 a consumer', at: between(0.1, 0.3), run: () => kill9(pick()) },
        { name: 'kill -9 and restart redis-server', at: between(0.35, 0.55), run: restartRedis },
        { name: 'kill -9 a consumer', at: between(0.6, 0.85), run: () => kill9(pick()) },
      ],
      600_000,
    );

    // Phase 2 in exactly-once mode: both consumers stop (SIGTERM drains, exit 0) and start again
    // with exactlyOnce (their restarts too), so phase 2's kill -9 and broker restart land on
    // transactions.
    for (const name of ['consumer-a', 'consumer-b']) {
      const p = procs.get(name)!;
      p.intended = true;
      p.child.kill('SIGTERM');
      expect(await p.exited, `${name}:\n${p.output().slice(-3000)}`).toBe(0);
    }
    const eosConfig = join(dir, 'consumer-eos.json');
    const settings = JSON.parse(readFileSync(configFile, 'utf8')) as { consumer: Record<string, unknown> };
    writeFileSync(
      eosConfig,
      JSON.stringify({ ...settings, consumer: { ...settings.consumer, exactlyOnce: true } }),
    );
    configFile = eosConfig;
    const phase1End = new Map(
      (await admin.fetchTopicOffsets(input)).map((o) => [o.partition, Number(o.high)] as const),
    );
    startConsumer('consumer-a');
    startConsumer('consumer-b');

    // Phase 2 after phase 1 is decided: copies and near-duplicates meet their originals.
    const producer2 = client.producer({ idempotent: true });
    await producer2.connect();
    await produce(producer2, stream.phase2);
    await producer2.disconnect();
    log(`phase 2 produced (${stream.phase2.length} messages)`);
    await runPhase(
      'phase 2',
      n1,
      stream.phase2.length,
      [
        { name: 'restart the broker', at: between(0.1, 0.35), run: restartBroker },
        { name: 'kill -9 a consumer', at: between(0.5, 0.8), run: () => kill9(pick()) },
      ],
      600_000,
    );

    // A clean stop: SIGTERM drains and exits 0.
    stopping = true;
    for (const p of procs.values()) {
      if (p.child.exitCode !== null || p.child.signalCode !== null) continue;
      p.intended = true;
      p.child.kill('SIGTERM');
      expect(await p.exited, `${p.name}:\n${p.output().slice(-3000)}`).toBe(0);
    }
    const processedS = (performance.now() - t0) / 1000;

    // Count from the output topics.
    const reader = client;
    const dlqWant = ALL.filter((m) => m.expect.verdict === 'invalid').length;
    const tagged = await readTopic(reader, `${input}.tagged`, {
      atLeast: ALL.length - dlqWant,
      settleMs: 2_000,
      timeoutMs: 180_000,
    });
    const duplicates = await readTopic(reader, `${input}.duplicates`, { settleMs: 1_000 });
    const dlq = await readTopic(reader, `${input}.dlq`, {
      atLeast: dlqWant,
      settleMs: 1_000,
      timeoutMs: 60_000,
    });
    const outputs: ReadMessage[] = [...tagged, ...duplicates, ...dlq];

    // 1. Nothing lost: every input position has an output, and every id in is an id out.
    const positions = new Set(
      outputs.map((m) => `${m.headers['doppel-source-partition']}/${m.headers['doppel-source-offset']}`),
    );
    expect(positions.size, 'input positions with an output').toBe(ALL.length);
    // Phase 2 ran in exactly-once mode: a read_committed reader (readTopic) sees each of its
    // positions once, kill -9 and broker restart notwithstanding.
    const phase2Seen = new Map<string, number>();
    for (const m of outputs) {
      const partition = Number(m.headers['doppel-source-partition']);
      if (Number(m.headers['doppel-source-offset']) < (phase1End.get(partition) ?? 0)) continue;
      const at = `${partition}/${m.headers['doppel-source-offset']}`;
      phase2Seen.set(at, (phase2Seen.get(at) ?? 0) + 1);
    }
    expect(phase2Seen.size, 'phase 2 positions with an output').toBe(stream.phase2.length);
    const phase2Twice = [...phase2Seen].filter(([, n]) => n > 1).map(([at]) => at);
    if (process.env.DEBUG_CHAOS) {
      for (const u of unexpected) log(`unexpected exit: ${u.slice(0, 3000)}`);
      for (const at of phase2Twice.slice(0, 40)) {
        const copies = outputs.filter(
          (m) => `${m.headers['doppel-source-partition']}/${m.headers['doppel-source-offset']}` === at,
        );
        log(
          `twice ${at}: ${copies.map((m) => `${m.topic}:${m.partition}@${m.offset} t=${m.timestamp} replay=${m.headers['doppel-replay'] ?? '-'}`).join(' | ')}`,
        );
      }
    }
    expect(phase2Twice.slice(0, 20), `${phase2Twice.length} phase 2 positions seen twice`).toEqual([]);
    const idsIn = new Set(ALL.map((m) => m.id));
    const idsOut = new Set(outputs.map((m) => m.headers['doppel-id'] as string));
    const lost = [...idsIn].filter((id) => !idsOut.has(id));
    const extra = [...idsOut].filter((id) => !idsIn.has(id));
    expect(lost, 'ids in, never out').toEqual([]);
    expect(extra, 'ids out, never in').toEqual([]);

    // 2. One verdict per id: replays and re-sends repeat the first (verdict, match, cluster).
    const byId = new Map<string, Set<string>>();
    for (const m of outputs) {
      const h = m.headers;
      const key = [
        h['doppel-verdict'],
        h['doppel-duplicate-of'] ?? '',
        h['doppel-cluster'] ?? '',
        h['doppel-error-code'] ?? '',
      ].join('|');
      const id = h['doppel-id'] as string;
      byId.set(id, (byId.get(id) ?? new Set()).add(key));
    }
    const twoVerdicts = [...byId]
      .filter(([, v]) => v.size > 1)
      .map(([id, v]) => `${id}: ${[...v].join(' / ')}`);
    expect(twoVerdicts, 'ids with two different verdicts').toEqual([]);

    // 3. The dlq holds only invalid input, each with an input error code.
    const invalidIds = new Set(ALL.filter((m) => m.expect.verdict === 'invalid').map((m) => m.id));
    const validInDlq = dlq.filter((m) => !invalidIds.has(m.headers['doppel-id'] as string));
    expect(
      validInDlq.map(
        (m) =>
          `${m.headers['doppel-id']}: ${m.headers['doppel-error-code']} ${m.headers['doppel-error-reason']}`,
      ),
      'valid messages in the dlq',
    ).toEqual([]);
    for (const m of dlq)
      expect(INPUT_ERROR_CODES as readonly string[]).toContain(m.headers['doppel-error-code']);

    // 4. And the verdicts the stream was built for.
    const first = new Map<string, Record<string, string>>();
    for (const m of outputs)
      if (!first.has(m.headers['doppel-id'] as string))
        first.set(m.headers['doppel-id'] as string, m.headers);
    const wrong: string[] = [];
    let nearMissed = 0;
    for (const m of ALL) {
      const h = first.get(m.id)!;
      const e = m.expect;
      const got = `${h['doppel-verdict']} of ${h['doppel-duplicate-of'] ?? '-'} (${h['doppel-error-code'] ?? ''})`;
      if (e.verdict === 'unique' && h['doppel-verdict'] !== 'unique')
        wrong.push(`${m.id}: unique, got ${got}`);
      if (e.verdict === 'invalid' && h['doppel-error-code'] !== e.code)
        wrong.push(`${m.id}: ${e.code}, got ${got}`);
      if (
        e.verdict === 'duplicate' &&
        (h['doppel-verdict'] !== 'duplicate' || h['doppel-duplicate-of'] !== e.duplicateOf)
      )
        wrong.push(`${m.id}: duplicate of ${e.duplicateOf}, got ${got}`);
      // Near-duplicates are found by MinHash, a sampling method: a near miss is a quality
      // question (docs/quality.md), not a fault. A match to anything but the original is wrong.
      if (e.verdict === 'near_duplicate') {
        if (h['doppel-verdict'] === 'unique') nearMissed++;
        else if (h['doppel-duplicate-of'] !== e.duplicateOf)
          wrong.push(`${m.id}: near-duplicate of ${e.duplicateOf}, got ${got}`);
      }
    }
    expect(wrong.slice(0, 20), `${wrong.length} wrong verdicts`).toEqual([]);
    const nears = ALL.filter((m) => m.expect.verdict === 'near_duplicate').length;
    expect(nearMissed, 'near-duplicates judged unique').toBeLessThanOrEqual(Math.ceil(nears * 0.02));
    // Re-sent ids came back as replays of their first verdict.
    const resent = stream.phase2.filter((m) => m.expect.verdict === 'replay');
    const replayOutputs = outputs.filter(
      (m) => m.headers['doppel-replay'] === 'true' && resent.some((r) => r.id === m.headers['doppel-id']),
    );
    expect(replayOutputs.length).toBeGreaterThanOrEqual(resent.length);
    // Replays the faults caused: ids decided in Redis whose outputs a killed process never sent.
    const resentIds = new Set(resent.map((m) => m.id));
    const faultReplays = outputs.filter(
      (m) => m.headers['doppel-replay'] === 'true' && !resentIds.has(m.headers['doppel-id'] as string),
    ).length;

    const counts = (ms: ReadMessage[]) => {
      const c: Record<string, number> = {};
      for (const m of ms)
        c[m.headers['doppel-verdict'] as string] = (c[m.headers['doppel-verdict'] as string] ?? 0) + 1;
      return JSON.stringify(c);
    };
    log(
      [
        `seed ${SEED}: ${ALL.length} messages in (${idsIn.size} distinct ids) over ${PARTITIONS} partitions; processed with faults in ${processedS.toFixed(1)} s, ${((performance.now() - t0) / 1000).toFixed(1)} s with the read-back`,
        `faults: ${fired.length}; consumers that exited on their own: ${unexpected.length}`,
        `out: tagged ${tagged.length} ${counts(tagged)}, duplicates ${duplicates.length}, dlq ${dlq.length}; distinct ids out ${idsOut.size} = in ${idsIn.size}; outputs sent more than once ${outputs.length - ALL.length} (phase 1, at-least-once; phase 2, exactly-once: 0); replayed verdicts (decided, then the process died before sending) ${faultReplays}`,
        `ids with two verdicts 0, valid messages in the dlq 0, near-duplicates judged unique ${nearMissed}/${nears}`,
      ].join('\n[chaos] '),
    );
    for (const u of unexpected) log(`unexpected exit: ${u.slice(0, 600)}`);
  }, 1_500_000);
  it('a Redis restarted without its data stops the consumer with STORE_DATA_LOST until an operator resets the namespace', async () => {
    stopping = false;
    const wipeInput = `${PREFIX}-wipe`;
    const wipeGroup = `${PREFIX}-wipe-group`;
    const wipeConfig = join(dir, 'wipe.json');
    writeFileSync(
      wipeConfig,
      JSON.stringify({
        consumer: {
          inputs: [{ topic: wipeInput, format: 'json' }],
          groupId: wipeGroup,
          namespace: `${PREFIX}-wipe-ns`,
          sessionTimeoutMs: 6_000,
        },
        redis: { commandTimeoutMs: 2_000 },
      }),
    );
    const wipeStream = chaosStream({
      seed: SEED + 1,
      prefix: `${PREFIX}w`,
      originals: 400,
      copies: 200,
      nears: 0,
      replays: 0,
      invalid1: 0,
      invalid2: 0,
      partitions: PARTITIONS,
    });
    await admin.createTopics({
      topics: [{ topic: wipeInput, numPartitions: PARTITIONS }],
      waitForLeaders: true,
    });
    const groupCommitted = async () => {
      const [offsets] = await admin.fetchOffsets({ groupId: wipeGroup, topics: [wipeInput] });
      return (offsets?.partitions ?? []).reduce((s, p) => s + Math.max(0, Number(p.offset)), 0);
    };
    const waitCommitted = async (n: number, what: string, proc: Proc) => {
      const deadline = Date.now() + 120_000;
      while ((await groupCommitted()) < n) {
        if (Date.now() > deadline || proc.child.exitCode !== null)
          throw new Error(`${what}: ${await groupCommitted()}/${n} committed\n${proc.output().slice(-3000)}`);
        await new Promise((r) => setTimeout(r, 100));
      }
    };
    const producer = client.producer({ idempotent: true });
    await producer.connect();
    const send = (messages: readonly ChaosMessage[]) =>
      producer.send({
        topic: wipeInput,
        acks: -1,
        messages: messages.map((m) => ({ partition: m.partition, key: m.id, value: m.value })),
      });
    await send(wipeStream.phase1);
    const first = startConsumer('wipe-1', { config: wipeConfig, supervise: false });
    await waitCommitted(wipeStream.phase1.length, 'originals', first);

    // A restart without persistence: the same port, an empty data directory.
    const port = redis.port;
    process.kill(redis.pid, 'SIGKILL');
    await redis.stop();
    mkdirSync(join(dir, 'redis-empty'));
    redis = await startLocalRedis({ port, settings: redisSettings(join(dir, 'redis-empty')) });
    const t = performance.now();
    await send(wipeStream.phase2);
    // Exits 1 at once, dead-lettering nothing and committing nothing.
    expect(await first.exited, first.output().slice(-3000)).toBe(1);
    const stoppedS = (performance.now() - t) / 1000;
    expect(first.output()).toContain('STORE_DATA_LOST');
    expect(await groupCommitted()).toBe(wipeStream.phase1.length);
    // A restart is refused the same way.
    const second = startConsumer('wipe-2', { config: wipeConfig, supervise: false });
    expect(await second.exited, second.output().slice(-3000)).toBe(1);
    expect(second.output()).toContain('STORE_DATA_LOST');
    expect(await groupCommitted()).toBe(wipeStream.phase1.length);
    const dlqBefore = await readTopic(client, `${wipeInput}.dlq`, { settleMs: 500 });
    expect(dlqBefore).toEqual([]);
    const taggedBefore = await readTopic(client, `${wipeInput}.tagged`, {
      atLeast: wipeStream.phase1.length,
      settleMs: 500,
    });
    const copies = new Set(wipeStream.phase2.map((m) => m.id));
    expect(taggedBefore.filter((m) => copies.has(m.headers['doppel-id'] as string))).toEqual([]);

    // The operator accepts the loss: the namespace starts anew and the stream goes on.
    const third = startConsumer('wipe-3', {
      config: wipeConfig,
      supervise: false,
      env: { DOPPEL_RESET_NAMESPACE: '1' },
    });
    await waitCommitted(wipeStream.phase1.length + wipeStream.phase2.length, 'after the reset', third);
    third.intended = true;
    third.child.kill('SIGTERM');
    expect(await third.exited, third.output().slice(-3000)).toBe(0);
    await producer.disconnect();
    const tagged = await readTopic(client, `${wipeInput}.tagged`, {
      atLeast: wipeStream.phase1.length + wipeStream.phase2.length,
      settleMs: 500,
    });
    const after = tagged.filter((m) => copies.has(m.headers['doppel-id'] as string));
    expect(new Set(after.map((m) => m.headers['doppel-id'])).size).toBe(copies.size);
    log(
      `wipe: consumer stopped with STORE_DATA_LOST ${stoppedS.toFixed(1)} s after the next batch arrived; restart refused; ` +
        `after DOPPEL_RESET_NAMESPACE=1 the ${copies.size} copies of lost originals were judged ${JSON.stringify(
          after.reduce<Record<string, number>>((c, m) => {
            const v = m.headers['doppel-verdict'] as string;
            c[v] = (c[v] ?? 0) + 1;
            return c;
          }, {}),
        )} (the loss an operator accepts)`,
    );
  }, 300_000);
});
