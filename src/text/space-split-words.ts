import { endCompaction } from './compaction.js';
import { type KnownWords, MIN_DICTIONARY_WORD } from './dictionary-words.js';
import { joinsAt, type SplitRule } from './line-break-words.js';
import { codesToString } from './utf16.js';
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
 * What it costs ordinary text: one pass over the tokens; a token of letters of one script is
 * looked up in the lexicon and stop words without making a string (one hash of its code units),
 * and only the pairs with an unknown piece are read as words. At most MAX_READ_LETTERS letters of
 * such pairs are read per text.
 */

const SPACE = 0x20;
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

/** Stop words looked up by code units: FNV-1a of the units, as the lexicon's table does. */
class CodeWords {
  private readonly byHash = new Map<number, string[]>();

  constructor(words: Iterable<string>) {
    for (const word of words) {
      const h = hashOf(word);
      const list = this.byHash.get(h);
      if (list) list.push(word);
      else this.byHash.set(h, [word]);
    }
  }

  has(codes: Uint16Array, start: number, end: number, hash: number): boolean {
    const list = this.byHash.get(hash);
    if (list === undefined) return false;
    for (const word of list) {
      if (word.length !== end - start) continue;
      let j = 0;
      while (j < word.length && word.charCodeAt(j) === codes[start + j]) j++;
      if (j === word.length) return true;
    }
    return false;
  }
}

function hashOf(word: string): number {
  let h = 0x811c9dc5;
  for (let j = 0; j < word.length; j++) h = Math.imul(h ^ word.charCodeAt(j), 0x01000193);
  return h;
}

const stopTables = new WeakMap<ReadonlySet<string>, CodeWords>();
function stopTable(stops: ReadonlySet<string>): CodeWords {
  let table = stopTables.get(stops);
  if (table === undefined) {
    table = new CodeWords(stops);
    stopTables.set(stops, table);
  }
  return table;
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
  const stopCodes = stopTable(stops);
  // A known word by line-break-words.ts's isFragment: a stop word, or a lexicon word of three or
  // more letters (of two or more in Arabic script).
  const isKnown = (start: number, end: number, script: number): boolean => {
    let h = 0x811c9dc5;
    for (let j = start; j < end; j++) h = Math.imul(h ^ (codes[j] as number), 0x01000193);
    if (stopCodes.has(codes, start, end, h)) return true;
    if (end - start < (script === ARABIC ? 2 : 3)) return false;
    return known.hasCodes
      ? known.hasCodes(codes, start, end)
      : known.has(codesToString(codes.subarray(start, end)));
  };
  let budget = MAX_READ_LETTERS;
  let w = 0;
  let copied = 0;
  // The token before the current one, when it may be the first piece: its start, end, script, and
  // whether it is known (-1: not looked up yet).
  let prevStart = -1;
  let prevEnd = -1;
  let prevScript = 0;
  let prevKnown = -1;
  let i = 0;
  while (i < length) {
    const script = WORD_SCRIPT[codes[i] as number] as number;
    if (script === 0) {
      i++;
      continue;
    }
    const start = i;
    let one = script !== NEUTRAL;
    while (i < length && (WORD_SCRIPT[codes[i] as number] as number) !== 0) {
      if (WORD_SCRIPT[codes[i] as number] !== script) one = false;
      i++;
    }
    const end = i;
    // Letters of one script, after another such token and exactly one space.
    const piece = one && end - start >= MIN_PIECE && end - start <= MAX_PIECE && codes[end] !== 0x27;
    const pair =
      piece &&
      prevEnd >= 0 &&
      prevEnd + 1 === start &&
      codes[prevEnd] === SPACE &&
      prevScript === script &&
      prevEnd - prevStart + end - start >= MIN_DICTIONARY_WORD;
    let curKnown = -1;
    if (pair) {
      if (prevKnown < 0) prevKnown = isKnown(prevStart, prevEnd, script) ? 1 : 0;
      curKnown = isKnown(start, end, script) ? 1 : 0;
      if (
        (prevKnown === 0 || curKnown === 0) &&
        joinsAt(codes, prevEnd, length, known, stops, SPACE_RULE, budget)
      ) {
        budget -= end - prevStart - 1;
        if (w !== copied) codes.copyWithin(w, copied, prevEnd);
        w += prevEnd - copied;
        copied = prevEnd + 1;
        prevEnd = -1;
        continue;
      }
    }
    const apostropheBefore = start > 0 && codes[start - 1] === 0x27;
    if (piece && !apostropheBefore) {
      prevStart = start;
      prevEnd = end;
      prevScript = script;
      prevKnown = curKnown;
    } else prevEnd = -1;
  }
  return endCompaction(codes, w, copied, length);
}
