import type { IndexConfig, WindowConfig } from '../../config/dedup.js';
import { maxFutureSkew } from '../../config/skew.js';
import { withDetail } from '../../engine/detail.js';
import { type IndexKey, keyNumber, keyNumberOf, PackedKeys } from '../../engine/index-keys.js';
import { storedRecord } from '../../engine/record.js';
import type {
  Candidate,
  ClusterListPage,
  ClusterListQuery,
  ClusterLookup,
  ClusterMember,
  ClusterMembersPage,
  ClusterView,
  CommitResult,
  Decision,
  DedupStore,
  IndexRequest,
  IndexResult,
  QueryResult,
  SignatureRecord,
  StoredVerdict,
  StoreStats,
  StoryEvent,
  VerdictReadOptions,
} from '../../engine/types.js';
import { withHotMember } from '../hot.js';
import { HitCounter } from '../rank.js';
import { BucketTable } from './buckets.js';
import { PairLog } from './pairs.js';

interface StoredMessage {
  id: string;
  seq: number;
  ts: number;
  generation: number;
  record: SignatureRecord;
  verdict: StoredVerdict | null;
  /** Set at commit (as the Redis store writes it). */
  title?: string;
  /** Set at commit: engine/detail.ts's form (url, snippet, evidence...), decoded when read. */
  detail?: string;
}

interface ClusterRecord {
  id: string;
  /** Sequence number of the cluster's first message: the older cluster wins a merge. */
  rootSeq: number;
  size: number;
  firstSeen: number;
  lastSeen: number;
  representative: string;
  /** Set when merged into another cluster; the record stays as an alias until it expires. */
  mergedInto: string | null;
  /**
   * Sequence numbers of the decided members, ascending. Members that left the window are a prefix
   * (generations follow sequence numbers) and are cut off whenever the list is read or written.
   */
  members: number[];
  /** The representative's title, kept with the cluster so it outlives the representative. */
  title: string | null;
}

interface Generation {
  messages: string[];
  /** Every bucket entry (table index, key number) inserted while this generation was current: removed when it expires. */
  entries: PairLog;
}

function clusterView(c: ClusterRecord): ClusterView {
  return {
    id: c.id,
    size: c.size,
    firstSeen: c.firstSeen,
    lastSeen: c.lastSeen,
    representative: c.representative,
    title: c.title,
  };
}

const bySizeThenRoot = (a: ClusterRecord, b: ClusterRecord) => b.size - a.size || b.rootSeq - a.rootSeq;
const byRecentThenRoot = (a: ClusterRecord, b: ClusterRecord) =>
  b.lastSeen - a.lastSeen || b.rootSeq - a.rootSeq;

