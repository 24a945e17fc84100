/**
 * `npm run bench:redis`: the default news profile on the Redis store, two client processes, one
 * redis-server (Debian's, started here on a free loopback port with the settings docs/redis.md
 * recommends). The stream is bench:dedup's (new Markov-generated articles and 30% near-duplicate
 * variants), all within one 3-day window so that every message stays indexed and Redis memory per
 * message is the memory of a live message. Each client signs its half first (untimed: signing is
 * bench:signatures' subject); the timed part is the engine on pre-signed messages: index keys,
 * the store round trips, verification and verdicts. Prints messages per second, round trips per
 * batch, Redis memory and Redis CPU per message.
 */
import { fork } from 'node:child_process';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Redis } from 'ioredis';
import { resolveDedupConfig } from '../config/profiles.js';
import { startLocalRedisCluster } from '../dev/redis-cluster.js';
import { startLocalRedis } from '../dev/redis-server.js';
import { DedupEngine, type EngineMessage } from '../engine/engine.js';
import type { DedupStore } from '../engine/types.js';
import { initHashing } from '../hash/xxhash.js';
import { parseMessageLine } from '../input/message.js';
import { LexiconSet } from '../lexicon/lexicon.js';
import { engineMessage, MessageFlow } from '../pipeline/flow.js';
import { signMessage } from '../pipeline/sign.js';
import { Signer } from '../signatures/signer.js';
import { RedisStore } from '../store/redis/store.js';
import { RedisClusterStore } from '../store/redis-cluster/store.js';
import { SHARED_DATA_DIR, sharedDataAvailable } from './data.js';
import { newsSources, writeStream } from './stream.js';

const here = dirname(fileURLToPath(import.meta.url));
const ROOT = resolve(here, '../..');
const OUT = resolve(ROOT, '.bench-out');
const MESSAGES = Number(process.env.BENCH_MESSAGES ?? 100_000);
const CLIENTS = Number(process.env.BENCH_CLIENTS ?? 2);
const NAMESPACE = 'bench';
/** `BENCH_REDIS_CLUSTER=3`: also run the stream on a local Redis Cluster of that many masters. */
const CLUSTER_MASTERS = Number(process.env.BENCH_REDIS_CLUSTER ?? 0);
/**
 * Cluster settings: `redis.slotShards` (default: one shard per master, the cheapest) and
 * `redis.homeShardWeight` (default: the config's) from BENCH_SLOT_SHARDS, BENCH_HOME_SHARD_WEIGHT.
 */
const CLUSTER_REDIS = {
  slotShards: Number(process.env.BENCH_SLOT_SHARDS ?? (CLUSTER_MASTERS || 6)),
  ...(process.env.BENCH_HOME_SHARD_WEIGHT
    ? { homeShardWeight: Number(process.env.BENCH_HOME_SHARD_WEIGHT) }
    : {}),
};

interface ClientReport {
  messages: number;
  seconds: number;
  batches: number;
  roundTrips: number;
  flagged: number;
  /** Candidates verified, summed over messages (the store's buckets decide how many). */
  candidates: number;
  /** CPU time of the client process over the timed part (user + system), µs. */
  cpuMicros: number;
  startedAt: number;
  endedAt: number;
}

async function client(file: string, url: string): Promise<void> {
  const config = resolveDedupConfig('news', { redis: CLUSTER_REDIS });
  await initHashing();
  const signer = new Signer(config.signatures, LexiconSet.defaults());
  // Signed before the timed part; preparing (keys, records) is timed, as the flow does it per batch.
  const inputs: EngineMessage[] = [];
  for (const line of readFileSync(file, 'utf8').split('\n')) {
    if (line === '') continue;
    const message = parseMessageLine(line);
    inputs.push(engineMessage(await signMessage(message, signer), message.ts ?? 0));
  }
  const options = {
    url,
    namespace: NAMESPACE,
    window: config.window,
    limits: config.index,
    redis: config.redis,
  };
  const store: DedupStore = url.includes('+cluster://')
    ? await RedisClusterStore.open(options)
    : await RedisStore.open(options);
  const flow = new MessageFlow(new DedupEngine(config, store), signer);
  process.send?.({ ready: inputs.length });
  await new Promise<void>((go) => process.once('message', () => go()));
  const startedAt = Date.now();
  const cpuBefore = process.cpuUsage();
  const before = (await store.stats()).roundTrips;
  let flagged = 0;
  let candidates = 0;
  let batches = 0;
  for (let i = 0; i < inputs.length; i += config.batchSize) {
    const verdicts = await flow.processMessages(inputs.slice(i, i + config.batchSize));
    for (const v of verdicts) {
      if (v.verdict !== 'unique') flagged++;
      candidates += v.candidates;
    }
    batches++;
  }
  const endedAt = Date.now();
  const cpu = process.cpuUsage(cpuBefore);
  const roundTrips = (await store.stats()).roundTrips - before - 1;
  await store.close();
  const report: ClientReport = {
    messages: inputs.length,
    seconds: (endedAt - startedAt) / 1000,
    batches,
    roundTrips,
    flagged,
    candidates,
    cpuMicros: cpu.user + cpu.system,
    startedAt,
    endedAt,
  };
  process.send?.({ report });
  process.disconnect?.();
}

