import { Cluster } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { resolveDedupConfig } from '../../../src/config/profiles.js';
import { type LocalRedisCluster, startLocalRedisCluster } from '../../../src/dev/redis-cluster.js';
import { DedupEngine, type EngineMessage } from '../../../src/engine/engine.js';
import type { DedupStore } from '../../../src/engine/types.js';
import { initHashing } from '../../../src/hash/xxhash.js';
import { parseMessageObject } from '../../../src/input/message.js';
import { LexiconSet } from '../../../src/lexicon/lexicon.js';
import { engineMessage } from '../../../src/pipeline/flow.js';
import { signMessage } from '../../../src/pipeline/sign.js';
import { Signer } from '../../../src/signatures/signer.js';
import { MemoryStore } from '../../../src/store/memory/store.js';
import { storedMembers } from '../../../src/store/redis/members.js';
import { RedisStore } from '../../../src/store/redis/store.js';
import { clusterLayout, keySlot } from '../../../src/store/redis-cluster/layout.js';
import { RedisClusterStore } from '../../../src/store/redis-cluster/store.js';
import { editWords, rng, syntheticDoc } from '../../support/engine.js';
import { syndicatedStream, verdictsInBatches } from '../../support/engine-stream.js';
import { redisUrl, uniqueNamespace } from '../../support/redis.js';

const HOUR = 3_600_000;
const REDIS = { shards: 256, clusterShards: 32, slotShards: 6 };
const config = resolveDedupConfig('news', { redis: REDIS });
const T0 = Date.UTC(2026, 10, 1);
let signer: Signer;
let cluster: LocalRedisCluster;
const stores: DedupStore[] = [];

beforeAll(async () => {
  await initHashing();
  signer = new Signer(config.signatures, LexiconSet.defaults());
  cluster = await startLocalRedisCluster(3);
});
afterAll(async () => {
  await Promise.all(stores.map((s) => s.close()));
  await cluster?.stop();
});

async function clusterStore(
  namespace: string,
  redis: Record<string, unknown> = {},
): Promise<RedisClusterStore> {
  const c = resolveDedupConfig('news', { redis: { ...REDIS, ...redis } });
  const store = await RedisClusterStore.open({
    url: cluster.url,
    namespace,
    window: c.window,
    limits: c.index,
    redis: c.redis,
  });
  stores.push(store);
  return store;
}

function stream(seed: number, stories: number, hoursApart: number): Promise<EngineMessage[]> {
  return syndicatedStream(signer, seed, stories, hoursApart, T0);
}

function rec() {
  return {
    lang: 'en',
    tokens: 50,
    exact: '0011223344556677',
    simhash: { hi: 1, lo: 2 },
    minhash: Uint8Array.from({ length: 84 }, (_, i) => i),
    imatch: [],
    lexical: null,
    longest: null,
    heaviest: null,
    terms: null,
  };
}

function run(engine: DedupEngine, inputs: EngineMessage[], batch: number) {
  return verdictsInBatches(engine, inputs, batch, { candidates: true });
}

