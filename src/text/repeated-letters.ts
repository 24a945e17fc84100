import { endCompaction } from './compaction.js';
import type { KnownWords } from './dictionary-words.js';
import { CYRILLIC, isWordChar, LATIN, WORD_SCRIPT } from './word-scripts.js';

/**
 * Letters repeated for emphasis ("freeeee", "gooood", "гооол"): in a word, each run of three or
 * more of one Latin or Cyrillic letter, which no word of the supported languages spells, is written
 * twice, or else once, whichever first makes a known word of the text's language of three or more
 * letters ("freeeee" is "free", "niiiice" is "nice"); a word that makes no known word stays as
 * written, the same in every copy, and so do Roman numerals ("xviii"), words of one letter
 * ("www", "ооо") and a run of exactly three that starts a word with no other run ("ссср",
 * "pppoe": abbreviations). Spam stretches words this way to change their hash; with 15% of the words
 * stretched, news copies lost most of their 4-word shingles.
 */

/** The shortest run read as emphasis: two of a letter is ordinary spelling ("free", "всё"). */
const MIN_REPEAT = 3;
/** The shortest word made: "ср" of "ссср", "zz" of "zzzz" are words only by chance. */
const MIN_RESULT = 3;
/** The shortest stop word made ("on" of "onnnn"). */
const MIN_STOP_RESULT = 2;
const NO_STOPS: ReadonlySet<string> = new Set();
/** Roman numerals ("xviii", "хііі" in Cyrillic look-alikes): their runs of i are spelling. */
const ROMAN = /^[ivxlcdmіхс]+$/;

/** A Latin or Cyrillic letter (Persian doubles a letter in ordinary spelling: "شبهههای"). */
const isLetter = (code: number): boolean => {
  const script = WORD_SCRIPT[code] as number;
  return script === LATIN || script === CYRILLIC;
};
/** Longest word read. */
const MAX_WORD = 48;

/** Whether codes[i] starts a run of MIN_REPEAT of one letter. */
const runAt = (codes: Uint16Array, i: number): boolean =>
  codes[i + 1] === codes[i] && codes[i + 2] === codes[i] && isLetter(codes[i] as number);

/** The word codes[start, end) with each run of MIN_REPEAT+ of one letter written `keep` times. */
function squeezed(codes: Uint16Array, start: number, end: number, keep: number): string {
  let word = '';
  let i = start;
  while (i < end) {
    const code = codes[i] as number;
    let j = i + 1;
    while (j < end && codes[j] === code) j++;
    const times = j - i >= MIN_REPEAT && isLetter(code) ? keep : j - i;
    for (let k = 0; k < times; k++) word += String.fromCharCode(code);
    i = j;
  }
  return word;
}

/** Whether codes[from, end) holds a run of MIN_REPEAT of one letter. */
function laterRun(codes: Uint16Array, from: number, end: number): boolean {
  for (let i = from; i + 2 < end; i++) if (runAt(codes, i)) return true;
  return false;
}

/**
 * Rewrites, in place, the words of codes[0, length) (clean text: lower case) that hold a run of
 * MIN_REPEAT or more of one letter as the known word they make (see above); returns the new length.
 */
export function squeezeRepeatedLetters(
  codes: Uint16Array,
  length: number,
  known: KnownWords,
  stops: ReadonlySet<string> = NO_STOPS,
): number {
  let w = 0; // write position once something was removed
  let copied = 0; // codes[copied, i) not yet moved to w
  let i = 0;
  while (i + 1 < length) {
    // A run of three holds a pair of equal code units at an even offset from any start: look at
    // every second one, then around it.
    const code = codes[i] as number;
    // Not a letter: skipped here, or a long run of spaces or marks is walked back at every step.
    if (code !== codes[i + 1] || !isLetter(code)) {
      i += 2;
      continue;
    }
    let run = i;
    while (run > copied && codes[run - 1] === code) run--;
    if (run + 2 >= length || !runAt(codes, run)) {
      i += 2;
      continue;
    }
    let start = run;
    while (start > 0 && isWordChar(codes[start - 1] as number)) start--;
    let end = run;
    while (end < length && isWordChar(codes[end] as number)) end++;
    i = end;
    if (end - start > MAX_WORD) continue;
    // Three at a word's start spell abbreviations ("ссср", "pppoe"): emphasis there takes four.
    if (run === start && codes[run + 3] !== codes[run] && !laterRun(codes, run + 3, end)) continue;
    const twice = squeezed(codes, start, end, 2);
    if (ROMAN.test(twice)) continue;
    const once = squeezed(codes, start, end, 1);
    // A function word stretched is that word, not a rarer word spelt with the letter twice
    // ("theeee" is "the", not "thee": stop words are the commonest words of a language), nor
    // nothing when it has two letters ("onnnn", "нааа"). A longer stop word with no lexicon
    // reading ("waaay") stays as written, as before: the lexicon holds no stop words.
    let word: string;
    if (stops.has(once) && !stops.has(twice) && (known.has(twice) || once.length < MIN_RESULT)) word = once;
    else if (known.has(twice)) word = twice;
    else if (known.has(once)) word = once;
    else continue;
    // One letter repeated ("www", "zzzz", "ооо") is a placeholder or an abbreviation, not emphasis;
    // a two-letter result is read only as a stop word.
    if (word.length < (stops.has(word) ? MIN_STOP_RESULT : MIN_RESULT)) continue;
    if (w !== copied) codes.copyWithin(w, copied, start);
    w += start - copied;
    for (let k = 0; k < word.length; k++) codes[w++] = word.charCodeAt(k);
    copied = end;
  }
  return endCompaction(codes, w, copied, length);
}
