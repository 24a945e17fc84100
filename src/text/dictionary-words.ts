import { endCompaction } from './compaction.js';
import type { Language } from './language.js';
import { codesToString } from './utf16.js';
import { isWordChar, LATIN, singleLetter, WORD_SCRIPT } from './word-scripts.js';

/**
 * Disguises that only a dictionary can undo, because the same characters are ordinary text
 * elsewhere:
 * - leetspeak, digits and symbols for letters ("fr33", "l0ve", "$ave", "v@lue"): news writes
 *   digits inside words too (covid-19, mp3, h1n1, 4x4, g7);
 * - a word spelt out with single spaces ("v i a g r a"): spam also pads with random single letters.
 * Each is undone only where the result is a known word of the text's language (its lexicon) and
 * the token as written is not one: "h1n1" and "mp3" are known, "10th" and "4x4" turn into no word,
 * and random letters rarely spell a known word of four or more letters. The lexicon is data with a
 * version, so the result is as deterministic as the signatures made with it.
 */

/** Words of one language: the lexicon's (Lexicon.has). */
export interface KnownWords {
  has(word: string): boolean;
  /** has() of the word codes[start, end), without making a string (Lexicon.hasCodes). */
  hasCodes?(codes: Uint16Array, start: number, end: number): boolean;
  /** Every word's hash, as a filter (space-split-words.ts, wordHashFilter). */
  readonly wordFilter?: Uint32Array;
  /** The word's idf: lower for commoner words (Lexicon.idf; word-cost.ts reads it). */
  idf?(word: string): number;
  /** How many of the words hold each letter pair (random-words.ts, countLetterPairs). */
  readonly letterPairs?: Uint32Array;
}

/** The known words of a language, or null when it has none (no lexicon). */
export type KnownWordsOf = (lang: Language) => KnownWords | null;

/** Shortest word either rule makes: shorter results are too often a word by chance. */
export const MIN_DICTIONARY_WORD = 4;
/** Longest run a leet rule reads, Latin or Cyrillic, word by word or whole text (a longer one is not a disguised word). */
export const MAX_LEET_RUN = 24;
const SPACE = 0x20;
const ONE = 0x31;
const A = 0x61;
const Z = 0x7a;

/** Leet character -> the letter it stands for (1 is tried as l, then as i). */
const LEET = new Uint16Array(0x80);
for (const [from, to] of [
  ['0', 'o'],
  ['1', 'l'],
  ['3', 'e'],
  ['4', 'a'],
  ['5', 's'],
  ['7', 't'],
  ['@', 'a'],
  ['$', 's'],
] as const)
  LEET[from.charCodeAt(0)] = to.charCodeAt(0);

export const isLeet = (code: number): boolean => code < 0x80 && (LEET[code] as number) !== 0;
export const isDigit = (code: number): boolean => code >= 0x30 && code <= 0x39;

/**
 * Per code unit, what undoLeet's runs are made of: an ASCII letter, a leet character, another word
 * character, or 0 (ends a run). Derived from WORD_SCRIPT once, so that the pass over a text, which
 * most texts pass without a candidate, reads one table entry per code unit. A Latin letter of
 * U+00C0-024F or U+1E00-1EFF (where the accented ones are: é ü ñ ç ệ) is another word character
 * with a bit of its own, which the pass collects for accented-text.ts as it goes.
 */
export const RUN_LETTER = 1;
export const RUN_LEET = 2;
const RUN_OTHER = 4;
const RUN_LATIN_EXTENDED = 8;
export const RUN_CLASS = new Uint8Array(0x10000);
const isLatinExtended = (code: number): boolean =>
  WORD_SCRIPT[code] === LATIN && ((code >= 0xc0 && code <= 0x24f) || (code >= 0x1e00 && code <= 0x1eff));
