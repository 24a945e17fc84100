import type { SimhashConfig } from '../config/signatures.js';
import { combine64, hamming64, hex64, type U64 } from '../hash/mix.js';
import {
  IDF_AT,
  IDF_STRIDE,
  INFO_HI,
  INFO_LO,
  INFO_STRIDE,
  SCRATCH_TOKENS,
  type Vocabulary,
} from './vocabulary.js';

/**
 * SimHash-64 (Charikar 2002) over weighted word unigrams and bigrams, and the Manku, Jain,
 * Das Sarma (2007) block-table keys used to find fingerprints within Hamming distance k.
 */

export interface Fingerprint64 {
  hi: number;
  lo: number;
}

const NIBBLES = 16;
// 1 + ln(tf) for tf up to 1,023: most features occur once or twice, and Math.log per feature is
// costly. With 64 entries the first word seen 64 times in a text was a first-taken branch in
// compiled code (a deopt and a recompile of simhashOfCounts, see SCRATCH_TOKENS).
const TF_TABLE = 1024;
const TF_WEIGHT = Float64Array.from({ length: TF_TABLE }, (_, tf) => (tf === 0 ? 0 : 1 + Math.log(tf)));
const tfWeight = (tf: number): number => (tf < TF_TABLE ? (TF_WEIGHT[tf] as number) : 1 + Math.log(tf));

/** Per-nibble weight sums: sums[k * 16 + v] = total weight of features whose nibble k is v. */
function addFeature(sums: Float64Array, hi: number, lo: number, w: number): void {
  for (let k = 0; k < 8; k++) {
    const a = k * 16 + ((hi >>> (28 - 4 * k)) & 15);
    const b = (k + 8) * 16 + ((lo >>> (28 - 4 * k)) & 15);
    sums[a] = (sums[a] as number) + w;
    sums[b] = (sums[b] as number) + w;
  }
}

// Scratch buffers reused across documents (one engine per thread).
const sums = new Float64Array(NIBBLES * 16);
// Sized for SCRATCH_TOKENS content tokens (the table at least twice that): see SCRATCH_TOKENS.
let tableKeys = new Uint32Array(2 * SCRATCH_TOKENS);
let tableUsed = new Uint8Array(2 * SCRATCH_TOKENS);
let tableIndex = new Int32Array(2 * SCRATCH_TOKENS);
let bigramHi = new Uint32Array(SCRATCH_TOKENS);
let bigramLo = new Uint32Array(SCRATCH_TOKENS);
let bigramIdf = new Float64Array(SCRATCH_TOKENS);
let bigramTf = new Uint32Array(SCRATCH_TOKENS);

function ensureBigramCapacity(n: number, tableSize: number): void {
  if (tableKeys.length < tableSize) {
    tableKeys = new Uint32Array(tableSize);
    tableUsed = new Uint8Array(tableSize);
    tableIndex = new Int32Array(tableSize);
  }
  if (bigramHi.length < n) {
    bigramHi = new Uint32Array(n * 2);
    bigramLo = new Uint32Array(n * 2);
    bigramIdf = new Float64Array(n * 2);
    bigramTf = new Uint32Array(n * 2);
  }
}

let distinctScratch = new Int32Array(512);
let tfScratch = new Uint32Array(512);

/**
 * SimHash-64 of a document's content tokens (slots of `vocab`). Features are word unigrams and,
 * optionally, bigrams (hash = combine64 of the two word hashes); weight (1 + ln tf) * idf, a
 * bigram's idf being the mean of its words' (docs/signatures.md, `simhash`). Counters are kept per
 * 4-bit nibble value (16 x 16 sums) rather than per bit: 16 additions per feature instead of 64.
 */
export function simhash64(
  vocab: Vocabulary,
  content: Int32Array,
  config: Pick<SimhashConfig, 'bigrams'>,
): Fingerprint64 {
  if (distinctScratch.length < content.length) {
    distinctScratch = new Int32Array(content.length * 2);
    tfScratch = new Uint32Array(content.length * 2);
  }
  const d = vocab.countDistinct(content, content.length, distinctScratch, tfScratch);
  return simhashOfCounts(vocab, content, distinctScratch, tfScratch, d, config);
}

