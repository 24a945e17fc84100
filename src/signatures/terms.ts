import { transient } from '../typed-slab.js';
import {
  FLAG_FOREIGN,
  FLAG_FOREIGN_STOP,
  FLAG_LETTER,
  FLAG_OTHER_SCRIPT,
  FLAG_STOP,
  IDF_AT,
  IDF_STRIDE,
  INFO_FLAGS,
  INFO_STEM,
  INFO_STRIDE,
  SCRATCH_TOKENS,
  type Vocabulary,
} from './vocabulary.js';

/**
 * A document's top tf*idf terms as a small unit vector (seed 004's vector space model): the
 * `size` content words with the highest (1 + ln tf) * idf, each as the low 32 bits of its token
 * hash, sorted by hash so that two vectors meet in one merge pass. Cosine similarity of these
 * vectors verifies story membership: two reports of one event share their rare words (names,
 * places, numbers) even when they share no sentence.
 */
export interface TermVector {
  hashes: Uint32Array;
  weights: Float32Array;
}

// Scratch buffers reused across documents (one signature engine per thread): typed-array
// allocation per document cost more than the arithmetic.
// Sized for a quarter of SCRATCH_TOKENS distinct words (the table twice that): see SCRATCH_TOKENS.
const SCRATCH_TERMS = SCRATCH_TOKENS / 4;
let tableKey = new Uint32Array(2 * SCRATCH_TERMS);
let tableIndex = new Int32Array(2 * SCRATCH_TERMS);
let termKey = new Uint32Array(SCRATCH_TERMS);
let termTf = new Uint32Array(SCRATCH_TERMS);
let termIdf = new Float64Array(SCRATCH_TERMS);
let termWeight = new Float64Array(SCRATCH_TERMS);
/** 1 where a term's words lie in a passage of another script (signatures/foreign.ts). */
let termInPassage = new Uint8Array(SCRATCH_TERMS);
let order = new Int32Array(SCRATCH_TERMS);
let selectScratch = new Float64Array(SCRATCH_TERMS);

/**
 * The k-th smallest (0-based) of a[0, n), by quickselect; reorders a. Only the value is used, and
 * an order statistic does not depend on the algorithm: this replaces a full sort of ~150 weights.
 */
function kthSmallest(a: Float64Array, n: number, k: number): number {
  let lo = 0;
  let hi = n - 1;
  while (lo < hi) {
    const pivot = a[(lo + hi) >>> 1] as number;
    let i = lo;
    let j = hi;
    while (i <= j) {
      while ((a[i] as number) < pivot) i++;
      while ((a[j] as number) > pivot) j--;
      if (i <= j) {
        const t = a[i] as number;
        a[i] = a[j] as number;
        a[j] = t;
        i++;
        j--;
      }
    }
    if (k <= j) hi = j;
    else if (k >= i) lo = i;
    else return a[k] as number;
  }
  return a[k] as number;
}

/** Sorts order[from, to) by term hash (short ranges: at most `size`, 32, or keepLowestKeys' cut). */
function insertionSortByKey(o: Int32Array, from: number, to: number): void {
  for (let i = from + 1; i < to; i++) {
    const v = o[i] as number;
    const key = termKey[v] as number;
    let j = i - 1;
    while (j >= from && (termKey[o[j] as number] as number) > key) {
      o[j + 1] = o[j] as number;
      j--;
    }
    o[j + 1] = v;
  }
}

/**
 * Leaves in order[from, from + need) the `need` terms of order[from, to) with the lowest hashes
 * (term hashes are distinct: one term per stem). The tied range can hold every term of the
 * document (a long text of words seen once, all of one idf): an insertion sort of it was
 * quadratic, 12 s of CPU for a 1 MB body of 200,000 distinct words; past 32 the hashes are sorted
 * natively and cut at the need-th.
 */
function keepLowestKeys(o: Int32Array, from: number, to: number, need: number): void {
  if (to - from <= 32) {
    insertionSortByKey(o, from, to);
    return;
  }
  const keys = new Uint32Array(to - from);
  for (let i = from; i < to; i++) keys[i - from] = termKey[o[i] as number] as number;
  keys.sort();
  const last = keys[need - 1] as number;
  let w = from;
  for (let i = from; i < to; i++) {
    const t = o[i] as number;
    if ((termKey[t] as number) <= last) o[w++] = t;
  }
}

function ensureCapacity(n: number, tableSize: number): void {
  if (tableKey.length < tableSize) {
    tableKey = new Uint32Array(tableSize);
    tableIndex = new Int32Array(tableSize);
  }
  if (termKey.length < n) {
    termKey = new Uint32Array(2 * n);
    termTf = new Uint32Array(2 * n);
    termIdf = new Float64Array(2 * n);
    termWeight = new Float64Array(2 * n);
    termInPassage = new Uint8Array(2 * n);
    order = new Int32Array(2 * n);
  }
}

