import { Flag, packRecord, weightsOfLevels } from '../../engine/record.js';
import type {
  ClusterView,
  CommitResult,
  Decision,
  IndexRequest,
  SignatureRecord,
  StoredVerdict,
  StoryEvent,
} from '../../engine/types.js';
import { DoppelError } from '../../errors.js';
import { hex64, parseHex64 } from '../../hash/mix.js';
import type { TermVector } from '../../signatures/terms.js';
import type { RespWriter } from './resp.js';

/**
 * The Redis store's wire format, in one place: the binary signature record, the record blob the
 * store keeps per message (header, time, id, record), and the replies of the Lua scripts
 * (verdicts, clusters, commit results). The Lua side of the same forms is lua/_verdict.lua
 * (recordHeader, encodeVerdict / decodeVerdict) and lua/_cluster.lua; docs/redis.md draws them.
 */

export const RECORD_FORMAT_VERSION = 1;

/** Upper bound of an encoded record's size, for buffer allocation. */
function encodedSizeBound(r: SignatureRecord): number {
  return (
    8 +
    r.lang.length * 3 +
    8 +
    8 +
    1 +
    (r.minhash?.length ?? 0) +
    1 +
    r.imatch.length * 9 +
    24 +
    1 +
    (r.terms?.hashes.length ?? 0) * 4
  );
}

/**
 * Binary form (little-endian), version 1:
 * u8 version, u8 flags, u16 tokens, u8 lang length, lang (ASCII), 8 bytes exact,
 * [8 bytes simhash hi,lo], [u8 n, n min-hash bytes], u8 k, k x (u8 lexicon, 8 bytes I-Match),
 * [8 bytes lexical], [8 bytes longest], [8 bytes heaviest], [u8 m, m x (u24 hash, u8 level)].
 */
export function encodeRecord(r: SignatureRecord): Uint8Array {
  const out = new Uint8Array(encodedSizeBound(r));
  const view = new DataView(out.buffer);
  let at = 0;
  const putHex64 = (hex: string) => {
    const { hi, lo } = parseHex64(hex.padStart(16, '0'));
    view.setUint32(at, hi, true);
    view.setUint32(at + 4, lo, true);
    at += 8;
  };
  let flags = 0;
  if (r.simhash) flags |= Flag.Simhash;
  if (r.minhash) flags |= Flag.Minhash;
  if (r.terms) flags |= Flag.Terms;
  if (r.lexical !== null) flags |= Flag.Lexical;
  if (r.longest !== null) flags |= Flag.Longest;
  if (r.heaviest !== null) flags |= Flag.Heaviest;
  out[at++] = RECORD_FORMAT_VERSION;
  out[at++] = flags;
  view.setUint16(at, Math.min(r.tokens, 0xffff), true);
  at += 2;
  const lang = new TextEncoder().encode(r.lang);
  out[at++] = lang.length;
  out.set(lang, at);
  at += lang.length;
  putHex64(r.exact);
  if (r.simhash) {
    view.setUint32(at, r.simhash.hi >>> 0, true);
    view.setUint32(at + 4, r.simhash.lo >>> 0, true);
    at += 8;
  }
  if (r.minhash) {
    out[at++] = r.minhash.length;
    out.set(r.minhash, at);
    at += r.minhash.length;
  }
  out[at++] = r.imatch.length;
  for (const sig of r.imatch) {
    const colon = sig.indexOf(':');
    out[at++] = Number(sig.slice(0, colon));
    putHex64(sig.slice(colon + 1));
  }
  if (r.lexical !== null) putHex64(r.lexical);
  if (r.longest !== null) putHex64(r.longest);
  if (r.heaviest !== null) putHex64(r.heaviest);
  if (r.terms) {
    const { hashes, weights } = r.terms;
    let max = 0;
    for (let i = 0; i < weights.length; i++) max = Math.max(max, weights[i] as number);
    out[at++] = hashes.length;
    for (let i = 0; i < hashes.length; i++) {
      const h = hashes[i] as number;
      out[at++] = h & 0xff;
      out[at++] = (h >>> 8) & 0xff;
      out[at++] = (h >>> 16) & 0xff;
      out[at++] = max > 0 ? Math.max(1, Math.round(((weights[i] as number) / max) * 255)) : 1;
    }
  }
  return out.subarray(0, at);
}