describe('the engine on Redis Cluster (one namespace over 6 slot shards on 3 masters)', () => {
  it('gives the same verdicts, duplicateOf, clusters and candidates as one Redis and the memory store', async () => {
    // 8+ days in a 3-day window: generations expire and the shards' sweeps run.
    const inputs = await stream(1, 150, 0.5);
    const memory = await run(
      new DedupEngine(config, new MemoryStore(config.window, config.index)),
      inputs,
      32,
    );
    const single = await RedisStore.open({
      url: redisUrl(),
      namespace: uniqueNamespace('same1'),
      window: config.window,
      limits: config.index,
      redis: config.redis,
    });
    stores.push(single);
    const one = await run(new DedupEngine(config, single), inputs, 32);
    const store = await clusterStore(uniqueNamespace('same'));
    const spread = await run(new DedupEngine(config, store), inputs, 32);
    expect(one).toEqual(memory);
    expect(spread).toEqual(memory);
    const stats = await store.stats();
    expect(stats.expiredGenerations).toBeGreaterThan(0);
    expect(stats.messages).toBe((await single.stats()).messages);
    expect(stats.buckets).toBeGreaterThan(0);
    expect(memory.filter((v) => v.verdict !== 'unique').length).toBeGreaterThan(40);
    // Replays: ids still in the window give their first verdicts.
    const again = await new DedupEngine(config, store).processMessages(inputs.slice(-40));
    expect(again.every((v) => v.replay)).toBe(true);
    expect(again.map((v) => [v.id, v.verdict, v.duplicateOf])).toEqual(
      spread.slice(-40).map((v) => [v.id, v.verdict, v.duplicateOf]),
    );
  });

  it('fills buckets as campaigns (first members plus a rolling tail) with the verdicts of one Redis and the memory store', async () => {
    // maxBucketSize 16: a campaign of 40 edited copies fills its buckets (store/hot.ts).
    const c = resolveDedupConfig('news', { redis: REDIS, index: { maxBucketSize: 16 } });
    const random = rng(21);
    const base = syntheticDoc(random, 200, 3000);
    const inputs = await stream(22, 30, 0.05);
    for (let i = 0; i < 40; i++) {
      const words = editWords(random, base, 0.05 + random() * 0.1);
      const signed = await signMessage(
        parseMessageObject({ id: `camp${i}`, text: words.join(' '), lang: 'en' }),
        signer,
      );
      inputs.push(engineMessage(signed, inputs.at(-1)!.ts + 1000));
    }
    const memoryStore = new MemoryStore(c.window, c.index);
    const memory = await run(new DedupEngine(c, memoryStore), inputs, 16);
    const single = await RedisStore.open({
      url: redisUrl(),
      namespace: uniqueNamespace('hot1'),
      window: c.window,
      limits: c.index,
      redis: c.redis,
    });
    stores.push(single);
    const one = await run(new DedupEngine(c, single), inputs, 16);
    const store = await RedisClusterStore.open({
      url: cluster.url,
      namespace: uniqueNamespace('hot'),
      window: c.window,
      limits: c.index,
      redis: c.redis,
    });
    stores.push(store);
    const spread = await run(new DedupEngine(c, store), inputs, 16);
    expect((await memoryStore.stats()).hotBuckets).toBeGreaterThan(0);
    expect((await store.stats()).hotBuckets).toBeGreaterThan(0);
    expect((await store.stats()).hotBucketEvents).toBe((await single.stats()).hotBucketEvents);
    expect(one).toEqual(memory);
    expect(spread).toEqual(memory);
    expect(spread.filter((v) => v.id.startsWith('camp') && v.verdict !== 'unique').length).toBeGreaterThan(
      30,
    );
  });

  it('with homeShardWeight 0 leaves the master of the home shard no buckets, same verdicts', async () => {
    const inputs = await stream(12, 40, 0.1);
    const memory = await run(
      new DedupEngine(config, new MemoryStore(config.window, config.index)),
      inputs,
      16,
    );
    const store = await clusterStore(uniqueNamespace('w0'), { slotShards: 3, homeShardWeight: 0 });
    expect(await run(new DedupEngine(config, store), inputs, 16)).toEqual(memory);
  });

  it('puts the slot shards evenly on the masters: two of six on each of three', async () => {
    const client = new Cluster([{ host: '127.0.0.1', port: cluster.nodes[0]!.port }]);
    try {
      const slots = (await client.cluster('SLOTS')) as unknown as Array<[number, number, [string, number]]>;
      const owner = (slot: number) => slots.find(([a, b]) => slot >= a && slot <= b)?.[2][1];
      const perNode = new Map<number | undefined, number>();
      for (const base of clusterLayout('doppel', 'news', 6).shards) {
        const port = owner(keySlot(`${base}meta`));
        perNode.set(port, (perNode.get(port) ?? 0) + 1);
      }
      expect([...perNode.values()]).toEqual([2, 2, 2]);
      expect(perNode.has(undefined)).toBe(false);
    } finally {
      client.disconnect();
    }
  });

  it('never judges both of two near-duplicates unique when three clients index them at once', async () => {
    const namespace = uniqueNamespace('race');
    const clients = [
      await clusterStore(namespace),
      await clusterStore(namespace),
      await clusterStore(namespace),
    ];
    const engines = clients.map((s) => new DedupEngine(config, s));
    const random = rng(9);
    const triples: Array<[EngineMessage, EngineMessage, EngineMessage]> = [];
    for (let i = 0; i < 40; i++) {
      const base = syntheticDoc(random, 150, 3000);
      const make = async (id: string, words: string[]) =>
        engineMessage(
          await signMessage(parseMessageObject({ id, text: words.join(' '), lang: 'en' }), signer),
          T0 + i * 1000,
        );
      triples.push([
        await make(`r${i}a`, base),
        await make(`r${i}b`, editWords(random, base, 0.03)),
        await make(`r${i}c`, editWords(random, base, 0.04)),
      ]);
    }
    const verdicts = [];
    for (let b = 0; b < triples.length; b += 4) {
      const rounds = triples.slice(b, b + 4);
      const results = await Promise.all(engines.map((e, k) => e.processMessages(rounds.map((t) => t[k]!))));
      for (let r = 0; r < rounds.length; r++) verdicts.push(results.map((res) => res[r]!));
    }
    for (const triple of verdicts) {
      expect(triple.filter((v) => v.verdict === 'unique')).toHaveLength(1);
      const ids = await Promise.all(triple.map((v) => clients[0]!.resolveCluster(v.clusterId)));
      expect(new Set(ids).size).toBe(1);
    }
  });

  it('waits for a lower sequence number in flight, and skips the gap of a client that died holding it', async () => {
    const namespace = uniqueNamespace('gap');
    const store = await clusterStore(namespace, { gapTimeoutMs: 400 });
    const engine = new DedupEngine(config, store);
    const inputs = await stream(5, 12, 0.01);
    await run(engine, inputs.slice(0, 8), 8);
    // A client takes 5 sequence numbers on the home shard and dies before calling the shards.
    const admin = new Cluster([{ host: '127.0.0.1', port: cluster.nodes[0]!.port }]);
    const home = `${clusterLayout('doppel', namespace, 6).home}meta`;
    try {
      await admin.hincrby(home, 'seq', 5);
    } finally {
      admin.disconnect();
    }
    const started = Date.now();
    const rest = await run(engine, inputs.slice(8), 8);
    // It waited the gap timeout, then skipped the dead client's numbers.
    expect(Date.now() - started).toBeGreaterThanOrEqual(400);
    expect(store.gaps.waits).toBeGreaterThan(0);
    expect(store.gaps.skips).toBeGreaterThan(0);
    const gaps = { ...store.gaps };
    const memory = await run(
      new DedupEngine(config, new MemoryStore(config.window, config.index)),
      inputs,
      8,
    );
    expect(rest.map((v) => [v.id, v.verdict, v.duplicateOf])).toEqual(
      memory.slice(8).map((v) => [v.id, v.verdict, v.duplicateOf]),
    );
    // The next batch does not wait again.
    const more = (await stream(6, 4, 0.01)).map((x) => ({
      ...x,
      ts: inputs.at(-1)!.ts + 1,
      id: `m-${x.id}`,
    }));
    await run(engine, more, 8);
    expect(store.gaps).toEqual(gaps);
  });

  it('skips a gap above a pending message of the same batch (no endless wait)', async () => {
    const namespace = uniqueNamespace('gap2');
    const store = await clusterStore(namespace, { gapTimeoutMs: 300 });
    // x indexed, never committed (pending); then a dead client's 5 numbers; then x again with y.
    const [x] = await store.index([
      { id: 'x', ts: T0, keys: [{ table: 'b0', hi: 0, lo: 7 }], record: rec() },
    ]);
    const admin = new Cluster([{ host: '127.0.0.1', port: cluster.nodes[0]!.port }]);
    try {
      await admin.hincrby(`${clusterLayout('doppel', namespace, 6).home}meta`, 'seq', 5);
    } finally {
      admin.disconnect();
    }
    const again = await store.index([
      { id: 'x', ts: T0, keys: [{ table: 'b0', hi: 0, lo: 7 }], record: rec() },
      { id: 'y', ts: T0, keys: [{ table: 'b0', hi: 0, lo: 7 }], record: rec() },
    ]);
    expect(again[0]).toMatchObject({ status: 'pending', seq: x?.status === 'new' ? x.seq : -1 });
    expect(again[1]).toMatchObject({ status: 'new', candidates: [{ id: 'x' }] });
  }, 20_000);

  it('expires whole generations on every shard: the shards sweep their own dead entries', async () => {
    const namespace = uniqueNamespace('expiry');
    const c = resolveDedupConfig('news', {
      redis: REDIS,
      window: { windowMs: 6 * HOUR, generationMs: HOUR, maxMessages: 0 },
    });
    const store = await RedisClusterStore.open({
      url: cluster.url,
      namespace,
      window: c.window,
      limits: c.index,
      redis: c.redis,
    });
    stores.push(store);
    const engine = new DedupEngine(c, store);
    const inputs = await stream(3, 60, 0.25);
    await run(engine, inputs, 8);
    expect((await store.stats()).messages).toBeLessThanOrEqual(28);
    expect(await store.verdict(inputs[0]!.id)).toBeNull();
    const layout = clusterLayout('doppel', namespace, 6, c.redis.homeShardWeight);
    const admin = new Cluster([{ host: '127.0.0.1', port: cluster.nodes[0]!.port }]);
    try {
      const before = Number(await admin.hget(`${layout.home}meta`, 'live'));
      const more = (await stream(4, 110, 0)).map((x, i) => ({
        ...x,
        id: `more-${x.id}`,
        ts: inputs.at(-1)!.ts + i,
      }));
      await run(engine, more, 8);
      let entries = 0;
      for (const [k, base] of layout.shards.entries()) {
        expect(Number(await admin.hget(`${base}meta`, 'live'))).toBeGreaterThanOrEqual(before);
        for (let h = 0; h < REDIS.shards; h++) {
          if (layout.shardOfUnit[h % layout.units] !== k) continue;
          const fields = await admin.hgetallBuffer(`${base}k:${h}`);
          for (const v of Object.values(fields)) {
            for (const member of storedMembers(v)) {
              entries++;
              expect(member).toBeGreaterThanOrEqual(before);
            }
          }
        }
      }
      expect(entries).toBeGreaterThan(0);
    } finally {
      admin.disconnect();
    }
  });

  it('detects a home shard wiped while no client was connected: the shards still hold the old epoch', async () => {
    const namespace = uniqueNamespace('home');
    const store = await clusterStore(namespace);
    const inputs = await stream(8, 4, 0.01);
    await run(new DedupEngine(config, store), inputs, 4);
    await store.close();
    const layout = clusterLayout('doppel', namespace, 6);
    const admin = new Cluster([{ host: '127.0.0.1', port: cluster.nodes[0]!.port }]);
    try {
      await admin.ping();
      for (const node of admin.nodes('master')) {
        const keys = await node.keys(`${layout.home.replace(/[[\]*?]/g, '\\$&')}*`);
        for (const key of keys) await admin.del(key);
      }
      expect(await admin.exists(`${layout.home}meta`)).toBe(0);
    } finally {
      admin.disconnect();
    }
    // On one Redis a wipe while nobody is connected goes unseen; here the shards tell.
    await expect(clusterStore(namespace)).rejects.toMatchObject({ code: 'STORE_DATA_LOST' });
  });

  it('detects a shard that lost its data (STORE_DATA_LOST), for every client and at the next open', async () => {
    const namespace = uniqueNamespace('lost');
    const store = await clusterStore(namespace);
    const engine = new DedupEngine(config, store);
    const inputs = await stream(7, 10, 0.01);
    await run(engine, inputs.slice(0, 5), 5);
    const admin = new Cluster([{ host: '127.0.0.1', port: cluster.nodes[0]!.port }]);
    const layout = clusterLayout('doppel', namespace, 6, config.redis.homeShardWeight);
    const shard = layout.shards[4]!;
    try {
      // Everything of one shard gone, as after a restart of its node without persistence.
      const keys = [`${shard}meta`];
      for (let h = 0; h < REDIS.shards; h++)
        if (layout.shardOfUnit[h % layout.units] === 4) keys.push(`${shard}k:${h}`);
      let deleted = 0;
      for (const key of keys) deleted += await admin.del(key);
      expect(deleted).toBeGreaterThan(1);
    } finally {
      admin.disconnect();
    }
    await expect(engine.processMessages(inputs.slice(5))).rejects.toMatchObject({ code: 'STORE_DATA_LOST' });
    await expect(clusterStore(namespace)).rejects.toMatchObject({ code: 'STORE_DATA_LOST' });
    // An operator accepts the loss: the namespace starts anew.
    const c = resolveDedupConfig('news', { redis: REDIS });
    const fresh = await RedisClusterStore.open({
      url: cluster.url,
      namespace,
      window: c.window,
      limits: c.index,
      redis: c.redis,
      resetLost: true,
    });
    stores.push(fresh);
    expect((await fresh.stats()).messages).toBe(0);
    const verdicts = await new DedupEngine(config, fresh).processMessages(inputs.slice(5));
    expect(verdicts).toHaveLength(inputs.length - 5);
    expect(verdicts.every((v) => v.replay === undefined)).toBe(true);
    // Nothing of the old namespace is left: the failed batch's ids were sequenced anew.
    expect((await fresh.stats()).messages).toBe(inputs.length - 5);
  });
});
