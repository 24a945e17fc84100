import type { IndexConfig, RedisConfig, WindowConfig } from '../../config/dedup.js';
import { maxFutureSkew } from '../../config/skew.js';
import { withDetail } from '../../engine/detail.js';
import { decodeRecord, encodeRecord } from '../../engine/record-bytes.js';
import type {
  ClusterKey,
  ClusterListPage,
  ClusterMember,
  ClusterMembersPage,
  ClusterView,
  CommitResult,
  Decision,
  IndexRequest,
  SignatureRecord,
  StoredVerdict,
  StoreStats,
  StoryEvent,
} from '../../engine/types.js';
import { DoppelError } from '../../errors.js';
import { hotTail } from '../hot.js';
import { writeIdField } from './keys.js';
import type { RespWriter } from './resp.js';

/**
 * The Redis store's wire format, in one place: the record blob the store keeps per message
 * (header, time, id, the record's binary form from engine/record-bytes.ts), and the replies of the Lua scripts
 * (verdicts, clusters, commit results). The Lua side of the same forms is lua/_verdict.lua
 * (recordHeader, encodeVerdict / decodeVerdict) and lua/_cluster.lua; docs/redis.md draws them.
 */

/** A record blob as read back: the message's id, event time and signature record. */
export interface StoredRecord {
  id: string;
  ts: number;
  record: SignatureRecord;
}

type StoredVerdictJson = {
  k: StoredVerdict['verdict'];
  /** The title and detail (engine/detail.ts), from the read scripts only. */
  h?: string;
  x?: string;
  r: number;
  t: number;
  s: number;
  c?: string;
  d?: string;
  y?: number;
  m?: string;
  /** The stored record's exact hash, from index and query replays only. */
  e?: string;
};

const U48 = 2 ** 48;

/**
 * Record as stored: a header byte (bit 7: the time is a double, else 6 bytes of unsigned
 * milliseconds; low 7 bits: the id's UTF-8 length, 127 when a u16le length follows), the time,
 * the id, the signature record (little-endian). 7 bytes before the id for the usual integer
 * millisecond times and short ids, not 10: every message has a record (lua/_verdict.lua
 * recordHeader reads the same).
 */
export function writeRecordBlob(w: RespWriter, request: IndexRequest): void {
  const idLength = Buffer.byteLength(request.id, 'utf8');
  if (idLength > 0xffff) throw new DoppelError('INVALID_MESSAGE', 'message id longer than 65,535 bytes');
  const record = encodeRecord(request.record);
  const ts = request.ts;
  const double = !(Number.isInteger(ts) && ts >= 0 && ts < U48);
  const longId = idLength >= 127;
  const head = 1 + (longId ? 2 : 0) + (double ? 8 : 6);
  // Written in place into the command (resp.ts): no Buffer per message.
  const start = w.reserve(head + idLength + record.length);
  const blob = w.buffer;
  let at = start + 1 + (longId ? 2 : 0);
  blob[start] = (double ? 128 : 0) | (longId ? 127 : idLength);
  if (longId) blob.writeUInt16LE(idLength, start + 1);
  if (double) blob.writeDoubleLE(ts, at);
  else blob.writeUIntLE(ts, at, 6);
  at = start + head;
  blob.write(request.id, at, 'utf8');
  blob.set(record, at + idLength);
}

export function parseRecordBlob(blob: Buffer): StoredRecord {
  const b0 = blob[0] as number;
  let length = b0 & 127;
  let at = 1;
  if (length === 127) {
    length = blob.readUInt16LE(1);
    at = 3;
  }
  let ts: number;
  if (b0 & 128) {
    ts = blob.readDoubleLE(at);
    at += 8;
  } else {
    ts = blob.readUIntLE(at, 6);
    at += 6;
  }
  const id = blob.toString('utf8', at, at + length);
  return { id, ts, record: decodeRecord(blob.subarray(at + length)) };
}

const VERDICT_KINDS: ReadonlySet<string> = new Set(['unique', 'duplicate', 'near_duplicate']);

/** A stored verdict as the scripts return it (lua/_verdict.lua verdictForClient), checked. */
export function parseVerdict(id: string, json: string): StoredVerdict {
  return verdictOfJson(id, verdictJson(id, json));
}

/**
 * A replay's reply of index-1.lua or query-1.lua: the first verdict, and the exact hash of the
 * stored record (16 hex digits; absent when the record is gone).
 */
