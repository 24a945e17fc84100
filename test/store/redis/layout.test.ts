import { Redis } from 'ioredis';
import { describe, expect, it } from 'vitest';
import { redisSchema } from '../../../src/config/dedup.js';
import { DoppelError } from '../../../src/errors.js';
import { storeError } from '../../../src/store/redis/errors.js';
import {
  luaKeyConstants,
  metaKey,
  namespaceBase,
  namespaceKeyPattern,
} from '../../../src/store/redis/keys.js';
import { defineScripts, loadScript } from '../../../src/store/redis/scripts.js';
import { RedisStore } from '../../../src/store/redis/store.js';
import { redisUrl, uniqueNamespace } from '../../support/redis.js';
import { request } from '../conformance.js';

/**
 * The stored forms of lua/_verdict.lua (compact verdict strings, record headers): every field
 * survives a round trip through Redis' Lua, including the rare forms (another cluster id, a
 * method name the table does not know, ids with the separators in them). The key constants go
 * first, as scripts.ts puts them before every script.
 */
const roundTrip = `${luaKeyConstants()}${loadScript('_verdict.lua')}
local out = {}
for i = 1, #ARGV, 8 do
  local seq, root = tonumber(ARGV[i + 1]), tonumber(ARGV[i + 2])
  local raw = encodeVerdict(ARGV[i], seq, root, ARGV[i + 3], ARGV[i + 4], ARGV[i + 5], ARGV[i + 6], ARGV[i + 7])
  local v = decodeVerdict(raw, seq)
  out[#out + 1] = cjson.encode({ raw = raw, k = v.k, r = v.r, c = v.c or cjson.null, d = v.d or cjson.null,
    y = v.y or cjson.null, m = v.m or cjson.null })
end
return out`;

type Case = [
  kind: string,
  seq: number,
  root: number,
  clusterId: string,
  id: string,
  dup: string,
  sim: string,
  method: string,
];

