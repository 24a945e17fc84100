import type { U64 } from '../hash/mix.js';
import { SEED_TOKEN } from '../hash/seeds.js';
import { xxh64 } from '../hash/xxhash.js';
import type { Lexicon } from '../lexicon/lexicon.js';
import { hasLetter, tokenHash } from '../text/tokenize.js';
import { WORD_SCRIPT } from '../text/word-scripts.js';
import { factKind } from './facts.js';

type SlotArray = Uint32Array | Int32Array;

/**
 * Tokens per document the signing scratch arrays hold from the start (a 200 KB text; about 3.5 MB of
 * scratch per thread in all). A branch first taken after the optimizing compiler has compiled a
 * function throws its compiled code away (a deopt) and compiles it again: started at 512-4,096,
 * the first long text of a stream grew them inside the signer's hottest functions and cost each a
 * recompile. Longer texts still grow them.
 */
export const SCRATCH_TOKENS = 1 << 15;

/** A copy of `array` with room for `size` slots (same element type). */
function grown<T extends SlotArray>(array: T, size: number): T {
  const next = new (array.constructor as new (length: number) => T)(size);
  next.set(array);
  return next;
}

const STEM_SCRATCH: U64 = { hi: 0, lo: 0 };
function stemHashOf(stem: string): number {
  return xxh64(stem, SEED_TOKEN, STEM_SCRATCH).lo;
}

/**
 * Per-slot fields are interleaved, INFO_STRIDE 32-bit words a slot (one 64-byte cache line):
 * signing reads several fields of each token, and one array per field cost a cache miss per
 * field per uncached token. info[slot * INFO_STRIDE + INFO_*]; the idf is a float64 in words 6
 * and 7, idfs[slot * IDF_STRIDE + IDF_AT]. The word itself (its length, and its first
 * INLINE_CHARS UTF-16 units two to a word) shares the line, so a lookup that finds its word reads
 * the table and this line only; longer words keep the rest in the character pool.
 */
export const INFO_STRIDE = 16;
export const INFO_HI = 0;
export const INFO_LO = 1;
/** Hash of the word's stem (a prefix for inflected languages): terms of story vectors. */
export const INFO_STEM = 2;
export const INFO_FLAGS = 3;
/** Per-document term frequency, valid where the slot's stamp is the current document stamp. */
export const INFO_TF = 4;
export const INFO_STAMP = 5;
/** Word length in UTF-16 units, and the offset of its characters past INLINE_CHARS in the pool. */
const INFO_LENGTH = 8;
const INFO_POOL = 9;
const INFO_CHARS = 10;
const INLINE_CHARS = 12;
export const IDF_STRIDE = 8;
export const IDF_AT = 3;

export const FLAG_STOP = 1;
/** Has a letter (not a number or code): usable for I-Match and the lexical signature. */
export const FLAG_LETTER = 2;
/** In the primary I-Match lexicon L. */
export const FLAG_PRIMARY = 4;
/** Lexicon-eligible by length (the I-Match ratio is taken over these). */
export const FLAG_ELIGIBLE = 8;
/** A word in another script than the text's language (its letters are not the language's). */
export const FLAG_OTHER_SCRIPT = 16;
/**
 * ...that the lexicon of its script's language describes: within a passage of its script
 * (foreign.ts), its term weight is `foreignIdf`, that lexicon's idf, not this language's.
 */
export const FLAG_FOREIGN = 32;
/** ...a stop word of its own script's language: within such a passage, no term. */
export const FLAG_FOREIGN_STOP = 64;

/** What a text's vocabulary knows of words written in another script (an English paragraph in a Persian article). */
export interface ForeignWords {
  /** The WORD_SCRIPT bit of the text language's letters (0: every script is the language's own). */
  readonly script: number;
  /** The lexicon and stop words of the language a script's words are read as; null: none. */
  of(script: number): { lexicon: Lexicon | null; stopWords: ReadonlySet<string> } | null;
}

/** WORD_SCRIPT bit of the first script letter of `word` (0: none, only digits and marks). */
function scriptOf(word: string): number {
  for (let j = 0; j < word.length; j++) {
    const s = (WORD_SCRIPT[word.charCodeAt(j)] as number) & 0x7f;
    if (s !== 0) return s;
  }
  return 0;
}

/**
 * Everything signatures need to know about a token, looked up once per token per document:
 * its XXH64, idf, flags and secondary-lexicon rank, in typed arrays indexed by a slot id. One
 * Map lookup per token replaces one per token per method, and per-document counting uses
 * stamped arrays instead of Maps. Results never depend on the table (it is a cache of pure
 * functions of the token); when full it is cleared between documents.
 */
