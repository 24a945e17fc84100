import { describe, expect, it } from 'vitest';
import type { KnownWords } from '../../src/text/dictionary-words.js';
import { joinSymbolSplitWords } from '../../src/text/symbols-in-words.js';

const known: KnownWords = new Set(['free', 'money', 'something', 'some', 'thing', 'монета', 'fr', 'ee']);
const stops = new Set(['the', 'и']);

const join = (text: string): string => {
  const codes = Uint16Array.from({ length: text.length }, (_, i) => text.charCodeAt(i));
  return String.fromCharCode(...codes.subarray(0, joinSymbolSplitWords(codes, codes.length, known, stops)));
};

describe('emoji inside a word', () => {
  it('removes the pictures that split a known word, modifiers and selectors included', () => {
    expect(join('get fr🔥ee money')).toBe('get free money');
    expect(join('mon👍🏽ey and th❤️e')).toBe('money and the');
    expect(join('мо💰нета и')).toBe('монета и');
  });
  it('leaves pictures between two words, two known words, and punctuation', () => {
    expect(join('free🔥money')).toBe('free🔥money');
    expect(join('some⭐thing')).toBe('some⭐thing');
    expect(join('fr—ee fr«ee')).toBe('fr—ee fr«ee');
    expect(join('free🔥xq')).toBe('free🔥xq');
    // The Braille blank shows as a space.
    expect(join('xy\u2800zz')).toBe('xy\u2800zz');
  });
  it('removes them between two pieces neither of which is a word: a word form the lexicon lacks', () => {
    expect(join('геймп🔥лей xy🔥zz')).toBe('геймплей xyzz');
  });
  it('leaves pieces of two scripts', () => {
    expect(join('fr🔥ее')).toBe('fr🔥ее');
  });
});
