import { hex64, hexWord, parseHex64 } from '../hash/mix.js';
import { MAX_DATES } from '../signatures/facts.js';
import { NO_CUT } from '../signatures/sentences.js';
import type { TermVector } from '../signatures/terms.js';
import { records, windowed } from '../typed-slab.js';
import { Flag, MAX_SENTENCES, Packed, PackedRecord, packRecord, weightsOfLevels } from './record.js';
import type { SignatureRecord } from './types.js';

/**
 * The compact signature record's binary form (record.ts makes the record): what the Redis store
 * keeps per message (store/redis/codec.ts wraps it in the record blob) and what sign workers send
 * back to the main thread (pipeline/prepared-wire.ts). Little-endian, versioned.
 */

export const RECORD_FORMAT_VERSION = 1;

/** Upper bound of an encoded record's size, for buffer allocation. */
export function encodedSizeBound(r: SignatureRecord): number {
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
    (r.terms?.hashes.length ?? 0) * 4 +
    1 +
    (r.dates?.length ?? 0) * 2 +
    2 +
    5 +
    (r.sentences?.length ?? 0) * 4
  );
}

/**
 * Binary form (little-endian), version 1:
 * u8 version, u8 flags, u16 tokens, u8 lang length, lang (ASCII), 8 bytes exact,
 * [8 bytes simhash hi,lo], [u8 n, n min-hash bytes], u8 k, k x (u8 lexicon, 8 bytes I-Match),
 * [8 bytes lexical], [8 bytes longest], [8 bytes heaviest], [u8 m, m x (u24 hash, u8 level)],
 * [u8 d, d x u16 date], [u16 distinct shingles], [u8 s, u32 sentence cut, s x u32 sentence fingerprints]. The
 * dates and shingle-count sections were added later, each under its own flag: a record written
 * before has no flag and decodes without them (and a decoder from before ignores them: they are
 * last). The sentence section came after every flag bit was taken: it is present when bytes
 * follow the last flagged section, and a decoder from before ignores it the same way.
 */
export function encodeRecord(r: SignatureRecord): Uint8Array {
  const out = new Uint8Array(encodedSizeBound(r));
  return out.subarray(0, encodeRecordInto(r, out, 0));
}

const LANG_ENCODER = new TextEncoder();

/** Writes 32 bits little-endian at out[at]. */
function putU32(out: Uint8Array, at: number, v: number): void {
  out[at] = v & 0xff;
  out[at + 1] = (v >>> 8) & 0xff;
  out[at + 2] = (v >>> 16) & 0xff;
  out[at + 3] = (v >>> 24) & 0xff;
}

/**
 * The hex value `s[from ..]` (16 digits, or fewer read as zero-padded) as 8 bytes at out[at].
 * Read in place (sign workers encode every record): no padded copy, slice or object.
 */
function putHex64(out: Uint8Array, at: number, s: string, from: number): void {
  if (s.length - from === 16) {
    const hi = hexWord(s, from);
    const lo = hexWord(s, from + 8);
    if (hi >= 0 && lo >= 0) {
      putU32(out, at, hi);
      putU32(out, at + 4, lo);
      return;
    }
  }
  // Anything else goes through parseHex64, for its check and its error.
  const { hi, lo } = parseHex64((from === 0 ? s : s.slice(from)).padStart(16, '0'));
  putU32(out, at, hi);
  putU32(out, at + 4, lo);
}

/**
 * `encodeRecord` into `out` from `at` (at least encodedSizeBound(r) bytes free); returns where it
 * ends. A sign worker encodes a chunk's records into one buffer this way, without an array, a
 * view and an encoder per record.
 */
