import { endCompaction } from './compaction.js';
import type { KnownWords } from './dictionary-words.js';
import { keepRunLetters, MAX_LETTERS, MIN_LETTERS, same } from './spelled-out.js';
import { isWordChar, singleLetter, WORD_SCRIPT } from './word-scripts.js';

/**
 * Words spelt out with punctuation that joinSpelledOut (spelled-out.ts) leaves, read by the
 * lexicon: "t.h.e", "o.n" (shorter than its four letters), and every run of a text it takes
 * for strewn filler (a sentence spelt out, "f.r.e.e c.a.s.h n.o.w", makes one long chain of
 * one-letter words; a long text with many such words passes its 40-letter bound). A reader reads
 * each run as the word it spells. A run of 2 to MAX_LETTERS single letters of one script with the
 * same separator between every two (one to three characters, not only blanks, no line break or
 * apostrophe) becomes one word when its letters spell a known word of the language (its lexicon or stop
 * words); random
 * filler letters rarely do. Short runs are read only in a text that spells words out (a run of
 * MIN_LETTERS or more was joined, or is there): elsewhere "U.S." and "e.g." are abbreviations and
 * stay as they are.
 */

const MAX_SEPARATOR = 3;
const NEWLINE = 0x0a;
const APOSTROPHE = 0x27;
const SPACE = 0x20;
const TAB = 0x09;
/** Shortest run read in a text that spells words out. */
const MIN_RUN = 2;

/** Length of the separator after the letter at i: up to MAX_SEPARATOR non-word characters, not only blanks. */
function separatorAfter(codes: Uint16Array, i: number, length: number): number {
  let sep = 0;
  let blanks = 0;
  while (sep < MAX_SEPARATOR && i + 1 + sep < length) {
    const c = codes[i + 1 + sep] as number;
    if (isWordChar(c) || c === NEWLINE || c === APOSTROPHE) break;
    if (c === SPACE || c === TAB) blanks++;
    sep++;
  }
  return blanks === sep ? 0 : sep;
}

/** The last letter of the run starting at the single letter at i with separator codes[i + 1, i + 1 + sep). */
function runEnd(codes: Uint16Array, i: number, length: number, sep: number): number {
  const script = WORD_SCRIPT[codes[i] as number];
  let last = i;
  while (
    singleLetter(codes, last + 1 + sep, length) &&
    WORD_SCRIPT[codes[last + 1 + sep] as number] === script &&
    same(codes, i + 1, last + 1, sep)
  )
    last += 1 + sep;
  return last;
}

/**
 * Joins, in place, the runs of codes[0, length) (clean text, lower case) that spell a known word;
 * returns the new length. `stops`: the language's stop words (the lexicon leaves them out). `spellsOut`: a run of MIN_LETTERS or more was joined before (then runs
 * from two letters are read at once); otherwise the text is searched for one first.
 */
export function joinSpelledKnownWords(
  codes: Uint16Array,
  length: number,
  known: KnownWords,
  stops: ReadonlySet<string>,
  spellsOut: boolean,
): number {
  const minRun = spellsOut || hasLongRun(codes, length) ? MIN_RUN : MIN_LETTERS;
  let w = 0;
  let copied = 0;
  let i = 0;
  while (i < length) {
    if (!singleLetter(codes, i, length)) {
      i++;
      continue;
    }
    const sep = separatorAfter(codes, i, length);
    if (sep === 0) {
      i++;
      continue;
    }
    const last = runEnd(codes, i, length, sep);
    const letters = (last - i) / (1 + sep) + 1;
    if (letters >= minRun && letters <= MAX_LETTERS) {
      let word = '';
      for (let p = i; p <= last; p += 1 + sep) word += String.fromCharCode(codes[p] as number);
      if (letters >= MIN_LETTERS || known.has(word) || stops.has(word)) {
        w = keepRunLetters(codes, w, copied, i, last, sep);
        copied = last + 1;
      }
    }
    i = last + 1;
  }
  return endCompaction(codes, w, copied, length);
}

/** Whether codes[0, length) holds a run of MIN_LETTERS or more single letters with one non-blank separator. */
function hasLongRun(codes: Uint16Array, length: number): boolean {
  for (let i = 0; i < length; i++) {
    if (!singleLetter(codes, i, length)) continue;
    const sep = separatorAfter(codes, i, length);
    if (sep === 0) continue;
    const last = runEnd(codes, i, length, sep);
    if ((last - i) / (1 + sep) + 1 >= MIN_LETTERS) return true;
    i = last;
  }
  return false;
}
