import { describe, expect, it } from 'vitest';
import { cleanText } from '../../src/text/clean.js';
import { withoutMarkBelow } from '../../src/text/diacritics.js';
import { buildFastFold, normalizeText, normalizeTextCodes } from '../../src/text/normalize.js';
import { codesToString } from '../../src/text/utf16.js';

const opts = { zwnj: 'join' as const };
const viaCodes = (text: string): string => {
  const { codes, length } = normalizeTextCodes(text, opts);
  return codesToString(codes, length);
};

describe('marks that disguise', () => {
  it('removes strikethrough and overlay marks and Zalgo stacks that compose with nothing', () => {
    expect(cleanText('f\u0336r\u0336e\u0336e\u0336 m\u0335o\u0338ney', opts)).toBe('free money');
    expect(cleanText('w\u0359\u0353i\u035en\u0347 n\u0362o\u0489w\u0488', opts)).toBe('win now');
  });
  it('keeps the acute and grave accents that mark stress in Russian and Ukrainian words', () => {
    expect(cleanText('за\u0301мок и замо\u0300к', opts)).toBe('за\u0301мок и замо\u0300к');
  });
  it('drops marks below from a letter: dot, ring, tilde, macron, circumflex, breve, diaeresis below', () => {
    expect(cleanText('ẹxtra ṭhe ḁll ḛnd p\u0323rice', opts)).toBe('extra the all end price');
    expect(withoutMarkBelow('ệ')).toBe('ê');
    expect(withoutMarkBelow('é')).toBe('é');
  });
  it('keeps letters whose accents spell words: composed accents, ї й, cedilla, ogonek, comma below', () => {
    expect(cleanText('café CAFE\u0301 naïve', opts)).toBe('café café naïve');
    expect(cleanText('київ і\u0308жак йод и\u0306од', opts)).toBe('київ їжак йод йод');
    expect(cleanText('ça ąę șț', opts)).toBe('ça ąę șț');
  });
  it('the one-pass path gives what the full path gives when a mark composes', () => {
    for (const text of [
      'cafe\u0301 x\u0336',
      'e\u0336\u0301',
      'и\u0306 a\u0323\u0302',
      'e\u0301\u0336\u0323',
    ])
      expect(viaCodes(text)).toBe(normalizeText(text, opts));
  });
  it('drops in one pass only combining diacritics that compose with no letter', () => {
    // A mark dropped before NFKC must not be one that a Latin, Greek or Cyrillic letter composes with.
    const { fastFold } = buildFastFold();
    const dropped = [...Array(0x70).keys()].map((k) => 0x300 + k).filter((mark) => fastFold[mark] === 0xfffe);
    expect(dropped).toContain(0x0336); // the strikethrough overlay
    const composing: string[] = [];
    for (const mark of dropped) {
      const m = String.fromCharCode(mark);
      for (let code = 0x41; code <= 0x52f; code++) {
        const x = String.fromCharCode(code);
        if ((x + m).normalize('NFC').length === 1)
          composing.push(`${code.toString(16)}+${mark.toString(16)}`);
      }
    }
    expect(composing).toEqual([]);
  });
});
