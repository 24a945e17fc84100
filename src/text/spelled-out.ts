import { endCompaction } from './compaction.js';
import { isScriptLetter, isWordChar, singleLetter, WORD_SCRIPT } from './word-scripts.js';

/**
 * Words spelt out letter by letter with punctuation: "f.r.e.e", "c-a-s-h", "v_i_a_g_r_a",
 * "w . i . n". Spam writes a word so to keep it out of fingerprints and filters, while a reader
 * still reads the word. A run of MIN_LETTERS to MAX_LETTERS single letters of one script, each
 * between two non-word characters, with the same separator (one to three characters, not only
 * blanks, no line break, no apostrophe) between every two of them, becomes the word. Ordinary text
 * has no such runs: initials and abbreviations are at most three letters ("J. R. R.", "U.S.A.",
 * "т. е.").
 * Letters separated by blanks only ("v i a g r a") are left: spam also pads with random single
 * letters, and a copy that inserts words among them would join runs its original does not (the
 * same holds for command flags "diff -b -w -u -d" in mail bodies stripped of punctuation).
 */

export const MIN_LETTERS = 4;
/**
 * A longer run is not a word spelt out but letters strewn as filler (spam pads with runs of
 * random single letters): joined, it would leave a few long tokens where a copy shares many, and
 * random words appended to a copy would then outweigh it. Such a run is left as it is.
 */
export const MAX_LETTERS = 16;
/** More one-character words than this in runs of MIN_LETTERS or more: filler (isLetterSalad). */
export const MAX_SPELLED = 40;
const MAX_SEPARATOR = 3;
const NEWLINE = 0x0a;
const APOSTROPHE = 0x27;

/** Whether codes[a, a + n) equals codes[b, b + n). */
export function same(codes: Uint16Array, a: number, b: number, n: number): boolean {
  for (let k = 0; k < n; k++) if (codes[a + k] !== codes[b + k]) return false;
  return true;
}

/**
 * Writes at w what lies between the last kept position `copied` and the run's first letter i,
 * then the run's letters i, i + 1 + sep, ..., last without the separators between them; returns
 * the new write position (the caller's next `copied` is last + 1).
 */
export function keepRunLetters(
  codes: Uint16Array,
  w: number,
  copied: number,
  i: number,
  last: number,
  sep: number,
): number {
  if (w !== copied) codes.copyWithin(w, copied, i);
  let out = w + i - copied;
  for (let p = i; p <= last; p += 1 + sep) codes[out++] = codes[p] as number;
  return out;
}

/**
 * Whether the text is filler of strewn letters rather than a text with words spelt out: it holds
 * a run of more than MAX_LETTERS one-character words (each within MAX_SEPARATOR characters of the
 * last), or more than MAX_SPELLED one-character words in runs of MIN_LETTERS or more. Then no run
 * of it is joined: a copy that inserts words into the filler cuts it into runs short enough to
 * join, and would join where its original does not.
 */
function isLetterSalad(codes: Uint16Array, length: number): boolean {
  let last = 0;
  let before = 0;
  let single = -MAX_SEPARATOR - 2;
  let chain = 0;
  let inRuns = 0;
  for (let i = 0; i <= length; i++) {
    const script = i < length ? (WORD_SCRIPT[codes[i] as number] as number) : 0;
    if (script === 0 && last !== 0 && before === 0) {
      if (i - 1 - single <= MAX_SEPARATOR + 1) chain++;
      else {
        if (chain >= MIN_LETTERS) inRuns += chain;
        chain = 1;
      }
      if (chain > MAX_LETTERS) return true;
      single = i - 1;
    }
    before = last;
    last = script;
  }
  if (chain >= MIN_LETTERS) inRuns += chain;
  return inRuns > MAX_SPELLED;
}

const SPACE = 0x20;
const TAB = 0x09;

/** Whether codes[from, from + n) holds only spaces and tabs (or nothing). */
function blank(codes: Uint16Array, from: number, n: number): boolean {
  for (let k = 0; k < n; k++) {
    const c = codes[from + k] as number;
    if (c !== SPACE && c !== TAB) return false;
  }
  return true;
}

/** Length of the separator after the letter at i: up to MAX_SEPARATOR non-word characters. */
function separatorAfter(codes: Uint16Array, i: number, length: number): number {
  let sep = 0;
  while (sep < MAX_SEPARATOR && i + 1 + sep < length) {
    const c = codes[i + 1 + sep] as number;
    if (isWordChar(c) || c === NEWLINE || c === APOSTROPHE) break;
    sep++;
  }
  return sep;
}

/**
 * Whether the letter at q starts the next word spelt out ("c o u l d h_e_l_p"), not this one: it
 * is followed by another separator than codes[from, from + sep), and two more letters follow
 * with that other separator.
 */
function startsOtherRun(codes: Uint16Array, q: number, length: number, from: number, sep: number): boolean {
  const next = separatorAfter(codes, q, length);
  if (next === 0 || (next === sep && same(codes, from, q + 1, sep))) return false;
  const second = q + 1 + next;
  const third = second + 1 + next;
  return (
    singleLetter(codes, second, length) &&
    singleLetter(codes, third, length) &&
    same(codes, q + 1, second + 1, next)
  );
}

/**
 * Joins, in place, the spelt-out words of codes[0, length) (clean text); returns the new length.
 * One pass: only a letter standing alone is looked at further.
 */
export function joinSpelledOut(codes: Uint16Array, length: number): number {
  if (isLetterSalad(codes, length)) return length;
  let w = 0; // write position once something was removed
  let copied = 0; // codes[copied, i) not yet moved to w
  let i = 0;
  while (i < length) {
    // One table read per code unit: skip non-word characters, and words of two or more characters whole.
    if ((WORD_SCRIPT[codes[i] as number] as number) === 0) {
      i++;
      continue;
    }
    if (i + 1 < length && (WORD_SCRIPT[codes[i + 1] as number] as number) !== 0) {
      i += 2;
      while (i < length && (WORD_SCRIPT[codes[i] as number] as number) !== 0) i++;
      continue;
    }
    if (!isScriptLetter(codes[i] as number)) {
      i++;
      continue;
    }
    const sep = separatorAfter(codes, i, length);
    if (blank(codes, i + 1, sep)) {
      i++;
      continue;
    }
    let letters = 1;
    let last = i;
    const script = WORD_SCRIPT[codes[i] as number];
    if (sep > 0) {
      while (
        singleLetter(codes, last + 1 + sep, length) &&
        WORD_SCRIPT[codes[last + 1 + sep] as number] === script &&
        same(codes, i + 1, last + 1, sep) &&
        !startsOtherRun(codes, last + 1 + sep, length, i + 1, sep)
      ) {
        last += 1 + sep;
        letters++;
      }
    }
    if (letters > MAX_LETTERS) {
      i = last + 1;
      continue;
    }
    if (letters < MIN_LETTERS) {
      // The next letter may start a run with another separator ("a t.h.a.t"); at most
      // MIN_LETTERS - 1 letters were read, so each code unit is read a bounded number of times.
      i++;
      continue;
    }
    // Keep the letters i, i + 1 + sep, ..., last; drop the separators between them.
    w = keepRunLetters(codes, w, copied, i, last, sep);
    copied = last + 1;
    i = last + 1;
  }
  return endCompaction(codes, w, copied, length);
}
