import { describe, expect, it } from 'vitest';
import { cleanText } from '../../src/text/clean.js';
import { regionalLetters } from '../../src/text/regional-letters.js';

const opts = { zwnj: 'join' as const };
/** The regional indicators spelling `word` (a-z). */
const ri = (word: string): string =>
  [...word].map((ch) => String.fromCodePoint(0x1f1e6 + ch.charCodeAt(0) - 0x61)).join('');

describe('regional indicators as letters', () => {
  it('reads runs of three or more as letters, in every word', () => {
    expect(cleanText(`${ri('free')} ${ri('money')} ${ri('now')}`, opts)).toBe('free money now');
    expect(cleanText(`${ri('the')} ${ri('quick')} ${ri('brown')} ${ri('fox')}`, opts)).toBe(
      'the quick brown fox',
    );
  });
  it('reads a lone indicator and a pair that is no flag as letters', () => {
    expect(regionalLetters(`${ri('a')} ${ri('of')} call`)).toBe('a of call');
    expect(regionalLetters(`x${ri('q')}`)).toBe('xq');
  });
  it('reads an all-flag run as letters when a letter touches it, or other runs are letters', () => {
    expect(regionalLetters(`${ri('beat')}s`)).toBe('beats');
    // fr + ee are both flags; "money" (odd) shows the text is written in indicators.
    expect(regionalLetters(`${ri('free')} ${ri('money')}`)).toBe('free money');
    expect(regionalLetters(`${ri('free')} offer`)).toBe(`${ri('free')} offer`);
  });
  it('keeps a flag pair, and a row of flags, as the symbols they are', () => {
    const ua = ri('ua');
    expect(regionalLetters(`Слава Україні ${ua}`)).toBe(`Слава Україні ${ua}`);
    expect(regionalLetters(`${ri('fr')}${ri('de')}${ri('pl')} summit`)).toBe(
      `${ri('fr')}${ri('de')}${ri('pl')} summit`,
    );
    expect(regionalLetters(`news${ri('us')}`)).toBe(`news${ri('us')}`);
  });
  it('leaves a text without regional indicators as it is (the same string)', () => {
    const text = 'Ordinary news with an emoji 😀 and a flag-free line.';
    expect(regionalLetters(text)).toBe(text);
  });
});
