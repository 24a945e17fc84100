import { describe, expect, it } from 'vitest';
import type { KnownWords } from '../../src/text/dictionary-words.js';
import { STOP_COST, UNKNOWN_COST, wordCost } from '../../src/text/word-cost.js';
import { lexiconOf } from '../support/lexicon-fixture.js';

describe('wordCost', () => {
  const known = lexiconOf({ next: 2, ext: 7.8, s: 1.6 });
  const stops = new Set(['the', 'a']);
  it('prices lexicon words by their idf, stop words at STOP_COST', () => {
    expect(wordCost('next', known, stops)).toBe(2);
    expect(wordCost('ext', known, stops)).toBe(7.8);
    expect(wordCost('the', known, stops)).toBe(STOP_COST);
    expect(wordCost('a', known, stops)).toBe(STOP_COST);
  });
  it('prices unknown words and single letters that are no stop word as unknown', () => {
    expect(wordCost('qzx', known, stops)).toBe(UNKNOWN_COST);
    expect(wordCost('s', known, stops)).toBe(UNKNOWN_COST);
  });
  it('gives a known word a fixed cost when the lexicon has no idf', () => {
    const plain: KnownWords = new Set(['next']);
    const cost = wordCost('next', plain, stops);
    expect(cost).toBeGreaterThan(STOP_COST);
    expect(cost).toBeLessThan(UNKNOWN_COST);
  });
});
