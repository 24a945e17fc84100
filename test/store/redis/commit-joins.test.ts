import { Redis } from 'ioredis';
import { describe, expect, it } from 'vitest';
import { redisSchema } from '../../../src/config/dedup.js';
import type { CommitResult, Decision, IndexResult } from '../../../src/engine/types.js';
import { idAddress, KEY_PARTS, namespaceBase } from '../../../src/store/redis/keys.js';
import { RedisStore } from '../../../src/store/redis/store.js';
import { redisUrl, uniqueNamespace } from '../../support/redis.js';
import { request } from '../conformance.js';

const WINDOW = { windowMs: 2 ** 40, generationMs: 2 ** 39, maxMessages: 0 };
const LIMITS = { maxBucketSize: 8, maxCandidates: 16 };

function seqOf(result: IndexResult | undefined): number {
  if (!result || result.status === 'decided') throw new Error('expected a new message');
  return result.seq;
}

function joining(id: string, seq: number, joins: string[]): Decision {
  return { id, seq, ts: 1, verdict: 'near_duplicate', duplicateOf: joins[0] as string, joins };
}

describe('Redis commit: joined messages by sequence number or id field', () => {
  it('gives the same clusters whether the committing client indexed the joined messages or not', async () => {
    // The client that indexed a batch sends a joined message's sequence number (a candidate or a
    // message of its index calls); a client that did not sends its id field, which commit-1.lua
    // reads. Both namespaces get the same stories.
    const open = (namespace: string) =>
      RedisStore.open({
        url: redisUrl(),
        namespace,
        window: WINDOW,
        limits: LIMITS,
        redis: redisSchema.parse({ shards: 4, clusterShards: 2 }),
      });
    const byNumber = uniqueNamespace('joins-seq');
    const byField = uniqueNamespace('joins-field');
    const indexer = await open(byNumber);
    const fieldIndexer = await open(byField);
    const committer = await open(byField);
    try {
      const batch = [
        request('j0', ['b0=1', 'b1=1']),
        request('j1', ['b0=1', 'b1=2']),
        request('j2', ['b0=2', 'b1=2']),
      ];
      const outcome = async (indexClient: RedisStore, commitClient: RedisStore) => {
        const indexed = await indexClient.index(batch);
        const [s0, s1, s2] = indexed.map(seqOf) as [number, number, number];
        const unique: Decision = { id: 'j0', seq: s0, ts: 1, verdict: 'unique', joins: [] };
        const results = await commitClient.commit([
          unique,
          joining('j1', s1, ['j0']),
          joining('j2', s2, ['j1', 'j0']),
        ]);
        return results.map((r) => ({ clusterId: r.clusterId, events: r.events }));
      };
      const viaNumber = await outcome(indexer, indexer);
      const viaField = await outcome(fieldIndexer, committer);
      expect(viaNumber).toEqual(viaField);
      expect(viaNumber[2]?.clusterId).toBe('j0');
      expect(viaNumber[2]?.events.some((e) => e.type === 'grown' && e.size === 3)).toBe(true);
    } finally {
      await indexer.close();
      await fieldIndexer.close();
      await committer.close();
    }
  });
});

