import { describe, expect, it } from 'vitest';
import { resolveDedupConfig } from '../../src/config/profiles.js';
import { canonicalize } from '../../src/text/canonical.js';
import { isLeetText, undoLeetText } from '../../src/text/leet-text.js';
import { codesOf, lexiconOf, textOf } from '../support/lexicon-fixture.js';

const known = lexiconOf({
  quick: 3.1,
  brown: 3.4,
  fox: 4.2,
  jumps: 5.0,
  lazy: 5.1,
  dog: 3.6,
  dogs: 4.0,
  said: 2.0,
  fill: 4.0,
  fiil: 9.5,
  mp3: 6.0,
  b3: 8.0,
  set: 3.0,
  title: 3.9,
  covid: 5.0,
  model: 3.8,
  price: 3.2,
  phone: 3.5,
});
const stops = new Set([
  'the',
  'on',
  'over',
  'so',
  'to',
  'a',
  'i',
  'is',
  'in',
  'it',
  'we',
  'can',
  'be',
  'of',
  'and',
  'with',
]);
const read = (text: string): string => {
  const codes = codesOf(text);
  undoLeetText(codes, codes.length, known, stops);
  return textOf(codes, codes.length);
};

describe('a text written in leet throughout', () => {
  it('reads every mixed word back, short ones too', () => {
    expect(read('7h3 qu1ck br0wn f0x jump5 0v3r 7h3 14zy d0g')).toBe(
      'the quick brown fox jumps over the lazy dog',
    );
  });
  it('counts no number with its unit or ordinal as evidence of leet', () => {
    const text = 'the h1n1 and g7 said on the 10th at 10am';
    const codes = codesOf(text);
    // 10th and 10am read as words (loth, loam) but are numbers with units: two mixed runs are left.
    expect(undoLeetText(codes, codes.length, lexiconOf({ gt: 7.0, loth: 9.0, loam: 9.0 }), stops, 3)).toBe(0);
    expect(textOf(codes, codes.length)).toBe(text);
    expect(read('7h3 qu1ck br0wn f0x 0n 7h3 10th')).toBe('the quick brown fox on the 10th');
  });
  it('chooses l or i for 1 by the word costs', () => {
    expect(read('f111 1n')).toBe('fill in');
  });
  it('reads leet-only runs only as stop words, and two-digit starts only as known words', () => {
    expect(read('50 541d 4 d0g')).toBe('so said a dog');
    expect(read('1000 d0g5 15th')).toBe('1000 dogs 15th');
  });
  it('reads contraction endings, runs of leet characters that spell a known word, and a rarer word as written', () => {
    expect(read("1t'5 d0g5 w3'11 c4n'7")).toBe("it's dogs we'll can't");
    expect(read('537 71713 b3 d0g')).toBe('set title be dog');
  });
  it('reads a word unknown either way (a name) when it has two letters or more', () => {
    expect(read('c10ck3nf14p d0g')).toBe('ciockenfiap dog');
  });
  it('leaves a text of identifiers, whose mixed runs read as no word, as it is', () => {
    expect(read('qb1x qb13x qb4x a3f5e0 d0g')).toBe('qb1x qb13x qb4x a3f5e0 d0g');
  });
  it('keeps known words as written and numbers with another digit', () => {
    expect(read('mp3 a320 2nd 4x4 covid-19')).toBe('mp3 a320 2nd 4x4 covid-19');
  });
  it('is a leet text only when many of its words mix letters and leet characters', () => {
    expect(isLeetText(2, 4)).toBe(false);
    expect(isLeetText(3, 100)).toBe(false);
    expect(isLeetText(9, 40)).toBe(true);
  });
});

describe('canonical text of a leet text', () => {
  const config = resolveDedupConfig('news').signatures.canonical;
  const knownOf = () => known;
  const words = (text: string): string[] => canonicalize({ text, kind: 'text' }, config, 'en', knownOf).words;
  it('meets its original', () => {
    expect(words('7h3 qu1ck br0wn f0x jump5 0v3r 7h3 14zy d0g')).toEqual(
      words('The quick brown fox jumps over the lazy dog'),
    );
  });
  it('leaves model numbers and units of an ordinary text as they are', () => {
    const text =
      'The new phone with 4G and mp3 playback is priced like the A320 model of 2nd year, covid-19 aside, so 10am on the 15th it is.';
    expect(words(text)).toContain('4g');
    expect(words(text)).toContain('a320');
    expect(words(text)).toContain('2nd');
    expect(words(text)).toContain('mp3');
    expect(words(text)).toContain('10am');
  });
});
