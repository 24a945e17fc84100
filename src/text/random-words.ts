import type { KnownWords } from './dictionary-words.js';
import { codesToString } from './utf16.js';
import { isWordChar } from './word-scripts.js';

/**
 * Hash-busters: random letter strings that spam appends to or strews in a mail ("lsqtsxe zdjaw
 * kiat") so that no two copies hash alike. Each is a word no lexicon holds, so it takes the
 * highest idf and, in a short mail, most of the word set. With the `drop` rule (the mail
 * profile's), a word of an English text is left out of the canonical text when it is
 * - a run of 3 to 12 ASCII letters standing alone (no digit, apostrophe or other letter joined to
 *   it), not one letter repeated ("zzzz" is a placeholder, the same in every copy);
 * - spelt unlike words: no vowel (a e i o u y), or five consonants in a row, or a letter pair
 *   (word start and end counted as letters) that fewer than RARE_PAIR known words hold ("qz",
 *   "wq", "^x");
 * - and not a word of the lexicon (looked up last: most words pass the spelling checks).
 * Abbreviations without a vowel that the lexicon lacks ("tmp", "pgp") go too, in every copy
 * alike. Longer runs are left: a long random-looking token written once in a short spam is what
 * tells it from another spam of the same template, and mail clean-up already reads ids.
 */

/** A letter pair held by fewer known words than this is not how the language spells. */
const RARE_PAIR = 3;
/** A run this long of consonants is not how English spells (y counted as a vowel). */
const CONSONANT_RUN = 5;
const MIN_LENGTH = 3;
/** Longest word read (see above). */
const MAX_LENGTH = 12;
const A = 0x61;
const Z = 0x7a;
const APOSTROPHE = 0x27;
/** Letter index 26 stands for a word's start or end. */
const EDGE = 26;
const SIDE = 27;

const VOWEL = new Uint8Array(26);
for (const ch of 'aeiouy') VOWEL[ch.charCodeAt(0) - A] = 1;

const isLower = (code: number): boolean => code >= A && code <= Z;

/** How many of `words` hold each letter pair (a-z, and EDGE for a word's start or end): 27 x 27. */
export function countLetterPairs(words: Iterable<string>): Uint32Array {
  const pairs = new Uint32Array(SIDE * SIDE);
  const seen = new Uint8Array(SIDE * SIDE);
  for (const word of words) {
    if (!/^[a-z]+$/.test(word)) continue;
    seen.fill(0);
    let previous = EDGE;
    for (let i = 0; i <= word.length; i++) {
      const letter = i === word.length ? EDGE : word.charCodeAt(i) - A;
      const pair = previous * SIDE + letter;
      if (!seen[pair]) {
        seen[pair] = 1;
        pairs[pair] = (pairs[pair] as number) + 1;
      }
      previous = letter;
    }
  }
  return pairs;
}

/**
 * Reads the run of ASCII letters that starts at codes[start] (clean text: lower case), in one pass:
 * returns its end times 2, plus 1 when it is spelt unlike the words behind `pairs` (no vowel, five
 * consonants in a row, or a letter pair fewer than RARE_PAIR of them hold) and is not one letter
 * repeated.
 */
export function readWord(codes: Uint16Array, start: number, length: number, pairs: Uint32Array): number {
  const first = codes[start] as number;
  let odd = false;
  let same = true;
  let vowels = 0;
  let consonants = 0;
  let previous = EDGE;
  let i = start;
  let code = first;
  do {
    const letter = code - A;
    if ((pairs[previous * SIDE + letter] as number) < RARE_PAIR) odd = true;
    if (VOWEL[letter]) {
      vowels++;
      consonants = 0;
    } else if (++consonants >= CONSONANT_RUN) odd = true;
    if (code !== first) same = false;
    previous = letter;
    i++;
    code = i < length ? (codes[i] as number) : 0;
  } while (code >= A && code <= Z);
  if ((pairs[previous * SIDE + EDGE] as number) < RARE_PAIR) odd = true;
  return i * 2 + ((odd || vowels === 0) && !same ? 1 : 0);
}

/**
 * Blanks out (as spaces) the random-looking unknown words of codes[0, length) (clean text: lower
 * case), unless they are all of its `tokens` tokens (a text is never emptied); returns how many
 * were blanked. The length does not change.
 */
export function dropRandomWords(
  codes: Uint16Array,
  length: number,
  known: KnownWords,
  /** countLetterPairs of the known words. */
  pairs: Uint32Array,
  tokens: number,
): number {
  const found: number[] = [];
  let i = 0;
  while (i < length) {
    if (!isLower(codes[i] as number)) {
      i++;
      continue;
    }
    const start = i;
    const read = readWord(codes, start, length, pairs);
    i = read >>> 1;
    if ((read & 1) === 0) continue;
    const size = i - start;
    if (size < MIN_LENGTH || size > MAX_LENGTH) continue;
    if (start > 0 && joined(codes[start - 1] as number)) continue;
    if (i < length && joined(codes[i] as number)) continue;
    if (known.has(codesToString(codes.subarray(start, i)))) continue;
    found.push(start, i);
  }
  const dropped = found.length / 2;
  if (dropped >= tokens) return 0;
  for (let k = 0; k < found.length; k += 2) codes.fill(0x20, found[k], found[k + 1]);
  return dropped;
}

/** A character that makes the letters beside it part of a longer token. */
const joined = (code: number): boolean => code === APOSTROPHE || isWordChar(code);
