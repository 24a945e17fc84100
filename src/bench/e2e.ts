/**
 * `npm run bench:e2e`: end to end through Kafka. A local KRaft broker and redis-server (or
 * DOPPEL_KAFKA_BROKERS / DOPPEL_REDIS_URL), an input topic with 4 partitions, N news consumer
 * processes (consumers/news.js, the deployable entry point), and this process producing the
 * bench:dedup news stream (Markov-generated articles and 30% near-duplicate variants, 10,000 a
 * day) as fast as the broker takes it. When the group has committed every input offset, the output
 * topics are read back and checked: throughput (first produce to last output), latency (input
 * record CreateTime to the tagged record's CreateTime, both stamped on this machine's clock), lost
 * (input positions with no output) and duplicated (outputs beyond one per input).
 *
 * Environment: BENCH_MESSAGES (200000), BENCH_CONSUMERS (1), BENCH_CONCURRENCY (4 partitions per
 * process), BENCH_RATE (messages/s to produce; 0 = as fast as possible), BENCH_CONSUMER_NODE_ARGS
 * (node flags for the consumer processes, e.g. "--cpu-prof --cpu-prof-dir=DIR"), BENCH_PASSTHROUGH=1
 * (run the Kafka-only baseline, src/bench/passthrough-consumer.ts, instead of the news consumer),
 * BENCH_BASELINE=0 (skip the baseline: by default the same stream first goes through the Kafka-only
 * consumer, and the news consumer's throughput is printed as a ratio of it, both measured in one
 * run on the same machine load), BENCH_SIGN_THREADS (the news consumer's consumer.signThreads),
 * BENCH_STREAM (a JSON Lines file to send instead of the generated stream, e.g. real text:
 * .bench-out/peers-stream.jsonl, which `npm run bench:peers` writes; its first BENCH_MESSAGES lines,
 * all of them by default). After the news pass it prints Redis CPU per message, split by script,
 * and Redis commands per message (src/bench/redis-stats.ts).
 *
 * BENCH_WARMUP (0): messages sent through each consumer process (the baseline's and the news
 * consumer's alike) before the measured stream, so that the figures are a running consumer's and
 * not a fresh process's first messages (V8 compiles the per-message path during the first few
 * thousand). They are the measured stream's messages with other ids, other words and earlier event
 * times (src/bench/warmup-stream.ts), so nothing of the measured stream is indexed before it is
 * measured. CPU, Redis figures, throughput, latency, verdicts and lost count the measured messages
 * only; 0 measures a cold process, as before. BENCH_NEWS_ENTRY runs another build's news consumer
 * (its consumers/news.js) for A/B comparisons.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { cpus } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Redis } from 'ioredis';
import kafkajs, { type Admin, type Kafka } from 'kafkajs';
import { startLocalKafka } from '../dev/kafka-broker.js';
import { startLocalRedis } from '../dev/redis-server.js';
import { HEADER, readHeaders } from '../kafka/headers.js';
import { sharedDataAvailable } from './data.js';
import { endRedisPass, formatRedisPass, startRedisPass } from './redis-stats.js';
import { newsSources, writeStream } from './stream.js';
import { warmupLines } from './warmup-stream.js';

const { Kafka: KafkaClient, logLevel } = kafkajs;
const here = dirname(fileURLToPath(import.meta.url));
const ROOT = resolve(here, '../..');
const OUT = resolve(ROOT, '.bench-out');
const STREAM = process.env.BENCH_STREAM ? resolve(process.env.BENCH_STREAM) : null;
const MESSAGES = Number(process.env.BENCH_MESSAGES ?? (STREAM ? Number.MAX_SAFE_INTEGER : 200_000));
const CONSUMERS = Number(process.env.BENCH_CONSUMERS ?? 1);
const CONCURRENCY = Number(process.env.BENCH_CONCURRENCY ?? 4);
const RATE = Number(process.env.BENCH_RATE ?? 0);
const PARTITIONS = 4;
const PASSTHROUGH = process.env.BENCH_PASSTHROUGH === '1';
const BASELINE = process.env.BENCH_BASELINE !== '0';
const SIGN_THREADS = process.env.BENCH_SIGN_THREADS;
const WARMUP = Number(process.env.BENCH_WARMUP ?? 0);
// BENCH_NEWS_ENTRY: another build's consumers/news.js (a copy of the repository with its dist/),
// to compare two builds' consumers under one harness.
const entryOf = (passthrough: boolean) =>
  passthrough ? 'dist/bench/passthrough-consumer.js' : (process.env.BENCH_NEWS_ENTRY ?? 'consumers/news.js');

/** User + system CPU seconds from a /proc stat file (a process's or a thread's); NaN when unreadable. */
function statSeconds(path: string): number {
  try {
    const stat = readFileSync(path, 'utf8');
    // Fields after the command name (which may hold spaces): utime and stime are the 12th and 13th.
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return (Number(fields[11]) + Number(fields[12])) / CLOCK_TICKS;
  } catch {
    return Number.NaN;
  }
}
const CLOCK_TICKS = 100;