export function encodeRecordInto(r: SignatureRecord, out: Uint8Array, at: number): number {
  let flags = 0;
  if (r.simhash) flags |= Flag.Simhash;
  if (r.minhash) flags |= Flag.Minhash;
  if (r.terms) flags |= Flag.Terms;
  if (r.lexical !== null) flags |= Flag.Lexical;
  if (r.longest !== null) flags |= Flag.Longest;
  if (r.heaviest !== null) flags |= Flag.Heaviest;
  const dates = r.dates;
  const dateCount = dates === undefined ? 0 : dates.length;
  if (dateCount > 0) flags |= Flag.Dates;
  const shingles = r.shingles ?? 0;
  if (shingles > 0) flags |= Flag.Shingles;
  out[at++] = RECORD_FORMAT_VERSION;
  out[at++] = flags;
  const tokens = Math.min(r.tokens, 0xffff);
  out[at++] = tokens & 0xff;
  out[at++] = (tokens >>> 8) & 0xff;
  const lang = r.lang;
  let ascii = true;
  for (let i = 0; i < lang.length; i++) if (lang.charCodeAt(i) >= 0x80) ascii = false;
  if (ascii) {
    out[at++] = lang.length;
    for (let i = 0; i < lang.length; i++) out[at++] = lang.charCodeAt(i);
  } else {
    const bytes = LANG_ENCODER.encode(lang);
    out[at++] = bytes.length;
    out.set(bytes, at);
    at += bytes.length;
  }
  putHex64(out, at, r.exact, 0);
  at += 8;
  if (r.simhash) {
    putU32(out, at, r.simhash.hi >>> 0);
    putU32(out, at + 4, r.simhash.lo >>> 0);
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
    putHex64(out, at, sig, colon + 1);
    at += 8;
  }
  if (r.lexical !== null) {
    putHex64(out, at, r.lexical, 0);
    at += 8;
  }
  if (r.longest !== null) {
    putHex64(out, at, r.longest, 0);
    at += 8;
  }
  if (r.heaviest !== null) {
    putHex64(out, at, r.heaviest, 0);
    at += 8;
  }
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
  if (dates !== undefined && dateCount > 0) {
    const n = Math.min(dateCount, MAX_DATES);
    out[at++] = n;
    for (let i = 0; i < n; i++) {
      const d = (dates[i] as number) & 0xffff;
      out[at++] = d & 0xff;
      out[at++] = d >>> 8;
    }
  }
  if (shingles > 0) {
    const n = Math.min(shingles, 0xffff);
    out[at++] = n & 0xff;
    out[at++] = n >>> 8;
  }
  const sentences = r.sentences;
  if (sentences !== undefined && sentences.length > 0) {
    const n = Math.min(sentences.length, MAX_SENTENCES);
    out[at++] = n;
    putU32(out, at, r.sentenceCut ?? NO_CUT);
    at += 4;
    for (let i = 0; i < n; i++) {
      putU32(out, at, sentences[i] as number);
      at += 4;
    }
  }
  return at;
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
    minhash = records.uint8(n);
    minhash.set(bytes.subarray(at, at + n));
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
    const hashes = records.uint32(m);
    const levels = records.uint8(m);
    for (let i = 0; i < m; i++) {
      hashes[i] =
        (bytes[at] as number) | ((bytes[at + 1] as number) << 8) | ((bytes[at + 2] as number) << 16);
      levels[i] = bytes[at + 3] as number;
      at += 4;
    }
    terms = { hashes, weights: weightsOfLevels(levels) };
  }
  let dates: number[] | undefined;
  if (flags & Flag.Dates) {
    need(1);
    const d = bytes[at++] as number;
    need(d * 2);
    dates = [];
    for (let i = 0; i < d; i++) {
      dates.push(view.getUint16(at, true));
      at += 2;
    }
  }
  let shingles = 0;
  if (flags & Flag.Shingles) {
    need(2);
    shingles = view.getUint16(at, true);
    at += 2;
  }
  let sentences: Uint32Array | undefined;
  let sentenceCut = NO_CUT;
  if (at < bytes.length) {
    const n = bytes[at++] as number;
    need(4 + n * 4);
    sentenceCut = view.getUint32(at, true);
    at += 4;
    sentences = records.uint32(n);
    for (let i = 0; i < n; i++) {
      sentences[i] = view.getUint32(at, true);
      at += 4;
    }
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
    // One shape for every record, as compactRecord makes them.
    dates: undefined,
    shingles: undefined,
    sentences: undefined,
    sentenceCut: undefined,
    packed: undefined,
  };
  if (dates !== undefined && dates.length > 0) record.dates = dates;
  if (shingles > 0) record.shingles = shingles;
  if (sentences !== undefined && sentences.length > 0) {
    record.sentences = sentences;
    if (sentenceCut !== NO_CUT) record.sentenceCut = sentenceCut;
  }
  record.packed = packRecord(record);
  return record;
}

