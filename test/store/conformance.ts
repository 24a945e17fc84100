import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { IndexConfig, WindowConfig } from '../../src/config/dedup.js';
import { encodeDetail } from '../../src/engine/detail.js';
import { PackedKeys } from '../../src/engine/index-keys.js';
import type {
  Decision,
  DedupStore,
  IndexRequest,
  MessageDetail,
  SignatureRecord,
} from '../../src/engine/types.js';

/**
 * The store conformance suite: every DedupStore implementation (memory, Redis) must pass it
 * unchanged, as BullMQ runs one adapter suite against each backend.
 */
export type StoreFactory = (
  window: WindowConfig,
  limits: Pick<IndexConfig, 'maxBucketSize' | 'maxCandidates'>,
) => Promise<DedupStore>;

const HOUR = 3_600_000;
const WINDOW: WindowConfig = { windowMs: 10 * HOUR, generationMs: HOUR, maxMessages: 0 };
const LIMITS = { maxBucketSize: 8, maxCandidates: 16 };
const T0 = Date.UTC(2026, 10, 1);

export function record(exact: string, overrides: Partial<SignatureRecord> = {}): SignatureRecord {
  return {
    lang: 'en',
    tokens: 50,
    // Stored records hold 64-bit values: any label becomes 16 hex digits.
    exact: Buffer.from(exact).toString('hex').slice(-16).padStart(16, '0'),
    simhash: { hi: 0x01234567, lo: 0x89abcdef },
    minhash: Uint8Array.from({ length: 84 }, (_, i) => i),
    imatch: ['0:0011223344556677'],
    lexical: null,
    longest: null,
    heaviest: null,
    terms: null,
    ...overrides,
  };
}

export function request(id: string, keys: string[], ts = T0, exact = id): IndexRequest {
  // 'b0=1f' -> table b0, value 0x1f.
  const parsed = keys.map((k) => {
    const [table, value] = k.split('=') as [string, string];
    return { table, hi: 0, lo: Number.parseInt(value, 16) };
  });
  return { id, ts, keys: parsed, record: record(exact) };
}

function decision(
  id: string,
  seq: number,
  joins: string[] = [],
  ts = T0,
  verdict: Decision['verdict'] = joins.length ? 'near_duplicate' : 'unique',
): Decision {
  const d: Decision = { id, seq, ts, verdict, joins };
  if (joins.length) d.duplicateOf = joins[0]!;
  return d;
}

