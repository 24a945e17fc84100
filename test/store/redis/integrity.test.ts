import { Redis } from 'ioredis';
import { afterEach, describe, expect, it } from 'vitest';
import { redisSchema } from '../../../src/config/dedup.js';
import { startLocalRedis } from '../../../src/dev/redis-server.js';
import type { DedupStore } from '../../../src/engine/types.js';
import { RedisStore } from '../../../src/store/redis/store.js';
import { redisUrl, uniqueNamespace } from '../../support/redis.js';
import { request } from '../conformance.js';

/**
 * Hostile input, round 3, on the Redis store: database numbers in the URL (defect 6), deleted or
 * evicted keys of any kind (defect 3) and tampered values (defect 7). Each loss is STORE_DATA_LOST
 * and each malformed value STORE_CORRUPT: no id gets a second verdict, nothing is judged against
 * an emptied index.
 */
const HOUR = 3_600_000;
const WINDOW = { windowMs: 10 * HOUR, generationMs: HOUR, maxMessages: 0 };
const LIMITS = { maxBucketSize: 8, maxCandidates: 16 };
const stores: DedupStore[] = [];
const clients: Redis[] = [];

afterEach(async () => {
  await Promise.all(stores.splice(0).map((s) => s.close()));
  for (const c of clients.splice(0)) c.disconnect();
});

async function open(
  url: string,
  namespace: string,
  redis: Record<string, unknown> = {},
): Promise<RedisStore> {
  const store = await RedisStore.open({
    url,
    namespace,
    window: WINDOW,
    limits: LIMITS,
    redis: redisSchema.parse({
      shards: 16,
      clusterShards: 4,
      maxRetries: 1,
      commandTimeoutMs: 2_000,
      ...redis,
    }),
  });
  stores.push(store);
  return store;
}

function admin(url = redisUrl()): Redis {
  const client = new Redis(url);
  clients.push(client);
  return client;
}

/** Indexes and commits `id` as unique with one bucket; 'replay' when it was decided before. */
async function decide(store: DedupStore, id: string, bucket = 'b0=1'): Promise<string> {
  const [r] = await store.index([request(id, [bucket])]);
  if (r?.status === 'decided') return 'replay';
  if (!r) throw new Error('no result');
  await store.commit([{ id, seq: r.seq, ts: 0, verdict: 'unique', joins: [] }]);
  return r.candidates.map((c) => c.id).join(',') || 'none';
}

const lost = { code: 'STORE_DATA_LOST', retryable: false };
const corrupt = { code: 'STORE_CORRUPT', retryable: false };

describe('defect 6: Redis URL database numbers', () => {
  it.each(['/99', '/16', '/-1', '/abc', '/1.5'])(
    'refuses database %s with INVALID_CONFIG before connecting',
    async (path) => {
      // Nothing listens on port 1: a refusal that waited for a connection would be STORE_UNAVAILABLE.
      await expect(open(`redis://127.0.0.1:1${path}`, uniqueNamespace('db'))).rejects.toMatchObject({
        code: 'INVALID_CONFIG',
        message: expect.stringMatching(/database number must be 0\.\.15/),
      });
    },
  );

  it('uses database 0..15 as given: two tenants on two databases do not collide', async () => {
    const namespace = uniqueNamespace('db');
    const url = redisUrl().replace(/\/\d*$/, '');
    const one = await open(`${url}/3`, namespace);
    const two = await open(`${url}/4`, namespace);
    expect(await decide(one, 'a')).toBe('none');
    expect(await decide(two, 'a')).toBe('none');
    expect(await admin(`${url}/3`).exists(`doppel:{${namespace}}:meta`)).toBe(1);
  });

  it('refuses a database the server does not have (databases 4) with INVALID_CONFIG', async () => {
    const redis = await startLocalRedis({ settings: { databases: '4' } });
    try {
      await expect(open(`${redis.url}/9`, 'few')).rejects.toMatchObject({ code: 'INVALID_CONFIG' });
    } finally {
      await redis.stop();
    }
  });
});