const FLOAT = new Float32Array(1);
const FLOAT_BITS = new Int32Array(FLOAT.buffer);
const LANG_DECODER = new TextDecoder();
/** Language codes of up to 3 ASCII bytes, by those bytes: one string each, not one per record. */
const LANGS = new Map<number, string>();

function truncated(at: number): RecordFormatError {
  return new RecordFormatError(`record truncated at byte ${at}`);
}

function langOf(bytes: Uint8Array, at: number, length: number): string {
  if (length > 3) return LANG_DECODER.decode(bytes.subarray(at, at + length));
  let code = length;
  for (let i = 0; i < length; i++) {
    const b = bytes[at + i] as number;
    if (b >= 0x80) return LANG_DECODER.decode(bytes.subarray(at, at + length));
    code = code * 256 + b;
  }
  let lang = LANGS.get(code);
  if (lang === undefined) {
    lang = LANG_DECODER.decode(bytes.subarray(at, at + length));
    LANGS.set(code, lang);
  }
  return lang;
}

/**
 * `storedRecord(decodeRecord(bytes))` without the record in between: the binary form read straight
 * into the packed words a store keeps (PackedRecord). What the main thread does with a sign
 * worker's records: the full record's strings (exact, I-Match, lexical hashes as hex), min-hash and
 * term arrays were built only to be packed again. Throws RecordFormatError as decodeRecord does.
 */