export function storeConformance(name: string, factory: StoreFactory): void {
  describe(`DedupStore conformance: ${name}`, () => {
    let store: DedupStore;
    const open = async (window = WINDOW, limits = LIMITS) => {
      store = await factory(window, limits);
      return store;
    };
    beforeEach(async () => {
      await open();
    });
    afterEach(async () => {
      await store.close();
    });

    it('gives increasing sequence numbers and no candidates to the first message', async () => {
      const [a, b] = await store.index([request('a', ['b0=1']), request('b', ['b0=2'])]);
      expect(a).toMatchObject({ status: 'new', candidates: [] });
      expect(b).toMatchObject({ status: 'new', candidates: [] });
      if (a?.status !== 'new' || b?.status !== 'new') throw new Error('unreachable');
      expect(b.seq).toBeGreaterThan(a.seq);
    });

    it('returns earlier messages that share a bucket, with their records and hit counts', async () => {
      await store.index([request('a', ['b0=1', 'b1=5', 'x=9'])]);
      const [r] = await store.index([request('b', ['b0=1', 'b1=5', 'x=7'])]);
      if (r?.status !== 'new') throw new Error(`expected new, got ${r?.status}`);
      expect(r.candidates).toHaveLength(1);
      expect(r.candidates[0]).toMatchObject({ id: 'a', hits: 2 });
      expect(r.candidates[0]!.record.exact).toBe(record('a').exact);
      expect([...r.candidates[0]!.record.minhash!]).toEqual([...record('a').minhash!]);
    });

    it('query: the candidates index would give, ranked and capped, with nothing inserted', async () => {
      await open(WINDOW, { maxBucketSize: 100, maxCandidates: 2 });
      await store.index([
        request('one', ['b0=1']),
        request('two', ['b0=1', 'b1=2']),
        request('three', ['b0=1']),
      ]);
      await store.commit([decision('one', 1), decision('two', 2), decision('three', 3)]);
      const before = await store.stats();
      const [q, again] = await store.query([request('q', ['b0=1', 'b1=2']), request('q', ['b0=1', 'b1=2'])]);
      if (q?.status !== 'unseen') throw new Error(`expected unseen, got ${q?.status}`);
      expect(q.candidates.map((c) => [c.id, c.hits])).toEqual([
        ['two', 2],
        ['one', 1],
      ]);
      expect(q.candidates[0]!.record.exact).toBe(record('two').exact);
      // The second query of the same id in one call sees no trace of the first.
      expect(again).toEqual(q);
      expect((await store.stats()).messages).toBe(before.messages);
      expect(await store.verdict('q')).toBeNull();
      // An indexed message comes out of index() as new: query took no sequence number and wrote no bucket.
      const [r] = await store.index([request('r', ['b1=2'])]);
      if (r?.status !== 'new') throw new Error('expected new');
      expect(r.candidates.map((c) => c.id)).toEqual(['two']);
      // A decided id answers with its stored verdict.
      const [decided] = await store.query([request('two', ['b0=1'])]);
      expect(decided).toMatchObject({ status: 'decided', verdict: { id: 'two', verdict: 'unique' } });
      expect(await store.query([])).toEqual([]);
    });

    it('does not mix tables: the same value in another table is another bucket', async () => {
      await store.index([request('a', ['b0=1'])]);
      const [r] = await store.index([request('b', ['b1=1'])]);
      expect(r).toMatchObject({ status: 'new', candidates: [] });
    });

    it("keeps sentence buckets (table c) apart, and a record's sentence fingerprints and shingle count", async () => {
      const sentences = Uint32Array.from([0x12345614, 0xabcdef20]);
      const a = request('a', ['c=1f', 't=1f']);
      a.record = record('a', { sentences, shingles: 120 });
      await store.index([a]);
      const [other] = await store.index([request('b', ['b0=1f'])]);
      expect(other).toMatchObject({ status: 'new', candidates: [] });
      const [r] = await store.index([request('c', ['c=1f'])]);
      if (r?.status !== 'new') throw new Error(`expected new, got ${r?.status}`);
      expect(r.candidates.map((c) => c.id)).toEqual(['a']);
      expect([...(r.candidates[0]!.record.sentences ?? [])]).toEqual([...sentences]);
      expect(r.candidates[0]!.record.shingles).toBe(120);
    });

    it("takes packed keys (a sign worker's chunk) as the same buckets as key objects", async () => {
      // Two messages packed in one chunk, the chunk's tables in another order than the keys'.
      const tables = ['b1', 'b0', 'x'];
      const tableOf = Uint8Array.from([1, 2, 0, 0]);
      // Signed halves, one over 2^31 as unsigned: read bit for bit like the key objects'.
      const words = Int32Array.from([0, 0x1f, 0, 7, -0x80000000 | 3, 9, 0, 0x1f]);
      await store.index([request('a', ['b0=1f', 'b1=3'])]);
      const packed = (id: string, start: number, end: number): IndexRequest => ({
        id,
        ts: T0,
        keys: new PackedKeys(tables, tableOf, words, start, end),
        record: record(id),
      });
      // p1: b0=1f, x=7; p2: b1 = 0x80000003:00000009, b1=1f.
      const [p1, p2] = await store.index([packed('p1', 0, 2), packed('p2', 2, 4)]);
      if (p1?.status !== 'new' || p2?.status !== 'new') throw new Error('expected new');
      expect(p1.candidates.map((c) => [c.id, c.hits])).toEqual([['a', 1]]);
      expect(p2.candidates).toEqual([]);
      const [q] = await store.query([request('q', ['x=7', 'b1=1f', 'b0=1f'])]);
      if (q?.status !== 'unseen') throw new Error('expected unseen');
      expect(q.candidates.map((c) => [c.id, c.hits])).toEqual([
        ['p1', 2],
        ['a', 1],
        ['p2', 1],
      ]);
      const high = { table: 'b1', hi: 0x80000003, lo: 9 };
      const [r] = await store.query([{ id: 'r', ts: T0, keys: [high], record: record('r') }]);
      expect(r?.status === 'unseen' && r.candidates.map((c) => c.id)).toEqual(['p2']);
    });

    it('sees earlier requests of the same call (insert in order)', async () => {
      const [, second] = await store.index([request('a', ['b0=1']), request('b', ['b0=1'])]);
      if (second?.status !== 'new') throw new Error('expected new');
      expect(second.candidates.map((c) => c.id)).toEqual(['a']);
    });

    it('ranks candidates by shared buckets, then age, and caps them', async () => {
      await open(WINDOW, { maxBucketSize: 100, maxCandidates: 2 });
      await store.index([
        request('one', ['b0=1']),
        request('two', ['b0=1', 'b1=2']),
        request('three', ['b0=1']),
      ]);
      const [r] = await store.index([request('q', ['b0=1', 'b1=2'])]);
      if (r?.status !== 'new') throw new Error('expected new');
      expect(r.candidates.map((c) => c.id)).toEqual(['two', 'one']);
    });

    it('replays a decided id: its first verdict, nothing inserted again', async () => {
      const [a] = await store.index([request('a', ['b0=1'])]);
      if (a?.status !== 'new') throw new Error('expected new');
      await store.commit([decision('a', a.seq)]);
      const before = await store.stats();
      const [again] = await store.index([request('a', ['b0=1', 'b9=9'])]);
      expect(again).toMatchObject({
        status: 'decided',
        verdict: { id: 'a', verdict: 'unique', clusterId: 'a', seq: a.seq },
      });
      const after = await store.stats();
      expect(after.messages).toBe(before.messages);
      expect(after.buckets).toBe(before.buckets);
      // The stored record's exact hash comes with the replay: the engine tells a reused id by it.
      expect(again).toMatchObject({ exact: record('a').exact });
      const reused = await store.index([request('a', ['b0=1'], T0, 'other content')]);
      expect(reused[0]).toMatchObject({ status: 'decided', exact: record('a').exact });
      const [b] = await store.index([request('b', ['b0=1'])]);
      if (b?.status !== 'new') throw new Error('expected new');
      expect(b.candidates.map((c) => c.id)).toEqual(['a']);
    });

    it('a replay (index and query) carries the exact hash of the first record, every bit of it', async () => {
      // 8 bytes with the high bit set: byte order and sign survive the wire.
      const label = 'Ωé€x';
      expect(record(label).exact).toBe('cea9c3a9e282ac78');
      const [x] = await store.index([request('x-exact', ['b3=1'], T0, label)]);
      if (x?.status !== 'new') throw new Error('expected new');
      await store.commit([decision('x-exact', x.seq)]);
      const [indexed] = await store.index([request('x-exact', ['b3=1'], T0, 'else')]);
      expect(indexed).toMatchObject({ status: 'decided', exact: 'cea9c3a9e282ac78' });
      const [queried] = await store.query([request('x-exact', ['b3=1'], T0, 'else')]);
      expect(queried).toMatchObject({ status: 'decided', exact: 'cea9c3a9e282ac78' });
    });

    it('reports an indexed but undecided id as pending with its first sequence number', async () => {
      const [a] = await store.index([request('a', ['b0=1'])]);
      const [b] = await store.index([request('b', ['b0=1'])]);
      const [again] = await store.index([request('a', ['b0=1'])]);
      if (a?.status !== 'new' || b?.status !== 'new') throw new Error('expected new');
      expect(again).toMatchObject({ status: 'pending', seq: a.seq, candidates: [] });
      const [bAgain] = await store.index([request('b', ['b0=1'])]);
      expect(bAgain).toMatchObject({ status: 'pending', seq: b.seq });
      if (bAgain?.status !== 'pending') throw new Error('expected pending');
      expect(bAgain.candidates.map((c) => c.id)).toEqual(['a']);
      expect((await store.stats()).messages).toBe(2);
    });

    it('expires a message with all its bucket entries once it leaves the window', async () => {
      await store.index([request('old', ['b0=1', 's0=2'], T0)]);
      const [mid] = await store.index([request('mid', ['b0=1'], T0 + 5 * HOUR)]);
      if (mid?.status !== 'new') throw new Error('expected new');
      expect(mid.candidates.map((c) => c.id)).toEqual(['old']);
      const [late] = await store.index([request('late', ['b0=1', 's0=2'], T0 + 12 * HOUR)]);
      if (late?.status !== 'new') throw new Error('expected new');
      expect(late.candidates.map((c) => c.id)).toEqual(['mid']);
      expect(await store.verdict('old')).toBeNull();
    });

    it('caps hot buckets and counts them', async () => {
      await open(WINDOW, { maxBucketSize: 2, maxCandidates: 16 });
      await store.index([request('a', ['l=1']), request('b', ['l=1']), request('c', ['l=1'])]);
      const [d] = await store.index([request('d', ['l=1'])]);
      if (d?.status !== 'new') throw new Error('expected new');
      expect(d.candidates.map((c) => c.id).sort()).toEqual(['a', 'b']);
      expect(d.hotBuckets).toBe(1);
      expect((await store.stats()).hotBucketEvents).toBeGreaterThanOrEqual(2);
      expect((await store.stats()).hotBuckets).toBe(1);
    });

    it('links a new member of a hot bucket to its first and its newest members (a campaign)', async () => {
      // maxBucketSize 16: a full bucket keeps its first 14 members and a rolling tail of 2.
      await open(WINDOW, { maxBucketSize: 16, maxCandidates: 64 });
      const ids = Array.from({ length: 24 }, (_, i) => `m${i}`);
      for (const id of ids) await store.index([request(id, ['t=7'])]);
      const [next] = await store.index([request('next', ['t=7'])]);
      if (next?.status !== 'new') throw new Error('expected new');
      const seen = next.candidates.map((c) => c.id);
      expect(seen).toHaveLength(16);
      // The campaign's start (what duplicateOf names) and its latest copies.
      expect(seen).toContain('m0');
      expect(seen).toContain('m13');
      expect(seen).toContain('m23');
      expect(seen).not.toContain('m14');
      expect(next.hotBuckets).toBe(1);
      const stats = await store.stats();
      expect(stats.hotBuckets).toBe(1);
      expect(stats.hotBucketEvents).toBe(9);
      // A bucket at its cap and one of one member: no tail kept below 8 (the newcomer only counted).
      await open(WINDOW, { maxBucketSize: 4, maxCandidates: 16 });
      for (const id of ids.slice(0, 6)) await store.index([request(id, ['t=7'])]);
      const [small] = await store.index([request('small', ['t=7'])]);
      if (small?.status !== 'new') throw new Error('expected new');
      expect(small.candidates.map((c) => c.id).sort()).toEqual(['m0', 'm1', 'm2', 'm3']);
    });

    it('expires the members of a hot bucket with their generation', async () => {
      await open(WINDOW, { maxBucketSize: 8, maxCandidates: 64 });
      for (let i = 0; i < 10; i++) await store.index([request(`e${i}`, ['t=9'], T0 + i * HOUR)]);
      // At T0 + 12h the first two hours have left the 10-hour window; e7 and e8 were replaced in
      // the tail (one member at maxBucketSize 8) by e9.
      const [late] = await store.index([request('late', ['t=9'], T0 + 12 * HOUR)]);
      if (late?.status !== 'new') throw new Error('expected new');
      expect(late.candidates.map((c) => c.id).sort()).toEqual(['e2', 'e3', 'e4', 'e5', 'e6', 'e9']);
    });

    it('creates, grows and merges clusters; the older cluster keeps its id', async () => {
      const rs = await store.index([
        request('a', ['b0=1']),
        request('b', ['b0=2']),
        request('c', ['b0=1', 'b0=2']),
      ]);
      const seqs = rs.map((r) => (r.status === 'decided' ? -1 : r.seq));
      const [ca, cb] = await store.commit([decision('a', seqs[0]!), decision('b', seqs[1]!)]);
      expect(ca).toMatchObject({ clusterId: 'a', events: [{ type: 'created', clusterId: 'a', size: 1 }] });
      expect(cb!.clusterId).toBe('b');
      const [cc] = await store.commit([decision('c', seqs[2]!, ['b', 'a'])]);
      expect(cc!.clusterId).toBe('a');
      expect(cc!.events.map((e) => e.type)).toEqual(['merged', 'grown']);
      expect(cc!.events[0]).toMatchObject({ clusterId: 'a', mergedFrom: ['b'] });
      expect(await store.resolveCluster('b')).toBe('a');
      expect(await store.cluster('b')).toMatchObject({ id: 'a', size: 3, representative: 'a' });
      expect(await store.verdict('c')).toMatchObject({
        clusterId: 'a',
        verdict: 'near_duplicate',
        duplicateOf: 'b',
      });
    });

    it('reads many verdicts and clusters in one call as the single reads give them', async () => {
      const rs = await store.index([
        request('va', ['b0=11']),
        request('vb', ['b0=12']),
        request('vc', ['b0=11', 'b0=12']),
        request('vd', ['b0=13']),
      ]);
      const seqs = rs.map((r) => (r.status === 'decided' ? -1 : r.seq));
      await store.commit([decision('va', seqs[0]!), decision('vb', seqs[1]!)]);
      await store.commit([decision('vc', seqs[2]!, ['vb', 'va'])]);
      // vd is indexed but undecided; vx was never seen.
      const ids = ['vc', 'vd', 'va', 'vx', 'vb'];
      const single = await Promise.all(ids.map((id) => store.verdict(id)));
      // A verdict keeps the cluster id it was given (vb's, merged into va's later).
      expect(single.map((v) => v?.clusterId ?? null)).toEqual(['va', null, 'va', null, 'vb']);
      expect(await store.verdictsOf(ids)).toEqual(single);
      expect(await store.verdictsOf([])).toEqual([]);
      // By a merged root's id; by a member's id (no cluster of its own), found through the
      // fallback; unknown with and without a fallback.
      const lookups = [
        { id: 'vb' },
        { id: 'vc', fallback: 'va' },
        { id: 'vx', fallback: 'va' },
        { id: 'vx' },
        { id: 'vx', fallback: 'vy' },
      ];
      const views = await store.clustersOf(lookups);
      expect(views).toEqual(
        await Promise.all(
          lookups.map(
            async (l) => (await store.cluster(l.id)) ?? (l.fallback ? await store.cluster(l.fallback) : null),
          ),
        ),
      );
      expect(views.map((v) => v?.id ?? null)).toEqual(['va', 'va', 'va', null, null]);
      expect(await store.clustersOf([])).toEqual([]);
    });

    it('reports a story growing in one batch, with whole and fractional event times', async () => {
      for (const [tag, start] of [
        ['w', T0],
        ['f', T0 + 0.25],
      ] as const) {
        const times = [start, start + 1000, start + 2000.5];
        const ids = [`${tag}0`, `${tag}1`, `${tag}2`];
        const rs = await store.index(
          ids.map((id, i) => request(id, [`b${tag === 'w' ? 1 : 2}=5`], times[i])),
        );
        const seqs = rs.map((r) => (r.status === 'decided' ? -1 : r.seq));
        const results = await store.commit([
          decision(ids[0]!, seqs[0]!, [], times[0]),
          decision(ids[1]!, seqs[1]!, [ids[0]!], times[1]),
          decision(ids[2]!, seqs[2]!, [ids[1]!], times[2]),
        ]);
        const grown = results.slice(1).map((r) => r.events);
        expect(grown.map((events) => events.map((e) => ({ ...e, firstSeen: 0, lastSeen: 0 })))).toEqual(
          [1, 2].map((i) => [
            {
              type: 'grown',
              clusterId: ids[0],
              messageId: ids[i],
              size: i + 1,
              firstSeen: 0,
              lastSeen: 0,
              representative: ids[0],
            },
          ]),
        );
        // Whole milliseconds exactly; a fractional time within a millisecond (Redis' JSON keeps 14
        // significant digits of it).
        for (const [i, events] of grown.entries()) {
          const e = events[0]!;
          if (tag === 'w') expect([e.firstSeen, e.lastSeen]).toEqual([times[0], times[i + 1]]);
          expect(e.firstSeen).toBeCloseTo(times[0]!, 0);
          expect(e.lastSeen).toBeCloseTo(times[i + 1]!, 0);
        }
        expect(results.map((r) => r.clusterId)).toEqual([ids[0], ids[0], ids[0]]);
        expect(await store.cluster(ids[0]!)).toMatchObject({ id: ids[0], size: 3 });
      }
    });

    it('lets a message join the cluster of an earlier, still undecided message', async () => {
      const [a, b] = await store.index([request('a', ['b0=1']), request('b', ['b0=1'])]);
      if (a?.status !== 'new' || b?.status !== 'new') throw new Error('expected new');
      // b is committed before a (another process, or an out-of-order commit).
      const [cb] = await store.commit([decision('b', b.seq, ['a'])]);
      expect(cb!.clusterId).toBe('a');
      const [ca] = await store.commit([decision('a', a.seq)]);
      expect(ca!.clusterId).toBe('a');
      expect(await store.cluster('a')).toMatchObject({ size: 2, representative: 'a' });
    });

    it('keeps member lists and titles: a page of members with verdicts, in sequence order', async () => {
      const [a, b, c, x] = await store.index([
        request('a', ['b0=1']),
        request('b', ['b0=1']),
        request('c', ['b0=1']),
        request('x', ['b0=7']),
      ]);
      const seq = (r: typeof a) => (r?.status === 'new' ? r.seq : -1);
      // Titles are hostile input: kept byte for byte, never interpreted.
      const title = '<img src=x onerror=alert(1)> "Ölpreis" & 油价';
      await store.commit([
        { ...decision('a', seq(a)), title },
        { ...decision('x', seq(x)), title: 'lone' },
      ]);
      await store.commit([
        { ...decision('c', seq(c), ['a']), title: 'c title' },
        { ...decision('b', seq(b), ['a'], T0, 'duplicate') },
      ]);
      expect(await store.cluster('a')).toEqual({
        id: 'a',
        size: 3,
        firstSeen: T0,
        lastSeen: T0,
        representative: 'a',
        title,
      });
      const page1 = await store.clusterMembers('a', 0, 2);
      // Sequence order, not commit order: b joined after c but arrived before it.
      expect(page1).toMatchObject({ next: seq(b), total: 3 });
      expect(page1!.members.map((m) => m.id)).toEqual(['a', 'b']);
      expect(page1!.members[0]).toEqual({
        id: 'a',
        seq: seq(a),
        ts: T0,
        verdict: 'unique',
        clusterId: 'a',
        title,
      });
      expect(page1!.members[1]).toEqual({
        id: 'b',
        seq: seq(b),
        ts: T0,
        verdict: 'duplicate',
        clusterId: 'a',
        duplicateOf: 'a',
      });
      const page2 = await store.clusterMembers('a', seq(b), 2);
      expect(page2).toMatchObject({ next: null, total: 3 });
      expect(page2!.members.map((m) => m.id)).toEqual(['c']);
      expect(page2!.members[0]).toMatchObject({ id: 'c', verdict: 'near_duplicate', title: 'c title' });
      // A singleton is its own only member; its title is the cluster's.
      expect(await store.cluster('x')).toMatchObject({ size: 1, title: 'lone' });
      expect(await store.clusterMembers('x', 0, 10)).toMatchObject({
        members: [{ id: 'x', title: 'lone' }],
        next: null,
        total: 1,
      });
      expect(await store.clusterMembers('nope', 0, 10)).toBeNull();
      expect((await store.clusterMembers('a', seq(c), 10))?.members).toEqual([]);
    });

    it('keeps each message detail (language, url, snippet, evidence, via) with its verdict', async () => {
      const [a, b] = await store.index([request('d-a', ['b0=21']), request('d-b', ['b0=21'])]);
      if (a?.status !== 'new' || b?.status !== 'new') throw new Error('expected new');
      // Hostile and awkward input: separators, quotes, markup and non-Latin text, kept as given.
      const detail: MessageDetail = {
        lang: 'uk',
        url: 'https://news.example/a?x=1&y="2"',
        snippet: 'Київ <b>ціни</b> \u001f "зросли" 油价 …',
        evidence: {
          exact: false,
          hamming: 4,
          jaccard: 0.8125,
          imatch: true,
          lexical: 2,
          cosine: null,
          containment: 0.9,
        },
        via: 'odd\u001fid:7',
      };
      await store.commit([
        { ...decision('d-a', a.seq), title: 'Ціни', detail: encodeDetail({ lang: 'en', snippet: 'first' }) },
        { ...decision('d-b', b.seq, ['d-a']), detail: encodeDetail(detail) },
      ]);
      const { snippet, ...rest } = detail;
      const expected = { ...rest, snippet: 'Київ <b>ціни</b>  "зросли" 油价 …' };
      expect(await store.verdict('d-b', { detail: true })).toMatchObject(expected);
      expect(await store.verdict('d-a', { detail: true })).toMatchObject({
        lang: 'en',
        snippet: 'first',
        title: 'Ціни',
      });
      // The engine's reads (no detail asked) stay as small as before.
      const plain = await store.verdict('d-b');
      expect(plain).not.toHaveProperty('snippet');
      expect(plain).not.toHaveProperty('url');
      const page = await store.clusterMembers('d-a', 0, 10);
      expect(page?.members[1]).toMatchObject({ id: 'd-b', ...expected });
      expect(page?.members[0]).toMatchObject({ id: 'd-a', title: 'Ціни', snippet: 'first' });
    });

    it('pages by key: stories and members arriving between two pages neither repeat nor skip', async () => {
      // Five stories of two, one an hour; then page 1 of the newest, then two more stories and a
      // member for the first story, then page 2.
      const make = async (name: string, hour: number) => {
        const ids = [`${name}-0`, `${name}-1`];
        const rs = await store.index(ids.map((id) => request(id, [`b0=${name.slice(1)}`], T0 + hour * HOUR)));
        const s = rs.map((r) => (r.status === 'new' ? r.seq : -1));
        await store.commit([
          decision(ids[0]!, s[0]!, [], T0 + hour * HOUR),
          decision(ids[1]!, s[1]!, [ids[0]!], T0 + hour * HOUR),
        ]);
      };
      for (let i = 1; i <= 5; i++) await make(`k${i}`, i);
      const p1 = await store.listClusters({ order: 'recent', since: 0, after: null, limit: 2 });
      expect(p1.items.map((c) => c.id)).toEqual(['k5-0', 'k4-0']);
      const m1 = await store.clusterMembers('k1-0', 0, 1);
      expect(m1?.members.map((m) => m.id)).toEqual(['k1-0']);
      await make('k6', 6);
      await make('k7', 7);
      const p2 = await store.listClusters({ order: 'recent', since: 0, after: p1.next, limit: 2 });
      expect(p2.items.map((c) => c.id)).toEqual(['k3-0', 'k2-0']);
      const p3 = await store.listClusters({ order: 'recent', since: 0, after: p2.next, limit: 2 });
      expect(p3.items.map((c) => c.id)).toEqual(['k1-0']);
      expect(p3.next).toBeNull();
      const m2 = await store.clusterMembers('k1-0', m1!.next!, 10);
      expect(m2?.members.map((m) => m.id)).toEqual(['k1-1']);
      expect(m2?.next).toBeNull();
      // In size order every story ties at 2: the newest root first, then on by key.
      const z1 = await store.listClusters({ order: 'size', since: 0, after: null, limit: 3 });
      const z2 = await store.listClusters({ order: 'size', since: 0, after: z1.next, limit: 10 });
      expect([...z1.items, ...z2.items].map((c) => c.id)).toEqual([
        'k7-0',
        'k6-0',
        'k5-0',
        'k4-0',
        'k3-0',
        'k2-0',
        'k1-0',
      ]);
    });

    it('merges member lists in sequence order and answers for the merged id', async () => {
      const rs = await store.index([
        request('a', ['b0=1']),
        request('b', ['b0=2']),
        request('a2', ['b0=1']),
        request('b2', ['b0=2']),
        request('m', ['b0=1', 'b0=2']),
      ]);
      const s = rs.map((r) => (r.status === 'new' ? r.seq : -1));
      await store.commit([
        { ...decision('a', s[0]!), title: 'A' },
        { ...decision('b', s[1]!), title: 'B' },
        decision('a2', s[2]!, ['a']),
        decision('b2', s[3]!, ['b']),
      ]);
      await store.commit([decision('m', s[4]!, ['b2', 'a2'])]);
      const page = await store.clusterMembers('b', 0, 10);
      expect(page).toMatchObject({ next: null, total: 5 });
      expect(page!.members.map((m) => m.id)).toEqual(['a', 'b', 'a2', 'b2', 'm']);
      expect(await store.cluster('b')).toMatchObject({ id: 'a', size: 5, title: 'A' });
      const list = await store.listClusters({ order: 'size', since: 0, after: null, limit: 10 });
      expect(list.items.map((c) => c.id)).toEqual(['a']);
    });

    it('a tentative cluster gets its root as a member and its title when the root is decided', async () => {
      const [a, b] = await store.index([request('a', ['b0=1']), request('b', ['b0=1'])]);
      if (a?.status !== 'new' || b?.status !== 'new') throw new Error('expected new');
      await store.commit([{ ...decision('b', b.seq, ['a']), title: 'second' }]);
      await store.commit([{ ...decision('a', a.seq), title: 'first' }]);
      expect(await store.cluster('a')).toMatchObject({ size: 2, title: 'first' });
      expect((await store.clusterMembers('a', 0, 10))?.members.map((m) => m.id)).toEqual(['a', 'b']);
    });

    it('lists stories (two or more) largest or newest first, paged, since a time', async () => {
      // Stories: s1 of 4 (last seen T0+3h), s2 of 2 (T0+1h), s3 of 2 (T0+4h), s4 of 3 (T0+2h); a singleton.
      const spec: Array<[string, number, number]> = [
        ['s1', 4, 3],
        ['s2', 2, 1],
        ['s3', 2, 4],
        ['s4', 3, 2],
      ];
      for (const [name, size, lastHour] of spec) {
        const ids = Array.from({ length: size }, (_, i) => `${name}-${i}`);
        const rs = await store.index(ids.map((id) => request(id, [`b0=${name.slice(1)}`], T0)));
        const s = rs.map((r) => (r.status === 'new' ? r.seq : -1));
        await store.commit(
          ids.map((id, i) => ({
            ...decision(id, s[i]!, i === 0 ? [] : [ids[0]!], i === size - 1 ? T0 + lastHour * HOUR : T0),
            title: `${name} title`,
          })),
        );
      }
      const [single] = await store.index([request('single', ['b0=99'], T0)]);
      await store.commit([decision('single', single?.status === 'new' ? single.seq : -1)]);

      const bySize = await store.listClusters({ order: 'size', since: 0, after: null, limit: 10 });
      // s2 and s3 tie on size: the newer root (s3) first.
      expect(bySize.items.map((c) => [c.id, c.size])).toEqual([
        ['s1-0', 4],
        ['s4-0', 3],
        ['s3-0', 2],
        ['s2-0', 2],
      ]);
      expect(bySize.next).toBeNull();
      expect(bySize.items[0]).toEqual({
        id: 's1-0',
        size: 4,
        firstSeen: T0,
        lastSeen: T0 + 3 * HOUR,
        representative: 's1-0',
        title: 's1 title',
      });
      const recent = await store.listClusters({ order: 'recent', since: 0, after: null, limit: 10 });
      expect(recent.items.map((c) => c.id)).toEqual(['s3-0', 's1-0', 's4-0', 's2-0']);

      const p1 = await store.listClusters({ order: 'recent', since: 0, after: null, limit: 3 });
      expect(p1.items.map((c) => c.id)).toEqual(['s3-0', 's1-0', 's4-0']);
      expect(p1.keys.map((k) => k.score)).toEqual([T0 + 4 * HOUR, T0 + 3 * HOUR, T0 + 2 * HOUR]);
      expect(p1.next).toEqual(p1.keys[2]);
      const p2 = await store.listClusters({ order: 'recent', since: 0, after: p1.next, limit: 3 });
      expect(p2).toMatchObject({ next: null });
      expect(p2.items.map((c) => c.id)).toEqual(['s2-0']);

      // since: last seen at or after T0+2h.
      const since = T0 + 2 * HOUR;
      const recentSince = await store.listClusters({ order: 'recent', since, after: null, limit: 3 });
      expect(recentSince.items.map((c) => c.id)).toEqual(['s3-0', 's1-0', 's4-0']);
      expect(recentSince.next).toBeNull();
      const s1 = await store.listClusters({ order: 'size', since, after: null, limit: 2 });
      expect(s1.items.map((c) => c.id)).toEqual(['s1-0', 's4-0']);
      expect(s1.next).toMatchObject({ score: 3 });
      const s2 = await store.listClusters({ order: 'size', since, after: s1.next, limit: 2 });
      expect(s2.items.map((c) => c.id)).toEqual(['s3-0']);
      expect(s2.next).toBeNull();
    });

    it('drops members and stories that left the window; a story outlives its first message', async () => {
      // Story "old" (T0 only) and story "long" (first message T0, another at T0+5h).
      const rs = await store.index([
        request('old', ['b0=1'], T0),
        request('old2', ['b0=1'], T0),
        request('long', ['b0=2'], T0),
      ]);
      const s = rs.map((r) => (r.status === 'new' ? r.seq : -1));
      await store.commit([
        { ...decision('old', s[0]!), title: 'old' },
        decision('old2', s[1]!, ['old']),
        { ...decision('long', s[2]!), title: 'long story' },
      ]);
      const [l2] = await store.index([request('long2', ['b0=2'], T0 + 5 * HOUR)]);
      await store.commit([decision('long2', l2?.status === 'new' ? l2.seq : -1, ['long'], T0 + 5 * HOUR)]);
      expect(
        (await store.listClusters({ order: 'size', since: 0, after: null, limit: 10 })).items,
      ).toHaveLength(2);
      // The clock passes the window (10h) plus a generation for "old" and the first messages.
      const [late] = await store.index([request('late', ['b0=3'], T0 + 12 * HOUR)]);
      await store.commit([decision('late', late?.status === 'new' ? late.seq : -1, [], T0 + 12 * HOUR)]);
      const list = await store.listClusters({ order: 'recent', since: 0, after: null, limit: 10 });
      expect(list.items.map((c) => c.id)).toEqual(['long']);
      expect(list.items[0]).toMatchObject({ size: 2, title: 'long story', lastSeen: T0 + 5 * HOUR });
      expect(await store.cluster('old')).toBeNull();
      // "long" left the window; its story did not: found by its id, members only those still in.
      expect(await store.cluster('long')).toMatchObject({ id: 'long', size: 2, title: 'long story' });
      expect(await store.clusterMembers('long', 0, 10)).toMatchObject({
        members: [{ id: 'long2' }],
        next: null,
        total: 1,
      });
      expect(await store.verdict('long')).toBeNull();
    });

    it('commits a decided id once: a second commit changes nothing', async () => {
      const [a] = await store.index([request('a', ['b0=1'])]);
      if (a?.status !== 'new') throw new Error('expected new');
      await store.commit([decision('a', a.seq)]);
      const [again] = await store.commit([decision('a', a.seq, [], T0, 'duplicate')]);
      expect(again).toMatchObject({ clusterId: 'a', events: [], decidedBefore: true });
      expect(await store.verdict('a')).toMatchObject({ verdict: 'unique' });
      expect(await store.cluster('a')).toMatchObject({ size: 1 });
    });

    // Defect 2 (a far-future time wipes the window): the clock never passes the wall clock plus
    // window.maxFutureSkewMs (1 hour by default), and a time the engine clamped moves no clock.
    it('defect 2: a message dated in year 9999 moves the clock no further than the wall clock plus the skew', async () => {
      const now = Date.now();
      await store.index([request('a', ['b0=1'], now)]);
      await store.index([request('evil', ['b0=2'], Date.UTC(9999, 11, 31))]);
      // 10 minutes later: still in the 10-hour window, whatever "evil" said.
      const [copy] = await store.index([request('copy', ['b0=1'], now + 10 * 60_000)]);
      expect(copy).toMatchObject({ status: 'new', candidates: [{ id: 'a' }] });
      // Far past: moves no clock either.
      await store.index([request('old', ['b0=3'], -8.64e15)]);
      const [later] = await store.index([request('later', ['b0=1'], now + 20 * 60_000)]);
      expect(later).toMatchObject({ status: 'new', candidates: [{ id: 'a' }, { id: 'copy' }] });
    });

    it('defect 2: a time the engine clamped (clampedTs) is stored but moves no clock, even on a feed older than the wall clock', async () => {
      await store.index([request('a', ['b0=1'], T0)]);
      const evil = { ...request('evil', ['b0=2'], Date.now() + HOUR), clampedTs: true as const };
      const [e] = await store.index([evil]);
      expect(e).toMatchObject({ status: 'new' });
      const [copy] = await store.index([request('copy', ['b0=1'], T0 + 10 * 60_000)]);
      expect(copy).toMatchObject({ status: 'new', candidates: [{ id: 'a' }] });
      const [again] = await store.index([request('again', ['b0=2'], T0 + 11 * 60_000)]);
      expect(again).toMatchObject({ candidates: [{ id: 'evil', ts: evil.ts }] });
    });
  });
}