function info(text: string, field: string): number {
  return Number(new RegExp(`^${field}:([\\d.]+)`, 'm').exec(text)?.[1] ?? Number.NaN);
}

async function main(): Promise<void> {
  if (!sharedDataAvailable()) {
    console.error(
      `bench:redis needs the evaluation corpus (looked in ${SHARED_DATA_DIR}); set DOPPEL_SHARED_DATA`,
    );
    process.exitCode = 2;
    return;
  }
  mkdirSync(OUT, { recursive: true });
  const sources = newsSources();
  const all = resolve(OUT, `redis-stream-${MESSAGES}.jsonl`);
  // 2.5 days: the whole stream stays inside the news profile's 3-day window.
  await writeStream(all, MESSAGES, 2.5, sources);
  const lines = readFileSync(all, 'utf8')
    .split('\n')
    .filter((l) => l !== '');
  const files: string[] = [];
  for (let c = 0; c < CLIENTS; c++) {
    const file = resolve(OUT, `redis-stream-${MESSAGES}-part${c}.jsonl`);
    // Interleaved halves: both clients move through the same hours, as consumers of two partitions do.
    writeFileSync(file, `${lines.filter((_, i) => i % CLIENTS === c).join('\n')}\n`);
    files.push(file);
  }
  if (CLUSTER_MASTERS > 0) {
    console.log(
      `bench:redis: ${lines.length} messages, news profile, ${CLIENTS} client processes; one redis-server, then a ${CLUSTER_MASTERS}-master Redis Cluster (${JSON.stringify(resolveDedupConfig('news', { redis: CLUSTER_REDIS }).redis).replace(/.*("slotShards":\d+).*("homeShardWeight":[\d.]+).*/, '$1, $2')}); node ${process.version}`,
    );
    await clusterMain(files, lines.length);
    return;
  }
  const redis = await startLocalRedis();
  const admin = new Redis(redis.url);
  try {
    const memoryBefore = info(await admin.info('memory'), 'used_memory');
    const cpuText = await admin.info('cpu');
    const cpuBefore = info(cpuText, 'used_cpu_user') + info(cpuText, 'used_cpu_sys');
    console.log(
      `bench:redis: ${lines.length} messages, news profile, ${CLIENTS} client processes, redis-server ${redis.url}; node ${process.version}`,
    );
    const children = files.map((file) =>
      fork(fileURLToPath(import.meta.url), ['--client', file, redis.url], {
        stdio: 'inherit',
        execArgv: process.env.BENCH_CLIENT_NODE_ARGS ? process.env.BENCH_CLIENT_NODE_ARGS.split(' ') : [],
      }),
    );
    const ready = children.map((child) => new Promise<void>((ok) => child.once('message', () => ok())));
    const signStart = Date.now();
    await Promise.all(ready);
    console.log(`signed in ${((Date.now() - signStart) / 1000).toFixed(1)} s (untimed); indexing...`);
    const reports = children.map(
      (child) =>
        new Promise<ClientReport>((ok, fail) => {
          child.on('message', (m: { report?: ClientReport }) => m.report && ok(m.report));
          child.once('exit', (code) => code !== 0 && fail(new Error(`client exited ${code}`)));
        }),
    );
    for (const child of children) child.send('go');
    const results = await Promise.all(reports);
    const total = results.reduce((s, r) => s + r.messages, 0);
    const span =
      (Math.max(...results.map((r) => r.endedAt)) - Math.min(...results.map((r) => r.startedAt))) / 1000;
    const batches = results.reduce((s, r) => s + r.batches, 0);
    const trips = results.reduce((s, r) => s + r.roundTrips, 0);
    const flagged = results.reduce((s, r) => s + r.flagged, 0);
    const memoryAfter = info(await admin.info('memory'), 'used_memory');
    const cpuAfterText = await admin.info('cpu');
    const cpuAfter = info(cpuAfterText, 'used_cpu_user') + info(cpuAfterText, 'used_cpu_sys');
    const [seq, hotEvents] = await admin.hmget(`doppel:{${NAMESPACE}}:meta`, 'seq', 'hot');
    const live = Number(seq);
    const hot = Number(hotEvents);
    const keys = await admin.dbsize();
    console.log(
      '| messages | clients | wall s | messages/s | round trips per batch | Redis bytes per message | Redis CPU µs per message | flagged | hot-bucket events | keys |',
    );
    console.log('|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|');
    console.log(
      `| ${total} | ${CLIENTS} | ${span.toFixed(1)} | ${Math.round(total / span)} | ${(trips / batches).toFixed(2)} | ${Math.round((memoryAfter - memoryBefore) / live)} | ${Math.round(((cpuAfter - cpuBefore) * 1e6) / total)} | ${flagged} | ${hot} | ${keys} |`,
    );
    // Where Redis' time goes: commands called from the scripts are counted on their own too
    // (evalsha's time includes theirs).
    const stats = [...(await admin.info('commandstats')).matchAll(/^cmdstat_(\w+):calls=(\d+),usec=(\d+)/gm)]
      .map(([, name, calls, usec]) => ({ name, calls: Number(calls), usec: Number(usec) }))
      .sort((a, b) => b.usec - a.usec)
      .slice(0, 6);
    console.log(
      `Redis time by command, µs per message (calls per message): ${stats
        .map((c) => `${c.name} ${(c.usec / total).toFixed(1)} (${(c.calls / total).toFixed(2)})`)
        .join(', ')}`,
    );
    // Where the bytes are: MEMORY USAGE (allocator size classes included) of every key, by kind.
    const byKind = new Map<string, number>();
    let cursor = '0';
    do {
      const [next, keys] = await admin.scan(cursor, 'MATCH', `doppel:{${NAMESPACE}}:*`, 'COUNT', 1000);
      cursor = next;
      for (const key of keys) {
        const kind = key.split(':')[2] ?? '?';
        const bytes = Number(await admin.call('MEMORY', 'USAGE', key, 'SAMPLES', '0'));
        byKind.set(kind, (byKind.get(kind) ?? 0) + bytes);
      }
    } while (cursor !== '0');
    const kindNames: Record<string, string> = {
      r: 'records',
      k: 'buckets and ids',
      v: 'verdicts',
      c: 'clusters',
    };
    console.log(
      `Redis bytes per message by key kind (MEMORY USAGE): ${[...byKind]
        .sort((a, b) => b[1] - a[1])
        .map(([kind, bytes]) => `${kindNames[kind] ?? kind} ${(bytes / live).toFixed(1)}`)
        .join(', ')}`,
    );
    const candidates = results.reduce((s, r) => s + r.candidates, 0);
    const clientCpu = results.reduce((s, r) => s + r.cpuMicros, 0);
    console.log(
      `client CPU µs per message (both clients, timed part): ${Math.round(clientCpu / total)}; candidates per message: ${(candidates / total).toFixed(2)}; indexed messages (sequence numbers taken): ${live}; used_memory grew ${((memoryAfter - memoryBefore) / 1e6).toFixed(1)} MB`,
    );
  } finally {
    admin.disconnect();
    await redis.stop();
  }
}

