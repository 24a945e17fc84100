import { describe, expect, it } from 'vitest';
import { readOverrides } from '../../src/text/bidi-override.js';
import { cleanText } from '../../src/text/clean.js';
import { normalizeText, normalizeTextCodes } from '../../src/text/normalize.js';
import { codesToString } from '../../src/text/utf16.js';

const opts = { zwnj: 'join' as const };

describe('text stored backwards behind a right-to-left override', () => {
  it('puts each override span in reading order, up to U+202C or the line end', () => {
    expect(readOverrides('get \u202eeerf\u202c money')).toBe('get \u202efree\u202c money');
    expect(readOverrides('a \u202ewon kcilc\nnext line')).toBe('a \u202eclick now\nnext line');
  });
  it('keeps combining marks and astral characters whole', () => {
    expect(readOverrides('\u202ee\u0301fac\u202c')).toBe('\u202ecafe\u0301\u202c');
    expect(readOverrides('\u202eb\u{1d41a}\u202c')).toBe('\u202e\u{1d41a}b\u202c');
  });
  it('leaves right-to-left letters, and text without an override, as stored', () => {
    for (const text of ['\u202eسلام دنیا\u202c', 'plain text', 'שלום \u202eעולם\u202c'])
      expect(readOverrides(text)).toBe(text);
  });
  it('lets a reversed copy read as its original, on both normalization paths', () => {
    const copy = 'Click \u202eereh\u202c for \u202eyenom eerf\u202c today';
    expect(cleanText(copy, opts)).toBe('click here for free money today');
    const { codes, length } = normalizeTextCodes(copy, opts);
    expect(codesToString(codes, length)).toBe(normalizeText(copy, opts));
  });
});

describe('a Persian word stored backwards behind a left-to-right override', () => {
  it('is read right to left as shown, and left-to-right letters under the override stay', () => {
    const word = 'خبرگزاری';
    const backwards = [...word].reverse().join('');
    expect(readOverrides(`\u202d${backwards}\u202c فارس`)).toBe(`\u202d${word}\u202c فارس`);
    expect(cleanText(`\u202d${backwards}\u202c فارس`, opts)).toBe(cleanText(`${word} فارس`, opts));
    for (const text of ['\u202dplain text\u202c', '\u202dسلام abc\u202c', 'a\u202dسلام'])
      expect(readOverrides(text)).toBe(text);
    const { codes, length } = normalizeTextCodes(`\u202d${backwards}\u202c`, opts);
    expect(codesToString(codes, length)).toBe(normalizeText(word, opts));
  });
});

describe('an override inside a word', () => {
  it('is a stray invisible character: removed, nothing reversed', () => {
    for (const text of ['Pay\u202ePal confirms', 'con\u200b\u202efirms the transfer', 'a \u200b\u202eword'])
      expect(readOverrides(text)).toBe(text);
    expect(cleanText('Pay\u202ePal con\u202efirms', opts)).toBe('paypal confirms');
  });
});