export function parseDecided(id: string, json: string): { verdict: StoredVerdict; exact?: string } {
  const v = verdictJson(id, json);
  const verdict = verdictOfJson(id, v);
  return typeof v.e === 'string' ? { verdict, exact: v.e } : { verdict };
}

function verdictJson(id: string, json: string): StoredVerdictJson {
  let v: StoredVerdictJson;
  try {
    v = JSON.parse(json) as StoredVerdictJson;
  } catch {
    v = {} as StoredVerdictJson;
  }
  // The scripts check what they read; this keeps a malformed one from ever becoming a verdict line.
  if (!VERDICT_KINDS.has(v.k) || typeof v.s !== 'number' || typeof v.t !== 'number')
    throw new DoppelError('STORE_CORRUPT', `the stored verdict of ${JSON.stringify(id)} is malformed`);
  return v;
}

function verdictOfJson(id: string, v: StoredVerdictJson): StoredVerdict {
  const verdict: StoredVerdict = { id, seq: v.s, ts: v.t, verdict: v.k, clusterId: v.c ?? id };
  if (v.d !== undefined) verdict.duplicateOf = v.d;
  if (v.y !== undefined) verdict.similarity = v.y;
  if (v.m !== undefined) verdict.method = v.m;
  if (v.h !== undefined) verdict.title = v.h;
  return v.x === undefined ? verdict : withDetail(verdict, v.x);
}

/** A cluster as read-1.lua (mode cluster) and clusters-1.lua return it. */
export function parseCluster(json: string): ClusterView {
  const c = JSON.parse(json) as { i: string; z: number; f: number; l: number; t?: string };
  return {
    id: c.i,
    size: c.z,
    firstSeen: c.f,
    lastSeen: c.l,
    representative: c.i,
    title: typeof c.t === 'string' ? c.t : null,
  };
}

/**
 * One reply of commit-1.lua: '' (a cluster of its own, created now), [cluster id, size, first
 * seen, last seen] (it grew one story, merged none) or JSON {c: cluster, e: events}.
 */
export function parseCommitReply(reply: CommitReply, d: Decision): CommitResult {
  if (typeof reply !== 'string') {
    const clusterId = String(reply[0]);
    // The key order is the one commit-1.lua's JSON events have, so the events read the same.
    const grown: StoryEvent = {
      messageId: d.id,
      type: 'grown',
      clusterId,
      firstSeen: Number(reply[2]),
      representative: clusterId,
      lastSeen: Number(reply[3]),
      size: Number(reply[1]),
    };
    return { id: d.id, clusterId, events: [grown] };
  }
  if (reply === '') {
    // A cluster of its own, created now (commit-1.lua leaves this most common reply out).
    const created: StoryEvent = {
      type: 'created',
      clusterId: d.id,
      messageId: d.id,
      size: 1,
      firstSeen: d.ts,
      lastSeen: d.ts,
      representative: d.id,
    };
    return { id: d.id, clusterId: d.id, events: [created] };
  }
  const parsed = JSON.parse(reply) as { c: string; e: StoryEvent[] | Record<string, never>; b?: number };
  const result: CommitResult = {
    id: d.id,
    clusterId: parsed.c,
    events: Array.isArray(parsed.e) ? parsed.e : [],
  };
  if (parsed.b === 1) result.decidedBefore = true;
  return result;
}

/** One reply of commit-1.lua (parseCommitReply). */
export type CommitReply = string | ReadonlyArray<string | number>;

/** A script reply's status letter ('n', 'p', 'u' or 'd') as a byte: no string per reply. */
export const REPLY_NEW = 0x6e;
export const REPLY_DECIDED = 0x64;
export function replyStatus(reply: ReadonlyArray<Buffer | number>): number {
  const status = reply[0];
  return Buffer.isBuffer(status) ? (status[0] as number) : -1;
}

/**
 * index-1.lua's arguments after meta and base, up to the messages: the window, the bucket limits
 * (the hot tail applied where the buckets are), the layout, the count `n` and the clock's skew bound.
 */
export function writeIndexHead(
  w: RespWriter,
  window: WindowConfig,
  limits: Pick<IndexConfig, 'maxBucketSize'>,
  redis: Pick<RedisConfig, 'shards' | 'clusterShards'>,
  n: number,
): void {
  w.int(window.windowMs)
    .int(window.generationMs)
    .int(limits.maxBucketSize)
    .int(hotTail(limits.maxBucketSize))
    .int(window.maxMessages)
    .int(redis.shards)
    .int(redis.clusterShards)
    .int(n)
    .int(maxFutureSkew(window));
}