export class Vocabulary {
  // Open-addressing index: slot + 1 per entry (0 = empty), keyed by a hash of the token's
  // characters. Tokens are compared in place in the canonical text, so a known token costs no
  // string allocation and no Map lookup; a Map keyed by fresh slices was the costliest step.
  // table[2i] = slot + 1 (0 = empty), table[2i + 1] = the token's character hash: one cache line
  // per probe. Token characters live in the slot's info line (the first INLINE_CHARS) and one flat
  // pool (the rest), compared without touching string objects.
  private table = new Int32Array(2 << 12);
  private tableMask = (1 << 12) - 1;
  private pool = new Uint16Array(1 << 16);
  private poolUsed = 0;
  private words = 0;
  private slots = 1024;
  /** Interleaved per-slot fields (INFO_*), and the same memory as float64 for the idf. */
  info = new Uint32Array(1024 * INFO_STRIDE);
  idfs = new Float64Array(this.info.buffer);
  secondaryRank = new Int32Array(1024);
  /** Term-vector idf of FLAG_FOREIGN slots (other slots: unused). */
  foreignIdf = new Float64Array(1024);
  /** The document stamp of the last document in which the slot's word lay in a passage of its script (foreign.ts). */
  passageStamp = new Uint32Array(1024);
  /** factKind of each slot's word (month, day, year or none): the dates, read from the slots. */
  factKinds = new Uint8Array(1024);
  private currentStamp = 0;
  /** Where touch() leaves what it read, so that the reads are not dropped as dead code (no meaning). */
  touchSink = 0;
  private readonly scratch: U64 = { hi: 0, lo: 0 };

  constructor(
    readonly lexicon: Lexicon | null,
    private readonly stopWords: ReadonlySet<string>,
    private readonly capacity = 1 << 20,
    /** Longest stem kept for story terms (0 = whole word). */
    private readonly stemLength = 0,
    private readonly foreign: ForeignWords | null = null,
  ) {}

  get size(): number {
    return this.words;
  }

  /**
   * Slot ids of the tokens of `text` (token k = text[starts[k] .. next space or end)) into `out`.
   *
   * `hashes`: the tokens' FNV-1a hashes (tokenHash), as the tokenizer took them
   * (CanonicalDoc.tokenHashes): the canonical text is read again only to compare a probed word.
   *
   * Three passes rather than one: the table, word records and slot fields of rarer words are
   * usually out of cache (the store's data evicts them between documents), and a loop that hashes,
   * probes and compares characters keeps only a miss or two in flight. With every token's hash
   * at hand, touching each token's probe line and slot line (fields and word) in a short loop of
   * independent loads lets the CPU overlap those misses; the lookups then run from cache. The
   * touching pass only reads, so results are those of the plain lookup.
   */
  lookupSpans(text: string, starts: Int32Array, out: Int32Array, hashes: Int32Array): void {
    const n = starts.length;
    if (hashes.length !== n) throw new RangeError(`${hashes.length} token hashes for ${n} tokens`);
    if (this.words + n > this.capacity) this.clear();
    this.touch(hashes, n);
    for (let k = 0; k < n; k++) {
      const start = starts[k] as number;
      const end = k + 1 < n ? (starts[k + 1] as number) - 1 : text.length;
      out[k] = this.findHashed(text, start, end, hashes[k] as number);
    }
  }

  /** Reads (and discards) the memory the lookups of `hashes[0, n)` will read first. */
  private touch(hashes: Int32Array, n: number): void {
    const table = this.table;
    const mask = this.tableMask;
    let at = 0;
    let sink = 0;
    for (let k = 0; k < n; k++) {
      const h = hashes[k] as number;
      at = (h ^ (h >>> 15)) & mask;
      sink ^= table[2 * at] as number;
    }
    const info = this.info;
    for (let k = 0; k < n; k++) {
      const h = hashes[k] as number;
      at = (h ^ (h >>> 15)) & mask;
      const entry = table[2 * at] as number;
      if (entry !== 0) sink ^= info[(entry - 1) * INFO_STRIDE + INFO_LENGTH] as number;
    }
    this.touchSink = sink;
  }

  /** Slot ids of `words` into `out`. */
  lookup(words: readonly string[], out: Int32Array): void {
    if (this.words + words.length > this.capacity) this.clear();
    for (let i = 0; i < words.length; i++) {
      const word = words[i] as string;
      out[i] = this.find(word, 0, word.length);
    }
  }

  private find(text: string, start: number, end: number): number {
    return this.findHashed(text, start, end, tokenHash(text, start, end));
  }