describe('defect 3: deleted or evicted keys of any kind', () => {
  /** A namespace with a, b, c decided in one bucket, and its admin client and key names. */
  async function seeded() {
    const namespace = uniqueNamespace('keys');
    const store = await open(redisUrl(), namespace);
    for (const id of ['a', 'b', 'c']) await decide(store, id);
    const client = admin();
    const base = `doppel:{${namespace}}:`;
    const keys = async (part: string) => client.keys(`${base}${part}*`);
    return { namespace, store, client, base, keys };
  }

  it('deleting every key but meta stops the next batch with STORE_DATA_LOST, not a unique copy', async () => {
    const { store, client, base, keys } = await seeded();
    for (const key of await keys('')) if (key !== `${base}meta`) await client.del(key);
    // The exact copy of a would come out unique against the emptied index.
    await expect(store.index([request('copy-of-a', ['b0=1'], undefined, 'a')])).rejects.toMatchObject(lost);
    // And the namespace stays stopped for every client.
    await expect(decide(store, 'a')).rejects.toMatchObject(lost);
  });

  it('deleting the id and bucket hashes (k:) is found by their markers', async () => {
    const { store, client, keys } = await seeded();
    for (const key of await keys('k:')) await client.del(key);
    // Re-posting a would give it a second, different verdict.
    await expect(decide(store, 'a')).rejects.toMatchObject(lost);
  });

  it('deleting a record block (r:) is found at the next batch', async () => {
    const { store, client, keys } = await seeded();
    for (const key of await keys('r:')) await client.del(key);
    await expect(decide(store, 'd', 'b0=9')).rejects.toMatchObject(lost);
  });

  it('deleting a verdict block (v:) is found when a claimed id comes again', async () => {
    const { store, client, keys } = await seeded();
    for (const key of await keys('v:')) await client.del(key);
    // Without the check, a would be "pending" and decided a second time.
    await expect(decide(store, 'a')).rejects.toMatchObject(lost);
  });

  it('deleting gens is found before generations are dropped by it', async () => {
    const { store, client, base } = await seeded();
    await client.del(`${base}gens`);
    // The clock enters a new generation: dropping by an empty gens would expire everything.
    await expect(
      store.index([request('later', ['b0=1'], Date.UTC(2026, 10, 1) + 2 * HOUR)]),
    ).rejects.toMatchObject(lost);
  });

  it('a candidate whose record vanished is STORE_DATA_LOST, not a skipped candidate', async () => {
    const namespace = uniqueNamespace('cand');
    // recordCacheSize 0: candidates' records are always read from Redis.
    const store = await open(redisUrl(), namespace, { recordCacheSize: 0 });
    for (let i = 0; i < 70; i++) await decide(store, `m${i}`, i === 0 ? 'b0=1' : `b1=${i.toString(16)}`);
    const client = admin();
    // The block of m0 (sequence numbers 0..63), not the newest one.
    await client.del(`doppel:{${namespace}}:r:0`);
    await expect(store.index([request('copy-of-m0', ['b0=1'], undefined, 'm0')])).rejects.toMatchObject(lost);
  });

  it('an allkeys-* policy switched on mid-run is refused at the next batch; keys evicted under it mark the namespace lost', async () => {
    const redis = await startLocalRedis();
    try {
      const store = await open(redis.url, 'evict', { evictionCheckMs: 0 });
      expect(await decide(store, 'a')).toBe('none');
      const client = admin(redis.url);
      await client.config('SET', 'maxmemory-policy', 'allkeys-random');
      await expect(decide(store, 'b')).rejects.toMatchObject({
        code: 'STORE_ERROR',
        message: expect.stringMatching(/allkeys-random/),
      });
      // Memory fills and Redis evicts: the next look sees evicted_keys grow.
      await client.config('SET', 'maxmemory-policy', 'noeviction');
      const other = await open(redis.url, 'evict', { evictionCheckMs: 0 });
      expect(await decide(other, 'c')).toBe('a');
      await client.config('SET', 'maxmemory-policy', 'allkeys-random');
      for (let i = 0; i < 200; i++) await client.set(`filler:${i}`, 'x'.repeat(10_000));
      const used = Number(/used_memory:(\d+)/.exec(await client.info('memory'))?.[1]);
      await client.config('SET', 'maxmemory', String(Math.floor(used * 0.7)));
      await client.set('filler:last', 'x');
      await client.config('SET', 'maxmemory', '0');
      await expect(decide(other, 'd')).rejects.toMatchObject(lost);
      await client.config('SET', 'maxmemory-policy', 'noeviction');
      // Marked: a client opening it later is refused too.
      await expect(open(redis.url, 'evict')).rejects.toMatchObject(lost);
    } finally {
      await redis.stop();
    }
  }, 60_000);
});