/**
 * simhash64 given the content tokens' distinct slots in first-seen order and their term
 * frequencies (Vocabulary.countDistinct), which the signature engine counts once for all methods.
 */
export function simhashOfCounts(
  vocab: Vocabulary,
  content: Int32Array,
  distinct: Int32Array,
  tf: Uint32Array,
  distinctCount: number,
  config: Pick<SimhashConfig, 'bigrams'>,
): Fingerprint64 {
  const { info, idfs } = vocab;
  const n = content.length;
  sums.fill(0);
  let total = 0;

  for (let j = 0; j < distinctCount; j++) {
    const slot = distinct[j] as number;
    const w = tfWeight(tf[j] as number) * (idfs[slot * IDF_STRIDE + IDF_AT] as number);
    total += w;
    const b = slot * INFO_STRIDE;
    addFeature(sums, info[b + INFO_HI] as number, info[b + INFO_LO] as number, w);
  }

  if (config.bigrams && n > 1) {
    // Open-addressing table keyed by the bigram hash's low half: term frequency without a Map.
    let size = 16;
    while (size < 2 * n) size <<= 1;
    ensureBigramCapacity(n, size);
    const mask = size - 1;
    const keys = tableKeys;
    const used = tableUsed;
    const index = tableIndex;
    used.fill(0, 0, size);
    let features = 0;
    const pair: U64 = { hi: 0, lo: 0 };
    for (let i = 0; i + 1 < n; i++) {
      const a = content[i] as number;
      const b = content[i + 1] as number;
      const ia = a * INFO_STRIDE;
      const ib = b * INFO_STRIDE;
      combine64(
        info[ia + INFO_HI] as number,
        info[ia + INFO_LO] as number,
        info[ib + INFO_HI] as number,
        info[ib + INFO_LO] as number,
        pair,
      );
      const lo = pair.lo;
      let h = lo & mask;
      for (;;) {
        if (!used[h]) {
          used[h] = 1;
          keys[h] = lo;
          index[h] = features;
          bigramHi[features] = pair.hi;
          bigramLo[features] = lo;
          bigramIdf[features] =
            ((idfs[a * IDF_STRIDE + IDF_AT] as number) + (idfs[b * IDF_STRIDE + IDF_AT] as number)) / 2;
          bigramTf[features] = 1;
          features++;
          break;
        }
        if (keys[h] === lo) {
          const f = index[h] as number;
          bigramTf[f] = (bigramTf[f] as number) + 1;
          break;
        }
        h = (h + 1) & mask;
      }
    }
    for (let f = 0; f < features; f++) {
      const w = tfWeight(bigramTf[f] as number) * (bigramIdf[f] as number);
      total += w;
      addFeature(sums, bigramHi[f] as number, bigramLo[f] as number, w);
    }
  }

  // Bit b of nibble k is set when the weight of features having it exceeds half the total:
  // sum over set - sum over unset = 2 * set - total > 0.
  let hi = 0;
  let lo = 0;
  for (let k = 0; k < NIBBLES; k++) {
    const base = k * 16;
    for (let bit = 3; bit >= 0; bit--) {
      let set = 0;
      for (let v = 0; v < 16; v++) if ((v >>> bit) & 1) set += sums[base + v] as number;
      const on = 2 * set - total > 0 ? 1 : 0;
      if (k < 8) hi = (hi << 1) | on;
      else lo = (lo << 1) | on;
    }
  }
  return { hi: hi >>> 0, lo: lo >>> 0 };
}

export function simhashHex(fp: Fingerprint64): string {
  return hex64(fp.hi, fp.lo);
}

export function simhashDistance(a: Fingerprint64, b: Fingerprint64): number {
  return hamming64(a.hi, a.lo, b.hi, b.lo);
}

/** One Manku table: which blocks form its key. */
export interface BlockTablePlan {
  blocks: ReadonlyArray<{ start: number; length: number }>;
  /** tables[t] = indices of the blocks whose bits make table t's key. */
  tables: ReadonlyArray<ReadonlyArray<number>>;
}