  /** find with the FNV-1a hash `h` of text[start, end) already computed. */
  private findHashed(text: string, start: number, end: number, h: number): number {
    const table = this.table;
    const mask = this.tableMask;
    const length = end - start;
    let at = (h ^ (h >>> 15)) & mask;
    for (;;) {
      const entry = table[2 * at] as number;
      if (entry === 0) break;
      if (table[2 * at + 1] === h) {
        const slot = entry - 1;
        if (
          this.info[slot * INFO_STRIDE + INFO_LENGTH] === length &&
          this.sameChars(slot, text, start, length)
        )
          return slot;
      }
      at = (at + 1) & mask;
    }
    const slot = this.insert(text, start, end);
    table[2 * at] = slot + 1;
    table[2 * at + 1] = h;
    if (this.words * 2 > mask + 1) this.rehash();
    return slot;
  }

  /** Whether the word of `slot` (of `length` units) is text[start, start + length). */
  private sameChars(slot: number, text: string, start: number, length: number): boolean {
    const info = this.info;
    const b = slot * INFO_STRIDE + INFO_CHARS;
    const inline = Math.min(length, INLINE_CHARS);
    let j = 0;
    for (; j + 1 < inline; j += 2) {
      const pair = info[b + (j >> 1)] as number;
      if ((pair & 0xffff) !== text.charCodeAt(start + j) || pair >>> 16 !== text.charCodeAt(start + j + 1))
        return false;
    }
    if (j < inline && ((info[b + (j >> 1)] as number) & 0xffff) !== text.charCodeAt(start + j)) return false;
    if (length <= INLINE_CHARS) return true;
    const pool = this.pool;
    const from = (info[slot * INFO_STRIDE + INFO_POOL] as number) - INLINE_CHARS;
    for (j = INLINE_CHARS; j < length; j++) if (pool[from + j] !== text.charCodeAt(start + j)) return false;
    return true;
  }

  private rehash(): void {
    const entries = (this.tableMask + 1) * 2;
    const table = new Int32Array(2 * entries);
    const mask = entries - 1;
    for (let at = 0; at <= this.tableMask; at++) {
      const entry = this.table[2 * at] as number;
      if (entry === 0) continue;
      const h = this.table[2 * at + 1] as number;
      let to = (h ^ (h >>> 15)) & mask;
      while (table[2 * to] !== 0) to = (to + 1) & mask;
      table[2 * to] = entry;
      table[2 * to + 1] = h;
    }
    this.table = table;
    this.tableMask = mask;
  }

  private clear(): void {
    this.table.fill(0);
    this.words = 0;
    this.poolUsed = 0;
  }

  /**
   * Starts a document and collects the distinct slots of `slots[0, length)` in first-seen order
   * into `distinct`, with their term frequencies into `tf` (also left in INFO_TF under the new
   * stamp). Returns the number of distinct slots. One pass serves SimHash, I-Match and the term
   * vector, which all want the same counts.
   */
  countDistinct(slots: Int32Array, length: number, distinct: Int32Array, tf: Uint32Array): number {
    const stamp = this.beginDocument();
    const info = this.info;
    let d = 0;
    for (let i = 0; i < length; i++) {
      const slot = slots[i] as number;
      const b = slot * INFO_STRIDE;
      if (info[b + INFO_STAMP] !== stamp) {
        info[b + INFO_STAMP] = stamp;
        info[b + INFO_TF] = 1;
        distinct[d++] = slot;
      } else info[b + INFO_TF] = (info[b + INFO_TF] as number) + 1;
    }
    for (let j = 0; j < d; j++) tf[j] = info[(distinct[j] as number) * INFO_STRIDE + INFO_TF] as number;
    return d;
  }

  /** The current document's stamp (a slot's INFO_TF counts this document where its INFO_STAMP equals it). */
  get documentStamp(): number {
    return this.currentStamp;
  }

  /** A fresh stamp: INFO_TF counts are valid only for slots stamped with it. */
  /** The current document's stamp (beginDocument). */
  get stamp(): number {
    return this.currentStamp;
  }

  beginDocument(): number {
    this.currentStamp = (this.currentStamp + 1) >>> 0;
    if (this.currentStamp === 0) {
      for (let slot = 0; slot < this.slots; slot++) this.info[slot * INFO_STRIDE + INFO_STAMP] = 0;
      this.currentStamp = 1;
    }
    return this.currentStamp;
  }

  /** Increments and returns tf of `slot` in the current document. */
  count(slot: number, stamp: number): number {
    const b = slot * INFO_STRIDE;
    if (this.info[b + INFO_STAMP] !== stamp) {
      this.info[b + INFO_STAMP] = stamp;
      this.info[b + INFO_TF] = 1;
      return 1;
    }
    const tf = (this.info[b + INFO_TF] as number) + 1;
    this.info[b + INFO_TF] = tf;
    return tf;
  }

  /** Term frequency of `slot` in the current document (0 when it does not occur). */
  tfOf(slot: number): number {
    const b = slot * INFO_STRIDE;
    return this.info[b + INFO_STAMP] === this.currentStamp ? (this.info[b + INFO_TF] as number) : 0;
  }

