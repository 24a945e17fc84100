/**
 * `npm run build && node dist/bench/consumer-calls.js [STREAM.jsonl]`: the Redis calls of the
 * Kafka news consumer, without Kafka: Redis CPU and commands per message, and the verdicts, for
 * comparing builds call for call. Default stream: bench:peers' `.bench-out/peers-stream.jsonl`.
 *
 * The batches are the consumer's in bench:e2e: message i goes to partition i mod BENCH_PARTITIONS
 * (4), as bench:e2e's producer sends it, and each round takes the next BENCH_BATCH (250) messages
 * of every partition as one batch each (a fetch's batches; bench:e2e's were 93-375), processed at
 * once as the consumer does with 4 partitions at a time: each batch's engine.process started in one
 * turn, so the index calls are made together; the story reads as each batch reaches them; the
 * commits held until every batch of the round has made its own, then made together in batch
 * order. So two builds make the same calls in the same order, and their verdict lines compare
 * with `cmp` (in bench:e2e the order in which batches reach their commits varies from run to run).
 *
 * BENCH_BUILD=DIR runs another build's engine and store (a copy of the repository with its dist/).
 * BENCH_OUT=FILE writes one line per message: id, verdict, duplicateOf, cluster, similarity,
 * method and story events. A fresh redis-server with the recommended settings
 * (src/dev/redis-server.ts) per run.
 */
