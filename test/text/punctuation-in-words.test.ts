import { describe, expect, it } from 'vitest';
import { joinPunctuationSplitWords } from '../../src/text/punctuation-in-words.js';
import { tokenize } from '../../src/text/tokenize.js';
import { codesOf, lexiconOf, textOf } from '../support/lexicon-fixture.js';

// idf values of the shape the default lexicons have: fragments and short strings are in them, rare.
const known = lexiconOf({
  president: 3.1,
  pr: 6.5,
  government: 2.9,
  gov: 7.2,
  money: 3.0,
  mon: 6.8,
  ey: 9.1,
  check: 2.6,
  up: 1.2,
  checkup: 7.9,
  one: 1.1,
  no: 1.1,
  noone: 8.4,
  ecommerce: 6.0,
  commerce: 4.1,
  e: 5.5,
  hasnt: 8.0,
  us: 2.0,
  well: 1.5,
  known: 2.0,
  wellknown: 9.0,
  президент: 3.0,
  пр: 7.0,
  памятник: 5.0,
  пам: 9.0,
});
const stops = new Set(['the', 'and', 'or', 'и']);
const join = (text: string): string => {
  const codes = codesOf(text);
  return textOf(codes, joinPunctuationSplitWords(codes, codes.length, known, stops));
};

describe('punctuation inside words', () => {
  it('removes a run of punctuation that splits a known word', () => {
    expect(join('the pr.esident said')).toBe('the president said');
    expect(join('gov-ernment and mon|ey')).toBe('government and money');
    expect(join('pr*esident pr_esident pr/esident pr,esident pr..esident pr-*-esident')).toBe(
      'president president president president president president',
    );
    expect(join('пр.езидент и')).toBe('президент и');
    expect(join("the pr'esident")).toBe('the president');
    // A compound with a fragment for a piece is written as the one word it also is.
    expect(join('e-commerce')).toBe('ecommerce');
    // At the start and the end of the text.
    expect(join('pr.esident')).toBe('president');
  });
  it('leaves compounds, abbreviations and words run together', () => {
    for (const text of [
      'a check-up', // two common words
      'no-one came',
      'the u.s. and e.g. this', // too short to read
      'well-known', // two words
      'and/or',
      'the end.start', // no word
      'pr.esidential', // no word either
      'the pr.еsident', // pieces of two scripts
      'pr. esident', // a space after the stop
      'pr----esident', // a run longer than three
      '10-year plan 3.5',
    ])
      expect(join(text)).toBe(text);
  });
  it('reads an apostrophe only inside Latin words and before three letters or more', () => {
    expect(join("it hasn't")).toBe("it hasn't");
    expect(join("пам'ятник")).toBe("пам'ятник");
  });
  it('the tokenizer flags punctuation between word characters, which gates the pass', () => {
    const flagged = (text: string) => (tokenize(text, 64).innerPunctuation ?? 0) > 0;
    expect(flagged('pr.esident')).toBe(true);
    expect(flagged('pr..esident')).toBe(true);
    expect(flagged('a check-up')).toBe(true);
    expect(flagged('the end. start, and. "quoted" word')).toBe(false);
  });
});