  private insert(text: string, start: number, end: number): number {
    const word = start === 0 && end === text.length ? text : text.slice(start, end);
    const slot = this.words;
    if (slot >= this.slots) this.grow();
    const b = slot * INFO_STRIDE;
    const info = this.info;
    const length = word.length;
    info[b + INFO_LENGTH] = length;
    info[b + INFO_POOL] = this.poolUsed;
    for (let j = 0; j < INLINE_CHARS; j += 2) {
      const c0 = j < length ? word.charCodeAt(j) : 0;
      const c1 = j + 1 < length ? word.charCodeAt(j + 1) : 0;
      info[b + INFO_CHARS + (j >> 1)] = (c0 | (c1 << 16)) >>> 0;
    }
    if (length > INLINE_CHARS) {
      const rest = length - INLINE_CHARS;
      if (this.poolUsed + rest > this.pool.length) {
        const pool = new Uint16Array(Math.max(this.pool.length * 2, this.poolUsed + rest));
        pool.set(this.pool.subarray(0, this.poolUsed));
        this.pool = pool;
      }
      for (let j = 0; j < rest; j++) this.pool[this.poolUsed + j] = word.charCodeAt(INLINE_CHARS + j);
      this.poolUsed += rest;
    }
    xxh64(word, SEED_TOKEN, this.scratch);
    info[b + INFO_HI] = this.scratch.hi;
    info[b + INFO_LO] = this.scratch.lo;
    const lexicon = this.lexicon;
    let flags = 0;
    if (this.stopWords.has(word)) flags |= FLAG_STOP;
    if (hasLetter(word)) flags |= FLAG_LETTER;
    if (lexicon) {
      const described = lexicon.describe(word);
      if (described.primary) flags |= FLAG_PRIMARY;
      if (lexicon.isEligible(word)) flags |= FLAG_ELIGIBLE;
      this.idfs[slot * IDF_STRIDE + IDF_AT] = described.idf;
      this.secondaryRank[slot] = described.secondaryRank;
      if (!(flags & FLAG_STOP) && flags & FLAG_LETTER) flags |= this.foreignFlags(word, slot, lexicon);
    } else {
      this.idfs[slot * IDF_STRIDE + IDF_AT] = 1;
      this.secondaryRank[slot] = -1;
    }
    info[b + INFO_FLAGS] = flags;
    this.factKinds[slot] = factKind(word);
    info[b + INFO_STEM] =
      this.stemLength > 0 && word.length > this.stemLength
        ? stemHashOf(word.slice(0, this.stemLength))
        : (info[b + INFO_LO] as number);
    info[b + INFO_TF] = 0;
    info[b + INFO_STAMP] = 0;
    this.passageStamp[slot] = 0;
    this.words++;
    return slot;
  }

  /**
   * A word in another script than the language's takes this lexicon's idf, mostly its top
   * (unknown-word) idf. For a name ("Xiaomi" in a Russian text) that is right: it is rare in this
   * language. But every word of a paragraph in another language would too ("the", "and"
   * included), and a shared English paragraph would outweigh two Persian articles' own words in
   * the term vector. So within a passage of its script (foreign.ts decides, per document) such a
   * word is weighed as a word of that script's language: a stop word there is no term, another
   * word takes that lexicon's idf, never above this lexicon's unknown-word idf (a name unknown to
   * both keeps its weight). Only the term vector reads this.
   */
  private foreignFlags(word: string, slot: number, lexicon: Lexicon): number {
    const foreign = this.foreign;
    if (!foreign || foreign.script === 0) return 0;
    const script = scriptOf(word);
    if (script === 0 || script === foreign.script) return 0;
    const other = foreign.of(script);
    if (!other) return FLAG_OTHER_SCRIPT;
    if (other.stopWords.has(word)) return FLAG_OTHER_SCRIPT | FLAG_FOREIGN_STOP;
    this.foreignIdf[slot] = other.lexicon
      ? Math.min(other.lexicon.idf(word), lexicon.unknownIdf)
      : lexicon.unknownIdf;
    return FLAG_OTHER_SCRIPT | FLAG_FOREIGN;
  }

  private grow(): void {
    const size = Math.min(this.capacity, this.slots * 2);
    this.slots = size;
    this.info = grown(this.info, size * INFO_STRIDE);
    this.idfs = new Float64Array(this.info.buffer);
    this.secondaryRank = grown(this.secondaryRank, size);
    const foreignIdf = new Float64Array(size);
    foreignIdf.set(this.foreignIdf);
    this.foreignIdf = foreignIdf;
    this.passageStamp = grown(this.passageStamp, size);
    const kinds = new Uint8Array(size);
    kinds.set(this.factKinds);
    this.factKinds = kinds;
  }
}
