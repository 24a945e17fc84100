import type { KnownWords } from './dictionary-words.js';

/**
 * What a word "costs" a reading of the text: its idf (rarer words cost more), so that a reading
 * of common words beats one of rare fragments. The lexicons hold fragments and letters too
 * ("ext", "wor", "s": frequency lists count them), which the idf prices as the rare or odd words
 * they are. Stop words (not in the lexicons) cost STOP_COST; a single letter that is no stop word
 * ("s", "t" in English) and any word unknown to both cost UNKNOWN_COST.
 */

export const STOP_COST = 1;
/** Above every lexicon's idf of an unknown word (7-10 for the default lexicons). */
export const UNKNOWN_COST = 12;
/** A word the lexicon holds, when the lexicon gives no idf. */
const KNOWN_COST = 4;

export function wordCost(word: string, known: KnownWords, stops: ReadonlySet<string>): number {
  if (stops.has(word)) return STOP_COST;
  if (word.length < 2 || !known.has(word)) return UNKNOWN_COST;
  return known.idf ? known.idf(word) : KNOWN_COST;
}
