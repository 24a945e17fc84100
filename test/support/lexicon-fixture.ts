import type { KnownWords } from '../../src/text/dictionary-words.js';
import { UNKNOWN_COST } from '../../src/text/word-cost.js';

/** A small lexicon of a test's own: words with an idf each (lower: commoner). */
export function lexiconOf(entries: Record<string, number>): KnownWords {
  const idf = new Map(Object.entries(entries));
  return { has: (word) => idf.has(word), idf: (word) => idf.get(word) ?? UNKNOWN_COST };
}

/** codes of a string, and the string of codes[0, length). */
export const codesOf = (text: string): Uint16Array => Uint16Array.from(text, (ch) => ch.charCodeAt(0));
export const textOf = (codes: Uint16Array, length: number): string =>
  String.fromCharCode(...codes.subarray(0, length));
