import { describe, expect, it } from 'vitest';
import { redisSchema } from '../../../src/config/dedup.js';
import type { DedupStore, IndexRequest, IndexResult } from '../../../src/engine/types.js';
import { RedisStore } from '../../../src/store/redis/store.js';
import { redisUrl, uniqueNamespace } from '../../support/redis.js';
import { request } from '../conformance.js';

const WINDOW = { windowMs: 2 ** 40, generationMs: 2 ** 39, maxMessages: 0 };
const LIMITS = { maxBucketSize: 3, maxCandidates: 16 };

/** Candidate ids (in rank order) and hot-bucket counts of each request of each batch. */
async function replies(store: DedupStore, batches: IndexRequest[][]): Promise<string[]> {
  const out: string[] = [];
  for (const batch of batches)
    for (const r of await store.index(batch))
      out.push(
        r.status === 'decided' ? 'decided' : `${r.candidates.map((c) => c.id).join(',')} hot ${r.hotBuckets}`,
      );
  return out;
}

describe('Redis index: topic buckets read once per batch', () => {
  it('gives the candidates and hot counts of one call per message when topic buckets recur and fill within a batch', async () => {
    // Topic-term ('t') buckets are read first and kept by index-1.lua for the rest of the batch:
    // repeats, a bucket that fills mid-batch, band buckets beside them, and a second batch that
    // starts from what Redis holds.
    const topics = ['t=2', 't=3', 't=4'];
    const batches = [
      Array.from({ length: 7 }, (_, i) =>
        request(`m${i}`, [topics[i % 2] as string, 't=1', `b0=${i % 3}`, 'x=9']),
      ),
      Array.from({ length: 5 }, (_, i) =>
        request(`n${i}`, [topics[(i + 1) % 3] as string, 't=1', `b0=${i % 2}`]),
      ),
    ];
    const open = () =>
      RedisStore.open({
        url: redisUrl(),
        namespace: uniqueNamespace('batch'),
        window: WINDOW,
        limits: LIMITS,
        // Few shards: topic and band buckets share shard keys.
        redis: redisSchema.parse({ shards: 2, clusterShards: 2 }),
      });
    const batched = await open();
    const single = await open();
    try {
      const one = await replies(batched, batches);
      expect(one.filter((r) => r.endsWith('hot 3')).length).toBeGreaterThan(0);
      // A call per message: every bucket read from Redis, no batch copy.
      expect(one).toEqual(
        await replies(
          single,
          batches.flat().map((r) => [r]),
        ),
      );
    } finally {
      await batched.close();
      await single.close();
    }
  });
});

describe('Redis index: buckets assumed absent', () => {
  it("gives one client's candidates, hot counts and counters when another client wrote the buckets it assumed absent", async () => {
    // index-1.lua assumes a bucket this client never wrote is absent and writes it at the end of
    // the call with HSETNX; a bucket another client wrote is found there then, and its references
    // are redone from what Redis holds. Batch 1 fills b0=1 part way and writes b0=2 with one
    // member; batch 2, from a second client, joins b0=1 until it is full (cap 8, a rolling tail of
    // 1) and b0=2, with buckets new to both beside them.
    const limits = { maxBucketSize: 8, maxCandidates: 16 };
    const first = [
      ...Array.from({ length: 6 }, (_, i) => request(`a${i}`, ['b0=1', `b1=${10 + i}`])),
      request('a6', ['b0=2', 'b1=30']),
    ];
    const second = Array.from({ length: 6 }, (_, i) =>
      request(`c${i}`, ['b0=1', 'b0=2', `b1=${i % 2}`, 'b2=7']),
    );
    const open = (namespace: string) =>
      RedisStore.open({
        url: redisUrl(),
        namespace,
        window: WINDOW,
        limits,
        redis: redisSchema.parse({ shards: 2, clusterShards: 2 }),
      });
    const shared = uniqueNamespace('assumed');
    const writer = await open(shared);
    const other = await open(shared);
    // The reference: one client, one call per message (every bucket of batch 1 flagged as written).
    const alone = await open(uniqueNamespace('assumed-ref'));
    try {
      await replies(writer, [first]);
      const got = await replies(other, [second]);
      await replies(
        alone,
        first.map((r) => [r]),
      );
      const want = await replies(
        alone,
        second.map((r) => [r]),
      );
      expect(got).toEqual(want);
      expect(got.some((r) => r.startsWith('a0,a1,a2,a3,a4,a5,a6'))).toBe(true);
      expect(got.filter((r) => r.endsWith('hot 1')).length).toBeGreaterThan(0);
      // The namespace's counters (round trips are the client's own).
      const { roundTrips: _a, ...stats } = await other.stats();
      const { roundTrips: _b, ...reference } = await alone.stats();
      expect(stats).toEqual(reference);
      expect(stats.hotBuckets).toBe(1);
    } finally {
      await writer.close();
      await other.close();
      await alone.close();
    }
  });
});