export class RecordFormatError extends Error {}

/** The inverse of `encodeRecord`; throws RecordFormatError on a truncated or unknown record. */
export function decodeRecord(bytes: Uint8Array): SignatureRecord {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  let at = 0;
  const need = (n: number) => {
    if (at + n > bytes.length) throw new RecordFormatError(`record truncated at byte ${at}`);
  };
  const readHex64 = () => {
    need(8);
    const s = hex64(view.getUint32(at, true), view.getUint32(at + 4, true));
    at += 8;
    return s;
  };
  need(5);
  if (bytes[0] !== RECORD_FORMAT_VERSION) throw new RecordFormatError(`unknown record version ${bytes[0]}`);
  const flags = bytes[1] as number;
  const tokens = view.getUint16(2, true);
  const langLength = bytes[4] as number;
  at = 5;
  need(langLength);
  const lang = new TextDecoder().decode(bytes.subarray(at, at + langLength));
  at += langLength;
  const exact = readHex64();
  let simhash: SignatureRecord['simhash'] = null;
  if (flags & Flag.Simhash) {
    need(8);
    simhash = { hi: view.getUint32(at, true), lo: view.getUint32(at + 4, true) };
    at += 8;
  }
  let minhash: Uint8Array | null = null;
  if (flags & Flag.Minhash) {
    need(1);
    const n = bytes[at++] as number;
    need(n);
    minhash = bytes.slice(at, at + n);
    at += n;
  }
  need(1);
  const k = bytes[at++] as number;
  const imatch: string[] = [];
  for (let i = 0; i < k; i++) {
    need(1);
    const lexicon = bytes[at++] as number;
    imatch.push(`${lexicon}:${readHex64()}`);
  }
  const lexical = flags & Flag.Lexical ? readHex64() : null;
  const longest = flags & Flag.Longest ? readHex64() : null;
  const heaviest = flags & Flag.Heaviest ? readHex64() : null;
  let terms: TermVector | null = null;
  if (flags & Flag.Terms) {
    need(1);
    const m = bytes[at++] as number;
    need(m * 4);
    const hashes = new Uint32Array(m);
    const levels = new Uint8Array(m);
    for (let i = 0; i < m; i++) {
      hashes[i] =
        (bytes[at] as number) | ((bytes[at + 1] as number) << 8) | ((bytes[at + 2] as number) << 16);
      levels[i] = bytes[at + 3] as number;
      at += 4;
    }
    terms = { hashes, weights: weightsOfLevels(levels) };
  }
  const record: SignatureRecord = {
    lang,
    tokens,
    exact,
    simhash,
    minhash,
    imatch,
    lexical,
    longest,
    heaviest,
    terms,
  };
  record.packed = packRecord(record);
  return record;
}

/** A record blob as read back: the message's id, event time and signature record. */
export interface StoredRecord {
  id: string;
  ts: number;
  record: SignatureRecord;
}

type StoredVerdictJson = {
  k: StoredVerdict['verdict'];
  r: number;
  t: number;
  s: number;
  c?: string;
  d?: string;
  y?: number;
  m?: string;
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

export function parseVerdict(id: string, json: string): StoredVerdict {
  const v = JSON.parse(json) as StoredVerdictJson;
  const verdict: StoredVerdict = { id, seq: v.s, ts: v.t, verdict: v.k, clusterId: v.c ?? id };
  if (v.d !== undefined) verdict.duplicateOf = v.d;
  if (v.y !== undefined) verdict.similarity = v.y;
  if (v.m !== undefined) verdict.method = v.m;
  return verdict;
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

/** One reply of commit-1.lua: '' (a cluster of its own, created now) or {c: cluster, e: events}. */
export function parseCommitReply(reply: string, d: Decision): CommitResult {
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
  const parsed = JSON.parse(reply) as { c: string; e: StoryEvent[] | Record<string, never> };
  return {
    id: d.id,
    clusterId: parsed.c,
    events: Array.isArray(parsed.e) ? parsed.e : [],
  };
}
