import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { resolveDedupConfig } from '../../src/config/profiles.js';
import { type LocalRedis, startLocalRedis } from '../../src/dev/redis-server.js';
import { DedupEngine, type EngineVerdict } from '../../src/engine/engine.js';
import type { DedupStore } from '../../src/engine/types.js';
import { isDoppelError } from '../../src/errors.js';
import { initHashing } from '../../src/hash/xxhash.js';
import { parseMessageObject } from '../../src/input/message.js';
import { LexiconSet } from '../../src/lexicon/lexicon.js';
import { MessageFlow } from '../../src/pipeline/flow.js';
import { Signer } from '../../src/signatures/signer.js';
import { openStore } from '../../src/store/open.js';
import { uniqueNamespace } from '../support/redis.js';
import { faultSeed } from './support/seed.js';

/**
 * The Redis tamper pass: a namespace with decided messages and stories, then one tampering at a
 * time (every key of one kind deleted, a malformed value written into one kind of value, the
 * eviction policy switched to allkeys-random and memory squeezed mid-run), then a batch of replays
 * of every decided id and exact copies of every decided message under new ids. After each: the
 * batch fails with STORE_DATA_LOST or STORE_CORRUPT, or no id got a second verdict and no copy was
 * judged unique against an emptied index.
 */
const HOUR = 3_600_000;
const T0 = Date.UTC(2026, 10, 1);
const config = resolveDedupConfig('news', {
  redis: { shards: 16, clusterShards: 4, maxRetries: 0, evictionCheckMs: 0 },
});
let redis: LocalRedis;
let signer: Signer;
const seed = faultSeed('redis tamper', 9_131);

beforeAll(async () => {
  await initHashing();
  signer = new Signer(config.signatures, LexiconSet.defaults({}));
  redis = await startLocalRedis();
});
afterAll(async () => {
  await redis?.stop();
});

/** 24 stories of 3 messages each; each message's text differs in its subject and numbers. */
function story(i: number, copy: number): string {
  const subjects = [
    'council',
    'harbour',
    'university',
    'railway',
    'museum',
    'hospital',
    'airport',
    'library',
  ];
  const subject = subjects[(i + seed) % subjects.length];
  return `The ${subject} board met on day ${i} and approved plan ${i * 7 + (seed % 97)} after a long debate about costs, routes and ${i + 3} years of building work; copy ${copy === 0 ? 'original' : 'syndicated'} edition ${i}.`;
}

interface Sent {
  id: string;
  text: string;
  ts: number;
}

function feed(): Sent[] {
  const out: Sent[] = [];
  for (let i = 0; i < 24; i++) {
    // An original and an exact copy (a duplicate: clusters, member lists and story indexes exist).
    out.push({ id: `o${i}`, text: story(i, 0), ts: T0 + i * 60_000 });
    out.push({ id: `d${i}`, text: story(i, 0), ts: T0 + i * 60_000 + 1_000 });
  }
  return out;
}

async function run(flow: MessageFlow, sent: readonly Sent[]): Promise<EngineVerdict[]> {
  const requests = await Promise.all(
    sent.map((m) => flow.prepare(parseMessageObject({ id: m.id, text: m.text }), m.ts)),
  );
  return flow.process(requests);
}

interface Tampering {
  name: string;
  tamper: (admin: Redis, base: string) => Promise<void>;
  /**
   * What the pass may end in: the loss or corruption detected, or (for what the replays and
   * copies do not read, or story data no verdict rests on) verdicts checked unchanged.
   */
  outcomes: string[];
}

const LOST = ['STORE_DATA_LOST'];
const CORRUPT = ['STORE_CORRUPT'];
const UNREAD = ['verdicts unchanged', 'STORE_CORRUPT'];

async function keysOf(admin: Redis, base: string, part: string): Promise<string[]> {
  return admin.keys(`${base.replace(/[*?[\]]/g, '\\$&')}${part}*`);
}

async function deleteKind(admin: Redis, base: string, part: string): Promise<void> {
  const keys = (await keysOf(admin, base, part)).filter((k) => part !== '' || !k.endsWith(':meta'));
  if (keys.length > 0) await admin.del(...keys);
}

