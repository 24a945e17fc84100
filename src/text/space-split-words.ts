import { endCompaction } from './compaction.js';
import { type KnownWords, MIN_DICTIONARY_WORD } from './dictionary-words.js';
import { joinsAt, type SplitRule } from './line-break-words.js';
import { ARABIC, NEUTRAL, WORD_SCRIPT } from './word-scripts.js';

/**
 * A plain space inside a word ("pre sident", "гов ернмент", "be tter"): two tokens one space apart
 * are read as one word when the pieces joined make a known word of the language and at least one
 * piece is no known word (line-break-words.ts's reading with `pieceUnknown`: the joined word costs
 * 2.5 less than its pieces, which are not both common words; a piece is no known word when neither
 * the lexicon nor the stop words hold it, or when it has two letters and is no stop word, as the
 * lexicons' two-letter entries are mostly fragments: "th ere", "pr esident"). Two known words stay
 * two, whatever they make joined ("in to", "any one", "in formation", "per cent", "в месте").
 * A split word leaves a fragment, while ordinary text rarely has one that makes a word with its
 * neighbour.
 *
 * What it costs ordinary text: one pass over the tokens, hashing each (FNV-1a of its code units)
 * and the pair it makes with the token before; a pair is read as words (line-break-words.ts) only
 * when its joined hash passes a filter of the lexicon's words and the stop words (wordHashFilter:
 * about 0.15% of other pairs pass). At most MAX_READ_LETTERS letters of such pairs are read per text;
 * past that, pairs stay apart.
 */

const SPACE = 0x20;
const APOSTROPHE = 0x27;
/** Letters of the pairs read at most per text (each pair costs about as many as the line-break reading). */
const MAX_READ_LETTERS = 32_768;
/**
 * Shortest piece: a single letter beside a word is mostly an apostrophe the text lost ("don t",
 * "number s" in mail stripped of punctuation: 9 joins per 1,000 tokens of the English mail set
 * with one-letter pieces, 0.03 or fewer without) or an initial.
 */
const MIN_PIECE = 2;
/** Longest piece read (line-break-words.ts reads up to 32): a longer run is no fragment of a word. */
const MAX_PIECE = 24;

const SPACE_RULE: SplitRule = {
  separator: SPACE,
  otherwise: SPACE,
  pieceUnknown: true,
  budget: MAX_READ_LETTERS,
};

/** FNV-1a, 32 bits, of a string's UTF-16 units (as the lexicon's word table hashes words). */
function hashOf(word: string): number {
  let h = FNV_OFFSET;
  for (let j = 0; j < word.length; j++) h = Math.imul(h ^ word.charCodeAt(j), FNV_PRIME);
  return h;
}

const FNV_OFFSET = 0x811c9dc5;
const FNV_PRIME = 0x01000193;
/**
 * 2^21 bits (256 KiB) a language, two bits a word (the hash's top bits, and those of the hash
 * times a golden-ratio constant): 3.8% of the bits are set for 40,000 words and the stop words,
 * and about 0.15% of other strings pass (one bit a word let 1.9% pass).
 */
const FILTER_SHIFT = 32 - 21;
const SECOND = 0x9e3779b1;

/**
 * A filter of words by their hash: two bits a word. A string whose bits are not both set is none of
 * the words; one whose bits are may be. The plain-space pass asks it about every pair of tokens,
 * and reads a pair as words only when its joined form passes. The words are
 * chars[starts[k], starts[k + 1]) (a lexicon's word table), or `extra`.
 */
export function wordHashFilter(
  chars: Uint16Array,
  starts: ArrayLike<number>,
  extra: Iterable<string> = [],
): Uint32Array {
  const filter = new Uint32Array(1 << (32 - FILTER_SHIFT - 5));
  for (let k = 0; k + 1 < starts.length; k++) {
    let h = FNV_OFFSET;
    for (let j = starts[k] as number; j < (starts[k + 1] as number); j++)
      h = Math.imul(h ^ (chars[j] as number), FNV_PRIME);
    addTo(filter, h);
  }
  for (const word of extra) addTo(filter, hashOf(word));
  return filter;
}

function addTo(filter: Uint32Array, hash: number): void {
  setBit(filter, hash >>> FILTER_SHIFT);
  setBit(filter, Math.imul(hash, SECOND) >>> FILTER_SHIFT);
}

function setBit(filter: Uint32Array, bit: number): void {
  filter[bit >>> 5] = (filter[bit >>> 5] as number) | (1 << (bit & 31));
}

const hasBit = (filter: Uint32Array, bit: number): boolean =>
  ((filter[bit >>> 5] as number) & (1 << (bit & 31))) !== 0;

const mayBe = (filter: Uint32Array, hash: number): boolean =>
  hasBit(filter, hash >>> FILTER_SHIFT) && hasBit(filter, Math.imul(hash, SECOND) >>> FILTER_SHIFT);

/** Stop words by their hash (FNV-1a), to tell a token that is one without making a string. */
const stopHashes = new WeakMap<ReadonlySet<string>, Map<number, string[]>>();
function stopsByHash(stops: ReadonlySet<string>): Map<number, string[]> {
  let byHash = stopHashes.get(stops);
  if (byHash === undefined) {
    byHash = new Map();
    for (const stop of stops) {
      const hash = hashOf(stop);
      byHash.set(hash, [...(byHash.get(hash) ?? []), stop]);
    }
    stopHashes.set(stops, byHash);
  }
  return byHash;
}

