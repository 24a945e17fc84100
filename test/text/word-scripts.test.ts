import { describe, expect, it } from 'vitest';
import {
  HAS_ARABIC,
  HAS_GREEK_MIX,
  HAS_LATIN_CYRILLIC,
  HAS_SCRIPT_MIX,
  scanWords,
} from '../../src/text/word-scripts.js';

const scan = (text: string): number => {
  const codes = Uint16Array.from(text, (ch) => ch.charCodeAt(0));
  return scanWords(codes, codes.length);
};

describe('scanWords', () => {
  it('finds nothing to do in text of one look-alike script (digits and marks are neutral)', () => {
    expect(scan('the bank closed at 5 pm, café')).toBe(0);
    expect(scan('банк закрылся в 17:00')).toBe(0);
    expect(scan('')).toBe(0);
  });
  it('tells a text with letters of two look-alike scripts', () => {
    expect(scan('банк Apple')).toBe(HAS_SCRIPT_MIX | HAS_LATIN_CYRILLIC);
    expect(scan('the bаnk')).toBe(HAS_SCRIPT_MIX | HAS_LATIN_CYRILLIC);
    expect(scan('ελληνικά банк')).toBe(HAS_SCRIPT_MIX | HAS_GREEK_MIX);
    expect(scan('ελληνικά and English')).toBe(HAS_SCRIPT_MIX | HAS_GREEK_MIX);
  });
  it('tells Greek letters beside another script (Greek capitals to fold) from Greek alone', () => {
    expect(scan('ΝEWS')).toBe(HAS_SCRIPT_MIX | HAS_GREEK_MIX);
    expect(scan('Η Αθήνα')).toBe(0);
  });
  it('tells Arabic-script letters apart (Persian affix joining)', () => {
    expect(scan('کتاب ها')).toBe(HAS_ARABIC);
    expect(scan('کتاب ها and Apple банк')).toBe(HAS_ARABIC | HAS_SCRIPT_MIX | HAS_LATIN_CYRILLIC);
  });
});
