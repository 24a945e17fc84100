import { Redis } from 'ioredis';
import { afterEach, describe, expect, it } from 'vitest';
import { redisSchema } from '../../../src/config/dedup.js';
import { startLocalRedis } from '../../../src/dev/redis-server.js';
import type { DedupStore } from '../../../src/engine/types.js';
import { RedisStore } from '../../../src/store/redis/store.js';
import { redisUrl, uniqueNamespace } from '../../support/redis.js';
import { request } from '../conformance.js';

/**
 * A namespace that loses its data while in use (a Redis restart without
 * persistence, an eviction, a deleted key) stops every client with STORE_DATA_LOST instead of
 * going on and judging the lost messages' duplicates unique; an operator resets it explicitly.
 */
const HOUR = 3_600_000;
const WINDOW = { windowMs: 10 * HOUR, generationMs: HOUR, maxMessages: 0 };
const LIMITS = { maxBucketSize: 8, maxCandidates: 16 };
const stores: DedupStore[] = [];

afterEach(async () => {
  await Promise.all(stores.splice(0).map((s) => s.close()));
});

async function open(url: string, namespace: string, resetLost = false): Promise<RedisStore> {
  const store = await RedisStore.open({
    url,
    namespace,
    window: WINDOW,
    limits: LIMITS,
    redis: redisSchema.parse({ shards: 16, clusterShards: 4, maxRetries: 2, commandTimeoutMs: 2_000 }),
    resetLost,
  });
  stores.push(store);
  return store;
}

async function decide(store: DedupStore, id: string): Promise<string> {
  const [r] = await store.index([request(id, ['b0=1'])]);
  if (r?.status === 'decided') return 'replay';
  if (!r) throw new Error('no result');
  await store.commit([{ id, seq: r.seq, ts: r.candidates[0]?.ts ?? 0, verdict: 'unique', joins: [] }]);
  return r.candidates.map((c) => c.id).join(',') || 'none';
}

const lost = { code: 'STORE_DATA_LOST', retryable: false };

describe('Redis namespace data loss', () => {
  it('stops every call with STORE_DATA_LOST after the namespace keys vanish, and refuses to reopen it', async () => {
    const namespace = uniqueNamespace('lost');
    const store = await open(redisUrl(), namespace);
    expect(await decide(store, 'a')).toBe('none');
    expect(await decide(store, 'b')).toBe('a');
    const client = new Redis(redisUrl());
    try {
      // What an eviction or a FLUSHALL does to this namespace (the shared server: only its keys).
      const keys = await client.keys(`doppel:{${namespace}}:*`);
      await client.del(...keys);
    } finally {
      client.disconnect();
    }
    await expect(store.index([request('c', ['b0=1'])])).rejects.toMatchObject(lost);
    await expect(
      store.commit([{ id: 'c', seq: 3, ts: 0, verdict: 'unique', joins: [] }]),
    ).rejects.toMatchObject(lost);
    await expect(store.query([request('a', ['b0=1'])])).rejects.toMatchObject(lost);
    await expect(store.verdict('a')).rejects.toMatchObject(lost);
    // A client opening it later is refused too: the first call left a mark.
    await expect(open(redisUrl(), namespace)).rejects.toMatchObject({
      code: 'STORE_DATA_LOST',
      message: expect.stringMatching(/DOPPEL_RESET_NAMESPACE=1/),
    });
  });

  it('detects a Redis restart without persistence; a reset starts the namespace anew and old clients stay stopped', async () => {
    const redis = await startLocalRedis();
    try {
      const namespace = 'restart';
      const before = await open(redis.url, namespace);
      expect(await decide(before, 'a')).toBe('none');
      await redis.stop();
      const again = await startLocalRedis({ port: redis.port });
      try {
        // The first calls may find it still down (retryable); once it is back, the loss shows.
        let error: unknown;
        for (let i = 0; i < 20; i++) {
          try {
            await before.index([request('a2', ['b0=1'])]);
            error = null;
          } catch (e) {
            error = e;
            if ((e as { code?: string }).code === 'STORE_DATA_LOST') break;
          }
          await new Promise((r) => setTimeout(r, 200));
        }
        expect(error).toMatchObject(lost);
        await expect(open(again.url, namespace)).rejects.toMatchObject(lost);
        // The operator accepts the loss: the namespace starts empty, a is new again.
        const fresh = await open(again.url, namespace, true);
        expect(await decide(fresh, 'a')).toBe('none');
        expect(await decide(fresh, 'b')).toBe('a');
        // A client from before the reset still fails, and does not mark the new namespace lost.
        await expect(before.index([request('c', ['b0=1'])])).rejects.toMatchObject(lost);
        expect(await decide(fresh, 'c')).toBe('a,b');
        const reopened = await open(again.url, namespace, true);
        expect(await decide(reopened, 'a')).toBe('replay');
      } finally {
        await again.stop();
      }
    } finally {
      await redis.stop();
    }
  }, 60_000);

  it('never resets a whole namespace, even when told to accept a loss', async () => {
    const namespace = uniqueNamespace('whole');
    const store = await open(redisUrl(), namespace);
    await decide(store, 'a');
    const reset = await open(redisUrl(), namespace, true);
    expect(await decide(reset, 'a')).toBe('replay');
    expect(await decide(store, 'b')).toBe('a');
  });

  it('adopts a namespace written before epochs existed (layout, no epoch)', async () => {
    const namespace = uniqueNamespace('legacy');
    const store = await open(redisUrl(), namespace);
    await decide(store, 'a');
    const client = new Redis(redisUrl());
    try {
      await client.hdel(`doppel:{${namespace}}:meta`, 'epoch');
    } finally {
      client.disconnect();
    }
    const upgraded = await open(redisUrl(), namespace);
    expect(await decide(upgraded, 'a')).toBe('replay');
  });

  it('refuses a Redis whose maxmemory-policy evicts any key (allkeys-*)', async () => {
    const redis = await startLocalRedis({ settings: { 'maxmemory-policy': 'allkeys-lru' } });
    try {
      await expect(open(redis.url, 'evicting')).rejects.toMatchObject({
        code: 'STORE_ERROR',
        message: expect.stringMatching(/maxmemory-policy allkeys-lru.*noeviction/),
      });
    } finally {
      await redis.stop();
    }
    const volatile = await startLocalRedis({ settings: { 'maxmemory-policy': 'volatile-lru' } });
    try {
      // doppel sets no TTLs, so volatile-* policies never evict its keys.
      expect(await decide(await open(volatile.url, 'volatile'), 'a')).toBe('none');
    } finally {
      await volatile.stop();
    }
  }, 30_000);
});