describe('Redis stored forms', () => {
  it('verdicts round-trip through the compact form', async () => {
    const cases: Case[] = [
      ['unique', 7, 7, 'a', 'a', '', '', ''],
      ['unique', 7, 3, 'r', 'a', '', '', ''],
      ['near_duplicate', 6147, 6100, 'b4279~retitle~0', 'x1', 'b4279~retitle~0', '0.749', 'minhash'],
      ['duplicate', 9, 9, 'x,y:z', 'q', 'd,1:2', '1', 'exact'],
      ['near_duplicate', 12, 4, 'c:lu,ster', 'q', 'dup,:', '0.8551', 'some-new-method'],
      ['near_duplicate', 2 ** 33, 2 ** 32 + 1, 'é', 'q', 'ü', '0.123456789', 'cosine'],
    ];
    const redis = new Redis(redisUrl());
    try {
      const replies = (await redis.eval(roundTrip, 0, ...cases.flatMap((c) => c.map(String)))) as string[];
      replies.forEach((reply, i) => {
        const [kind, , root, clusterId, id, dup, sim, method] = cases[i] as Case;
        const v = JSON.parse(reply) as Record<string, unknown>;
        expect(v.k).toBe(kind[0]);
        expect(v.r).toBe(root);
        expect(v.c).toBe(clusterId === id ? null : clusterId);
        expect(v.d).toBe(dup === '' ? null : dup);
        expect(v.y).toBe(sim === '' ? null : Number(sim));
        expect(v.m).toBe(method === '' ? null : method);
        if (i === 0) expect(v.raw).toBe('u');
        if (i === 2) expect(v.raw).toBe('nhd6100,0.749,b4279~retitle~0');
      });
      expect(replies).toHaveLength(cases.length);
    } finally {
      redis.disconnect();
    }
  });

  it('records keep any event time and id length (integer milliseconds take 6 bytes, others a double)', async () => {
    const store = await RedisStore.open({
      url: redisUrl(),
      namespace: uniqueNamespace('layout'),
      window: { windowMs: 2 ** 60, generationMs: 2 ** 59, maxMessages: 0 },
      limits: { maxBucketSize: 8, maxCandidates: 16 },
      redis: redisSchema.parse({ shards: 8, clusterShards: 4, recordCacheSize: 0 }),
    });
    try {
      const cases: Array<[string, number]> = [
        ['short', 0],
        ['ms', 1_793_535_537_600],
        ['fraction', 1_793_535_537_600.5],
        ['negative', -86_400_000],
        // (Verdicts reach the client as cjson's 14 significant digits: times below 10^14 ms.)
        [`long-${'é'.repeat(100)}`, 2 ** 46 - 1],
        [`longer-${'x'.repeat(300)}`, 99_999_999_999_999],
      ];
      for (const [id, ts] of cases) {
        const [indexed] = await store.index([request(id, ['b0=1f'], ts)]);
        if (indexed?.status !== 'new') throw new Error(`${id} not new`);
        await store.commit([{ id, seq: indexed.seq, ts, verdict: 'unique', joins: [] }]);
        expect((await store.verdict(id))?.ts).toBe(ts);
      }
      // Every record is read back from Redis (no client cache): ids and times as given.
      const [probe] = await store.query([request('probe', ['b0=1f'])]);
      if (probe?.status !== 'unseen') throw new Error('probe seen');
      expect(probe.candidates.map((c) => [c.id, c.ts]).sort()).toEqual([...cases].sort());
    } finally {
      await store.close();
    }
  });

  it('reloads the index and commit scripts after SCRIPT FLUSH (the client encodes their calls itself)', async () => {
    const store = await RedisStore.open({
      url: redisUrl(),
      namespace: uniqueNamespace('layout'),
      window: { windowMs: 2 ** 60, generationMs: 2 ** 59, maxMessages: 0 },
      limits: { maxBucketSize: 8, maxCandidates: 16 },
      redis: redisSchema.parse({ shards: 8, clusterShards: 4 }),
    });
    const admin = new Redis(redisUrl());
    try {
      const [first] = await store.index([request('one', ['b0=1f'])]);
      if (first?.status !== 'new') throw new Error('one not new');
      await admin.script('FLUSH');
      const [second] = await store.index([request('two', ['b0=1f'])]);
      if (second?.status !== 'new') throw new Error('two not new');
      expect(second.candidates.map((c) => c.id)).toEqual(['one']);
      await admin.script('FLUSH');
      const [committed] = await store.commit([
        {
          id: 'two',
          seq: second.seq,
          ts: 0,
          verdict: 'near_duplicate',
          duplicateOf: 'one',
          similarity: 0.9,
          joins: ['one'],
        },
      ]);
      expect(committed?.clusterId).toBe('one');
    } finally {
      admin.disconnect();
      await store.close();
    }
  });

  it('holds only keys that keys.ts names (the scripts build theirs from its constants)', async () => {
    const namespace = uniqueNamespace('keys');
    const store = await RedisStore.open({
      url: redisUrl(),
      namespace,
      window: { windowMs: 2 ** 60, generationMs: 2 ** 59, maxMessages: 0 },
      limits: { maxBucketSize: 8, maxCandidates: 16 },
      redis: redisSchema.parse({ shards: 8, clusterShards: 4 }),
    });
    const admin = new Redis(redisUrl());
    try {
      const ids = ['a', 'b', 'c'];
      const indexed = await store.index(ids.map((id) => request(id, ['b0=1f', 't=2'], 1_000)));
      await store.commit(
        indexed.map((r, i) => {
          if (r.status !== 'new') throw new Error('not new');
          const id = ids[i] as string;
          return i === 0
            ? { id, seq: r.seq, ts: 1_000, verdict: 'unique' as const, joins: [] }
            : { id, seq: r.seq, ts: 1_000, verdict: 'duplicate' as const, duplicateOf: 'a', joins: ['a'] };
        }),
      );
      const base = namespaceBase('doppel', namespace);
      const keys = await admin.keys(`${base.replace(/[{}]/g, '\\$&')}*`);
      // meta, gens, id and bucket shards, a record and a verdict block, a cluster shard.
      expect(keys.length).toBeGreaterThanOrEqual(6);
      expect(keys).toContain(metaKey(base));
      const pattern = namespaceKeyPattern(base);
      expect(keys.filter((k) => !pattern.test(k))).toEqual([]);
    } finally {
      admin.disconnect();
      await store.close();
    }
  });

  it("maps the scripts' own failures and Redis' refusals to error codes, writing nothing", async () => {
    const redis = new Redis(redisUrl());
    const scripts = defineScripts(redis);
    const base = namespaceBase('doppel', uniqueNamespace('errors'));
    try {
      const calls: Array<[string, () => Promise<unknown>]> = [
        // n = 2 requests announced, none given (and no epoch, the last argument of every call).
        ['index', () => scripts.doppelIndexBuffer(metaKey(base), base, 1, 1, 8, 16, 0, 8, 4, 2)],
        ['commit', () => scripts.doppelCommit(metaKey(base), base, 4, 1)],
        ['query', () => scripts.doppelQueryBuffer(metaKey(base), base, 1, 8)],
        ['read', () => scripts.doppelRead(metaKey(base), base, 4, 'everything', 0, 'x', 'x')],
        ['records', () => scripts.doppelRecordsBuffer(metaKey(base), base, 'seven', 'epoch')],
      ];
      for (const [name, call] of calls) {
        const error = storeError(
          await call().then(
            () => null,
            (e: unknown) => e,
          ),
          name,
        );
        expect(error).toBeInstanceOf(DoppelError);
        expect(error.code).toBe('STORE_ERROR');
        expect(error.retryable).toBe(false);
        expect(error.message).toContain(`DOPPEL_ARGS ${name}:`);
        expect(error.message).toContain('arguments of another layout');
      }
      expect(await redis.keys(`${base.replace(/[{}]/g, '\\$&')}*`)).toEqual([]);
      // A key of the namespace that holds another type: Redis' WRONGTYPE, named.
      await redis.set(metaKey(base), 'not a hash');
      const wrong = storeError(
        await scripts.doppelRead(metaKey(base), base, 4, 'verdict', 0, 'x', 'x', 'epoch').then(
          () => null,
          (e: unknown) => e,
        ),
        'read',
      );
      expect(wrong.code).toBe('STORE_ERROR');
      expect(wrong.message).toContain('holds another type');
    } finally {
      redis.disconnect();
    }
  });
});