function isStop(
  byHash: Map<number, string[]>,
  hash: number,
  codes: Uint16Array,
  start: number,
  end: number,
): boolean {
  const words = byHash.get(hash);
  if (words === undefined) return false;
  for (const word of words) {
    if (word.length !== end - start) continue;
    let j = 0;
    while (j < word.length && word.charCodeAt(j) === codes[start + j]) j++;
    if (j === word.length) return true;
  }
  return false;
}

/** The lexicon's filter with the stop words added, made once per lexicon and stop-word list. */
const withStops = new WeakMap<Uint32Array, WeakMap<ReadonlySet<string>, Uint32Array>>();
function filterOf(known: KnownWords, stops: ReadonlySet<string>): Uint32Array | undefined {
  const words = known.wordFilter;
  if (words === undefined) return undefined;
  let byStops = withStops.get(words);
  if (byStops === undefined) {
    byStops = new WeakMap();
    withStops.set(words, byStops);
  }
  let filter = byStops.get(stops);
  if (filter === undefined) {
    filter = words.slice();
    for (const stop of stops) addTo(filter, hashOf(stop));
    byStops.set(stops, filter);
  }
  return filter;
}

/**
 * Joins, in place, the two tokens around each single space of codes[0, length) (clean text, lower
 * case) that splits a known word; returns the new length. Tokens are runs of letters of one
 * script (no digit, mark or apostrophe); a joined word is not joined again.
 */
export function joinSpaceSplitWords(
  codes: Uint16Array,
  length: number,
  known: KnownWords,
  stops: ReadonlySet<string>,
): number {
  // Without a filter (a lexicon of a test's own), every pair is read.
  const filter = filterOf(known, stops);
  const stopWordHashes = stopsByHash(stops);
  let budget = MAX_READ_LETTERS;
  let w = 0;
  let copied = 0;
  // The token before the current one, when it may be the first piece: its start, end, script and hash.
  let prevStart = -1;
  let prevEnd = -1;
  let prevScript = 0;
  let prevHash = 0;
  let i = 0;
  while (i < length) {
    const script = WORD_SCRIPT[codes[i] as number] as number;
    if (script === 0) {
      i++;
      continue;
    }
    const start = i;
    let one = script !== NEUTRAL;
    // The token's hash, and that of the token before followed by this one (the pair joined).
    let hash = FNV_OFFSET;
    let joined = prevHash;
    for (; i < length; i++) {
      const code = codes[i] as number;
      const class_ = WORD_SCRIPT[code] as number;
      if (class_ === 0) break;
      if (class_ !== script) one = false;
      hash = Math.imul(hash ^ code, FNV_PRIME);
      joined = Math.imul(joined ^ code, FNV_PRIME);
    }
    const end = i;
    // Letters of one script, after another such token and exactly one space.
    const piece = one && end - start >= MIN_PIECE && end - start <= MAX_PIECE && codes[end] !== APOSTROPHE;
    // A pair whose joined form passes the filter is read (and costs its letters of the budget).
    const candidate =
      piece &&
      prevEnd >= 0 &&
      prevEnd + 1 === start &&
      codes[prevEnd] === SPACE &&
      prevScript === script &&
      prevEnd - prevStart + end - start >= MIN_DICTIONARY_WORD &&
      (filter === undefined || mayBe(filter, joined));
    if (candidate) budget -= end - prevStart - 1;
    if (
      candidate &&
      budget >= 0 &&
      mayHaveFragment(codes, prevStart, prevEnd, prevHash, start, end, hash, script, known, stopWordHashes) &&
      joinsAt(codes, prevEnd, length, known, stops, SPACE_RULE)
    ) {
      if (w !== copied) codes.copyWithin(w, copied, prevEnd);
      w += prevEnd - copied;
      copied = prevEnd + 1;
      prevEnd = -1;
      continue;
    }
    if (piece && !(start > 0 && codes[start - 1] === APOSTROPHE)) {
      prevStart = start;
      prevEnd = end;
      prevScript = script;
      prevHash = hash;
    } else prevEnd = -1;
  }
  return endCompaction(codes, w, copied, length);
}

/**
 * Whether a piece of the pair may be no known word (line-break-words.ts's isFragment, read by code
 * units: a stop word never is; two letters that are no stop word are, but after a stop word and in
 * Arabic script; a word the lexicon lacks is). Most pairs whose joined form is a word are two words
 * ("of the", "در این": the lexicons hold such pairs written together): told here without a string.
 */
function mayHaveFragment(
  codes: Uint16Array,
  leftStart: number,
  leftEnd: number,
  leftHash: number,
  rightStart: number,
  rightEnd: number,
  rightHash: number,
  script: number,
  known: KnownWords,
  stops: Map<number, string[]>,
): boolean {
  if (!known.hasCodes) return true;
  const leftStop = isStop(stops, leftHash, codes, leftStart, leftEnd);
  const twoLetters = script !== ARABIC;
  if (!leftStop && ((twoLetters && leftEnd - leftStart === 2) || !known.hasCodes(codes, leftStart, leftEnd)))
    return true;
  if (isStop(stops, rightHash, codes, rightStart, rightEnd)) return false;
  if (twoLetters && rightEnd - rightStart === 2 && !leftStop) return true;
  return !known.hasCodes(codes, rightStart, rightEnd);
}
