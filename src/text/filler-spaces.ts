import type { KnownWords } from './dictionary-words.js';
import { normalizeLetters } from './normalize.js';
import { UNKNOWN_COST, wordCost } from './word-cost.js';

/**
 * Hangul fillers (U+3164, U+115F, U+1160, U+FFA0) written for spaces: invisible, so they are
 * removed with the other invisible characters (invisible.ts), which glues the two words around
 * each. The same characters are also the commonest invisible filler inside a word, where removing
 * them is right. A text is read for which of the two it does: each filler between two letters
 * votes "space" when both pieces around it are known words (of the lexicons or stop words given)
 * and the pieces joined are not, and "inside a word" when the joined form is known and a piece is
 * not; when both readings are words, the one of lower cost (word-cost.ts: idf) votes. When two or more fillers vote "space" and they outnumber the "inside a word" votes, every
 * filler of the text is read as a space; otherwise they stay invisible and are removed. A lone
 * filler, or fillers inside the words of a normally spaced text, change nothing.
 */

const EACH_FILLER = /[\u115f\u1160\u3164\uffa0]/g;
const ALL_FILLERS = /[\u115f\u1160\u3164\uffa0]/g;
/** The letters (and marks) right before and right after a filler (fillers are letters, Lo, themselves). */
const TAIL = /(?:(?![\u115f\u1160\u3164\uffa0])[\p{L}\p{M}])+$/u;
const HEAD = /^(?:(?![\u115f\u1160\u3164\uffa0])[\p{L}\p{M}])+/u;
/** Fillers read before the vote is taken: enough to tell, and a bound on the work. */
const MAX_VOTES = 64;
const MAX_READ = 256;
/** Longest piece read on either side of a filler. */
const MAX_PIECE = 32;
const MIN_SPACE_VOTES = 2;
const LETTERS = { zwnj: 'remove' } as const;

/** What a word (lower case) costs a reading (word-cost.ts): the least over the languages the text may be in. */
export type WordCostOf = (word: string) => number;

/** WordCostOf over languages, each with its lexicon and stop words. */
export function leastCost(
  languages: ReadonlyArray<{ known: KnownWords; stops: ReadonlySet<string> }>,
): WordCostOf {
  return (word) => {
    let least = UNKNOWN_COST;
    for (const { known, stops } of languages) least = Math.min(least, wordCost(word, known, stops));
    return least;
  };
}

/**
 * Whether the text holds a Hangul filler (the check every text pays): four indexOf calls cost
 * about 0.5 µs a text, a one-character-class regex 3.3 µs (process CPU over the 5,372 texts of
 * the peers stream, 1.7 KB each; docs/quality.md).
 */
export const hasHangulFiller = (text: string): boolean =>
  text.indexOf('\u3164') >= 0 ||
  text.indexOf('\uffa0') >= 0 ||
  text.indexOf('\u115f') >= 0 ||
  text.indexOf('\u1160') >= 0;

/** The text with its Hangul fillers made spaces when they stand for spaces; the same text otherwise. */
export function fillersAsSpaces(text: string, cost: WordCostOf): string {
  let space = 0;
  let inside = 0;
  EACH_FILLER.lastIndex = 0;
  for (let read = 0; read < MAX_READ && space + inside < MAX_VOTES; read++) {
    const match = EACH_FILLER.exec(text);
    if (match === null) break;
    const at = match.index;
    const left = TAIL.exec(text.slice(Math.max(0, at - MAX_PIECE), at))?.[0];
    const right = HEAD.exec(text.slice(at + 1, at + 1 + MAX_PIECE))?.[0];
    if (!left || !right) continue;
    // As the lexicons spell words: lower case, one form per letter (Persian ي as ی).
    const a = normalizeLetters(left, LETTERS);
    const b = normalizeLetters(right, LETTERS);
    const apart = cost(a) + cost(b);
    const joined = cost(a + b);
    if (joined < UNKNOWN_COST && joined < apart) inside++;
    else if (apart < 2 * UNKNOWN_COST && apart <= joined) space++;
  }
  return space >= MIN_SPACE_VOTES && space > inside ? text.replace(ALL_FILLERS, ' ') : text;
}
