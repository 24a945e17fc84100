import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freePort, startLocalRedis } from '../../src/dev/redis-server.js';
import { type ConsumerProcess, spawnConsumer } from '../support/consumer-process.js';
import {
  endOffsetSum,
  kafkaBrokers,
  readTopic,
  testKafka,
  uniqueName,
  waitFor,
  waitForCommitted,
} from '../support/kafka.js';
import { knownStream, type StreamMessage } from '../support/kafka-stream.js';
import { redisUrl, uniqueNamespace } from '../support/redis.js';

/** The news consumer process on the run's broker, reading `configFile`. */
function startConsumer(configFile: string, metricsPort = 0, redis = redisUrl()): ConsumerProcess {
  return spawnConsumer({
    DOPPEL_CONFIG: configFile,
    DOPPEL_KAFKA_BROKERS: kafkaBrokers().join(','),
    DOPPEL_REDIS_URL: redis,
    DOPPEL_METRICS_PORT: String(metricsPort),
  });
}

describe('restart: a consumer process killed in the middle of a stream', () => {
  const kafka = testKafka();
  const admin = kafka.admin();
  let dir: string;
  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'doppel-restart-'));
    await admin.connect();
  });
  afterAll(async () => {
    await admin.disconnect();
    rmSync(dir, { recursive: true, force: true });
  });

  it('loses nothing and never gives one message two different verdicts', async () => {
    const input = uniqueName('restart');
    const group = uniqueName('group');
    const configFile = join(dir, 'consumer.json');
    writeFileSync(
      configFile,
      JSON.stringify({
        consumer: {
          inputs: [{ topic: input, format: 'json' }],
          groupId: group,
          namespace: uniqueNamespace('restart'),
          // Small fetches: many batches, so the kill lands in the middle.
          maxBytesPerPartition: 4096,
          // The killed member holds its partitions until its session times out.
          sessionTimeoutMs: 6000,
        },
      }),
    );
    const stream = knownStream({ originals: 200, prefix: input });
    const producer = kafka.producer();
    await producer.connect();
    // Small sends: many small record batches, so the consumer's 4 KB fetches are small batches and
    // the kill and the SIGTERM land in the middle of the stream.
    const send = async (messages: readonly StreamMessage[]) => {
      for (let i = 0; i < messages.length; i += 8) {
        await producer.send({
          topic: input,
          acks: -1,
          messages: messages
            .slice(i, i + 8)
            .map((m) => ({ partition: m.partition, key: m.key ?? null, value: m.value })),
        });
      }
    };
    await admin.createTopics({ topics: [{ topic: input, numPartitions: 4 }], waitForLeaders: true });
    await send(stream.phase1);

    // 1. Start, let it get some way in, kill -9.
    const first = startConsumer(configFile);
    try {
      await waitFor(
        async () => {
          if (first.child.exitCode !== null) throw new Error(`consumer exited (${first.child.exitCode})`);
          // The topic is being created by the consumer: metadata errors mean "not yet".
          return endOffsetSum(admin, `${input}.tagged`).then(
            (n) => n >= 20,
            () => false,
          );
        },
        45_000,
        'first outputs',
      );
    } catch (error) {
      first.child.kill('SIGKILL');
      throw new Error(`${(error as Error).message}\n${first.output()}`);
    }
    first.child.kill('SIGKILL');
    expect(await first.exited).toBeNull();
    const [committed] = await admin.fetchOffsets({ groupId: group, topics: [input] });
    const committedAtKill = committed!.partitions.reduce((s, p) => s + Math.max(0, Number(p.offset)), 0);
    expect(committedAtKill).toBeLessThan(stream.phase1.length);

    // 2. Start again: it resumes from the committed offsets; then phase 2 of the stream, and a
    //    SIGTERM while phase 2 is being processed: it drains the batch in hand, commits, exits 0.
    const opsPort = await freePort();
    const second = startConsumer(configFile, opsPort);
    try {
      await waitForCommitted(admin, group, input);
      // The operations port (src/telemetry): alive, ready once joined, Prometheus metrics.
      const get = (path: string) => fetch(`http://127.0.0.1:${opsPort}${path}`);
      expect((await get('/healthz')).status).toBe(200);
      await waitFor(async () => (await get('/readyz')).status === 200, 15_000, '/readyz');
      // Ready means both: joined and consuming, and Redis answering.
      const readiness = (await (await get('/readyz')).json()) as { checks: Record<string, string> };
      expect(Object.keys(readiness.checks).sort()).toEqual(['consumer', 'redis']);
      const metrics = await (await get('/metrics')).text();
      expect(metrics).toMatch(/doppel_messages/);
      expect(metrics).toMatch(/doppel_consumer_lag\{[^}]*partition="[0-3]"/);
      const base = await endOffsetSum(admin, `${input}.tagged`);
      await send(stream.phase2);
      await waitFor(
        async () => (await endOffsetSum(admin, `${input}.tagged`)) >= base + 20,
        30_000,
        'phase 2 outputs',
      );
    } catch (error) {
      second.child.kill('SIGKILL');
      throw new Error(`${(error as Error).message}\n${second.output()}`);
    }
    second.child.kill('SIGTERM');
    expect(await second.exited, second.output().slice(-3000)).toBe(0);
    expect(second.output()).toContain('"msg":"stopped"');
    // Never committed past a message without an output.
    const [atTerm] = await admin.fetchOffsets({ groupId: group, topics: [input] });
    const early = [
      ...(await readTopic(kafka, `${input}.tagged`, { settleMs: 500 })),
      ...(await readTopic(kafka, `${input}.dlq`, { settleMs: 300 })),
    ];
    const done = new Set(
      early.map((m) => `${m.headers['doppel-source-partition']}/${m.headers['doppel-source-offset']}`),
    );
    for (const p of atTerm!.partitions) {
      for (let o = 0; o < Number(p.offset); o++)
        expect(done.has(`${p.partition}/${o}`), `${p.partition}/${o}`).toBe(true);
    }
    // ...and the batch in hand when SIGTERM came was committed: no output beyond the commit.
    const committedOf = new Map(atTerm!.partitions.map((p) => [p.partition, Number(p.offset)]));
    for (const m of early) {
      const p = Number(m.headers['doppel-source-partition']);
      expect(Number(m.headers['doppel-source-offset']), `${p}`).toBeLessThan(committedOf.get(p) ?? 0);
    }
    const committedAtTerm = atTerm!.partitions.reduce((s, p) => s + Math.max(0, Number(p.offset)), 0);

    // 3. A third life finishes the stream.
    const third = startConsumer(configFile);
    const t3 = Date.now();
    try {
      await waitForCommitted(admin, group, input);
      if (process.env.DEBUG_RESTART) {
        const [c3] = await admin.fetchOffsets({ groupId: group, topics: [input] });
        const ends = await admin.fetchTopicOffsets(input);
        process.stdout.write(
          `third done after ${Date.now() - t3} ms: ${JSON.stringify(c3!.partitions.map((p) => p.offset))} ends ${JSON.stringify(ends.map((e) => [e.partition, e.high]))}\n`,
        );
      }
    } catch (error) {
      third.child.kill('SIGKILL');
      throw new Error(`${(error as Error).message}\n${third.output()}`);
    }
    await producer.disconnect();
    await waitFor(() => third.output().includes('consumer started'), 30_000, 'third consumer started');
    third.child.kill('SIGTERM');
    expect(await third.exited, third.output().slice(-4000)).toBe(0);
    // The logs name ids and verdicts, never what the messages say (the redacting logger).
    const logs = first.output() + second.output() + third.output();
    expect(logs).toContain('"level":"info"');
    const texts = stream.phase1
      .map((m) => /"text":"([^"]{40})/.exec(String(m.value))?.[1])
      .filter((t): t is string => t !== undefined);
    expect(texts.length).toBeGreaterThan(100);
    for (const text of texts) expect(logs).not.toContain(text);

    const all = [...stream.phase1, ...stream.phase2];
    const tagged = await readTopic(kafka, `${input}.tagged`, { atLeast: all.length - 7, settleMs: 500 });
    const dlq = await readTopic(kafka, `${input}.dlq`, { atLeast: 7, settleMs: 300 });
    const outputs = [...tagged, ...dlq];
    // Nothing lost: every input position has an output (at least once: a batch whose outputs were
    // sent but not committed before the kill is sent again).
    const positions = new Set(
      outputs.map((m) => `${m.headers['doppel-source-partition']}/${m.headers['doppel-source-offset']}`),
    );
    expect(positions.size).toBe(all.length);
    expect(outputs.length).toBeGreaterThanOrEqual(all.length);
    process.stdout.write(
      `[restart] committed at kill ${committedAtKill}/${stream.phase1.length}, at SIGTERM ${committedAtTerm}/${all.length}; ${outputs.length - all.length} outputs sent twice (replays)\n`,
    );
    // No message gets two different verdicts; replays say they are replays.
    const byId = new Map<string, Array<Record<string, string>>>();
    for (const m of outputs) {
      const id = m.headers['doppel-id'] as string;
      byId.set(id, [...(byId.get(id) ?? []), m.headers]);
    }
    expect(byId.size).toBe(all.length);
    if (process.env.DEBUG_RESTART) {
      const count = new Map<string, number>();
      for (const m of outputs) {
        const k = `${m.headers['doppel-source-partition']}/${m.headers['doppel-source-offset']}`;
        count.set(k, (count.get(k) ?? 0) + 1);
      }
      process.stdout.write(
        `twice: ${[...count]
          .filter(([, n]) => n > 1)
          .map(([k]) => k)
          .join(' ')}\n`,
      );
      process.stdout.write(
        `at kill: ${JSON.stringify(committed!.partitions)} at term: ${JSON.stringify(atTerm!.partitions)}\n`,
      );
    }
    for (const [id, copies] of byId) {
      const first = copies[0]!;
      for (const c of copies.slice(1)) {
        expect(c['doppel-verdict'], id).toBe(first['doppel-verdict']);
        expect(c['doppel-cluster'], id).toBe(first['doppel-cluster']);
        expect(c['doppel-duplicate-of'], id).toBe(first['doppel-duplicate-of']);
      }
      // At most one first verdict; every other copy says it is a replay (dead letters are
      // decided again from the same bytes, with the same code).
      if (first['doppel-verdict'] !== 'invalid') {
        expect(copies.filter((c) => c['doppel-replay'] !== 'true').length, id).toBeLessThanOrEqual(1);
      } else {
        expect(new Set(copies.map((c) => c['doppel-error-code'])).size, id).toBe(1);
      }
    }
    // And they are the planned verdicts.
    for (const m of all) {
      const h = byId.get(m.id)![0]!;
      expect(h['doppel-verdict'], m.id).toBe(m.expect.verdict);
      if (m.expect.verdict !== 'invalid') expect(h['doppel-cluster'], m.id).toBe(m.expect.cluster);
    }
  }, 120_000);
});