/** The clients on `url`, started together; their reports. */
async function runClients(files: string[], url: string): Promise<ClientReport[]> {
  const children = files.map((file) =>
    fork(fileURLToPath(import.meta.url), ['--client', file, url], {
      stdio: 'inherit',
      execArgv: process.env.BENCH_CLIENT_NODE_ARGS ? process.env.BENCH_CLIENT_NODE_ARGS.split(' ') : [],
    }),
  );
  await Promise.all(children.map((child) => new Promise<void>((ok) => child.once('message', () => ok()))));
  const reports = children.map(
    (child) =>
      new Promise<ClientReport>((ok, fail) => {
        child.on('message', (m: { report?: ClientReport }) => m.report && ok(m.report));
        child.once('exit', (code) => code !== 0 && fail(new Error(`client exited ${code}`)));
      }),
  );
  for (const child of children) child.send('go');
  return Promise.all(reports);
}

/** used_cpu_user + used_cpu_sys of one server, seconds. */
async function serverCpu(port: number): Promise<number> {
  const admin = new Redis(port, '127.0.0.1');
  try {
    const text = await admin.info('cpu');
    return info(text, 'used_cpu_user') + info(text, 'used_cpu_sys');
  } finally {
    admin.disconnect();
  }
}

/**
 * `BENCH_REDIS_CLUSTER=M npm run bench:redis`: the same stream and clients on one redis-server,
 * then on a local Redis Cluster of M masters, BENCH_ROUNDS times (one namespace over redis.slotShards shards), with
 * each server's CPU (INFO cpu) per message: on the cluster the busiest master should need about
 * 1/M of what one server needs (docs/redis.md, "Redis Cluster").
 */
