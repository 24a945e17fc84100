import { endCompaction } from './compaction.js';
import type { KnownWords } from './dictionary-words.js';
import { piecesMakeOneWord } from './line-break-words.js';
import { wordCost } from './word-cost.js';
import { isScriptLetter, isWordChar, LATIN, WORD_SCRIPT } from './word-scripts.js';

/**
 * Punctuation put inside a word ("pr.esident", "gov-ernment", "пр*езидент", "mon|ey"): spam breaks
 * its words so to change its fingerprint while a reader still reads the word. A dot, hyphen or
 * slash between two letters is also ordinary text ("u.s.", "well-known", "and/or", "end.Start"
 * with its space missing), so a run of up to MAX_RUN such characters between two letters of one
 * script is removed only where the pieces make a known word of the language (its lexicon or stop
 * words) of MIN_JOINED letters or more that costs less than the two pieces by MARGIN or more
 * (word-cost.ts: the sum of their idf), as line-break-words.ts reads a line break: "u.s", "e.g",
 * "т.е" make words too short to read; "check-up", "no-one" are two common words; "end.start" is
 * no word. A compound with a rare piece that is also written as one word ("e-commerce", "wi-fi",
 * "он-лайн") becomes that word, so both spellings sign alike. An apostrophe
 * is read so only inside Latin words and before three letters or more: it is a letter of
 * Ukrainian ("пам'ятник") and starts English clitics ("hasn't", "they'll").
 *
 * The lexicon is versioned data: the result is as deterministic as the signatures made with it.
 */

/** Longest run of punctuation read between two pieces of a word ("pr..esident", "pr-*-esident"). */
const MAX_RUN = 3;
/** Longest piece read on either side. */
const MAX_PIECE = 32;
/** Fewest letters of the joined word: "u.s", "e.g", "a.m", "т.е" make no word to read. */
const MIN_JOINED = 4;
/**
 * Most pieces looked up per text: an ordinary text has a handful; a hostile one ("ab.ab.ab…", 4 MiB)
 * would have a million, and the rest of it is left as written.
 */
const MAX_LOOKUPS = 16_384;
const APOSTROPHE = 0x27;
/** Letters after an apostrophe from which on the run is no clitic ('s, 't, 'll, 're, 've). */
const MIN_CLITIC = 3;

/**
 * The punctuation read inside words: ASCII marks, the middle dot, bullets, dashes and the acute
 * sign. The tokenizer reads this table at every word end to tell whether the pass is needed.
 */
export const INNER_PUNCTUATION = new Uint8Array(0x10000);
for (const ch of ".,-_*|/\\~^+=:;`'\u00b7\u00b4\u2010\u2011\u2012\u2013\u2014\u2022\u2027\u2043")
  INNER_PUNCTUATION[ch.charCodeAt(0)] = 1;
const isInner = (code: number): boolean => INNER_PUNCTUATION[code] === 1;

const isKnown = (word: string, known: KnownWords, stops: ReadonlySet<string>): boolean =>
  known.has(word) || stops.has(word);

/**
 * Removes, in place, the punctuation runs of codes[0, length) (clean text, lower case) that split a
 * known word; returns the new length.
 */
export function joinPunctuationSplitWords(
  codes: Uint16Array,
  length: number,
  known: KnownWords,
  stops: ReadonlySet<string>,
  /** Where the tokenizer met punctuation after a word (ascending), when it kept them all: only those are read. */
  listed?: { readonly at: Int32Array; readonly count: number },
): number {
  let w = 0;
  let copied = 0;
  let lookups = 0;
  const fromList = listed !== undefined && listed.count <= listed.at.length;
  const last = fromList ? listed.count : length - 1;
  for (let k = fromList ? 0 : 1; k < last && lookups < MAX_LOOKUPS; k++) {
    const i = fromList ? (listed.at[k] as number) : k;
    // Below `copied`: inside a run an earlier join removed.
    if (i < 1 || i < copied || i + 1 >= length || !isInner(codes[i] as number)) continue;
    const before = codes[i - 1] as number;
    if (!isScriptLetter(before)) continue;
    let j = i + 1;
    while (j < length && j - i < MAX_RUN && isInner(codes[j] as number)) j++;
    const after = codes[j] as number;
    if (j >= length || !isScriptLetter(after) || WORD_SCRIPT[before] !== WORD_SCRIPT[after]) continue;
    // The pieces: word characters, and apostrophes inside them, up to MAX_PIECE on each side.
    let pieceStart = i - 1;
    // Not below `copied`: what lies there was moved or removed by an earlier join.
    while (
      pieceStart - 1 >= copied &&
      i - pieceStart < MAX_PIECE &&
      isPieceChar(codes, pieceStart - 1, length)
    )
      pieceStart--;
    let end = j + 1;
    while (end < length && end - j < MAX_PIECE && isPieceChar(codes, end, length)) end++;
    if (i - pieceStart + end - j < MIN_JOINED) continue;
    // An apostrophe is a letter of Ukrainian ("пам'ятник") and starts English clitics ("hasn't").
    if (j === i + 1 && codes[i] === APOSTROPHE && (WORD_SCRIPT[before] !== LATIN || end - j < MIN_CLITIC))
      continue;
    lookups++;
    // apply, not a spread: a spread walks the array's iterator, several times slower on short pieces.
    const left = String.fromCharCode.apply(null, codes.subarray(pieceStart, i) as unknown as number[]);
    const right = String.fromCharCode.apply(null, codes.subarray(j, end) as unknown as number[]);
    const joined = left + right;
    if (!isKnown(joined, known, stops)) continue;
    const a = wordCost(left, known, stops);
    const b = wordCost(right, known, stops);
    // Two common words ("check-up", "no-one") are a compound, and so is a joined word not much
    // cheaper than its pieces: a split leaves a fragment, which is rare or unknown.
    if (!piecesMakeOneWord(a, b, wordCost(joined, known, stops))) continue;
    if (w !== copied) codes.copyWithin(w, copied, i);
    w += i - copied;
    copied = j;
  }
  return endCompaction(codes, w, copied, length);
}

/** A word character, or an apostrophe between two word characters (inside a token). */
function isPieceChar(codes: Uint16Array, k: number, length: number): boolean {
  const c = codes[k] as number;
  if (isWordChar(c)) return true;
  return (
    c === APOSTROPHE &&
    k > 0 &&
    k + 1 < length &&
    isWordChar(codes[k - 1] as number) &&
    isWordChar(codes[k + 1] as number)
  );
}
