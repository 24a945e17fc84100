import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { resolveDedupConfig } from '../../../src/config/profiles.js';
import { DedupEngine, type EngineMessage } from '../../../src/engine/engine.js';
import { initHashing } from '../../../src/hash/xxhash.js';
import { parseMessageObject } from '../../../src/input/message.js';
import { LexiconSet } from '../../../src/lexicon/lexicon.js';
import { engineMessage } from '../../../src/pipeline/flow.js';
import { signMessage } from '../../../src/pipeline/sign.js';
import { Signer } from '../../../src/signatures/signer.js';
import { MemoryStore } from '../../../src/store/memory/store.js';
import { ID_FIELD_BYTES, MARKER_FIELD } from '../../../src/store/redis/keys.js';
import { storedMembers } from '../../../src/store/redis/members.js';
import { RedisStore } from '../../../src/store/redis/store.js';
import { editWords, rng, syntheticDoc } from '../../support/engine.js';
import { syndicatedStream, verdictsInBatches } from '../../support/engine-stream.js';
import { redisUrl, uniqueNamespace } from '../../support/redis.js';

const HOUR = 3_600_000;
const config = resolveDedupConfig('news', { redis: { shards: 256, clusterShards: 32 } });
const T0 = Date.UTC(2026, 10, 1);
let signer: Signer;
const stores: RedisStore[] = [];

beforeAll(async () => {
  await initHashing();
  signer = new Signer(config.signatures, LexiconSet.defaults());
});
afterAll(async () => {
  await Promise.all(stores.map((s) => s.close()));
});

async function redisStore(namespace: string, overrides = {}): Promise<RedisStore> {
  const c = resolveDedupConfig('news', { redis: { shards: 256, clusterShards: 32 }, ...overrides });
  const store = await RedisStore.open({
    url: redisUrl(),
    namespace,
    window: c.window,
    limits: c.index,
    redis: c.redis,
  });
  stores.push(store);
  return store;
}

function stream(seed: number, stories: number, hoursApart = 0.05): Promise<EngineMessage[]> {
  return syndicatedStream(signer, seed, stories, hoursApart, T0);
}

function run(engine: DedupEngine, inputs: EngineMessage[], batch: number) {
  return verdictsInBatches(engine, inputs, batch);
}