export function decodePackedRecord(bytes: Uint8Array): SignatureRecord {
  const end = bytes.length;
  if (end < 5) throw truncated(0);
  if (bytes[0] !== RECORD_FORMAT_VERSION) throw new RecordFormatError(`unknown record version ${bytes[0]}`);
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const flags = bytes[1] as number;
  const tokens = view.getUint16(2, true);
  const langLength = bytes[4] as number;
  let at = 5;
  if (at + langLength + 8 > end) throw truncated(at);
  const lang = langOf(bytes, at, langLength);
  at += langLength;
  // Section offsets first: the packed array's size depends on the I-Match, min-hash and term counts.
  const exactAt = at;
  at += 8;
  const simhashAt = at;
  if (flags & Flag.Simhash) at += 8;
  let minhashAt = -1;
  let m = 0;
  if (flags & Flag.Minhash) {
    if (at + 1 > end) throw truncated(at);
    m = bytes[at] as number;
    minhashAt = at + 1;
    at += 1 + m;
  }
  if (at + 1 > end) throw truncated(at);
  const k = bytes[at] as number;
  const imatchAt = at + 1;
  at += 1 + 9 * k;
  const lexicalAt = at;
  if (flags & Flag.Lexical) at += 8;
  const longestAt = at;
  if (flags & Flag.Longest) at += 8;
  const heaviestAt = at;
  if (flags & Flag.Heaviest) at += 8;
  let termsAt = -1;
  let t = 0;
  if (flags & Flag.Terms) {
    if (at + 1 > end) throw truncated(at);
    t = bytes[at] as number;
    termsAt = at + 1;
    at += 1 + 4 * t;
  }
  if (at > end) throw truncated(end);

  // Kept with the message in the memory store's window (typed-slab.ts).
  const out = windowed.int32(Packed.Fixed + 3 * k + ((m + 3) >>> 2) + 2 * t);
  const packedFlags =
    flags & (Flag.Simhash | Flag.Minhash | Flag.Terms | Flag.Lexical | Flag.Longest | Flag.Heaviest);
  out[Packed.ExactHi] = view.getInt32(exactAt, true);
  out[Packed.ExactLo] = view.getInt32(exactAt + 4, true);
  if (flags & Flag.Simhash) {
    out[Packed.SimhashHi] = view.getInt32(simhashAt, true);
    out[Packed.SimhashLo] = view.getInt32(simhashAt + 4, true);
  }
  if (flags & Flag.Lexical) {
    out[Packed.LexicalHi] = view.getInt32(lexicalAt, true);
    out[Packed.LexicalLo] = view.getInt32(lexicalAt + 4, true);
  }
  if (flags & Flag.Longest) {
    out[Packed.LongestHi] = view.getInt32(longestAt, true);
    out[Packed.LongestLo] = view.getInt32(longestAt + 4, true);
  }
  if (flags & Flag.Heaviest) {
    out[Packed.HeaviestHi] = view.getInt32(heaviestAt, true);
    out[Packed.HeaviestLo] = view.getInt32(heaviestAt + 4, true);
  }
  out[Packed.Imatch] = k;
  let w = Packed.Fixed;
  for (let i = 0, from = imatchAt; i < k; i++, from += 9, w += 3) {
    out[w] = bytes[from] as number;
    out[w + 1] = view.getInt32(from + 1, true);
    out[w + 2] = view.getInt32(from + 5, true);
  }
  if (minhashAt >= 0) {
    out[Packed.Minhash] = m;
    for (let i = 0; i < m; i++) {
      const word = w + (i >>> 2);
      out[word] = (out[word] as number) | ((bytes[minhashAt + i] as number) << (8 * (i & 3)));
    }
    w += (m + 3) >>> 2;
  }
  if (termsAt >= 0) {
    out[Packed.Terms] = t;
    // The same unit weights as weightsOfLevels, rounded to float32 the same way.
    let norm = 0;
    for (let i = 0; i < t; i++) norm += (bytes[termsAt + 4 * i + 3] as number) ** 2;
    norm = Math.sqrt(norm) || 1;
    for (let i = 0, from = termsAt; i < t; i++, from += 4) {
      out[w + i] =
        (bytes[from] as number) | ((bytes[from + 1] as number) << 8) | ((bytes[from + 2] as number) << 16);
      FLOAT[0] = (bytes[from + 3] as number) / norm;
      out[w + t + i] = FLOAT_BITS[0] as number;
    }
  }
  out[Packed.Flags] = packedFlags;

  let dates: number[] | undefined;
  if (flags & Flag.Dates) {
    if (at + 1 > end) throw truncated(at);
    const d = bytes[at++] as number;
    if (at + 2 * d > end) throw truncated(at);
    if (d > 0) {
      dates = new Array<number>(d);
      for (let i = 0; i < d; i++, at += 2) dates[i] = view.getUint16(at, true);
    }
  }
  let shingles: number | undefined;
  if (flags & Flag.Shingles) {
    if (at + 2 > end) throw truncated(at);
    const count = view.getUint16(at, true);
    at += 2;
    if (count > 0) shingles = count;
  }
  let sentences: Uint32Array | undefined;
  let sentenceCut: number | undefined;
  if (at < end) {
    const n = bytes[at++] as number;
    if (at + 4 + 4 * n > end) throw truncated(at);
    const cut = view.getUint32(at, true);
    at += 4;
    if (n > 0) {
      sentences = windowed.uint32(n);
      for (let i = 0; i < n; i++, at += 4) sentences[i] = view.getUint32(at, true);
      if (cut !== NO_CUT) sentenceCut = cut;
    }
  }
  return new PackedRecord(out, tokens, lang, dates, shingles, sentences, sentenceCut);
}
