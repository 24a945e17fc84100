import { endCompaction } from './compaction.js';
import type { KnownWords } from './dictionary-words.js';
import { UNKNOWN_COST, wordCost } from './word-cost.js';
import { singleLetter, WORD_SCRIPT } from './word-scripts.js';

/**
 * Letters spaced out with single spaces where the words are one space apart too ("f r e e m o n
 * e y n o w"): the space between two words looks like the space between two letters, so
 * joinSpacedLetters (dictionary-words.ts), which joins a run that spells one word, leaves such a
 * run. A reader finds the words by what the language holds; so does this pass. A run of
 * MIN_RUN or more single letters of one script, one space apart, is cut into the reading of
 * least cost (dynamic programming over the run: each word costs its idf, word-cost.ts, plus
 * WORD_COST, so common words beat rare fragments and fewer words beat more; a letter the reading
 * cannot place in a known word stays a one-letter word). The reading replaces the run only when
 * stop words of two or more letters and known words of three or more hold at least MIN_COVERED of its letters: strewn random
 * letters rarely make such words, and are left as they are. Ordinary text has no run of six
 * one-letter words one space apart (Russian "и в с к о у я", English "a", "I" come one or two in a
 * row). Words are read up to MAX_WORD letters, so the pass is linear in the run's length (a run
 * of more than MAX_RUN letters is read in pieces of MAX_RUN, so that the scratch arrays stay small),
 * and at most MAX_READ_LETTERS letters of a text are read.
 */

export const MIN_RUN = 6;
/** A longer run (a text spaced out with no punctuation) is read in pieces of this many letters. */
const MAX_RUN = 2000;
/**
 * Letters read per text at most: the reading tries MAX_WORD words at every letter (~1.7 µs a
 * letter), so a megabyte of spaced-out letters would take seconds; a whole article spaced out
 * is a few thousand. Letters past the budget stay as written.
 */
const MAX_READ_LETTERS = 32_768;
const MAX_WORD = 24;
/** Added per word: of two readings of equal idf, the one of fewer, longer words wins. */
const WORD_COST = 3;
const MIN_COVERED = 0.8;
const SPACE = 0x20;

let best = new Float64Array(256);
let cut = new Int32Array(256);

/**
 * The least-cost reading of `letters`: cut[j] is where the word ending at j starts. Returns the
 * number of letters in stop words of two or more letters and known words of three or more.
 */
function segment(letters: string, known: KnownWords, stops: ReadonlySet<string>): number {
  const m = letters.length;
  if (best.length <= m) {
    best = new Float64Array(2 * m + 2);
    cut = new Int32Array(2 * m + 2);
  }
  best[0] = 0;
  for (let j = 1; j <= m; j++) {
    // One letter alone is always a reading (a stop word or an unknown letter).
    best[j] = (best[j - 1] as number) + wordCost(letters[j - 1] as string, known, stops) + WORD_COST;
    cut[j] = j - 1;
    for (let k = Math.max(0, j - MAX_WORD); k < j - 1; k++) {
      const word = letters.slice(k, j);
      const cost = wordCost(word, known, stops);
      if (cost >= UNKNOWN_COST) continue;
      const total = (best[k] as number) + cost + WORD_COST;
      if (total < (best[j] as number)) {
        best[j] = total;
        cut[j] = k;
      }
    }
  }
  // Two-letter entries of the lexicons are mostly abbreviations and fragments ("xm", "ua", "cx"),
  // which strewn letters make by chance: only stop words and words of three or more letters count.
  let covered = 0;
  for (let j = m; j > 0; j = cut[j] as number) {
    const size = j - (cut[j] as number);
    if (size >= 3 || (size === 2 && stops.has(letters.slice(j - 2, j)))) covered += size;
  }
  return covered;
}

/**
 * Rewrites, in place, the runs of MIN_RUN or more single letters one space apart in codes[0,
 * length) (clean text, lower case) as the words they read as; returns the new length (never more:
 * a reading drops spaces only).
 */
export function segmentSpacedLetters(
  codes: Uint16Array,
  length: number,
  known: KnownWords,
  stops: ReadonlySet<string>,
): number {
  let w = 0;
  let copied = 0;
  let i = 0;
  let budget = MAX_READ_LETTERS;
  while (i < length) {
    if (!singleLetter(codes, i, length)) {
      i++;
      continue;
    }
    const script = WORD_SCRIPT[codes[i] as number];
    let last = i;
    while (
      codes[last + 1] === SPACE &&
      singleLetter(codes, last + 2, length) &&
      WORD_SCRIPT[codes[last + 2] as number] === script
    )
      last += 2;
    const count = (last - i) / 2 + 1;
    if (count >= MIN_RUN) {
      // A long run (a text spaced out with no punctuation) is read in pieces of MAX_RUN letters,
      // each written back as it reads (or as it was); what lies before the run moves down first.
      if (w !== copied) codes.copyWithin(w, copied, i);
      w += i - copied;
      for (let from = i; from <= last; from += 2 * MAX_RUN) {
        const to = Math.min(last, from + 2 * (MAX_RUN - 1));
        if (from > i) codes[w++] = SPACE;
        let letters = '';
        for (let p = from; p <= to; p += 2) letters += String.fromCharCode(codes[p] as number);
        const read = letters.length >= MIN_RUN && letters.length <= budget;
        if (read) budget -= letters.length;
        if (read && segment(letters, known, stops) >= MIN_COVERED * letters.length)
          w = writeReading(codes, w, letters);
        else for (let p = from; p <= to; p++) codes[w++] = codes[p] as number;
      }
      copied = last + 1;
    }
    i = last + 1;
  }
  return endCompaction(codes, w, copied, length);
}

/** Writes the reading in `cut` of `letters` at w, words one space apart; returns the new write position. */
function writeReading(codes: Uint16Array, w: number, letters: string): number {
  const starts: number[] = [];
  for (let j = letters.length; j > 0; j = cut[j] as number) starts.push(cut[j] as number);
  starts.reverse();
  for (let s = 0; s < starts.length; s++) {
    if (s > 0) codes[w++] = SPACE;
    const end = s + 1 < starts.length ? (starts[s + 1] as number) : letters.length;
    for (let p = starts[s] as number; p < end; p++) codes[w++] = letters.charCodeAt(p);
  }
  return w;
}
