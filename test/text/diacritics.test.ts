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
  it('removes the acute and grave stress marks of Russian and Ukrainian words, written apart or composed', () => {
    expect(cleanText('за\u0301мок и замо\u0300к', opts)).toBe('замок и замок');
    // NFKC composes е and и with the grave (ѐ ѝ), г and к with the acute (ѓ ќ): the same letters again.
    expect(cleanText('Е\u0300сли и\u0300 ѐ ѝ Ѐ Ѝ г\u0301 ѓ ќ', opts)).toBe('если и е и е и г г к');
    expect(cleanText('ві\u0301дповідь украї\u0301нською', opts)).toBe('відповідь українською');
  });
  it('keeps й, ё (е, as the letter rules read it), ї, і, є and ґ', () => {
    expect(cleanText('йод и\u0306од ёж е\u0308ж їжак і\u0308жак ідея є ґанок', opts)).toBe(
      'йод йод еж еж їжак їжак ідея є ґанок',
    );
    // A stress mark on them goes, the letter stays.
    expect(cleanText('ї\u0301жа є\u0301дність ё\u0301лка', opts)).toBe('їжа єдність елка');
  });
  it('leaves Persian and Arabic letters and their own marks to the Persian rules', () => {
    expect(cleanText('خبرگزاری فارس آمد', opts)).toBe('خبرگزاری فارس آمد');
  });
  it('drops marks below from a letter: dot, ring, tilde, macron, circumflex, breve, diaeresis below', () => {
    expect(cleanText('ẹxtra ṭhe ḁll ḛnd p\u0323rice', opts)).toBe('extra the all end price');
    expect(withoutMarkBelow('ệ')).toBe('ê');
    expect(withoutMarkBelow('é')).toBe('é');
  });
  it('keeps letters whose accents spell words: composed accents, ї й, cedilla, ogonek, comma below', () => {
    // Latin accents are folded only where the text shows the disguise (accented-text.ts).
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
  it('sends every combining diacritic (U+0300-036F) to the full path, which reads it as Zalgo evidence', () => {
    // The one pass never drops one: a mark that composes with nothing makes the text "decorated"
    // (stacked-marks.ts), and only the full path looks at the text as a whole.
    const { fastFold } = buildFastFold();
    const dropped = [...Array(0x70).keys()].map((k) => 0x300 + k).filter((mark) => fastFold[mark] === 0xfffe);
    expect(dropped).toEqual([]);
    expect(viaCodes('f\u0336ree ite\u0301m')).toBe('free item');
  });
});
