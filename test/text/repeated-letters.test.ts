import { describe, expect, it } from 'vitest';
import { resolveDedupConfig } from '../../src/config/profiles.js';
import { canonicalize } from '../../src/text/canonical.js';
import type { KnownWords } from '../../src/text/dictionary-words.js';
import { squeezeRepeatedLetters } from '../../src/text/repeated-letters.js';

const known: KnownWords = new Set([
  'free',
  'nice',
  'good',
  'gift',
  'today',
  'для',
  'вас',
  'poe',
  'xvii',
  'гол',
]);
const squeeze = (text: string): string => {
  const codes = Uint16Array.from(text, (c) => c.charCodeAt(0));
  const length = squeezeRepeatedLetters(codes, text.length, known);
  return String.fromCharCode(...codes.subarray(0, length));
};

describe('letters repeated for emphasis', () => {
  it('writes a run of three or more twice, or else once, whichever makes a known word', () => {
    expect(squeeze('freeeee gift, niiiiice! gooooood todaaaay')).toBe('free gift, nice! good today');
    expect(squeeze('гоооол для вааас')).toBe('гол для вас');
  });
  it('reads a stretched stop word before a rarer lexicon word, and two-letter stop words', () => {
    const stops = new Set(['the', 'on', 'no', 'на', 'i', 'о', 'way']);
    const lexicon: KnownWords = new Set(['thee', 'free']);
    const read = (text: string): string => {
      const codes = Uint16Array.from(text, (c) => c.charCodeAt(0));
      return String.fromCharCode(
        ...codes.subarray(0, squeezeRepeatedLetters(codes, text.length, lexicon, stops)),
      );
    };
    expect(read('theeee onnnn freeee nooo нааа')).toBe('the on free no на');
    expect(read('iii ооо waaay')).toBe('iii ооо waaay');
  });
  it('leaves words that make no known word, and runs of two', () => {
    expect(squeeze('brrrr zzzzap free good')).toBe('brrrr zzzzap free good');
  });
  it('leaves one letter repeated, Roman numerals and three of a letter starting a word', () => {
    expect(squeeze('www iii ооо xviii pppoe')).toBe('www iii ооо xviii pppoe');
    expect(squeeze('ppppoe')).toBe('poe'); // four at the start is emphasis
  });
  it('lets a stretched copy meet its original', () => {
    const config = resolveDedupConfig('news').signatures.canonical;
    const knownOf = () => known;
    const original = canonicalize({ text: 'A free gift for you today', kind: 'text' }, config, 'en', knownOf);
    const copy = canonicalize(
      { text: 'A freeeee giiiift for you todaaay!!!!', kind: 'text' },
      config,
      'en',
      knownOf,
    );
    expect(copy.canonical).toBe(original.canonical);
  });
});
