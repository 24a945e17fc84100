import { describe, expect, it } from 'vitest';
import { segmentSpacedLetters } from '../../src/text/spaced-segment.js';
import { codesOf, lexiconOf, textOf } from '../support/lexicon-fixture.js';

const known = lexiconOf({
  free: 2.12,
  money: 2.1,
  now: 1.5,
  therapist: 5.88,
  rapist: 6.68,
  fr: 7.5,
  ee: 7.9,
  mon: 6.13,
  ey: 7.44,
  s: 1.63,
  дом: 3.0,
  новый: 2.5,
});
const stops = new Set(['the', 'a', 'и', 'в', 'с', 'к', 'о', 'у', 'я']);
const segment = (text: string): string => {
  const codes = codesOf(text);
  return textOf(codes, segmentSpacedLetters(codes, codes.length, known, stops));
};

describe('letters spaced out one space apart, words one space apart', () => {
  it('reads the run as the words of least cost', () => {
    expect(segment('f r e e m o n e y n o w')).toBe('free money now');
    expect(segment('get: f r e e m o n e y, now')).toBe('get: free money, now');
    expect(segment('t h e r a p i s t')).toBe('therapist');
    expect(segment('н о в ы й д о м')).toBe('новый дом');
  });
  it('keeps a letter no known word holds as a one-letter word', () => {
    expect(segment('f r e e m o n e y x')).toBe('free money x');
  });
  it('leaves ordinary single-letter words and short runs', () => {
    for (const text of ['и в с к о', 'я и ты, а в доме у нас', 'a i a', 'f r e e', 'і й в у з'])
      expect(segment(text)).toBe(text);
  });
  it('leaves strewn letters that make few known words', () => {
    expect(segment('q x z k p w j v')).toBe('q x z k p w j v');
  });
  it('leaves runs of another script mixed in, and runs cut by double spaces', () => {
    expect(segment('f r e e  m o n e y')).toBe('f r e e  m o n e y');
  });
});

describe('long runs', () => {
  it('reads a run longer than one piece of 2,000 letters piece by piece', () => {
    const words = Array.from({ length: 1000 }, (_, k) => (k % 2 === 0 ? 'free' : 'money'));
    const spaced = words.map((word) => [...word].join(' ')).join(' ');
    const read = segment(spaced).split(' ');
    // A piece may end inside a word; every other word is read whole.
    expect(read.filter((word) => word === 'free' || word === 'money').length).toBeGreaterThan(990);
    expect(read.join('')).toBe(words.join(''));
  });
  it('reads at most 32,768 letters of a text and leaves the rest as written', () => {
    // 8,800 words of 4.5 letters: 39,600 letters, 7,600 past the 16 pieces of 2,000 the budget reads.
    const words = Array.from({ length: 8800 }, (_, k) => (k % 2 === 0 ? 'free' : 'money'));
    const spaced = words.map((word) => [...word].join(' ')).join(' ');
    const tokens = segment(spaced).split(' ');
    expect(tokens.join('')).toBe(words.join(''));
    const single = tokens.filter((token) => token.length === 1).length;
    expect(single).toBeGreaterThanOrEqual(7000);
    // A piece that ends inside a word leaves a few letters of it alone too.
    expect(single).toBeLessThanOrEqual(7700);
    expect(tokens.slice(0, 4)).toEqual(['free', 'money', 'free', 'money']);
    expect(tokens.slice(-3)).toEqual(['n', 'e', 'y']);
  });
});