/**
 * Two idf tables are two scales: a paragraph in another language, weighed by its own table, can
 * still hold most of the vector when the text's own words are common in theirs (Persian sports
 * words in a table built from sports news). So the terms of passages in another script hold at
 * most their share of the terms' tokens in the vector's squared norm; then a passage two texts
 * share adds at most sqrt(sA * sB) to their cosine, the share the story rule takes out
 * (engine/story-sentences.ts), as a shared paragraph of the text's own language would.
 */
function capPassageWeight(terms: number, share: number): void {
  let passage = 0;
  let own = 0;
  for (let t = 0; t < terms; t++) {
    const w2 = (termWeight[t] as number) ** 2;
    if (termInPassage[t]) passage += w2;
    else own += w2;
  }
  if (passage === 0 || own === 0 || passage / (passage + own) <= share) return;
  const scale = Math.sqrt((share * own) / ((1 - share) * passage));
  for (let t = 0; t < terms; t++) if (termInPassage[t]) termWeight[t] = (termWeight[t] as number) * scale;
}

/**
 * No single term holds more than `cap` of the chosen terms' squared norm: the heaviest are
 * lowered to one level L, with L^2 = cap * the new squared norm (water-filling). A vector of too
 * few terms to meet it (count * cap <= 1) is left as it is.
 */
function capSingleTerm(top: Int32Array, count: number, cap: number): void {
  if (count * cap <= 1) return;
  let rest = 0;
  let heaviest = 0;
  for (let i = 0; i < count; i++) {
    const x = (termWeight[top[i] as number] as number) ** 2;
    rest += x;
    if (x > heaviest) heaviest = x;
  }
  if (heaviest <= cap * rest) return;
  const w2 = Array.from(top.subarray(0, count), (t) => (termWeight[t] as number) ** 2).sort((a, b) => b - a);
  let k = 0;
  let level = 0;
  while (k < count && k * cap < 1) {
    rest -= w2[k] as number;
    k++;
    if (k * cap >= 1) return;
    level = (cap * rest) / (1 - cap * k);
    if ((w2[k] ?? 0) <= level) break;
  }
  const l = Math.sqrt(level);
  for (let i = 0; i < count; i++) {
    const t = top[i] as number;
    if ((termWeight[t] as number) > l) termWeight[t] = l;
  }
}

/**
 * A word in a passage of another script (signatures/foreign.ts) is weighed as a word of its own
 * language: its stop words are no terms, its other words take its lexicon's idf (Vocabulary).
 */
function inPassage(vocab: Vocabulary, slot: number, f: number): boolean {
  return (f & FLAG_OTHER_SCRIPT) !== 0 && vocab.passageStamp[slot] === vocab.stamp;
}

/**
 * The `size` heaviest tf*idf terms of a document, given its distinct slots in first-seen order and
 * their term frequencies (Vocabulary.countDistinct over all tokens or over the content tokens: a
 * content word's count is the same either way). Stop words and tokens without a letter are not terms.
 */