/** Index of the first element of ascending `list` above `x` (list.length when none). */
function firstAbove(list: readonly number[], x: number): number {
  let lo = 0;
  let hi = list.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if ((list[mid] as number) <= x) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/** Inserts `x` into ascending `list` (usually at the end: members arrive in sequence order). */
function insertSorted(list: number[], x: number): void {
  let at = list.length;
  while (at > 0 && (list[at - 1] as number) > x) at--;
  if (list[at - 1] === x) return;
  list.splice(at, 0, x);
}

function mergeSorted(a: readonly number[], b: readonly number[]): number[] {
  const out: number[] = [];
  let i = 0;
  let j = 0;
  while (i < a.length || j < b.length) {
    if (j >= b.length || (i < a.length && (a[i] as number) < (b[j] as number))) out.push(a[i++] as number);
    else out.push(b[j++] as number);
  }
  return out;
}

/**
 * The embedded default store. Time-bucketed generations: a message and all its bucket entries
 * belong to the generation of its event time and are dropped together when the generation leaves
 * the window, so memory is bounded by the window, not the stream. Single-threaded, so each call
 * is atomic.
 */
export class MemoryStore implements DedupStore {
  readonly kind = 'memory';
  private seq = 0;
  private readonly byId = new Map<string, StoredMessage>();
  private readonly bySeq = new Map<number, StoredMessage>();
  /**
   * table -> bucket key (31 bits of the 64-bit key) -> member sequence numbers, oldest first: a
   * bare number while the bucket has one member (most band buckets never get a second), so a
   * message costs no array per bucket.
   */
  private readonly buckets = new BucketTable();
  /** The ranked candidates' messages and shared buckets (candidates' scratch). */
  private readonly found: Array<StoredMessage | null> = [];
  private foundHits: number[] = [];
  /** A message's keys as table indexes and key numbers (candidates' scratch). */
  private keyTables = new Int32Array(64);
  private keyNumbers = new Int32Array(64);
  /** Table name -> its index in `buckets`. */
  private readonly tableIndex = new Map<string, number>();
  private readonly hits = new HitCounter();
  private readonly generations = new Map<number, Generation>();
  private readonly clusters = new Map<string, ClusterRecord>();
  /** Latest event time seen: the store's clock (deterministic for a given input order). */
  private now = Number.NEGATIVE_INFINITY;
  private currentGeneration = Number.NEGATIVE_INFINITY;
  private hotBucketEvents = 0;
  private hotBucketsFilled = 0;
  private expiredGenerations = 0;
  private roundTrips = 0;

  constructor(
    private readonly window: WindowConfig,
    private readonly limits: Pick<IndexConfig, 'maxBucketSize' | 'maxCandidates'>,
  ) {}

  async index(requests: readonly IndexRequest[]): Promise<IndexResult[]> {
    this.roundTrips++;
    const results: IndexResult[] = [];
    // The clock never moves past the wall clock plus the skew, as on Redis (index-1.lua).
    const clockLimit = Date.now() + maxFutureSkew(this.window);
    for (const request of requests) {
      // A clamped time (the engine's, IndexRequest.clampedTs) moves no clock.
      const clockTs = request.clampedTs ? Number.NEGATIVE_INFINITY : Math.min(request.ts, clockLimit);
      if (clockTs > this.now) this.advance(clockTs);
      const known = this.byId.get(request.id);
      if (known?.verdict) {
        results.push({ status: 'decided', verdict: known.verdict, exact: known.record.exact });
        continue;
      }
      const seq = known ? known.seq : ++this.seq;
      const n = this.loadKeys(request);
      const { candidates, hot } = this.candidates(n, seq);
      if (!known) this.insert(request, n, seq);
      results.push({ status: known ? 'pending' : 'new', seq, candidates, hotBuckets: hot });
    }
    if (this.window.maxMessages > 0) {
      while (this.byId.size > this.window.maxMessages && this.dropOldestGeneration());
    }
    return results;
  }

  async query(requests: readonly IndexRequest[]): Promise<QueryResult[]> {
    this.roundTrips++;
    return requests.map((request): QueryResult => {
      const known = this.byId.get(request.id);
      if (known?.verdict) return { status: 'decided', verdict: known.verdict, exact: known.record.exact };
      // An indexed but undecided id sees only what is older than it, as index() would show it.
      const n = this.loadKeys(request);
      const { candidates, hot } = this.candidates(n, known ? known.seq : Number.POSITIVE_INFINITY);
      return { status: 'unseen', candidates, hotBuckets: hot };
    });
  }

  /** The table index of a table name, given one when new. */
  private tableOf(name: string): number {
    let table = this.tableIndex.get(name);
    if (table === undefined) {
      table = this.tableIndex.size;
      this.tableIndex.set(name, table);
    }
    return table;
  }

  /**
   * A request's keys into keyTables / keyNumbers (table index, 31-bit key number), in order;
   * returns how many. Read once a message, for both the look-up and the insert.
   */
  private loadKeys(request: IndexRequest): number {
    const keys = request.keys;
    const n = keys.length;
    if (this.keyTables.length < n) {
      this.keyTables = new Int32Array(2 * n);
      this.keyNumbers = new Int32Array(2 * n);
    }
    const keyTables = this.keyTables;
    const keyNumbers = this.keyNumbers;
    if (keys instanceof PackedKeys) {
      // Packed keys (a sign worker's chunk): read in place, the chunk's table names mapped once.
      const tables = this.chunkTables(keys.tables);
      const { tableOf, words, start } = keys;
      for (let j = 0, k = start; j < n; j++, k++) {
        keyTables[j] = tables[tableOf[k] as number] as number;
        keyNumbers[j] = keyNumberOf(words[2 * k] as number, words[2 * k + 1] as number);
      }
      return n;
    }
    for (let j = 0; j < n; j++) {
      const key = keys[j] as IndexKey;
      keyTables[j] = this.tableOf(key.table);
      keyNumbers[j] = keyNumber(key);
    }
    return n;
  }

  /** The table indexes of a chunk's table names (the last chunk's kept: its messages come together). */
  private chunkTables(names: readonly string[]): Int32Array {
    if (names !== this.lastChunkNames) {
      const tables = new Int32Array(names.length);
      for (let i = 0; i < names.length; i++) tables[i] = this.tableOf(names[i] as string);
      this.lastChunkNames = names;
      this.lastChunkTables = tables;
    }
    return this.lastChunkTables;
  }

  private lastChunkNames: readonly string[] | null = null;
  private lastChunkTables = new Int32Array(0);

  /** Candidates of the message whose `n` keys loadKeys just read. */
  private candidates(n: number, seq: number): { candidates: Candidate[]; hot: number } {
    const hits = this.hits;
    hits.reset();
    let hot = 0;
    const max = this.limits.maxBucketSize;
    const buckets = this.buckets;
    const keyTables = this.keyTables;
    const keyNumbers = this.keyNumbers;
    buckets.touch(keyTables, keyNumbers, n);
    for (let j = 0; j < n; j++) {
      const cell = buckets.find(keyTables[j] as number, keyNumbers[j] as number);
      if (cell < 0) continue;
      const m = buckets.members(cell);
      if (m >= 0) {
        if (max <= 1) hot++;
        if (m < seq) hits.add(m);
        continue;
      }
      const members = buckets.list(m);
      // Counted on every bucket (0 or 1), not in a branch: the first hot bucket came after this
      // code was compiled, and its untried increment dropped the optimized code.
      hot += members.length >= max ? 1 : 0;
      for (let i = 0; i < members.length; i++) {
        const member = members[i] as number;
        if (member < seq) hits.add(member);
      }
    }
    const candidates: Candidate[] = [];
    const top = hits.rankInto(this.limits.maxCandidates);
    // Two loops: the messages are found first, then read. Each message object is a cache miss,
    // and a loop of look-ups alone lets the CPU reach the next ones while earlier misses are
    // pending; with the candidate objects built in the same loop it met them one at a time.
    const found = this.found;
    let f = 0;
    for (let i = 0; i < top; i++) {
      const m = this.bySeq.get(hits.topSeq[i] as number);
      if (m) {
        found[f] = m;
        this.foundHits[f++] = hits.topHits[i] as number;
      }
    }
    for (let j = 0; j < f; j++) {
      const m = found[j] as StoredMessage;
      found[j] = null;
      candidates.push({
        id: m.id,
        seq: m.seq,
        ts: m.ts,
        record: m.record,
        hits: this.foundHits[j] as number,
      });
    }
    return { candidates, hot };
  }

  /** Inserts the message whose `n` keys loadKeys just read. */
  private insert(request: IndexRequest, n: number, seq: number): void {
    // The generation of the store clock, not of the message's own time: generations then follow
    // sequence numbers, so "live" is one sequence bound (the Redis store relies on this), and a
    // late message is kept for a whole window after it arrives.
    const g = this.currentGeneration;
    let generation = this.generations.get(g);
    if (!generation) {
      generation = { messages: [], entries: new PairLog() };
      this.generations.set(g, generation);
    }
    const max = this.limits.maxBucketSize;
    for (let j = 0; j < n; j++) {
      const table = this.keyTables[j] as number;
      const k = this.keyNumbers[j] as number;
      const size = this.buckets.sizeOf(table, k);
      if (size >= max) {
        this.hotBucketEvents++;
        // A full bucket is a campaign: the newcomer replaces the oldest of its recent members.
        const cell = this.buckets.find(table, k);
        const m = this.buckets.members(cell);
        const kept = withHotMember(m >= 0 ? [m] : this.buckets.list(m), seq, max);
        if (kept === null) continue;
        this.buckets.setMembers(cell, kept);
      } else {
        // On every insert (0 or 1), as `hot` in candidates: the first bucket to fill came late.
        this.hotBucketsFilled += size === max - 1 ? 1 : 0;
        this.buckets.add(table, k, seq);
      }
      generation.entries.push(table, k);
    }
    const stored: StoredMessage = {
      id: request.id,
      seq,
      ts: request.ts,
      generation: g,
      // Packed only: a third of the heap a windowed message costs (engine/record.ts PackedRecord).
      record: storedRecord(request.record),
      verdict: null,
    };
    generation.messages.push(request.id);
    this.byId.set(request.id, stored);
    this.bySeq.set(seq, stored);
  }

  /** Moves the clock; on entering a new generation, drops those wholly outside the window. */
  private advance(ts: number): void {
    this.now = ts;
    const g = Math.floor(ts / this.window.generationMs);
    if (g === this.currentGeneration) return;
    this.currentGeneration = g;
    const oldestLive = Math.floor((ts - this.window.windowMs) / this.window.generationMs);
    for (const old of [...this.generations.keys()]) if (old < oldestLive) this.dropGeneration(old);
    const clusterHorizon = ts - this.window.windowMs - this.window.generationMs;
    // By value (a cluster is keyed by its own id): iterating entries made a pair per cluster.
    for (const cluster of this.clusters.values())
      if (cluster.lastSeen < clusterHorizon) this.clusters.delete(cluster.id);
  }

  private dropOldestGeneration(): boolean {
    let oldest = Number.POSITIVE_INFINITY;
    for (const g of this.generations.keys()) oldest = Math.min(oldest, g);
    if (!Number.isFinite(oldest)) return false;
    this.dropGeneration(oldest);
    return true;
  }

  private dropGeneration(g: number): void {
    const generation = this.generations.get(g);
    if (!generation) return;
    for (const id of generation.messages) {
      const m = this.byId.get(id);
      if (m && m.generation === g) {
        this.byId.delete(id);
        this.bySeq.delete(m.seq);
      }
    }
    // Entries of dropped messages leave their buckets; a bucket left empty goes too.
    const buckets = this.buckets;
    const entries = generation.entries;
    for (let i = 0; i < entries.length; i++) {
      const cell = buckets.find(entries.first(i), entries.second(i));
      if (cell < 0) continue;
      const m = buckets.members(cell);
      if (m >= 0) {
        if (!this.bySeq.has(m)) buckets.remove(cell);
        continue;
      }
      // Members are in insertion (sequence) order and generations expire oldest first, so dead
      // members are a prefix: a live first member means nothing to remove.
      const members = buckets.list(m);
      if (this.bySeq.has(members[0] as number)) continue;
      // The live members kept in place (the list is this bucket's own): no copy, no closure.
      let live = 0;
      for (let j = 0; j < members.length; j++) {
        const seq = members[j] as number;
        if (this.bySeq.has(seq)) members[live++] = seq;
      }
      members.length = live;
      if (live === 0) buckets.remove(cell);
      else buckets.setMembers(cell, members);
    }
    this.generations.delete(g);
    this.expiredGenerations++;
  }

  async commit(decisions: readonly Decision[]): Promise<CommitResult[]> {
    this.roundTrips++;
    return decisions.map((d) => this.commitOne(d));
  }

  private commitOne(d: Decision): CommitResult {
    const message = this.byId.get(d.id);
    if (message?.verdict)
      return {
        id: d.id,
        clusterId: this.resolve(message.verdict.clusterId),
        events: [],
        decidedBefore: true,
      };
    const events: StoryEvent[] = [];
    // Roots of the clusters joined, plus this message's own tentative cluster if a later message
    // already joined it before this one was decided (possible across processes or in a batch).
    const roots = new Set<string>();
    // A join to a message that left the window since it was a candidate (a later message of the
    // same batch moved the clock) is dropped: its cluster is no longer reachable by id.
    for (const id of d.joins) if (this.byId.has(id)) roots.add(this.clusterOfMessage(id));
    if (this.clusters.has(d.id)) roots.add(this.resolve(d.id));
    let target: ClusterRecord;
    if (roots.size === 0) {
      target = {
        id: d.id,
        rootSeq: d.seq,
        size: 0,
        firstSeen: d.ts,
        lastSeen: d.ts,
        representative: d.id,
        mergedInto: null,
        members: [],
        title: d.title ?? null,
      };
      this.clusters.set(d.id, target);
      target.size = 1;
      target.members.push(d.seq);
      events.push(this.event('created', target, d.id));
    } else {
      const records = [...roots].map((id) => this.ensureCluster(id)).sort((a, b) => a.rootSeq - b.rootSeq);
      target = records[0] as ClusterRecord;
      const absorbed: string[] = [];
      for (const other of records.slice(1)) {
        other.mergedInto = target.id;
        target.size += other.size;
        target.firstSeen = Math.min(target.firstSeen, other.firstSeen);
        target.lastSeen = Math.max(target.lastSeen, other.lastSeen);
        target.members = mergeSorted(this.liveMembers(target), this.liveMembers(other));
        other.members = [];
        absorbed.push(other.id);
      }
      target.size += 1;
      insertSorted(this.liveMembers(target), d.seq);
      // The root decided after a later message joined its tentative cluster: its title now.
      if (target.title === null && target.rootSeq === d.seq && d.title !== undefined) target.title = d.title;
      target.firstSeen = Math.min(target.firstSeen, d.ts);
      target.lastSeen = Math.max(target.lastSeen, d.ts);
      if (absorbed.length > 0) events.push({ ...this.event('merged', target, d.id), mergedFrom: absorbed });
      events.push(this.event('grown', target, d.id));
    }
    const verdict: StoredVerdict = {
      id: d.id,
      seq: d.seq,
      ts: d.ts,
      verdict: d.verdict,
      clusterId: target.id,
    };
    if (d.duplicateOf !== undefined) verdict.duplicateOf = d.duplicateOf;
    if (d.similarity !== undefined) verdict.similarity = d.similarity;
    if (d.method !== undefined) verdict.method = d.method;
    if (message) {
      message.verdict = verdict;
      if (d.title !== undefined) message.title = d.title;
      if (d.detail) message.detail = d.detail;
    }
    return { id: d.id, clusterId: target.id, events };
  }

  /** The cluster a message belongs to: its decided cluster, or itself while undecided. */
  private clusterOfMessage(id: string): string {
    const m = this.byId.get(id);
    return this.resolve(m?.verdict ? m.verdict.clusterId : id);
  }

  /** A cluster record for a root that no decided message created yet (an undecided message). */
  private ensureCluster(id: string): ClusterRecord {
    let record = this.clusters.get(id);
    if (!record) {
      const m = this.byId.get(id);
      const ts = m?.ts ?? this.now;
      record = {
        id,
        rootSeq: m?.seq ?? 0,
        size: 0,
        firstSeen: ts,
        lastSeen: ts,
        representative: id,
        mergedInto: null,
        members: [],
        title: null,
      };
      this.clusters.set(id, record);
    }
    return record;
  }

  private resolve(id: string): string {
    let current = id;
    for (let hops = 0; hops < 1000; hops++) {
      const next = this.clusters.get(current)?.mergedInto;
      if (!next) return current;
      current = next;
    }
    return current;
  }

  private event(type: StoryEvent['type'], c: ClusterRecord, messageId: string): StoryEvent {
    return {
      type,
      clusterId: c.id,
      messageId,
      size: c.size,
      firstSeen: c.firstSeen,
      lastSeen: c.lastSeen,
      representative: c.representative,
    };
  }

  async verdict(id: string, options?: VerdictReadOptions): Promise<StoredVerdict | null> {
    const m = this.byId.get(id);
    if (!m?.verdict) return null;
    return options?.detail ? this.readable(m, m.verdict) : m.verdict;
  }

  /** A decided message's verdict as the read calls give it: with its title and detail. */
  private readable(m: StoredMessage, verdict: StoredVerdict): ClusterMember {
    const out: ClusterMember = withDetail({ ...verdict }, m.detail);
    if (m.title !== undefined) out.title = m.title;
    return out;
  }

  async cluster(id: string): Promise<ClusterView | null> {
    const c = this.clusters.get(this.resolve(id));
    return c ? clusterView(c) : null;
  }

  async verdictsOf(ids: readonly string[]): Promise<Array<StoredVerdict | null>> {
    return ids.map((id) => this.byId.get(id)?.verdict ?? null);
  }

  async clustersOf(lookups: readonly ClusterLookup[]): Promise<Array<ClusterView | null>> {
    return Promise.all(
      lookups.map(
        async ({ id, fallback }) =>
          (await this.cluster(id)) ?? (fallback === undefined ? null : this.cluster(fallback)),
      ),
    );
  }

  async clusterMembers(clusterId: string, after: number, limit: number): Promise<ClusterMembersPage | null> {
    const c = this.clusters.get(this.resolve(clusterId));
    if (!c) return null;
    const live = this.liveMembers(c);
    const start = firstAbove(live, after);
    const end = Math.min(live.length, start + limit);
    const members: ClusterMember[] = [];
    for (const seq of live.slice(start, end)) {
      const m = this.bySeq.get(seq);
      if (!m?.verdict) continue;
      members.push(this.readable(m, m.verdict));
    }
    return {
      members,
      next: end < live.length && end > start ? (live[end - 1] as number) : null,
      total: live.length,
    };
  }

  async listClusters(query: ClusterListQuery): Promise<ClusterListPage> {
    const all: ClusterRecord[] = [];
    for (const c of this.clusters.values())
      if (!c.mergedInto && c.size >= 2 && c.lastSeen >= query.since) all.push(c);
    const recent = query.order === 'recent';
    const score = (c: ClusterRecord) => (recent ? c.lastSeen : c.size);
    all.sort(recent ? byRecentThenRoot : bySizeThenRoot);
    const after = query.after;
    // The first story past `after` in the order (higher scores, then higher roots, come first).
    const start =
      after === null
        ? 0
        : all.findIndex(
            (c) => score(c) < after.score || (score(c) === after.score && c.rootSeq < after.root),
          );
    const page = start < 0 ? [] : all.slice(start, start + query.limit);
    const keys = page.map((c) => ({ score: score(c), root: c.rootSeq }));
    const more = start >= 0 && start + query.limit < all.length;
    return { items: page.map(clusterView), keys, next: more ? (keys[keys.length - 1] ?? null) : null };
  }

  /** A cluster's member list with the members that left the window cut off (a prefix). */
  private liveMembers(c: ClusterRecord): number[] {
    let cut = 0;
    while (cut < c.members.length && !this.bySeq.has(c.members[cut] as number)) cut++;
    if (cut > 0) c.members.splice(0, cut);
    return c.members;
  }

  async resolveCluster(id: string): Promise<string> {
    return this.resolve(id);
  }

  async stats(): Promise<StoreStats> {
    const buckets = this.buckets.size;
    let clusters = 0;
    for (const c of this.clusters.values()) if (!c.mergedInto) clusters++;
    return {
      messages: this.byId.size,
      clusters,
      buckets,
      hotBucketEvents: this.hotBucketEvents,
      hotBuckets: this.hotBucketsFilled,
      expiredGenerations: this.expiredGenerations,
      roundTrips: this.roundTrips,
    };
  }

  async close(): Promise<void> {}
}