import { AsyncLocalStorage } from 'node:async_hooks';
import { readFileSync, writeFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { Redis } from 'ioredis';
import { startLocalRedis } from '../dev/redis-server.js';
import type { EngineVerdict } from '../engine/engine.js';
import type { CommitResult, Decision, DedupStore, IndexRequest } from '../engine/types.js';

const here = dirname(fileURLToPath(import.meta.url));
const ROOT = resolve(here, '../..');
const input = resolve(process.argv[2] ?? resolve(ROOT, '.bench-out/peers-stream.jsonl'));
const BUILD = resolve(process.env.BENCH_BUILD ?? ROOT);
const PARTITIONS = Number(process.env.BENCH_PARTITIONS ?? 4);
const BATCH = Number(process.env.BENCH_BATCH ?? 250);
const OUT = process.env.BENCH_OUT;

/** A module of the build under test. */
const load = <T>(path: string): Promise<T> => import(pathToFileURL(resolve(BUILD, 'dist', path)).href);

/** The rounds: per round, one batch of message positions per partition. */
function rounds(count: number): number[][][] {
  const byPartition: number[][] = Array.from({ length: PARTITIONS }, () => []);
  for (let i = 0; i < count; i++) byPartition[i % PARTITIONS]?.push(i);
  const out: number[][][] = [];
  for (let at = 0; byPartition.some((p) => p.length > at); at += BATCH)
    out.push(byPartition.map((p) => p.slice(at, at + BATCH)).filter((b) => b.length > 0));
  return out;
}

/**
 * The store as the round's batches see it: index calls as they come; commits held until every
 * batch of the round has made one, then made in batch order in one turn.
 */
function roundStore(store: DedupStore, batchOf: AsyncLocalStorage<number>) {
  let held: Array<() => void> = [];
  let size = 0;
  const wrapped: DedupStore = {
    kind: store.kind,
    index: (requests) => store.index(requests),
    query: (requests) => store.query(requests),
    // (Every batch of a fresh namespace commits: its ids are new.)
    commit: (decisions: readonly Decision[]) =>
      new Promise<CommitResult[]>((resolve, reject) => {
        held[batchOf.getStore() ?? 0] = () => {
          store.commit(decisions).then(resolve, reject);
        };
        if (held.filter((f) => f !== undefined).length < size) return;
        const all = held;
        held = [];
        for (const commit of all) commit?.();
      }),
    verdict: (id, options) => store.verdict(id, options),
    cluster: (id) => store.cluster(id),
    verdictsOf: (ids) => store.verdictsOf(ids),
    clustersOf: (lookups) => store.clustersOf(lookups),
    clusterMembers: (id, after, limit) => store.clusterMembers(id, after, limit),
    listClusters: (query) => store.listClusters(query),
    resolveCluster: (id) => store.resolveCluster(id),
    stats: () => store.stats(),
    close: () => store.close(),
  };
  return {
    store: wrapped,
    startRound(batches: number) {
      size = batches;
      held = [];
    },
  };
}

async function main(): Promise<void> {
  const { defaultDedupConfig } = await load<typeof import('../config/defaults.js')>('config/defaults.js');
  const { DedupEngine } = await load<typeof import('../engine/engine.js')>('engine/engine.js');
  const { initHashing } = await load<typeof import('../hash/xxhash.js')>('hash/xxhash.js');
  const { parseMessageLine } = await load<typeof import('../input/message.js')>('input/message.js');
  const { LexiconSet } = await load<typeof import('../lexicon/lexicon.js')>('lexicon/lexicon.js');
  const { MessageFlow } = await load<typeof import('../pipeline/flow.js')>('pipeline/flow.js');
  const { Signer } = await load<typeof import('../signatures/signer.js')>('signatures/signer.js');
  const { RedisStore } = await load<typeof import('../store/redis/store.js')>('store/redis/store.js');

  const config = defaultDedupConfig('news');
  if (!config) throw new Error('run npm run build first (the profile defaults)');
  await initHashing();
  const redis = await startLocalRedis();
  const admin = new Redis(redis.url);
  try {
    const store = await RedisStore.open({
      url: redis.url,
      namespace: 'consumer-calls',
      window: config.window,
      limits: config.index,
      redis: config.redis,
    });
    const batchOf = new AsyncLocalStorage<number>();
    const round = roundStore(store, batchOf);
    const flow = new MessageFlow(
      new DedupEngine(config, round.store),
      new Signer(config.signatures, LexiconSet.defaults()),
    );
    const lines = readFileSync(input, 'utf8')
      .split('\n')
      .filter((l) => l !== '');
    const requests: IndexRequest[] = [];
    for (const line of lines) {
      const message = parseMessageLine(line);
      requests.push(flow.request(message, await flow.decode(message), message.ts ?? 0));
    }
    const cpu = async () => {
      const info = await admin.info('cpu');
      const field = (name: string) => Number(new RegExp(`^${name}:([\\d.]+)`, 'm').exec(info)?.[1]);
      return field('used_cpu_user') + field('used_cpu_sys');
    };
    await admin.config('RESETSTAT');
    const before = await cpu();
    const verdicts: EngineVerdict[] = [];
    const plan = rounds(requests.length);
    let indexCalls = 0;
    for (const batches of plan) {
      round.startRound(batches.length);
      const results = await Promise.all(
        batches.map((positions, k) =>
          batchOf.run(k, () => flow.process(positions.map((i) => requests[i] as IndexRequest))),
        ),
      );
      batches.forEach((positions, k) => {
        positions.forEach((i, j) => {
          verdicts[i] = results[k]?.[j] as EngineVerdict;
        });
      });
      indexCalls += batches.length;
    }
    const cpuSeconds = (await cpu()) - before;
    const stats = [...(await admin.info('commandstats')).matchAll(/^cmdstat_(\w+):calls=(\d+)/gm)]
      .map(([, name, calls]) => ({ name: name as string, calls: Number(calls) }))
      .filter((c) => c.name !== 'evalsha' && c.name !== 'info' && c.name !== 'config');
    const n = requests.length;
    const total = stats.reduce((s, c) => s + c.calls, 0);
    const scripts = /cmdstat_evalsha:calls=(\d+)/.exec(await admin.info('commandstats'))?.[1];
    process.stdout.write(
      `consumer calls: ${n} messages, ${plan.length} rounds of ${PARTITIONS} partition batches of up to ${BATCH} (${indexCalls} batches), build ${BUILD}\n` +
        `Redis CPU ${((cpuSeconds * 1e6) / n).toFixed(1)} µs per message (INFO cpu); ${scripts} script calls; ` +
        `commands per message ${(total / n).toFixed(2)}: ${stats
          .filter((c) => c.calls / n >= 0.01)
          .sort((a, b) => b.calls - a.calls)
          .map((c) => `${c.name} ${(c.calls / n).toFixed(2)}`)
          .join(', ')}\n`,
    );
    if (OUT) {
      const out = verdicts.map((v) =>
        JSON.stringify({
          id: v.id,
          verdict: v.verdict,
          duplicateOf: v.duplicateOf,
          clusterId: v.clusterId,
          similarity: v.similarity,
          method: v.method,
          events: v.events,
        }),
      );
      writeFileSync(OUT, `${out.join('\n')}\n`);
    }
    await store.close();
  } finally {
    admin.disconnect();
    await redis.stop();
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exitCode = 1;
});
