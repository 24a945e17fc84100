import { describe, expect, it } from 'vitest';
import { redisSchema } from '../../../src/config/dedup.js';
import type { DedupStore, IndexRequest } from '../../../src/engine/types.js';
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