describe('the consumer process', () => {
  it('refuses an invalid configuration at start-up with exit code 2 and the reason', async () => {
    const env: Record<string, string | undefined> = {
      ...process.env,
      DOPPEL_REDIS_URL: 'redis://127.0.0.1:1',
    };
    delete env.DOPPEL_KAFKA_BROKERS;
    delete env.DOPPEL_CONFIG;
    for (const [extra, reason] of [
      [{}, 'brokers'],
      [{ DOPPEL_KAFKA_BROKERS: 'x:1', DOPPEL_INPUT_TOPICS: 'news:yaml' }, 'inputs.0.format'],
      [{ DOPPEL_KAFKA_BROKERS: 'x:1', DOPPEL_CONCURRENCY: 'lots' }, 'DOPPEL_CONCURRENCY'],
    ] as const) {
      const child = spawn(process.execPath, [resolve(import.meta.dirname, '../../consumers/mail.js')], {
        env: { ...env, ...extra },
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      let stderr = '';
      child.stderr?.on('data', (c: Buffer) => {
        stderr += c.toString();
      });
      const code = await new Promise<number | null>((r) => child.once('exit', (c) => r(c)));
      expect(code, stderr).toBe(2);
      expect(stderr).toContain(reason);
    }
  });
});

describe('the consumer process, stopped while it starts', () => {
  it('exits 0 on SIGTERM while it cannot reach the broker yet', async () => {
    const { child, output, exited } = spawnConsumer({
      DOPPEL_CONFIG: '',
      DOPPEL_KAFKA_BROKERS: '127.0.0.1:1',
      DOPPEL_REDIS_URL: 'redis://127.0.0.1:1',
    });
    // Inside start(): kafkajs has failed to reach the broker and is retrying.
    await waitFor(
      () => output().includes('Failed to connect to seed broker'),
      30_000,
      'the first failed connection',
    );
    child.kill('SIGTERM');
    const started = Date.now();
    expect(await exited, output().slice(-2000)).toBe(0);
    expect(Date.now() - started).toBeLessThan(5_000);
  });
});

describe('the consumer process and its Redis', () => {
  const kafka = testKafka();
  const admin = kafka.admin();
  let dir: string;
  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'doppel-readyz-'));
    await admin.connect();
  });
  afterAll(async () => {
    await admin.disconnect();
    rmSync(dir, { recursive: true, force: true });
  });

  it('answers /readyz 503 while its Redis does not answer, and 200 again when it does', async () => {
    // A Redis of its own, to freeze without touching the other suites' server.
    const redis = await startLocalRedis();
    const input = uniqueName('readyz');
    const configFile = join(dir, 'readyz.json');
    writeFileSync(
      configFile,
      JSON.stringify({
        consumer: {
          inputs: [{ topic: input, format: 'json' }],
          groupId: uniqueName('group'),
          namespace: uniqueNamespace('readyz'),
        },
        // A short command timeout: the probe's answer, not the default 5 s, decides how fast.
        redis: { commandTimeoutMs: 500, maxRetries: 0 },
      }),
    );
    await admin.createTopics({ topics: [{ topic: input, numPartitions: 1 }], waitForLeaders: true });
    const opsPort = await freePort();
    const consumer = startConsumer(configFile, opsPort, redis.url);
    const status = async () => {
      try {
        return (await fetch(`http://127.0.0.1:${opsPort}/readyz`)).status;
      } catch {
        return 0;
      }
    };
    try {
      await waitFor(async () => (await status()) === 200, 30_000, '/readyz 200 with Redis up');
      process.kill(redis.pid, 'SIGSTOP');
      await waitFor(async () => (await status()) === 503, 15_000, '/readyz 503 with Redis frozen');
      process.kill(redis.pid, 'SIGCONT');
      await waitFor(async () => (await status()) === 200, 30_000, '/readyz 200 with Redis back');
      consumer.child.kill('SIGTERM');
      expect(await consumer.exited, consumer.output().slice(-3000)).toBe(0);
    } catch (error) {
      throw new Error(`${(error as Error).message}\n${consumer.output().slice(-3000)}`);
    } finally {
      process.kill(redis.pid, 'SIGCONT');
      if (consumer.child.exitCode === null) consumer.child.kill('SIGKILL');
      await redis.stop();
    }
  });
});
