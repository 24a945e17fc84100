import { hex64 } from '../hash/mix.js';
import { MAX_DATES } from '../signatures/facts.js';
import { NO_CUT } from '../signatures/sentences.js';
import type { Signatures } from '../signatures/signer.js';
import type { TermVector } from '../signatures/terms.js';
import { records, windowed } from '../typed-slab.js';
import type { SignatureRecord } from './types.js';

/**
 * The compact signature record a store keeps per message, and its binary form.
 *
 * The record is compact in memory and on the wire because the Redis store pays for every byte
 * of it per message (its budget is 600 bytes of Redis memory per message, buckets
 * included). What is cut, and why verification does not suffer:
 * - min-hashes keep their lowest 8 bits (b-bit minwise hashing, Li and König 2010): two unequal
 *   values agree by chance with probability 1/256, which `jaccardEstimate` corrects for;
 * - I-Match signatures keep 64 of their 128 bits (they are only compared for equality);
 * - term vector hashes keep 24 bits and weights 8 bits (relative to the heaviest term), and the
 *   weights are renormalized to a unit vector from those bytes.
 * Both stores hold exactly this form (`compactRecord` builds what the Redis codec's `decodeRecord`
 * returns, src/store/redis/codec.ts), so the in-memory and the Redis store give the same evidence
 * and verdicts.
 */

/** Sentence fingerprints a record keeps at most (the binary form counts them in a byte). */
export const MAX_SENTENCES = 255;

/** Bits kept of each min-hash. */
export const MINHASH_BITS = 8;

export enum Flag {
  Simhash = 1,
  Minhash = 2,
  Terms = 4,
  Lexical = 8,
  Longest = 16,
  Heaviest = 32,
  /** Dates (facts) follow the term vector; records without the flag decode with no dates. */
  Dates = 64,
  /** The distinct shingle count (u16) follows the dates; records without it decode without one. */
  Shingles = 128,
}

/**
 * Builds the record of a signed message in its stored form; `pack`: with its packed form for
 * verification (`packed`; a sign worker, which only encodes the record, leaves it out).
 */
export function compactRecord(s: Signatures, lang: string, pack = true): SignatureRecord {
  let minhash: Uint8Array | null = null;
  if (s.minhash) {
    minhash = records.uint8(s.minhash.length);
    for (let i = 0; i < minhash.length; i++) minhash[i] = (s.minhash[i] as number) & 0xff;
  }
  const record: SignatureRecord = {
    lang,
    tokens: Math.min(s.tokens, 0xffff),
    exact: s.exact.slice(0, 16),
    simhash: s.simhash,
    minhash,
    imatch: s.imatch.map((sig) => `${sig.lexicon}:${sig.hash.slice(0, 16)}`),
    lexical: s.lexical?.slice(0, 16) ?? null,
    longest: s.longest?.slice(0, 16) ?? null,
    heaviest: s.heaviest?.slice(0, 16) ?? null,
    terms: s.terms ? quantizeTerms(s.terms) : null,
    // Declared even when absent: one object shape for every record (packRecord and the encoder
    // saw up to five and were compiled again for each new one).
    dates: undefined,
    shingles: undefined,
    sentences: undefined,
    sentenceCut: undefined,
    packed: undefined,
  };
  if (s.dates.length > 0) record.dates = s.dates.slice(0, MAX_DATES);
  if (s.minhash && s.shingles > 0) record.shingles = Math.min(s.shingles, 0xffff);
  if (s.sentences && s.sentences.values.length > 0) {
    const values = s.sentences.values;
    record.sentences = windowed.uint32(Math.min(values.length, MAX_SENTENCES));
    record.sentences.set(values.subarray(0, record.sentences.length));
    if (s.sentences.cut !== NO_CUT) record.sentenceCut = s.sentences.cut;
  }
  if (pack) record.packed = packRecord(record);
  return record;
}

/**
 * Layout of `packRecord`'s array (32-bit words): the fixed part, then I-Match signatures
 * (lexicon, hi, lo each), the min-hash bytes four to a word (the last word zero-padded), and the
 * term vector (hashes, then weights as float32 bits).
 */
export const Packed = {
  Flags: 0,
  ExactHi: 1,
  ExactLo: 2,
  SimhashHi: 3,
  SimhashLo: 4,
  LexicalHi: 5,
  LexicalLo: 6,
  LongestHi: 7,
  LongestLo: 8,
  HeaviestHi: 9,
  HeaviestLo: 10,
  /** Number of I-Match signatures. */
  Imatch: 11,
  /** Number of min-hash bytes. */
  Minhash: 12,
  /** Number of terms. */
  Terms: 13,
  Fixed: 14,
} as const;

