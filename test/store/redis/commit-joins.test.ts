import { Redis } from 'ioredis';
import { describe, expect, it } from 'vitest';
import { redisSchema } from '../../../src/config/dedup.js';
import type { Decision, IndexResult } from '../../../src/engine/types.js';
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