export function topTermsOfDistinct(
  vocab: Vocabulary,
  distinct: Int32Array,
  tfs: Uint32Array,
  distinctCount: number,
  size: number,
  maxTermShare = 1,
): TermVector | null {
  const { info, idfs, foreignIdf } = vocab;
  // At most n terms (the words of a foreign passage's stop words counted too: testing for them
  // here, a branch first taken late in a stream, cost a recompile; the table is only larger).
  let n = 0;
  for (let j = 0; j < distinctCount; j++) {
    const f = info[(distinct[j] as number) * INFO_STRIDE + INFO_FLAGS] as number;
    if (!(f & FLAG_STOP) && f & FLAG_LETTER) n++;
  }
  if (n === 0) return null;
  // Words of one stem (Russian and Ukrainian inflections) are one term: tf summed, highest idf.
  // An open-addressing table keyed by the stem hash merges them without a Map.
  let tableSize = 16;
  while (tableSize < 2 * n) tableSize <<= 1;
  ensureCapacity(n, tableSize);
  const mask = tableSize - 1;
  tableIndex.fill(-1, 0, tableSize);
  let terms = 0;
  let termTokens = 0;
  let passageTokens = 0;
  for (let j = 0; j < distinctCount; j++) {
    const slot = distinct[j] as number;
    const b = slot * INFO_STRIDE;
    const f = info[b + INFO_FLAGS] as number;
    if (f & FLAG_STOP || !(f & FLAG_LETTER)) continue;
    const passage = inPassage(vocab, slot, f);
    if (passage && f & FLAG_FOREIGN_STOP) continue;
    const key = info[b + INFO_STEM] as number;
    let at = (key ^ (key >>> 16)) & mask;
    while ((tableIndex[at] as number) >= 0 && tableKey[at] !== key) at = (at + 1) & mask;
    const t = tableIndex[at] as number;
    const tf = tfs[j] as number;
    const wordIdf = (
      passage && f & FLAG_FOREIGN ? foreignIdf[slot] : idfs[slot * IDF_STRIDE + IDF_AT]
    ) as number;
    termTokens += tf;
    if (passage) passageTokens += tf;
    // A new term starts empty and every word, the first of its stem or not, is merged by the
    // same statements: the merging branch was first taken when the first text with two words
    // of one stem arrived, after the function was compiled, and cost a recompile.
    const term = t < 0 ? terms : t;
    if (t < 0) {
      tableIndex[at] = terms;
      tableKey[at] = key;
      termKey[terms] = key;
      termTf[terms] = 0;
      termIdf[terms] = wordIdf;
      termInPassage[terms] = 0;
      terms++;
    }
    termTf[term] = (termTf[term] as number) + tf;
    termIdf[term] = Math.max(wordIdf, termIdf[term] as number);
    termInPassage[term] = (termInPassage[term] as number) | (passage ? 1 : 0);
  }
  if (terms === 0) return null;
  for (let t = 0; t < terms; t++) {
    const tf = termTf[t] as number;
    termWeight[t] = (tf === 1 ? 1 : 1 + Math.log(tf)) * (termIdf[t] as number);
  }
  if (passageTokens > 0 && passageTokens < termTokens) capPassageWeight(terms, passageTokens / termTokens);
  // The `size` heaviest terms; at the cut, lower hashes first, so word order never matters. The
  // cut is an order statistic (quickselect): a comparator sort of ~150 terms cost more than the rest.
  // A text of `size` terms or fewer keeps them all (cut below every weight) through the same
  // loops: a separate loop for it was first run by a short text after the function had been
  // compiled, and cost a recompile.
  const count = Math.min(size, terms);
  let cut = Number.NEGATIVE_INFINITY;
  if (terms > size) {
    if (selectScratch.length < terms) selectScratch = new Float64Array(2 * terms);
    selectScratch.set(termWeight.subarray(0, terms));
    cut = kthSmallest(selectScratch, terms, terms - size);
  }
  let chosen = 0;
  for (let t = 0; t < terms; t++) if ((termWeight[t] as number) > cut) order[chosen++] = t;
  const tiedFrom = chosen;
  for (let t = 0; t < terms; t++) if (termWeight[t] === cut) order[chosen++] = t;
  keepLowestKeys(order, tiedFrom, chosen, count - tiedFrom);
  insertionSortByKey(order, 0, count);
  const top = order.subarray(0, count);
  if (maxTermShare < 1) capSingleTerm(top, count, maxTermShare);
  let norm = 0;
  for (let i = 0; i < count; i++) norm += (termWeight[top[i] as number] as number) ** 2;
  norm = Math.sqrt(norm) || 1;
  // Slab views (typed-slab.ts): two buffers of their own were ~1-2 µs each.
  const hashes = transient.uint32(count);
  const weights = transient.float32(count);
  for (let i = 0; i < count; i++) {
    const t = top[i] as number;
    hashes[i] = termKey[t] as number;
    weights[i] = (termWeight[t] as number) / norm;
  }
  return { hashes, weights };
}

/** Cosine of two unit term vectors (sorted by hash): the sum of products of shared terms. */
export function termCosine(a: TermVector, b: TermVector): number {
  let i = 0;
  let j = 0;
  let dot = 0;
  while (i < a.hashes.length && j < b.hashes.length) {
    const x = a.hashes[i] as number;
    const y = b.hashes[j] as number;
    if (x === y) {
      dot += (a.weights[i] as number) * (b.weights[j] as number);
      i++;
      j++;
    } else if (x < y) i++;
    else j++;
  }
  return Math.min(1, dot);
}

/** The `count` heaviest terms' hashes (the topic index keys); ties: lower hash first. */
export function heaviestTerms(v: TermVector, count: number): number[] {
  const picked: number[] = [];
  const n = v.hashes.length;
  const better = (i: number, j: number) =>
    (v.weights[i] as number) > (v.weights[j] as number) ||
    (v.weights[i] === v.weights[j] && (v.hashes[i] as number) < (v.hashes[j] as number));
  // Selection into a short sorted list: count is small (5), n at most the vector size (32).
  for (let i = 0; i < n; i++) {
    let at = picked.length;
    while (at > 0 && better(i, picked[at - 1] as number)) at--;
    if (at < count) {
      picked.splice(at, 0, i);
      if (picked.length > count) picked.pop();
    }
  }
  return picked.map((i) => v.hashes[i] as number);
}
