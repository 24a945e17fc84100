import { endCompaction } from './compaction.js';
import type { KnownWords } from './dictionary-words.js';
import { isWordChar, WORD_SCRIPT } from './word-scripts.js';

/**
 * Emoji and pictographs put inside a word ("fr🔥ee", "мо💰нета"): spam breaks its words so to
 * change its fingerprint while a reader still reads the word around the picture. The same
 * pictures also stand between words ("sale🔥today") and in hashtags, so a run of symbols between
 * two letters of one script is removed only where the pieces read as one word (insideWord): they
 * spell a known word of the language (its lexicon or stop words) together and are not both
 * words themselves, or neither piece is a word. The lexicon is versioned data: the result is as deterministic as the
 * signatures made with it.
 */

/** Longest run of symbol code units read between two pieces of a word (a few emoji with modifiers). */
const MAX_SYMBOL_RUN = 16;
/** Longest piece read on either side. */
const MAX_PIECE = 32;
const BRAILLE_BLANK = 0x2800;
const SYMBOL = /^(?:[\p{So}\p{Extended_Pictographic}\p{Emoji_Modifier}]|\ufe0f)$/u;

/** Code units of the symbol (a pictograph, its modifiers and selectors) at i, or 0. */
function symbolAt(codes: Uint16Array, i: number, length: number): number {
  const c = codes[i] as number;
  if (c >= 0xd800 && c <= 0xdbff && i + 1 < length) {
    const low = codes[i + 1] as number;
    if (low < 0xdc00 || low > 0xdfff) return 0;
    return SYMBOL.test(String.fromCharCode(c, low)) ? 2 : 0;
  }
  // The Braille blank (U+2800) is a symbol that shows as a space: it separates words.
  return c >= 0x2000 && c !== BRAILLE_BLANK && SYMBOL.test(String.fromCharCode(c)) ? 1 : 0;
}

const isKnown = (word: string, known: KnownWords, stops: ReadonlySet<string>): boolean =>
  known.has(word) || stops.has(word);

/** A known word of three letters or more (lexicons hold many one- and two-letter strings). */
const isWord = (piece: string, known: KnownWords, stops: ReadonlySet<string>): boolean =>
  piece.length > 2 && isKnown(piece, known, stops);

/**
 * Whether symbols between the pieces `left` and `right` stand inside one word: the pieces joined
 * spell a known word and are not both words themselves ("some🔥thing"), or neither piece is a
 * word (a word form the lexicon lacks, cut in two). A picture beside a word ("sale🔥today",
 * "covid🦠news", "news🔥xq") stands between words.
 */
function insideWord(left: string, right: string, known: KnownWords, stops: ReadonlySet<string>): boolean {
  const leftWord = isWord(left, known, stops);
  const rightWord = isWord(right, known, stops);
  if (isKnown(left + right, known, stops)) return !(leftWord && rightWord);
  return !leftWord && !rightWord;
}

/**
 * Removes, in place, the symbol runs of codes[0, length) (clean text, lower case) that split a
 * known word; returns the new length.
 */
export function joinSymbolSplitWords(
  codes: Uint16Array,
  length: number,
  known: KnownWords,
  stops: ReadonlySet<string>,
): number {
  let w = 0;
  let copied = 0;
  for (let i = 1; i < length; i++) {
    const c = codes[i] as number;
    if (c < 0x2000 || !isWordChar(codes[i - 1] as number)) continue;
    let j = i;
    for (let n = symbolAt(codes, j, length); n > 0 && j - i < MAX_SYMBOL_RUN; n = symbolAt(codes, j, length))
      j += n;
    if (j === i || j >= length || !isWordChar(codes[j] as number)) continue;
    if (WORD_SCRIPT[codes[i - 1] as number] !== WORD_SCRIPT[codes[j] as number]) continue;
    let pieceStart = i - 1;
    while (pieceStart > 0 && isWordChar(codes[pieceStart - 1] as number) && i - pieceStart < MAX_PIECE)
      pieceStart--;
    let end = j;
    while (end < length && isWordChar(codes[end] as number) && end - j < MAX_PIECE) end++;
    const left = String.fromCharCode(...codes.subarray(pieceStart, i));
    const right = String.fromCharCode(...codes.subarray(j, end));
    if (!insideWord(left, right, known, stops)) continue;
    if (w !== copied) codes.copyWithin(w, copied, i);
    w += i - copied;
    copied = j;
    i = j;
  }
  return endCompaction(codes, w, copied, length);
}