/** Every field of every hash of a kind (but markers) set to `value`; `fieldBytes` picks fields by length. */
async function spoilHashes(admin: Redis, base: string, part: string, value: string, fieldBytes?: number) {
  for (const key of await keysOf(admin, base, part)) {
    for (const field of await admin.hkeysBuffer(key)) {
      if (field.toString('latin1') === '#') continue;
      if (fieldBytes !== undefined && field.length !== fieldBytes) continue;
      await admin.hset(key, field, value);
    }
  }
}

// Verdicts rest on meta, gens, k:, r: and v: (their loss is detected); titles, clusters, member
// lists and story indexes are story data: their loss changes no verdict, which the pass checks.
const DELETIONS: Tampering[] = [
  ['meta', LOST],
  ['gens', LOST],
  ['k:', LOST],
  ['r:', LOST],
  ['v:', LOST],
  ['t:', ['verdicts unchanged']],
  ['c:', ['verdicts unchanged']],
  ['m:', ['verdicts unchanged']],
  ['cs', ['verdicts unchanged']],
  ['cr', ['verdicts unchanged']],
  ['', LOST],
].map(([part, outcomes]) => ({
  name: part === '' ? 'every key but meta deleted' : `keys ${part}* deleted`,
  tamper: (admin: Redis, base: string) => deleteKind(admin, base, part as string),
  outcomes: outcomes as string[],
}));

const MALFORMED: Tampering[] = [
  ...['seq', 'now', 'gen', 'live', 'freed', 'sweep', 'rec', 'marked'].map((field) => ({
    name: `meta ${field} = notanumber`,
    tamper: async (admin: Redis, base: string) => {
      await admin.hset(`${base}meta`, field, 'notanumber');
    },
    outcomes: CORRUPT,
  })),
  { name: 'gens values garbage', tamper: (a, b) => spoilHashes(a, b, 'gens', 'x'), outcomes: CORRUPT },
  {
    name: 'id field values garbage',
    tamper: (a, b) => spoilHashes(a, b, 'k:', 'notanumber', 7),
    outcomes: CORRUPT,
  },
  { name: 'bucket values garbage', tamper: (a, b) => spoilHashes(a, b, 'k:', 'junk', 2), outcomes: CORRUPT },
  {
    name: 'bucket values of a bad length',
    tamper: (a, b) => spoilHashes(a, b, 'k:', '\xff12', 2),
    outcomes: CORRUPT,
  },
  { name: 'records truncated', tamper: (a, b) => spoilHashes(a, b, 'r:', '\x05ab'), outcomes: CORRUPT },
  { name: 'verdicts garbage', tamper: (a, b) => spoilHashes(a, b, 'v:', 'garbage'), outcomes: CORRUPT },
  {
    name: 'verdicts of an unknown kind',
    tamper: (a, b) => spoilHashes(a, b, 'v:', 'zhd1,0.5,x'),
    outcomes: CORRUPT,
  },
  { name: 'clusters not JSON', tamper: (a, b) => spoilHashes(a, b, 'c:', '{not json'), outcomes: CORRUPT },
  {
    name: 'clusters of the wrong shape',
    tamper: (a, b) => spoilHashes(a, b, 'c:', '{"i":1}'),
    outcomes: CORRUPT,
  },
  {
    name: 'member lists of a bad length',
    tamper: (a, b) => spoilHashes(a, b, 'm:', 'abc'),
    outcomes: UNREAD,
  },
];

/**
 * The pass: decide the feed, tamper, then replay every id and send an exact copy of every message
 * under a new id (later in time, in the window). Returns what happened for the report.
 */