for (let code = 0; code < 0x10000; code++)
  RUN_CLASS[code] =
    code >= A && code <= Z
      ? RUN_LETTER
      : isLeet(code)
        ? RUN_LEET
        : isLatinExtended(code)
          ? RUN_OTHER | RUN_LATIN_EXTENDED
          : isWordChar(code)
            ? RUN_OTHER
            : 0;

/** What undoLeet saw of a text besides the words it rewrote. */
export interface LatinRuns {
  /** Runs of ASCII letters and leet characters, of any length (leet-text.ts). */
  mixed: number;
  /** Whether the text holds a Latin letter of U+00C0-024F or U+1E00-1EFF (accented-text.ts). */
  latinExtended: boolean;
}

/** A run of code units of one class table: codes[start, end), the OR of their classes in `mask`. */
export interface ClassRun {
  start: number;
  end: number;
  mask: number;
}

/**
 * The next run at or after codes[from] (before `length`) of code units whose class in `table` is
 * not 0, into `run`; false when there is none: the leet-text passes' walk over the runs of letters
 * and leet characters of a text.
 */
export function nextClassRun(
  codes: Uint16Array,
  from: number,
  length: number,
  table: Uint8Array,
  run: ClassRun,
): boolean {
  let i = from;
  while (i < length && table[codes[i] as number] === 0) i++;
  if (i >= length) return false;
  run.start = i;
  let mask = 0;
  for (; i < length; i++) {
    const cls = table[codes[i] as number] as number;
    if (cls === 0) break;
    mask |= cls;
  }
  run.end = i;
  run.mask = mask;
  return true;
}

/** Whether codes[start, end) holds a leet character. */
function hasLeetBefore(codes: Uint16Array, start: number, end: number): boolean {
  for (let j = start; j < end; j++) if (isLeet(codes[j] as number)) return true;
  return false;
}

/** codes[start, end) as a string, with leet characters read as letters (1 as `one`). */
export function readLeet(codes: Uint16Array, start: number, end: number, one: number): string {
  let word = '';
  for (let i = start; i < end; i++) {
    const code = codes[i] as number;
    word += String.fromCharCode(code === ONE ? one : isLeet(code) ? (LEET[code] as number) : code);
  }
  return word;
}

/**
 * Reads leet words of codes[0, length) (clean text: lower case) as the known word they spell, in
 * place (one character for one). A candidate is a run of ASCII letters and leet characters with
 * at least one of each, MIN_DICTIONARY_WORD to MAX_LEET_RUN long, that does not start with two digits
 * ("10am", "15th": numbers with a unit or ordinal, whatever they spell) and whose only leet
 * character is not one digit at its end ("flu3": a footnote or list number). It is rewritten
 * when it is not itself a known word and its reading is. Returns the number of words rewritten;
 * `seen` (when given) gets the runs of letters and leet characters of any length (leet-text.ts
 * reads a text with many of them throughout) and whether a Latin letter of the accented blocks
 * was seen (accented-text.ts): this pass reads every code unit of the text anyway.
 */