describe('Redis index: calls made back to back', () => {
  it('sends the index calls of batches made at once as one call, with the replies of one call per batch', async () => {
    // The Kafka consumer indexes the batches of its partitions at once: they reach Redis as one
    // index-1.lua call (one round trip), and each batch gets what its own call would have given,
    // copies of one story spread over the batches included. A batch that repeats an id of one
    // waiting goes in a call of its own, where that id is pending, as after separate calls.
    const rounds = [
      [
        [request('p0', ['b0=1', 'b1=1', 't=5']), request('p1', ['b0=2', 't=5'])],
        [request('q0', ['b0=1', 'b1=2', 't=5']), request('q1', ['b0=2', 'b1=1'])],
        [request('r0', ['b0=1', 'b1=1', 'b2=3']), request('r1', ['b2=3', 't=5'])],
      ],
      [
        [request('s0', ['b0=1', 'b2=3']), request('u0', ['b1=2', 'b3=4'])],
        [request('s1', ['b1=1']), request('u0', ['b1=2', 'b3=4'])],
      ],
    ];
    const open = () =>
      RedisStore.open({
        url: redisUrl(),
        namespace: uniqueNamespace('merged'),
        window: WINDOW,
        limits: { maxBucketSize: 8, maxCandidates: 16 },
        redis: redisSchema.parse({ shards: 2, clusterShards: 2 }),
      });
    const merged = await open();
    const apart = await open();
    const describe = (results: IndexResult[]) =>
      results.map((r) =>
        r.status === 'decided'
          ? 'decided'
          : `${r.status} ${r.seq}: ${r.candidates.map((c) => c.id).join(',')}`,
      );
    try {
      const together: string[][][] = [];
      const calls: number[] = [];
      for (const round of rounds) {
        const before = (await merged.stats()).roundTrips;
        together.push((await Promise.all(round.map((batch) => merged.index(batch)))).map(describe));
        // Less the stats call itself: index calls only (the candidates are this client's own
        // messages, whose records it keeps, so no records call).
        calls.push((await merged.stats()).roundTrips - before - 1);
      }
      const one: string[][][] = [];
      for (const round of rounds) {
        const replies: string[][] = [];
        for (const batch of round) replies.push(describe(await apart.index(batch)));
        one.push(replies);
      }
      expect(together).toEqual(one);
      // The first round in one call; the second's later batch repeats u0 of the batch before it.
      expect(calls).toEqual([1, 2]);
      // Copies in other batches of the merged call are candidates, as after calls of their own.
      expect(together[0]?.[1]).toEqual(['new 3: p0,p1', 'new 4: p0,p1']);
      expect(together[1]?.[1]).toEqual(['new 9: p0,q1,r0', 'pending 8: q0']);
      const { roundTrips: _a, ...stats } = await merged.stats();
      const { roundTrips: _b, ...reference } = await apart.stats();
      expect(stats).toEqual(reference);
    } finally {
      await merged.close();
      await apart.close();
    }
  });
});