describe('defect 7: tampered namespace values are STORE_CORRUPT, never a verdict', () => {
  async function seeded() {
    const namespace = uniqueNamespace('tamper');
    const store = await open(redisUrl(), namespace);
    for (const id of ['a', 'b']) await decide(store, id);
    return { store, client: admin(), base: `doppel:{${namespace}}:` };
  }

  it('HSET meta seq notanumber: the next batch fails instead of starting over', async () => {
    const { store, client, base } = await seeded();
    await client.hset(`${base}meta`, 'seq', 'notanumber');
    await expect(decide(store, 'c')).rejects.toMatchObject(corrupt);
    await expect(decide(store, 'a')).rejects.toMatchObject(corrupt);
  });

  it.each(['live', 'now', 'gen', 'rec'])('a malformed meta %s is STORE_CORRUPT', async (field) => {
    const { store, client, base } = await seeded();
    await client.hset(`${base}meta`, field, 'x1');
    await expect(decide(store, 'c')).rejects.toMatchObject(corrupt);
  });

  it('a garbage verdict string is STORE_CORRUPT on replay and on read', async () => {
    const { store, client, base } = await seeded();
    const block = `${base}v:0`;
    const fields = (await client.hkeys(block)).filter((f) => f !== '#');
    for (const f of fields) await client.hset(block, f, 'garbage');
    await expect(decide(store, 'a')).rejects.toMatchObject(corrupt);
    await expect(store.verdict('a')).rejects.toMatchObject(corrupt);
  });

  it('a garbage id field value is STORE_CORRUPT, not a new id', async () => {
    const { store, client, base } = await seeded();
    for (const key of await client.keys(`${base}k:*`)) {
      for (const field of await client.hkeysBuffer(key)) {
        if (field.length === 7) await client.hset(key, field, 'notanumber');
      }
    }
    await expect(decide(store, 'a')).rejects.toMatchObject(corrupt);
  });

  it('a garbage bucket value is STORE_CORRUPT', async () => {
    const { store, client, base } = await seeded();
    for (const key of await client.keys(`${base}k:*`)) {
      for (const field of await client.hkeysBuffer(key)) {
        if (field.length === 2) await client.hset(key, field, 'junk');
      }
    }
    await expect(decide(store, 'c')).rejects.toMatchObject(corrupt);
  });

  it('a truncated record is STORE_CORRUPT', async () => {
    const namespace = uniqueNamespace('tamper-rec');
    const store = await open(redisUrl(), namespace, { recordCacheSize: 0 });
    await decide(store, 'a');
    const client = admin();
    await client.hset(`doppel:{${namespace}}:r:0`, '1', Buffer.from([5, 1, 2]));
    await expect(decide(store, 'b')).rejects.toMatchObject(corrupt);
  });

  it('a garbage cluster record is STORE_CORRUPT', async () => {
    const namespace = uniqueNamespace('tamper-cluster');
    const store = await open(redisUrl(), namespace);
    const [a] = await store.index([request('a', ['b0=1'])]);
    if (a?.status !== 'new') throw new Error('expected new');
    await store.commit([{ id: 'a', seq: a.seq, ts: 0, verdict: 'unique', joins: [] }]);
    const [b] = await store.index([request('b', ['b0=1'])]);
    if (b?.status !== 'new') throw new Error('expected new');
    await store.commit([
      { id: 'b', seq: b.seq, ts: 0, verdict: 'near_duplicate', duplicateOf: 'a', joins: ['a'] },
    ]);
    const client = admin();
    for (const key of await client.keys(`doppel:{${namespace}}:c:*`)) {
      for (const field of await client.hkeys(key)) await client.hset(key, field, '{not json');
    }
    await expect(store.cluster('a')).rejects.toMatchObject(corrupt);
  });
});