export function undoLeet(codes: Uint16Array, length: number, known: KnownWords, seen?: LatinRuns): number {
  let rewritten = 0;
  let classes = 0;
  let i = 0;
  while (i < length) {
    // Most texts have no leet character but in numbers: look for one, then at the run around it.
    const cls = RUN_CLASS[codes[i] as number] as number;
    if (cls !== RUN_LEET) {
      classes |= cls;
      i++;
      continue;
    }
    let start = i;
    while (start > 0 && RUN_CLASS[codes[start - 1] as number] !== 0) start--;
    let mask = 0;
    i = start;
    while (i < length) {
      const cls = RUN_CLASS[codes[i] as number] as number;
      if (cls === 0) break;
      mask |= cls;
      i++;
    }
    classes |= mask;
    // Letters and leet characters only, at least one of each.
    if (mask !== (RUN_LETTER | RUN_LEET)) continue;
    if (seen) seen.mixed++;
    const size = i - start;
    if (size < MIN_DICTIONARY_WORD || size > MAX_LEET_RUN) continue;
    if (isDigit(codes[start] as number) && isDigit(codes[start + 1] as number)) continue;
    // One digit after a word is a footnote or list number ("flu3", "party5"), not a letter.
    if (isDigit(codes[i - 1] as number) && !hasLeetBefore(codes, start, i - 1)) continue;
    const asWritten = codesToString(codes.subarray(start, i));
    if (known.has(asWritten)) continue;
    let reading = readLeet(codes, start, i, 0x6c);
    if (!known.has(reading)) {
      if (!asWritten.includes('1')) continue;
      reading = readLeet(codes, start, i, 0x69);
      if (!known.has(reading)) continue;
    }
    for (let j = 0; j < reading.length; j++) codes[start + j] = reading.charCodeAt(j);
    rewritten++;
  }
  if (seen && classes & RUN_LATIN_EXTENDED) seen.latinExtended = true;
  return rewritten;
}

/**
 * Letters dropped at most from the start of a run (one from its end): a one-letter word beside a
 * spelt-out word ("a f r e e gift", "i l o v e") is part of the run.
 */
const TRIMS = 2;
/** (letters dropped at the start, letters dropped at the end) in the order they are tried. */
const TRIM_ORDER: ReadonlyArray<readonly [number, number]> = [
  [0, 0],
  [1, 0],
  [0, 1],
  [1, 1],
  [2, 0],
];

/**
 * The first sub-run of the run of `letters` single letters at codes[at], codes[at + 2], ... (by
 * TRIM_ORDER) whose letters spell a known word of MIN_DICTIONARY_WORD to MAX_LEET_RUN letters, as
 * (first letter << 8) | letters; -1 when none does.
 */
function knownSubRun(codes: Uint16Array, at: number, letters: number, known: KnownWords): number {
  for (const [head, tail] of TRIM_ORDER) {
    const size = letters - head - tail;
    if (size < MIN_DICTIONARY_WORD || size > MAX_LEET_RUN) continue;
    let word = '';
    for (let k = head; k < head + size; k++) word += String.fromCharCode(codes[at + 2 * k] as number);
    if (known.has(word)) return (head << 8) | size;
  }
  return -1;
}

/**
 * Joins, in place, runs of MIN_DICTIONARY_WORD to MAX_LEET_RUN single letters of one script separated
 * by one space each ("v i a g r a") whose letters spell a known word, or do without up to two
 * letters at its start or one at its end (TRIM_ORDER: "a f r e e" is "a free"); returns the new length.
 */
export function joinSpacedLetters(codes: Uint16Array, length: number, known: KnownWords): number {
  let w = 0; // write position once something was removed
  let copied = 0; // codes[copied, i) not yet moved to w
  let i = 0;
  while (i < length) {
    if (!singleLetter(codes, i, length)) {
      i++;
      continue;
    }
    const script = WORD_SCRIPT[codes[i] as number];
    let last = i;
    while (
      codes[last + 1] === SPACE &&
      last + 2 < length &&
      singleLetter(codes, last + 2, length) &&
      WORD_SCRIPT[codes[last + 2] as number] === script
    )
      last += 2;
    const letters = (last - i) / 2 + 1;
    if (letters >= MIN_DICTIONARY_WORD && letters <= MAX_LEET_RUN + TRIMS) {
      const found = knownSubRun(codes, i, letters, known);
      if (found >= 0) {
        const from = i + 2 * (found >> 8);
        const to = from + 2 * ((found & 0xff) - 1);
        if (w !== copied) codes.copyWithin(w, copied, from);
        w += from - copied;
        for (let p = from; p <= to; p += 2) codes[w++] = codes[p] as number;
        copied = to + 1;
      }
    }
    i = last + 1;
  }
  return endCompaction(codes, w, copied, length);
}