describe('Redis commit: batches indexed before the commits of the others', () => {
  it("sends joined messages' sequence numbers in every batch's commit, not only the first", async () => {
    // The Kafka consumer indexes its partitions' batches at once and commits them one after
    // another: each commit still knows the numbers of its own index call. The joined messages' id
    // fields are overwritten with garbage after indexing, so a commit that read them (HGET)
    // instead fails with STORE_CORRUPT.
    const namespace = uniqueNamespace('joins-concurrent');
    const redis = redisSchema.parse({ shards: 4, clusterShards: 2 });
    const store = await RedisStore.open({
      url: redisUrl(),
      namespace,
      window: WINDOW,
      limits: LIMITS,
      redis,
    });
    const admin = new Redis(redisUrl());
    try {
      const batches = [
        [request('k0', ['b0=1', 'b1=1']), request('k1', ['b0=1', 'b1=2'])],
        [request('l0', ['b0=2', 'b1=3']), request('l1', ['b0=2', 'b1=4'])],
      ];
      const indexed = await Promise.all(batches.map((batch) => store.index(batch)));
      const base = namespaceBase(redis.prefix, namespace);
      for (const id of ['k0', 'l0']) {
        const { shard, field } = idAddress(id, redis.shards);
        await admin.hset(`${base}${KEY_PARTS.shard}${shard}`, field, 'garbage');
      }
      const stories: string[][] = [];
      for (const [b, batch] of batches.entries()) {
        const [first, second] = (indexed[b] ?? []).map(seqOf) as [number, number];
        const [a, c] = batch.map((r) => r.id) as [string, string];
        const results = await store.commit([
          { id: a, seq: first, ts: 1, verdict: 'unique', joins: [] },
          joining(c, second, [a]),
        ]);
        stories.push(results.map((r) => r.clusterId));
      }
      expect(stories).toEqual([
        ['k0', 'k0'],
        ['l0', 'l0'],
      ]);
    } finally {
      admin.disconnect();
      await store.close();
    }
  });
});

describe('Redis commit: calls made back to back', () => {
  it('sends the commits of batches made at once as one call, with the results of one call per batch', async () => {
    // The Kafka consumer decides the batches of its partitions at once: their commits reach Redis
    // as one commit-1.lua call, and each batch gets what its own call would have given: a later
    // batch's message joining and merging stories an earlier one made, and a decision for an id
    // an earlier batch of the call decided (a pending replay), which keeps the first verdict.
    const open = () =>
      RedisStore.open({
        url: redisUrl(),
        namespace: uniqueNamespace('commits-merged'),
        window: WINDOW,
        limits: LIMITS,
        redis: redisSchema.parse({ shards: 4, clusterShards: 2 }),
      });
    const outcome = async (store: RedisStore, together: boolean) => {
      const [a0, a1, c0, c1] = (
        await store.index([
          request('a0', ['b0=1']),
          request('a1', ['b0=2']),
          request('c0', ['b0=1', 'b1=1']),
          request('c1', ['b0=2', 'b1=1']),
        ])
      ).map(seqOf) as [number, number, number, number];
      const batches: Decision[][] = [
        [
          { id: 'a0', seq: a0, ts: 1, verdict: 'unique', joins: [] },
          { id: 'a1', seq: a1, ts: 2, verdict: 'unique', joins: [] },
        ],
        [joining('c0', c0, ['a0']), joining('c1', c1, ['a1', 'c0'])],
        [{ id: 'a1', seq: a1, ts: 2, verdict: 'unique', joins: [] }],
      ];
      const before = (await store.stats()).roundTrips;
      const results: CommitResult[][] = [];
      if (together) results.push(...(await Promise.all(batches.map((batch) => store.commit(batch)))));
      else for (const batch of batches) results.push(await store.commit(batch));
      const calls = (await store.stats()).roundTrips - before - 1;
      const stories = await Promise.all(['a0', 'a1'].map((id) => store.cluster(id)));
      const { roundTrips: _, ...stats } = await store.stats();
      return { results, calls, stories, stats };
    };
    const merged = await open();
    const apart = await open();
    try {
      const got = await outcome(merged, true);
      const want = await outcome(apart, false);
      expect(got.calls).toBe(1);
      expect(want.calls).toBe(3);
      expect(got.results).toEqual(want.results);
      expect(got.stories).toEqual(want.stories);
      expect(got.stats).toEqual(want.stats);
      expect(got.results[1]?.[1]?.events.some((e) => e.type === 'merged')).toBe(true);
      expect(got.results[2]?.[0]?.decidedBefore).toBe(true);
      // a1's story merged into a0's: both ids resolve to it.
      expect(got.stories.map((c) => [c?.id, c?.size])).toEqual([
        ['a0', 4],
        ['a0', 4],
      ]);
    } finally {
      await merged.close();
      await apart.close();
    }
  });
});