const PACK_FLOAT = new Float32Array(1);
const PACK_BITS = new Int32Array(PACK_FLOAT.buffer);

/** Value of 16 lowercase hex digits of `s` from `from` into out[at], out[at + 1]; false if not hex. */
function packHex(s: string, from: number, out: Int32Array, at: number): boolean {
  if (s.length - from !== 16) return false;
  for (let half = 0; half < 2; half++) {
    let v = 0;
    for (let i = 0; i < 8; i++) {
      const c = s.charCodeAt(from + 8 * half + i);
      const d = c >= 48 && c <= 57 ? c - 48 : c >= 97 && c <= 102 ? c - 87 : -1;
      if (d < 0) return false;
      v = (v << 4) | d;
    }
    out[at + half] = v;
  }
  return true;
}

/**
 * The record's comparable fields as 32-bit integers in one array, so that verifying a candidate
 * reads one block of memory instead of a dozen objects (strings, typed arrays, their headers)
 * spread over the heap, and compares integers instead of strings. Equal hex strings are equal
 * integers only in canonical form (16 lowercase hex digits, decimal lexicon index): anything
 * else gives null, and verification compares the fields themselves.
 */
export function packRecord(r: SignatureRecord): Int32Array | null {
  const k = r.imatch.length;
  const m = r.minhash?.length ?? 0;
  const t = r.terms?.hashes.length ?? 0;
  // Kept with the message in the memory store's window: a slab of its own lifetime (typed-slab.ts).
  const out = windowed.int32(Packed.Fixed + 3 * k + ((m + 3) >>> 2) + 2 * t);
  let flags = 0;
  if (!packHex(r.exact, 0, out, Packed.ExactHi)) return null;
  if (r.simhash) {
    flags |= Flag.Simhash;
    out[Packed.SimhashHi] = r.simhash.hi;
    out[Packed.SimhashLo] = r.simhash.lo;
  }
  if (r.lexical !== null) {
    flags |= Flag.Lexical;
    if (!packHex(r.lexical, 0, out, Packed.LexicalHi)) return null;
  }
  if (r.longest !== null) {
    flags |= Flag.Longest;
    if (!packHex(r.longest, 0, out, Packed.LongestHi)) return null;
  }
  if (r.heaviest !== null) {
    flags |= Flag.Heaviest;
    if (!packHex(r.heaviest, 0, out, Packed.HeaviestHi)) return null;
  }
  let at = Packed.Fixed;
  out[Packed.Imatch] = k;
  for (const sig of r.imatch) {
    const colon = sig.indexOf(':');
    const lexicon = sig.slice(0, colon);
    if (colon < 1 || !/^(0|[1-9][0-9]*)$/.test(lexicon)) return null;
    out[at] = Number(lexicon);
    if (!packHex(sig, colon + 1, out, at + 1)) return null;
    at += 3;
  }
  if (r.minhash) {
    flags |= Flag.Minhash;
    out[Packed.Minhash] = m;
    for (let i = 0; i < m; i++) {
      const w = at + (i >>> 2);
      out[w] = (out[w] as number) | ((r.minhash[i] as number) << (8 * (i & 3)));
    }
    at += (m + 3) >>> 2;
  }
  if (r.terms) {
    flags |= Flag.Terms;
    out[Packed.Terms] = t;
    const { hashes, weights } = r.terms;
    for (let i = 0; i < t; i++) {
      out[at + i] = hashes[i] as number;
      PACK_FLOAT[0] = weights[i] as number;
      out[at + t + i] = PACK_BITS[0] as number;
    }
  }
  out[Packed.Flags] = flags;
  return out;
}

/** 24-bit hashes (order kept: the top bits of a sorted list stay sorted) and 8-bit weights. */
export function quantizeTerms(v: TermVector): TermVector {
  let max = 0;
  for (let i = 0; i < v.weights.length; i++) max = Math.max(max, v.weights[i] as number);
  const hashes = records.uint32(v.hashes.length);
  const levels = records.uint8(v.weights.length);
  for (let i = 0; i < hashes.length; i++) {
    hashes[i] = (v.hashes[i] as number) >>> 8;
    levels[i] = max > 0 ? Math.max(1, Math.round(((v.weights[i] as number) / max) * 255)) : 1;
  }
  return { hashes, weights: weightsOfLevels(levels) };
}

/** Unit weights from 8-bit levels: the one function both `quantizeTerms` and decoding use. */
export function weightsOfLevels(levels: Uint8Array): Float32Array {
  let norm = 0;
  for (let i = 0; i < levels.length; i++) norm += (levels[i] as number) ** 2;
  norm = Math.sqrt(norm) || 1;
  const weights = records.float32(levels.length);
  for (let i = 0; i < levels.length; i++) weights[i] = (levels[i] as number) / norm;
  return weights;
}