/**
 * One message of index-1.lua's arguments but its buckets (which follow): the id field (the id
 * itself is not sent: the script finds the message by it), the time and the record blob.
 */
export function writeIndexMessage(
  w: RespWriter,
  request: IndexRequest,
  shards: number,
  idField: Buffer,
): void {
  const shard = writeIdField(request.id, shards, idField, 0);
  // The clock argument: '' for a clamped time, which moves no clock (the record keeps the time).
  w.int(shard).bytes(idField);
  if (request.clampedTs) w.string('');
  else w.int(request.ts);
  writeRecordBlob(w, request);
}

/**
 * commit-1.lua's arguments after meta, base and clusterShards: the count, then per decision its
 * fields and, per message it joins, two arguments: its id field (shard, field), or, when the
 * numbers `seqsOf` gives for the decision (those of its own index call: its candidates and the
 * call's messages; called once per decision, in order) know the message's sequence number, an
 * empty string and the number: the script then needs no HGET of the id field (1.5 a message on
 * bench:peers' stream). `idField` is scratch of ID_FIELD_BYTES.
 */
export function writeDecisions(
  w: RespWriter,
  decisions: readonly Decision[],
  shards: number,
  idField: Buffer,
  seqsOf?: (decision: Decision) => ReadonlyMap<string, number> | undefined,
): void {
  w.int(decisions.length);
  for (const d of decisions) {
    const seqOf = seqsOf?.(d);
    w.string(d.id)
      .int(d.seq)
      .int(d.ts)
      .string(d.verdict)
      .string(d.duplicateOf ?? '')
      .string(d.similarity === undefined ? '' : String(d.similarity))
      .string(d.method ?? '')
      .string(d.title ?? '')
      .string(d.detail ?? '')
      .int(d.joins.length);
    for (const join of d.joins) {
      const seq = seqOf?.get(join);
      if (seq !== undefined) {
        w.string('').int(seq);
        continue;
      }
      const shard = writeIdField(join, shards, idField, 0);
      w.int(shard).bytes(idField);
    }
  }
}

/** A members-1.lua reply ({total, more, id, verdict...}) as a page; null: no cluster. */
export function parseMembersPage(reply: ReadonlyArray<string | number> | null): ClusterMembersPage | null {
  if (!reply) return null;
  const total = Number(reply[0]);
  const members: ClusterMember[] = [];
  for (let x = 2; x + 1 < reply.length; x += 2)
    members.push(parseVerdict(String(reply[x]), String(reply[x + 1])));
  const last = members[members.length - 1];
  return { members, next: Number(reply[1]) === 1 && last ? last.seq : null, total };
}

/** A clusters-1.lua reply: whether more follow, then root, score and JSON of each cluster. */
export function parseClustersPage(reply: ReadonlyArray<string | number>): ClusterListPage {
  const items: ClusterView[] = [];
  const keys: ClusterKey[] = [];
  for (let x = 1; x + 2 < reply.length; x += 3) {
    keys.push({ root: Number(reply[x]), score: Number(reply[x + 1]) });
    items.push(parseCluster(String(reply[x + 2])));
  }
  const more = Number(reply[0]) === 1;
  return { items, keys, next: more ? (keys[keys.length - 1] ?? null) : null };
}

/** The meta fields `parseStats` reads: of the namespace (its home), and of each bucket shard. */
export const STATS_FIELDS = ['seq', 'live', 'expired', 'clusters'] as const;
export const BUCKET_STATS_FIELDS = ['hot', 'buckets', 'hotb'] as const;

/** Store stats from HMGETs of STATS_FIELDS and of BUCKET_STATS_FIELDS on every bucket shard. */
export function parseStats(
  home: ReadonlyArray<string | null>,
  shards: ReadonlyArray<ReadonlyArray<string | null>>,
  roundTrips: number,
): StoreStats {
  const [seq, live, expired, clusters] = home;
  let hot = 0;
  let buckets = 0;
  let hotBuckets = 0;
  for (const [h, b, filled] of shards) {
    hot += Number(h ?? 0);
    buckets += Number(b ?? 0);
    hotBuckets += Number(filled ?? 0);
  }
  return {
    messages: Math.max(0, Number(seq ?? 0) - Number(live ?? 1) + 1),
    clusters: Number(clusters ?? 0),
    buckets,
    hotBucketEvents: hot,
    hotBuckets,
    expiredGenerations: Number(expired ?? 0),
    roundTrips,
  };
}