/**
 * CPU seconds (user + system) a live process has used so far, from /proc (Linux); NaN elsewhere.
 * With `mainThreadOnly`, its main thread's alone (the rest is V8's compiler and GC threads and
 * libuv's pool).
 */
function cpuSecondsOf(pid: number | undefined, mainThreadOnly = false): number {
  return statSeconds(mainThreadOnly ? `/proc/${pid}/task/${pid}/stat` : `/proc/${pid}/stat`);
}

/** CPU seconds of a live process's threads by thread name (main, V8 workers, libuv pool, ...). */
function cpuSecondsByThread(pid: number | undefined): Map<string, number> {
  const out = new Map<string, number>();
  try {
    for (const tid of readdirSync(`/proc/${pid}/task`)) {
      const name =
        tid === String(pid) ? 'main' : readFileSync(`/proc/${pid}/task/${tid}/comm`, 'utf8').trim();
      out.set(name, (out.get(name) ?? 0) + statSeconds(`/proc/${pid}/task/${tid}/stat`));
    }
  } catch {
    // The process is gone or /proc is not there: no breakdown.
  }
  return out;
}

function cpuSecondsOfThisProcess(): number {
  const { user, system } = process.cpuUsage();
  return (user + system) / 1e6;
}

function percentile(sorted: Float64Array, p: number): number {
  if (sorted.length === 0) return Number.NaN;
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] as number;
}

async function committedSum(admin: Admin, group: string, topic: string): Promise<number> {
  const [c] = await admin.fetchOffsets({ groupId: group, topics: [topic] });
  return (c?.partitions ?? []).reduce((s, p) => s + Math.max(0, Number(p.offset)), 0);
}

/** Reads every record of `topics` from the beginning (read_committed) with one fresh group. */
async function readAll(
  kafka: Kafka,
  topics: string[],
  expected: number,
  onMessage: (
    topic: string,
    headers: Record<string, string>,
    timestamp: number,
    partition: number,
    offset: bigint,
  ) => void,
): Promise<void> {
  const consumer = kafka.consumer({ groupId: `bench-reader-${Date.now()}`, maxBytesPerPartition: 8 << 20 });
  await consumer.connect();
  await consumer.subscribe({ topics, fromBeginning: true });
  let seen = 0;
  let last = Date.now();
  await consumer.run({
    eachBatch: async ({ batch }) => {
      for (const m of batch.messages) {
        onMessage(
          batch.topic,
          readHeaders(m.headers as Record<string, unknown>),
          Number(m.timestamp),
          batch.partition,
          BigInt(m.offset),
        );
      }
      seen += batch.messages.length;
      last = Date.now();
    },
  });
  while (seen < expected || Date.now() - last < 3000) {
    if (Date.now() - last > 60_000) break;
    await new Promise((r) => setTimeout(r, 200));
  }
  await consumer.disconnect();
}