async function tamperPass(t: Tampering): Promise<string> {
  const namespace = uniqueNamespace('tamper');
  const base = `doppel:{${namespace}}:`;
  const stores: DedupStore[] = [];
  const admin = new Redis(redis.url);
  try {
    const store = await openStore(redis.url, { config, namespace });
    stores.push(store);
    const flow = new MessageFlow(new DedupEngine(config, store), signer);
    const sent = feed();
    const first = await run(flow, sent);
    const truth = new Map(first.map((v) => [v.id, v]));
    expect(first.filter((v) => v.verdict === 'duplicate')).toHaveLength(24);
    await t.tamper(admin, base);
    // The copies come 3 hours later: the clock enters a new generation (news: 3-hour generations),
    // in the 3-day window.
    const later = sent.map((m) => ({ ...m, ts: m.ts + 3 * HOUR }));
    const replays = sent.map((m) => ({ ...m }));
    const copies = later.map((m) => ({ ...m, id: `copy-${m.id}` }));
    // Two batches: replays of every id, then the copies (a second client, as another process).
    let verdicts: EngineVerdict[];
    try {
      verdicts = await run(flow, replays);
      const other = await openStore(redis.url, { config, namespace });
      stores.push(other);
      verdicts = verdicts.concat(await run(new MessageFlow(new DedupEngine(config, other), signer), copies));
    } catch (error) {
      if (isDoppelError(error) && (error.code === 'STORE_DATA_LOST' || error.code === 'STORE_CORRUPT'))
        return error.code;
      throw error;
    }
    for (const v of verdicts) {
      if (!v.id.startsWith('copy-')) {
        // No id has two verdicts.
        const was = truth.get(v.id) as EngineVerdict;
        expect([v.id, v.verdict, v.duplicateOf]).toEqual([was.id, was.verdict, was.duplicateOf]);
      } else {
        // Nothing is judged against an emptied index: an exact copy of a decided message is a duplicate.
        expect([v.id, v.verdict]).toEqual([v.id, 'duplicate']);
      }
    }
    return 'verdicts unchanged';
  } finally {
    admin.disconnect();
    await Promise.all(stores.map((s) => s.close()));
  }
}

describe('Redis tamper pass: deleted keys of each kind', () => {
  it.each(DELETIONS.map((t) => [t.name, t] as const))('%s', async (_, t) => {
    const outcome = await tamperPass(t);
    console.log(`[faults] redis tamper: ${t.name}: ${outcome}`);
    expect(t.outcomes).toContain(outcome);
  });
});

describe('Redis tamper pass: malformed values of each kind', () => {
  it.each(MALFORMED.map((t) => [t.name, t] as const))('%s', async (_, t) => {
    const outcome = await tamperPass(t);
    console.log(`[faults] redis tamper: ${t.name}: ${outcome}`);
    expect(t.outcomes).toContain(outcome);
  });
});

describe('Redis tamper pass: the eviction policy switched mid-run', () => {
  it('stops with STORE_ERROR or STORE_DATA_LOST before judging against an evicted index', async () => {
    const local = await startLocalRedis();
    const admin = new Redis(local.url);
    const namespace = uniqueNamespace('evict');
    const store = await openStore(local.url, { config, namespace });
    try {
      const flow = new MessageFlow(new DedupEngine(config, store), signer);
      const sent = feed();
      const first = await run(flow, sent);
      const truth = new Map(first.map((v) => [v.id, v]));
      await admin.config('SET', 'maxmemory-policy', 'allkeys-random');
      for (let i = 0; i < 100; i++) await admin.set(`filler:${i}`, 'x'.repeat(20_000));
      const used = Number(/used_memory:(\d+)/.exec(await admin.info('memory'))?.[1]);
      await admin.config('SET', 'maxmemory', String(Math.floor(used * 0.8)));
      await admin.set('filler:push', 'x');
      await admin.config('SET', 'maxmemory', '0');
      let outcome = 'verdicts unchanged';
      try {
        const verdicts = await run(
          flow,
          sent.map((m) => ({ ...m, id: `copy-${m.id}`, ts: m.ts + HOUR })),
        );
        for (const v of verdicts) expect(v.verdict).toBe('duplicate');
        for (const v of await run(flow, sent)) expect(v.verdict).toBe(truth.get(v.id)?.verdict);
      } catch (error) {
        if (!isDoppelError(error)) throw error;
        outcome = error.code;
      }
      console.log(`[faults] redis tamper: allkeys-random mid-run: ${outcome}`);
      expect(['STORE_DATA_LOST', 'STORE_ERROR']).toContain(outcome);
    } finally {
      admin.disconnect();
      await store.close();
      await local.stop();
    }
  }, 60_000);
});