describe('the engine on the Redis store', () => {
  it('gives the same verdicts, duplicateOf and clusters as the in-memory store', async () => {
    const inputs = await stream(1, 150, 0.5);
    const memoryStore = new MemoryStore(config.window, config.index);
    const memory = await run(new DedupEngine(config, memoryStore), inputs, 32);
    const store = await redisStore(uniqueNamespace('same'));
    // The story rule reads the verdicts and clusters of story-only candidates (engine/story.ts):
    // one call each per batch, however many candidates.
    let storyReads = 0;
    const verdictOneAtATime = store.verdict.bind(store);
    const clusterOf = store.cluster.bind(store);
    const verdictsOf = store.verdictsOf.bind(store);
    const clustersOf = store.clustersOf.bind(store);
    store.verdictsOf = (ids) => {
      storyReads++;
      return verdictsOf(ids);
    };
    store.clustersOf = (lookups) => {
      storyReads++;
      return clustersOf(lookups);
    };
    store.verdict = () => Promise.reject(new Error('the engine reads verdicts a batch at a time'));
    store.cluster = () => Promise.reject(new Error('the engine reads clusters a batch at a time'));
    const redis = await run(new DedupEngine(config, store), inputs, 32);
    expect(redis).toEqual(memory);
    // The title check (engine/story.ts) ran in both, refusing some stories and passing others.
    expect(memory.some((v) => v.story?.reason === 'title')).toBe(true);
    expect(memory.some((v) => v.story?.joined && v.story.titleSimilarity !== undefined)).toBe(true);
    // The same stories, in the same orders, with the same members still in the window.
    for (const order of ['size', 'recent'] as const) {
      const query = { order, since: 0, after: null, limit: 500 };
      const stories = await memoryStore.listClusters(query);
      expect(stories.items.length).toBeGreaterThan(5);
      expect(await store.listClusters(query)).toEqual(stories);
    }
    const largest = (await memoryStore.listClusters({ order: 'size', since: 0, after: null, limit: 1 }))
      .items[0]!;
    expect(await store.clusterMembers(largest.id, 0, 1000)).toEqual(
      await memoryStore.clusterMembers(largest.id, 0, 1000),
    );
    // The stream spans 8+ days in a 3-day window: generations expired along the way.
    expect((await store.stats()).expiredGenerations).toBeGreaterThan(0);
    const flagged = memory.filter((v) => v.verdict !== 'unique').length;
    expect(flagged).toBeGreaterThan(50);
    // Round trips: index + records + commit per batch, not per key.
    const batches = Math.ceil(inputs.length / 32);
    // ...plus the story rule's reads of candidates' clusters (only for messages with story-level
    // matches alone).
    expect(storyReads).toBeGreaterThan(0);
    expect(storyReads).toBeLessThanOrEqual(2 * batches);
    expect((await store.stats()).roundTrips).toBeLessThanOrEqual(3 * batches + 2 + storyReads);
    // The batch reads answer as the single ones do: decided, expired and unknown ids, clusters by
    // a root's id, by a member's, through merges, and by the fallback when the id finds none.
    const ids = [...inputs.map((q) => q.id), 'no-such-message-same'];
    const single = await Promise.all(ids.map((id) => verdictOneAtATime(id)));
    expect(single.some((v) => v === null)).toBe(true);
    expect(single.filter((v) => v !== null).length).toBeGreaterThan(50);
    expect(await verdictsOf(ids)).toEqual(single);
    const lookups = ids.map((id, i) => ({
      id: single[i]?.clusterId ?? id,
      fallback: i % 3 === 0 ? undefined : ids[(i * 7) % ids.length],
    }));
    const clusters = await Promise.all(
      lookups.map(
        async (l) =>
          (await clusterOf(l.id)) ?? (l.fallback === undefined ? null : await clusterOf(l.fallback)),
      ),
    );
    expect(clusters.filter((c) => c !== null && c.size > 1).length).toBeGreaterThan(5);
    expect(await clustersOf(lookups)).toEqual(clusters);
    expect(await verdictsOf([])).toEqual([]);
  });

  it('keeps the same verdicts when sequence numbers pass 2^32 (buckets store them mod 2^32)', async () => {
    const inputs = await stream(5, 60, 0.5);
    const memory = await run(
      new DedupEngine(config, new MemoryStore(config.window, config.index)),
      inputs,
      16,
    );
    const namespace = uniqueNamespace('wrap');
    const store = await redisStore(namespace);
    const client = new Redis(redisUrl());
    try {
      // As a namespace that has run that long: the freed-block cursor is near the sequence too.
      await client.hset(
        `doppel:{${namespace}}:meta`,
        'seq',
        2 ** 32 - 50,
        'freed',
        Math.floor((2 ** 32 - 50) / 64),
      );
    } finally {
      client.disconnect();
    }
    const redis = await run(new DedupEngine(config, store), inputs, 16);
    expect(redis).toEqual(memory);
    expect(memory.filter((v) => v.verdict !== 'unique').length).toBeGreaterThan(20);
    const stats = await store.stats();
    expect(stats.messages).toBeGreaterThan(50);
  });

  it('replays a batch idempotently: the first verdicts, nothing inserted again', async () => {
    const inputs = await stream(2, 20);
    const store = await redisStore(uniqueNamespace('replay'));
    const engine = new DedupEngine(config, store);
    const first = await run(engine, inputs, 16);
    const before = await store.stats();
    const again = await engine.processMessages(inputs);
    expect(again.map((v) => v.replay)).toEqual(inputs.map(() => true));
    expect(again.map((v) => [v.id, v.verdict, v.duplicateOf])).toEqual(
      first.map((v) => [v.id, v.verdict, v.duplicateOf]),
    );
    const after = await store.stats();
    expect([after.messages, after.buckets]).toEqual([before.messages, before.buckets]);
  });

  it('answers an id repeated in a batch with its first decision, from this batch or an earlier one', async () => {
    const inputs = await stream(3, 12);
    const store = await redisStore(uniqueNamespace('repeat'));
    const engine = new DedupEngine(config, store);
    const first = await run(engine, inputs, 8);
    const memory = new DedupEngine(config, new MemoryStore(config.window, config.index));
    await run(memory, inputs, 8);
    // Every earlier id twice more, mixed with new ones: replays of an earlier batch's decision.
    const fresh = (await stream(4, 3)).map((x) => ({ ...x, id: `n-${x.id}` }));
    const mixed = [...inputs, ...fresh, ...inputs];
    const expected = first.map((v) => [v.id, v.verdict, v.duplicateOf, v.clusterId, true]);
    for (const e of [engine, memory]) {
      const again = await e.processMessages(mixed);
      const pick = (v: (typeof again)[number]) => [v.id, v.verdict, v.duplicateOf, v.clusterId, v.replay];
      expect(again.slice(0, inputs.length).map(pick)).toEqual(expected);
      expect(again.slice(-inputs.length).map(pick)).toEqual(expected);
      expect(again.slice(inputs.length, -inputs.length).every((v) => v.replay === undefined)).toBe(true);
    }
  });

  it('never judges both of two near-duplicates unique when two clients index them at once', async () => {
    const namespace = uniqueNamespace('race');
    const [one, two, three] = [
      await redisStore(namespace),
      await redisStore(namespace),
      await redisStore(namespace),
    ];
    const engines = [one, two, three].map((s) => new DedupEngine(config, s));
    const random = rng(9);
    const triples: Array<[EngineMessage, EngineMessage, EngineMessage]> = [];
    for (let i = 0; i < 40; i++) {
      const base = syntheticDoc(random, 150, 3000);
      const make = async (id: string, words: string[]) =>
        engineMessage(
          await signMessage(parseMessageObject({ id, text: words.join(' '), lang: 'en' }), signer),
          T0 + i * 1000,
        );
      // Edits small enough that every two copies are near-duplicates of each other, whichever
      // is indexed first (5% and 8% edits made b and c only borderline matches of each other,
      // so an order in which b and c came first could leave one of them unique by the data, not by a race).
      triples.push([
        await make(`r${i}a`, base),
        await make(`r${i}b`, editWords(random, base, 0.03)),
        await make(`r${i}c`, editWords(random, base, 0.04)),
      ]);
    }
    // Every round, three clients index the three copies of one story in the same instant.
    const verdicts = [];
    for (let b = 0; b < triples.length; b += 4) {
      const rounds = triples.slice(b, b + 4);
      const results = await Promise.all(
        engines.map((e, k) => e.processMessages(rounds.map((t) => t[k] as EngineMessage))),
      );
      for (let r = 0; r < rounds.length; r++) verdicts.push(results.map((res) => res[r]!));
    }
    for (const triple of verdicts) {
      expect(triple.filter((v) => v.verdict === 'unique')).toHaveLength(1);
      // ...and all three end in one cluster.
      const clusters = await Promise.all(triple.map((v) => one.resolveCluster(v.clusterId)));
      expect(new Set(clusters).size).toBe(1);
    }
  });

  it('expires whole generations: records, verdicts, ids and bucket entries go', async () => {
    const namespace = uniqueNamespace('expiry');
    const store = await redisStore(namespace, {
      window: { windowMs: 6 * HOUR, generationMs: HOUR, maxMessages: 0 },
    });
    const engine = new DedupEngine(config, store);
    const inputs = await stream(3, 60, 0.25);
    await run(engine, inputs, 8);
    const stats = await store.stats();
    // A 6-hour window at one message per 15 minutes holds about 24-28 messages.
    expect(stats.messages).toBeLessThanOrEqual(28);
    expect(await store.verdict(inputs[0]!.id)).toBeNull();
    // The sweep goes round every shard once per window's worth of messages (at least 256, and at
    // least shards + cluster shards, 288 here: one hash a message at most): after that many more
    // messages, nothing that was dead before them is left.
    const client = new Redis(redisUrl());
    const before = await client.hget(`doppel:{${namespace}}:meta`, 'live');
    const more = (await stream(4, 130, 0)).map((x, i) => ({
      ...x,
      id: `more-${x.id}`,
      ts: inputs.at(-1)!.ts + i,
    }));
    await run(engine, more, 8);
    try {
      const keys = await client.keys(`doppel:{${namespace}}:r:*`);
      const blocks = keys.map((k) => Number(k.split(':').pop()));
      const meta = await client.hgetall(`doppel:{${namespace}}:meta`);
      // No record block lies wholly below the live bound.
      for (const b of blocks) expect((b + 1) * 64 - 1).toBeGreaterThanOrEqual(Number(meta.live));
      // Every bucket member and id left in the shards is live (the sweep ran over them), but the
      // id of a story's first message, kept while its story lives (found by that id).
      let entries = 0;
      let storyIds = 0;
      for (const key of await client.keys(`doppel:{${namespace}}:k:*`)) {
        const fields = await client.hgetallBuffer(key);
        for (const [field, v] of Object.entries(fields)) {
          // The hash's marker (keys.ts) is no entry.
          if (field === MARKER_FIELD) continue;
          // Ids hold full sequence numbers, buckets theirs mod 2^32: the same below 2^32.
          for (const member of storedMembers(v)) {
            entries++;
            if (member >= Number(before)) continue;
            expect(Buffer.byteLength(field, 'latin1')).toBe(ID_FIELD_BYTES);
            expect(await client.hexists(`doppel:{${namespace}}:c:${member % 32}`, String(member))).toBe(1);
            storyIds++;
          }
        }
      }
      expect(entries).toBeGreaterThan(0);
      expect(storyIds).toBeLessThan(entries / 20);
      // No member list, title block or story index entry outlives its story.
      const stories = await client.zrange(`doppel:{${namespace}}:cr`, 0, -1);
      for (const member of stories) {
        const root = Number(member);
        expect(await client.hexists(`doppel:{${namespace}}:c:${root % 32}`, String(root))).toBe(1);
      }
      expect(await client.zcard(`doppel:{${namespace}}:cs`)).toBe(stories.length);
      for (const key of await client.keys(`doppel:{${namespace}}:t:*`))
        expect((Number(key.split(':').pop()) + 1) * 64 - 1).toBeGreaterThanOrEqual(Number(meta.live));
    } finally {
      client.disconnect();
    }
  });
});