function combinations(n: number, k: number): number[][] {
  const out: number[][] = [];
  const pick: number[] = [];
  const walk = (from: number) => {
    if (pick.length === k) {
      out.push([...pick]);
      return;
    }
    for (let i = from; i < n; i++) {
      pick.push(i);
      walk(i + 1);
      pick.pop();
    }
  };
  walk(0);
  return out;
}

/**
 * Splits 64 bits into `blocks` near-equal blocks (the first 64 mod B blocks one bit longer).
 * Two fingerprints within distance k differ in at most k blocks and so agree on at least B - k:
 * one table per choice of B - k blocks, C(B, k) tables in all, finds every such pair.
 */
export function blockTablePlan(config: Pick<SimhashConfig, 'blocks' | 'tableDistance'>): BlockTablePlan {
  const { blocks: b, tableDistance: k } = config;
  const base = Math.floor(64 / b);
  const extra = 64 % b;
  const blocks: { start: number; length: number }[] = [];
  let start = 0;
  for (let i = 0; i < b; i++) {
    const length = base + (i < extra ? 1 : 0);
    blocks.push({ start, length });
    start += length;
  }
  return { blocks, tables: combinations(b, b - k) };
}

/** Bits [start, start + length) counted from the most significant bit, length <= 32. */
function bitsAt(fp: Fingerprint64, start: number, length: number): number {
  const end = start + length;
  if (end <= 32) return length === 32 ? fp.hi >>> 0 : (fp.hi >>> (32 - end)) & ((1 << length) - 1);
  if (start >= 32) {
    const s = start - 32;
    return length === 32 ? fp.lo >>> 0 : (fp.lo >>> (32 - (s + length))) & ((1 << length) - 1);
  }
  const hiPart = fp.hi & ((1 << (32 - start)) - 1);
  const loLen = end - 32;
  const loPart = fp.lo >>> (32 - loLen);
  return (hiPart * 2 ** loLen + loPart) >>> 0;
}

/** One 64-bit key per table: the table index and its blocks' bits, mixed. */
export function simhashTableHashes(fp: Fingerprint64, plan: BlockTablePlan): U64[] {
  const hi = new Uint32Array(plan.tables.length);
  const lo = new Uint32Array(plan.tables.length);
  simhashTableHashesInto(fp, plan, hi, lo);
  const keys: U64[] = [];
  for (let t = 0; t < plan.tables.length; t++) keys.push({ hi: hi[t] as number, lo: lo[t] as number });
  return keys;
}

const TABLE_ACC: U64 = { hi: 0, lo: 0 };

/** simhashTableHashes into hi[t], lo[t]: no object per table. */
export function simhashTableHashesInto(
  fp: Fingerprint64,
  plan: BlockTablePlan,
  hi: Uint32Array,
  lo: Uint32Array,
): void {
  const acc = TABLE_ACC;
  for (let t = 0; t < plan.tables.length; t++) {
    acc.hi = 0x73696d68; // "simh"
    acc.lo = t;
    const table = plan.tables[t] as readonly number[];
    for (let j = 0; j < table.length; j++) {
      const block = plan.blocks[table[j] as number] as { start: number; length: number };
      combine64(acc.hi, acc.lo, bitsAt(fp, block.start, block.length), table[j] as number, acc);
    }
    hi[t] = acc.hi;
    lo[t] = acc.lo;
  }
}

/** One key per table: "<table>:<block values in base 36>" (readable; tests and explanations). */
export function simhashTableKeys(fp: Fingerprint64, plan: BlockTablePlan): string[] {
  const keys: string[] = [];
  for (let t = 0; t < plan.tables.length; t++) {
    let key = `${t}:`;
    const table = plan.tables[t] as readonly number[];
    for (let j = 0; j < table.length; j++) {
      const block = plan.blocks[table[j] as number] as { start: number; length: number };
      key += (j === 0 ? '' : '.') + bitsAt(fp, block.start, block.length).toString(36);
    }
    keys.push(key);
  }
  return keys;
}
