import { endCompaction } from './compaction.js';
import type { KnownWords } from './dictionary-words.js';
import { codesToString } from './utf16.js';
import { UNKNOWN_COST, wordCost } from './word-cost.js';
import { ARABIC, isWordChar, WORD_SCRIPT } from './word-scripts.js';

/**
 * A line break inside a word without a hyphen ("exam\nple", or `exam<br>ple` in HTML, which the
 * HTML decoder makes a line break): a reader joins the two pieces when they make a word. A line
 * break directly between two letters of one script is removed when the pieces joined are a known
 * word of the language (its lexicon or stop words) that costs less than the two pieces by MARGIN
 * or more (word-cost.ts: the sum of their idf), and the pieces are not both common words: "n\next" is
 * `next`, "wor\nking" is `working`. A real line end between two words ("end\nstart") leaves a
 * joined form the lexicon does not know, or two common words ("в\nместе", "some\nthing"), and stays.
 * The same reading serves other separators that split words (word-gaps.ts: narrow and no-break
 * spaces), through joinSplitWords.
 */

const NEWLINE = 0x0a;
/** Highest cost (idf) of a very common word ("some", "thing", "месте"): two such pieces are two words. */
const COMMON_COST = 3;
/**
 * How much cheaper the joined word must be than its pieces: a split word leaves a fragment (idf 7
 * or more, or unknown), while two rarer words at a real line end ("فر\nامین" in a list of names,
 * 4.7 + 4.3 against 7.0 for the word they make) come closer.
 */
const MARGIN = 2.5;
/** Longest piece read: a longer run is no word the lexicon holds. */
const MAX_PIECE = 32;

/** Which separator joinSplitWords reads, and what it leaves where the pieces make no word. */
export interface SplitRule {
  /** The separator's code unit. */
  separator: number;
  /** What a separator that stays becomes (itself, or a space). */
  otherwise: number;
  /** Joined only when a piece is no known word, isFragment (separators that are ordinary between words). */
  pieceUnknown: boolean;
  /** Letters read at most (the pieces around each separator); past it, separators stay. */
  budget: number;
}

const LINE_BREAK: SplitRule = {
  separator: NEWLINE,
  otherwise: NEWLINE,
  pieceUnknown: false,
  budget: Number.POSITIVE_INFINITY,
};

/**
 * Removes, in place, the line breaks of codes[0, length) (clean text, lower case) that split a
 * known word; returns the new length.
 */
export function joinLineBrokenWords(
  codes: Uint16Array,
  length: number,
  known: KnownWords,
  stops: ReadonlySet<string>,
): number {
  return joinSplitWords(codes, length, known, stops, LINE_BREAK);
}

/**
 * Removes, in place, each `rule.separator` of codes[0, length) that splits a known word (the
 * reading above), and writes `rule.otherwise` for the others; returns the new length.
 */
export function joinSplitWords(
  codes: Uint16Array,
  length: number,
  known: KnownWords,
  stops: ReadonlySet<string>,
  rule: SplitRule,
): number {
  const { separator, otherwise } = rule;
  const bounded = rule.budget !== Number.POSITIVE_INFINITY;
  let budget = rule.budget;
  let w = 0;
  let copied = 0;
  for (let i = 0; i < length; i++) {
    if (codes[i] !== separator) continue;
    // Each separator read costs its pieces' letters; past the budget, separators stay.
    if (bounded) budget -= readLength(codes, i, length);
    if (budget < 0 || !joinsAt(codes, i, length, known, stops, rule)) {
      codes[i] = otherwise;
      continue;
    }
    if (w !== copied) codes.copyWithin(w, copied, i);
    w += i - copied;
    copied = i + 1;
  }
  return endCompaction(codes, w, copied, length);
}

/** Letters of the two pieces around the separator at i (what reading them costs). */
function readLength(codes: Uint16Array, i: number, length: number): number {
  return pieceEnd(codes, i, length) - pieceStart(codes, i) - 1;
}

function pieceStart(codes: Uint16Array, i: number): number {
  let start = i - 1;
  while (start > 0 && isWordChar(codes[start - 1] as number) && i - start < MAX_PIECE) start--;
  return start;
}

function pieceEnd(codes: Uint16Array, i: number, length: number): number {
  let end = i + 2;
  while (end < length && isWordChar(codes[end] as number) && end - i < MAX_PIECE) end++;
  return end;
}

/** Whether the separator at codes[i] splits a known word by `rule`. */
export function joinsAt(
  codes: Uint16Array,
  i: number,
  length: number,
  known: KnownWords,
  stops: ReadonlySet<string>,
  rule: SplitRule,
): boolean {
  if (i === 0 || i + 1 >= length) return false;
  const script = WORD_SCRIPT[codes[i - 1] as number] as number;
  if (script === 0 || script !== WORD_SCRIPT[codes[i + 1] as number]) return false;
  const start = pieceStart(codes, i);
  const end = pieceEnd(codes, i, length);
  const left = codesToString(codes.subarray(start, i));
  const right = codesToString(codes.subarray(i + 1, end));
  const whole = left + right;
  // The pieces are read first where they decide most pairs (two words one space apart).
  if (!rule.pieceUnknown && !known.has(whole) && !stops.has(whole)) return false;
  const a = wordCost(left, known, stops);
  const b = wordCost(right, known, stops);
  // Both pieces words ("в\u00a0месте", "in to"): two words bound by an ordinary space.
  // Two letters after a stop word ("we re", "we ll") are a contraction that lost its apostrophe.
  if (rule.pieceUnknown) {
    const rightFragment =
      right.length === 2 && stops.has(left) ? b >= UNKNOWN_COST : isFragment(right, b, stops);
    if (!isFragment(left, a, stops) && !rightFragment) return false;
    if (!known.has(whole) && !stops.has(whole)) return false;
  }
  return piecesMakeOneWord(a, b, wordCost(whole, known, stops));
}

/**
 * Whether two pieces of word costs a and b read as the one word of cost `whole` they make: not two
 * common words ("в\nместе", "some\nthing": a line end between words), and the word cheaper than
 * the pieces by MARGIN (a split leaves a fragment, rare or unknown). Shared by the readers of
 * other separators inside a word (punctuation-in-words.ts).
 */
export function piecesMakeOneWord(a: number, b: number, whole: number): boolean {
  return !(a <= COMMON_COST && b <= COMMON_COST) && whole + MARGIN <= a + b;
}

/**
 * Whether a piece is no known word: unknown to the lexicon and the stop words, or two letters that
 * are no stop word. The lexicons' two-letter entries are mostly fragments and abbreviations that
 * frequency lists count ("th", "ck", "ll", "pr" in English), which a word split after its second
 * letter leaves; a real two-letter word is mostly a stop word ("in", "на"). Not in Arabic script:
 * Persian writes no short vowels, and its two-letter words are ordinary words ("حد", "پا", "دو"), as
 * the lexicon holds them (counting them as fragments joined "حد فاصل", "پا برجا" in the news set).
 */
export const isFragment = (piece: string, cost: number, stops: ReadonlySet<string>): boolean =>
  cost >= UNKNOWN_COST ||
  (piece.length === 2 && !stops.has(piece) && WORD_SCRIPT[piece.charCodeAt(0)] !== ARABIC);