async function clusterMain(files: string[], total: number): Promise<void> {
  // Alternating rounds, each one server then the cluster: CPU per message moves with the machine's
  // load (other processes, caches), so each ratio compares two runs of the same minutes.
  const rounds = Number(process.env.BENCH_ROUNDS ?? 1);
  const rows: string[] = [];
  const ratios: number[] = [];
  for (let round = 1; round <= rounds; round++) {
    let single = 0;
    {
      const redis = await startLocalRedis();
      try {
        const before = await serverCpu(redis.port);
        const results = await runClients(files, redis.url);
        const cpu = ((await serverCpu(redis.port)) - before) * 1e6;
        single = cpu / total;
        rows.push(row(`round ${round}: 1 redis-server`, results, total, [cpu], single));
      } finally {
        await redis.stop();
      }
    }
    const cluster = await startLocalRedisCluster(CLUSTER_MASTERS);
    try {
      const before = await Promise.all(cluster.nodes.map((n) => serverCpu(n.port)));
      const results = await runClients(files, cluster.url);
      const after = await Promise.all(cluster.nodes.map((n) => serverCpu(n.port)));
      const cpus = after.map((a, i) => (a - (before[i] as number)) * 1e6);
      ratios.push(Math.max(...cpus) / total / single);
      rows.push(row(`round ${round}: cluster, ${CLUSTER_MASTERS} masters`, results, total, cpus, single));
    } finally {
      await cluster.stop();
    }
  }
  console.log(
    '| Redis | messages/s | round trips per batch | Redis CPU µs per message, per server | all servers | busiest server ÷ one redis-server | client CPU µs per message | flagged |',
  );
  console.log('|---|---:|---:|---|---:|---:|---:|---:|');
  for (const r of rows) console.log(r);
  const sorted = [...ratios].sort((a, b) => a - b);
  console.log(
    `busiest server ÷ one redis-server, per round: ${ratios.map((r) => r.toFixed(2)).join(', ')}; median ${(sorted[Math.floor(sorted.length / 2)] as number).toFixed(2)}`,
  );
}

function row(name: string, results: ClientReport[], total: number, cpus: number[], single: number): string {
  const span =
    (Math.max(...results.map((r) => r.endedAt)) - Math.min(...results.map((r) => r.startedAt))) / 1000;
  const batches = results.reduce((s, r) => s + r.batches, 0);
  const trips = results.reduce((s, r) => s + r.roundTrips, 0);
  const flagged = results.reduce((s, r) => s + r.flagged, 0);
  const per = cpus.map((c) => c / total);
  const clientCpu = results.reduce((s, r) => s + r.cpuMicros, 0) / total;
  return `| ${name} | ${Math.round(total / span)} | ${(trips / batches).toFixed(2)} | ${per.map((p) => p.toFixed(0)).join(' / ')} | ${per.reduce((a, b) => a + b, 0).toFixed(0)} | ${(Math.max(...per) / single).toFixed(2)} | ${clientCpu.toFixed(0)} | ${flagged} |`;
}

if (process.argv[2] === '--client') await client(process.argv[3] as string, process.argv[4] as string);
else await main();
