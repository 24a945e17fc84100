import { describe, expect, it } from 'vitest';
import { resolveDedupConfig } from '../../src/config/profiles.js';
import { canonicalize } from '../../src/text/canonical.js';
import { joinSpacedLetters, type KnownWords, undoLeet } from '../../src/text/dictionary-words.js';

/** A small dictionary of its own: the rules only read `has`. */
const words = (...list: string[]): KnownWords => new Set(list);
const known = words(
  'free',
  'love',
  'save',
  'value',
  'click',
  'life',
  'viagra',
  'offer',
  'today',
  'h1n1',
  'mp3',
  'loam',
  'loth',
);

const codesOf = (text: string): Uint16Array => Uint16Array.from(text, (ch) => ch.charCodeAt(0));
const leet = (text: string): string => {
  const codes = codesOf(text);
  undoLeet(codes, codes.length, known);
  return String.fromCharCode(...codes);
};
const spaced = (text: string, dictionary: KnownWords = known): string => {
  const codes = codesOf(text);
  return String.fromCharCode(...codes.subarray(0, joinSpacedLetters(codes, codes.length, dictionary)));
};

describe('leetspeak read as known words', () => {
  it('reads digits and symbols for letters when the reading is a known word', () => {
    expect(leet('get fr33 stuff')).toBe('get free stuff');
    expect(leet('get fr3e or fre3 stuff')).toBe('get free or fre3 stuff');
    expect(leet('i l0v3 it')).toBe('i love it');
    expect(leet('$ave 50% on v@lue')).toBe('save 50% on value');
    expect(leet('c1ick here')).toBe('click here');
    // 1 read as l gives no word, read as i it does.
    expect(leet('a new 1ife')).toBe('a new life');
    expect(leet('0ff3r ends t0d4y')).toBe('offer ends today');
  });
  it('leaves tokens that are known as written, spell no known word, or are numbers with a suffix', () => {
    for (const text of [
      'h1n1 cases and mp3 files',
      'covid-19 in 2020',
      'a 4x4 and the g7',
      'at 10am on the 10th',
      'fr3d stuff',
      'user@example.com paid $5',
      'l0v3ly',
      'the hits flu3 and party5',
      'pay us$ 5 or 20$ or 2@b or café@home or ab@cd or x$$$',
    ])
      expect(leet(text)).toBe(text);
  });
  it('leaves every token alone with an empty dictionary', () => {
    const codes = codesOf('fr33 l0ve');
    expect(undoLeet(codes, codes.length, words())).toBe(0);
    expect(String.fromCharCode(...codes)).toBe('fr33 l0ve');
  });
});

describe('words spelt out with single spaces', () => {
  it('joins a run of four or more single letters that spells a known word', () => {
    expect(spaced('buy v i a g r a now')).toBe('buy viagra now');
    expect(spaced('f r e e')).toBe('free');
    // A one-letter word beside the spelt-out one stays a word of its own.
    expect(spaced('get a f r e e gift')).toBe('get a free gift');
    expect(spaced('s a v e a')).toBe('save a');
  });
  it('leaves runs that spell no known word, short runs and wider gaps', () => {
    for (const text of ['q x z w k now', 'a b c', 'f r e e l y', 'f  r  e  e', 'v i a g r a2'])
      expect(spaced(text)).toBe(text);
  });
});

describe('canonical text with known words', () => {
  const config = resolveDedupConfig('mail').signatures.canonical;
  const knownOf = () => known;
  it('reads disguised words as their word, so a copy meets its original', () => {
    const original = canonicalize(
      { text: 'Get free viagra today, click now', kind: 'text' },
      config,
      'en',
      knownOf,
    );
    const copy = canonicalize(
      { text: 'Get fr33 v i a g r a t0d@y, c1ick now', kind: 'text' },
      config,
      'en',
      knownOf,
    );
    expect(copy.canonical).toBe(original.canonical);
    expect(copy.words).toEqual(['get', 'free', 'viagra', 'today', 'click', 'now']);
  });
  it('changes nothing without known words', () => {
    const doc = canonicalize({ text: 'Get fr33 v i a g r a', kind: 'text' }, config, 'en');
    expect(doc.canonical).toBe('get fr33 v i a g r a');
  });
});
