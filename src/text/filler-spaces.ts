import type { KnownWords } from './dictionary-words.js';
import { normalizeLetters } from './normalize.js';

/**
 * Hangul fillers (U+3164, U+115F, U+1160, U+FFA0) written for spaces: invisible, so they are
 * removed with the other invisible characters (invisible.ts), which glues the two words around
 * each. The same characters are also the commonest invisible filler inside a word, where removing
 * them is right. A text is read for which of the two it does: each filler between two letters
 * votes "space" when both pieces around it are known words (of the lexicons or stop words given)
 * and the pieces joined are not, and "inside a word" when the joined form is known and a piece is
 * not. When two or more fillers vote "space" and they outnumber the "inside a word" votes, every
 * filler of the text is read as a space; otherwise they stay invisible and are removed. A lone
 * filler, or fillers inside the words of a normally spaced text, change nothing.
 */

const FILLERS = /[\u115f\u1160\u3164\uffa0]/;
const FILLER_SPLIT = /([\u115f\u1160\u3164\uffa0])/;
const ALL_FILLERS = /[\u115f\u1160\u3164\uffa0]/g;
/** The letters (and marks) right before and right after a filler. */
const TAIL = /[\p{L}\p{M}]+$/u;
const HEAD = /^[\p{L}\p{M}]+/u;
/** Fillers read before the vote is taken: enough to tell, and a bound on the work. */
const MAX_VOTES = 64;
const MIN_SPACE_VOTES = 2;
const LETTERS = { zwnj: 'remove' } as const;

/** Whether a word (lower case) is known to any of the word lists. */
export type IsKnown = (word: string) => boolean;

/** IsKnown over lexicons and stop-word sets. */
export function knownToAny(
  lexicons: ReadonlyArray<KnownWords>,
  stops: ReadonlyArray<ReadonlySet<string>>,
): IsKnown {
  return (word) => lexicons.some((l) => l.has(word)) || stops.some((s) => s.has(word));
}

/** Whether the text holds a Hangul filler (the cheap check before anything else). */
export const hasHangulFiller = (text: string): boolean => FILLERS.test(text);

/** The text with its Hangul fillers made spaces when they stand for spaces; the same text otherwise. */
export function fillersAsSpaces(text: string, isKnown: IsKnown): string {
  const parts = text.split(FILLER_SPLIT);
  let space = 0;
  let inside = 0;
  // parts alternate: text, filler, text, ...; a filler's pieces are the letters beside it.
  for (let k = 1; k < parts.length && space + inside < MAX_VOTES; k += 2) {
    const left = TAIL.exec(parts[k - 1] as string)?.[0];
    const right = HEAD.exec(parts[k + 1] as string)?.[0];
    if (!left || !right) continue;
    // As the lexicons spell words: lower case, one form per letter (Persian ي as ی).
    const a = normalizeLetters(left, LETTERS);
    const b = normalizeLetters(right, LETTERS);
    const pieces = isKnown(a) && isKnown(b);
    const joined = isKnown(a + b);
    if (pieces && !joined) space++;
    else if (joined && !pieces) inside++;
  }
  return space >= MIN_SPACE_VOTES && space > inside ? text.replace(ALL_FILLERS, ' ') : text;
}