async function main(): Promise<void> {
  if (!existsSync(resolve(ROOT, 'dist/kafka/entry/news.js'))) throw new Error('run npm run build first');
  mkdirSync(OUT, { recursive: true });
  // A longer stream generated before serves as well: its first MESSAGES lines.
  const longer = readdirSync(OUT)
    .map((f) => /^e2e-stream-(\d+)\.jsonl$/.exec(f))
    .filter((m): m is RegExpExecArray => m !== null && Number(m[1]) >= MESSAGES)
    .sort((a, b) => Number(a[1]) - Number(b[1]))[0];
  const streamFile = STREAM ?? join(OUT, longer ? longer[0] : `e2e-stream-${MESSAGES}.jsonl`);
  if (STREAM && !existsSync(STREAM)) throw new Error(`BENCH_STREAM ${STREAM} does not exist`);
  if (!existsSync(streamFile)) {
    if (!sharedDataAvailable())
      throw new Error(
        'bench:e2e needs the evaluation corpus, DOPPEL_SHARED_DATA (the news the stream is generated from)',
      );
    process.stdout.write(`generating ${MESSAGES} messages -> ${streamFile}\n`);
    await writeStream(streamFile, MESSAGES, Math.max(1, Math.round(MESSAGES / 10_000)), newsSources());
  }
  const lines = readFileSync(streamFile, 'utf8')
    .split('\n')
    .filter((l) => l !== '')
    .slice(0, MESSAGES);
  const bytes = lines.reduce((s, l) => s + Buffer.byteLength(l), 0);
  const warmup = await warmupLines(lines, WARMUP);

  const localKafka = process.env.DOPPEL_KAFKA_BROKERS ? null : await startLocalKafka();
  const localRedis = process.env.DOPPEL_REDIS_URL ? null : await startLocalRedis();
  const brokers = process.env.DOPPEL_KAFKA_BROKERS ?? (localKafka?.broker as string);
  const redisUrl = process.env.DOPPEL_REDIS_URL ?? (localRedis?.url as string);
  const children: ChildProcess[] = [];
  const redisClient = new Redis(redisUrl, { lazyConnect: true });
  try {
    const kafka = new KafkaClient({
      clientId: 'doppel-bench',
      brokers: brokers.split(','),
      logLevel: logLevel.ERROR,
    });
    const admin = kafka.admin();
    await admin.connect();
    await redisClient.connect();
    /** One pass of the stream through a fresh topic and group: the news consumer or the baseline. */
    const measure = async (passthrough: boolean) => {
      const run = `bench-${Date.now().toString(36)}`;
      const input = `${run}.news`;
      const group = `${run}-group`;
      await admin.createTopics({
        topics: [{ topic: input, numPartitions: PARTITIONS }],
        waitForLeaders: true,
      });
      const configFile = join(OUT, `${run}.json`);
      writeFileSync(
        configFile,
        JSON.stringify({
          consumer: {
            inputs: [{ topic: input, format: 'json' }],
            groupId: group,
            namespace: run,
            concurrency: CONCURRENCY,
            ...(SIGN_THREADS !== undefined && !passthrough ? { signThreads: Number(SIGN_THREADS) } : {}),
          },
        }),
      );
      process.stdout.write(
        `bench:e2e: ${lines.length} messages (${Math.round(bytes / lines.length)} bytes on average), ${PARTITIONS} partitions, ` +
          `${CONSUMERS} ${passthrough ? 'Kafka-only pass-through (no signing, no store)' : 'news'} consumer process(es) x ${CONCURRENCY} partitions at a time, ${cpus().length} cores, broker ${brokers}, ${redisUrl}\n`,
      );
      for (let i = 0; i < CONSUMERS; i++) {
        const nodeArgs = process.env.BENCH_CONSUMER_NODE_ARGS?.split(' ').filter((a) => a !== '') ?? [];
        const child = spawn(process.execPath, [...nodeArgs, resolve(ROOT, entryOf(passthrough))], {
          env: {
            ...process.env,
            DOPPEL_CONFIG: configFile,
            DOPPEL_KAFKA_BROKERS: brokers,
            DOPPEL_REDIS_URL: redisUrl,
            DOPPEL_LOG_LEVEL: 'warn',
            DOPPEL_METRICS_PORT: '0',
          },
          stdio: ['ignore', 'inherit', 'inherit'],
        });
        children.push(child);
      }
      // Wait for the group to be up (output topics created, members joined) before producing.
      for (;;) {
        const topics = await admin.listTopics();
        const groups = await admin.describeGroups([group]);
        const members = groups.groups[0]?.members.length ?? 0;
        if (
          topics.includes(`${input}.tagged`) &&
          members === CONSUMERS &&
          groups.groups[0]?.state === 'Stable'
        )
          break;
        await new Promise((r) => setTimeout(r, 200));
      }

      const producer = kafka.producer({ allowAutoTopicCreation: false });
      await producer.connect();
      const chunk = 500;
      /** Sends `batch` in chunks of 500, partitions in turn, at RATE when `paced`. */
      const produce = async (batch: readonly string[], paced: boolean, from: number) => {
        for (let i = 0; i < batch.length; i += chunk) {
          const slice = batch.slice(i, i + chunk);
          await producer.send({
            topic: input,
            acks: -1,
            messages: slice.map((value, j) => ({ value, partition: (i + j) % PARTITIONS })),
          });
          if (paced && RATE > 0) {
            const due = from + ((i + slice.length) / RATE) * 1000;
            const wait = due - Date.now();
            if (wait > 0) await new Promise((r) => setTimeout(r, wait));
          }
        }
      };
      /** Waits until the group has committed `total` input offsets. */
      const committed = async (total: number, since: number) => {
        let lastReport = Date.now();
        for (;;) {
          const done = await committedSum(admin, group, input);
          if (done >= total) return;
          if (Date.now() - lastReport > 10_000) {
            lastReport = Date.now();
            process.stdout.write(
              `  committed ${done}/${total} after ${((Date.now() - since) / 1000).toFixed(0)} s\n`,
            );
          }
          await new Promise((r) => setTimeout(r, 250));
        }
      };
      // The warm-up: through the same process, consumed and committed before anything is measured.
      // Where its records end in each topic, so the read-back counts the measured ones only.
      const warmEnds = new Map<string, bigint>();
      if (warmup.length > 0) {
        const warmStarted = Date.now();
        const consumersCpu = () => children.reduce((sum, c) => sum + cpuSecondsOf(c.pid), 0);
        const warmCpu = consumersCpu();
        await produce(warmup, false, warmStarted);
        await committed(warmup.length, warmStarted);
        for (const topic of [input, `${input}.stories`]) {
          for (const e of await admin.fetchTopicOffsets(topic))
            warmEnds.set(`${topic}/${e.partition}`, BigInt(e.high));
        }
        process.stdout.write(
          `warm-up: ${warmup.length} messages in ${((Date.now() - warmStarted) / 1000).toFixed(1)} s, ` +
            `consumer CPU ${Math.round(((consumersCpu() - warmCpu) * 1e6) / warmup.length)} µs per message\n`,
        );
      }
      const warmEnd = (topic: string, partition: number) => warmEnds.get(`${topic}/${partition}`) ?? 0n;
      // Where the CPU goes, per process (the 2 cores are shared by all of them): snapshots now and
      // when the group has committed everything.
      const cpuNow = () => ({
        consumers: children.reduce((s, c) => s + cpuSecondsOf(c.pid), 0),
        consumersMainThread: children.reduce((s, c) => s + cpuSecondsOf(c.pid, true), 0),
        broker: cpuSecondsOf(localKafka?.pid),
        redis: cpuSecondsOf(localRedis?.pid),
        bench: cpuSecondsOfThisProcess(),
      });
      const redisPass = passthrough ? null : await startRedisPass(redisClient);
      const cpuBefore = cpuNow();
      const threadsBefore = cpuSecondsByThread(children[0]?.pid);
      const started = Date.now();
      await produce(lines, true, started);
      const produced = Date.now();
      await producer.disconnect();
      process.stdout.write(
        `produced ${lines.length} in ${((produced - started) / 1000).toFixed(1)} s (${Math.round(lines.length / ((produced - started) / 1000))}/s)\n`,
      );
      await committed(warmup.length + lines.length, started);
      const committedAt = Date.now();
      const cpuAfter = cpuNow();
      // The first consumer process's CPU by thread: what the main thread does and what V8's
      // compiler and GC threads add.
      const threadMicrosPerMessage = Object.fromEntries(
        [...cpuSecondsByThread(children[0]?.pid)]
          .map(([name, seconds]) => [
            name,
            Math.round(((seconds - (threadsBefore.get(name) ?? 0)) * 1e6) / lines.length),
          ])
          .filter(([, micros]) => (micros as number) > 0),
      );
      const redisStats = redisPass ? await endRedisPass(redisClient, redisPass.cpuBefore) : null;
      await redisPass?.restore();
      const cpuMicrosPerMessage = Object.fromEntries(
        (Object.keys(cpuAfter) as (keyof typeof cpuAfter)[]).map((k) => [
          k,
          Math.round(((cpuAfter[k] - cpuBefore[k]) * 1e6) / lines.length),
        ]),
      );
      for (const child of children) child.kill('SIGTERM');
      await Promise.all(
        children.map((c) => new Promise((r) => (c.exitCode !== null ? r(null) : c.once('exit', r)))),
      );
      children.length = 0;

      // Read back every output.
      const latencies = new Float64Array(lines.length);
      let nLatency = 0;
      const seen = new Uint8Array(lines.length);
      const perPartition = new Map<number, number>();
      const offsetsBase: number[] = [];
      const ends = await admin.fetchTopicOffsets(input);
      for (const e of ends)
        perPartition.set(e.partition, Number(BigInt(e.high) - warmEnd(input, e.partition)));
      // Map (partition, offset) to one index: partitions' offsets laid end to end.
      let base = 0;
      for (let p = 0; p < PARTITIONS; p++) {
        offsetsBase[p] = base;
        base += perPartition.get(p) ?? 0;
      }
      let outputs = 0;
      let duplicated = 0;
      let lastOutput = 0;
      const verdicts: Record<string, number> = {};
      let stories = 0;
      await readAll(
        kafka,
        [`${input}.tagged`, `${input}.duplicates`, `${input}.dlq`, `${input}.stories`],
        warmup.length + lines.length,
        (topic, headers, timestamp, partition, offset) => {
          if (topic.endsWith('.stories')) {
            if (offset >= warmEnd(topic, partition)) stories++;
            return;
          }
          const p = Number(headers[HEADER.sourcePartition]);
          const sourceOffset = BigInt(headers[HEADER.sourceOffset] ?? '-1');
          if (sourceOffset < warmEnd(input, p)) return;
          outputs++;
          const index = (offsetsBase[p] ?? 0) + Number(sourceOffset - warmEnd(input, p));
          if (seen[index]) duplicated++;
          else {
            seen[index] = 1;
            latencies[nLatency++] = timestamp - Number(headers[HEADER.sourceTimestamp]);
          }
          const verdict = headers[HEADER.verdict] ?? '?';
          verdicts[verdict] = (verdicts[verdict] ?? 0) + 1;
          if (timestamp > lastOutput) lastOutput = timestamp;
        },
      );
      const lost = seen.reduce((s, v) => s + (v ? 0 : 1), 0);
      const sorted = latencies.subarray(0, nLatency).sort();
      const seconds = (lastOutput - started) / 1000;
      const summary = {
        messages: lines.length,
        warmup: warmup.length,
        consumers: CONSUMERS,
        consumer: passthrough ? 'passthrough' : 'news',
        concurrency: CONCURRENCY,
        rate: RATE || 'max',
        produceSeconds: (produced - started) / 1000,
        endToEndSeconds: seconds,
        committedSeconds: (committedAt - started) / 1000,
        throughput: Math.round(lines.length / seconds),
        latencyMs: {
          p50: percentile(sorted, 50),
          p99: percentile(sorted, 99),
          max: sorted[sorted.length - 1],
        },
        outputs,
        lost,
        duplicated,
        verdicts,
        storyEvents: stories,
        cpuMicrosPerMessage,
        threadMicrosPerMessage,
      };
      process.stdout.write(
        `\nbench:e2e: ${lines.length} messages end to end in ${seconds.toFixed(1)} s = ${summary.throughput} messages/s; ` +
          `latency produce -> output p50 ${summary.latencyMs.p50} ms, p99 ${summary.latencyMs.p99} ms; ` +
          `lost ${lost}, duplicated ${duplicated}; ${JSON.stringify(verdicts)}; ${stories} story events\n` +
          `CPU µs per message (user + system, produce start to last commit): ${JSON.stringify(cpuMicrosPerMessage)}\n` +
          `first consumer process, CPU µs per message by thread: ${JSON.stringify(threadMicrosPerMessage)}\n` +
          (redisStats ? formatRedisPass(redisStats, lines.length) : ''),
      );
      if (redisStats) Object.assign(summary, { redis: redisStats });
      return summary;
    };
    const baseline = PASSTHROUGH || BASELINE ? await measure(true) : null;
    const news = PASSTHROUGH ? null : await measure(false);
    await admin.disconnect();
    const summary = news ?? (baseline as NonNullable<typeof baseline>);
    if (news && baseline) {
      // Both passes in this run, so the machine's load is (about) the same for both.
      const ratio = news.throughput / baseline.throughput;
      // On saturated cores throughput goes as the inverse of the CPU all processes spend per
      // message: the same ratio from CPU, which the machine's other load moves less.
      // (consumersMainThread is part of consumers.)
      const summed = (c: Record<string, number>) =>
        Object.entries(c).reduce(
          (sum, [k, v]) => sum + (k !== 'consumersMainThread' && Number.isFinite(v) ? v : 0),
          0,
        );
      const cpuRatio = summed(baseline.cpuMicrosPerMessage) / summed(news.cpuMicrosPerMessage);
      Object.assign(summary, {
        baseline,
        ratioToBaseline: Number(ratio.toFixed(3)),
        cpuRatioToBaseline: Number(cpuRatio.toFixed(3)),
      });
      process.stdout.write(
        `\nbench:e2e (warm-up ${warmup.length}): news consumer ${news.throughput} messages/s = ${(100 * ratio).toFixed(1)}% of the Kafka-only ` +
          `baseline (${baseline.throughput} messages/s) in this run; lost ${news.lost} (baseline ${baseline.lost})\n` +
          `consumer CPU µs per message: news ${news.cpuMicrosPerMessage.consumers} (main thread ${news.cpuMicrosPerMessage.consumersMainThread}), ` +
          `Kafka-only ${baseline.cpuMicrosPerMessage.consumers} (main thread ${baseline.cpuMicrosPerMessage.consumersMainThread}); ` +
          `all processes: news ${summed(news.cpuMicrosPerMessage)}, Kafka-only ${summed(baseline.cpuMicrosPerMessage)}, ` +
          `ratio ${(100 * cpuRatio).toFixed(1)}%\n`,
      );
    }
    writeFileSync(join(OUT, 'e2e-summary.json'), `${JSON.stringify(summary, null, 2)}\n`);
  } finally {
    for (const child of children) if (child.exitCode === null) child.kill('SIGKILL');
    redisClient.disconnect();
    await localKafka?.stop();
    await localRedis?.stop();
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exitCode = 1;
});