/**
 * The Jaccard estimate from b-bit min-hashes: the share of equal positions, less the chance
 * agreement of unequal values (P = J + (1 - J) / 2^b), clamped to [0, 1].
 */
export function jaccardEstimate(equal: number, length: number): number {
  const chance = 1 / (1 << MINHASH_BITS);
  const p = equal / length;
  return Math.min(1, Math.max(0, (p - chance) / (1 - chance)));
}
/**
 * A record held only in its packed form (`packRecord`): what the memory store keeps per windowed
 * message. Verification reads `packed` and `tokens`; the other fields are rebuilt from the packed
 * words when something asks for them (explain, tests). The full record was ~1.5 KB of heap a
 * message (strings, four typed arrays and their buffers, objects); this is one array and an
 * object of three fields. Only for records whose packed form exists (canonical fields).
 */
export class PackedRecord implements SignatureRecord {
  constructor(
    readonly packed: Int32Array,
    readonly tokens: number,
    readonly lang: string,
    /** The record's dates (facts for the story rule), kept beside the packed words: few records have them. */
    readonly dates?: number[],
    /** The distinct shingle count (containment), kept beside the packed words like the dates. */
    readonly shingles?: number,
    /** Sentence fingerprints (containment), kept beside the packed words like the dates. */
    readonly sentences?: Uint32Array,
    readonly sentenceCut?: number,
  ) {}

  get exact(): string {
    return hex64(this.packed[Packed.ExactHi] as number, this.packed[Packed.ExactLo] as number);
  }

  get simhash(): SignatureRecord['simhash'] {
    const p = this.packed;
    if (!((p[Packed.Flags] as number) & Flag.Simhash)) return null;
    return { hi: (p[Packed.SimhashHi] as number) >>> 0, lo: (p[Packed.SimhashLo] as number) >>> 0 };
  }

  private hex(flag: Flag, at: number): string | null {
    const p = this.packed;
    return (p[Packed.Flags] as number) & flag ? hex64(p[at] as number, p[at + 1] as number) : null;
  }

  get lexical(): string | null {
    return this.hex(Flag.Lexical, Packed.LexicalHi);
  }

  get longest(): string | null {
    return this.hex(Flag.Longest, Packed.LongestHi);
  }

  get heaviest(): string | null {
    return this.hex(Flag.Heaviest, Packed.HeaviestHi);
  }

  get imatch(): string[] {
    const p = this.packed;
    const out: string[] = [];
    for (let i = 0, at = Packed.Fixed; i < (p[Packed.Imatch] as number); i++, at += 3)
      out.push(`${p[at]}:${hex64(p[at + 1] as number, p[at + 2] as number)}`);
    return out;
  }

  private get minhashAt(): number {
    return Packed.Fixed + 3 * (this.packed[Packed.Imatch] as number);
  }

  get minhash(): Uint8Array | null {
    const p = this.packed;
    if (!((p[Packed.Flags] as number) & Flag.Minhash)) return null;
    const m = p[Packed.Minhash] as number;
    const at = this.minhashAt;
    const out = new Uint8Array(m);
    for (let i = 0; i < m; i++) out[i] = ((p[at + (i >>> 2)] as number) >>> (8 * (i & 3))) & 0xff;
    return out;
  }

  get terms(): TermVector | null {
    const p = this.packed;
    if (!((p[Packed.Flags] as number) & Flag.Terms)) return null;
    const t = p[Packed.Terms] as number;
    const m = (p[Packed.Flags] as number) & Flag.Minhash ? (p[Packed.Minhash] as number) : 0;
    const at = this.minhashAt + ((m + 3) >>> 2);
    const hashes = new Uint32Array(t);
    const weights = new Float32Array(t);
    for (let i = 0; i < t; i++) {
      hashes[i] = (p[at + i] as number) >>> 0;
      PACK_BITS[0] = p[at + t + i] as number;
      weights[i] = PACK_FLOAT[0] as number;
    }
    return { hashes, weights };
  }
}

/** The form a store keeps of a record: packed only when it can be (see PackedRecord). */
export function storedRecord(r: SignatureRecord): SignatureRecord {
  if (r instanceof PackedRecord) return r;
  const packed = r.packed === undefined ? packRecord(r) : r.packed;
  if (!packed) return r;
  const dates = r.dates !== undefined && r.dates.length > 0 ? r.dates : undefined;
  return new PackedRecord(packed, r.tokens, r.lang, dates, r.shingles, r.sentences, r.sentenceCut);
}
