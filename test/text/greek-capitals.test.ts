import { describe, expect, it } from 'vitest';
import { resolveDedupConfig } from '../../src/config/profiles.js';
import { canonicalize } from '../../src/text/canonical.js';
import { foldCapitalTwins, foldGreekCapitals } from '../../src/text/greek-capitals.js';
import { mostlyLatin } from '../../src/text/word-scripts.js';

describe('Greek capitals in Latin words', () => {
  it('writes the capitals of a mixed Latin-Greek word as their Latin twins', () => {
    expect(foldGreekCapitals('ΝEWS from ΥOUR ΒΑΝΚ')).toBe('NEWS from YOUR ΒΑΝΚ');
    expect(foldGreekCapitals('ΗOTΕL Ρrices, ΧMAS')).toBe('HOTEL Prices, XMAS');
  });
  it('leaves Greek words and texts without Greek capitals alone', () => {
    for (const text of ['Η Αθήνα και ο ΝΑΤΟ', 'plain English', 'νews in small letters'])
      expect(foldGreekCapitals(text)).toBe(text);
  });
  it('lets a copy with Greek capitals sign like its original', () => {
    const config = resolveDedupConfig('news').signatures.canonical;
    const original = canonicalize({ text: 'New York news: your hotel', kind: 'text' }, config, 'en');
    const copy = canonicalize({ text: 'Νew Υork Νews: Υour ΗoΤel', kind: 'text' }, config, 'en');
    expect(copy.canonical).toBe(original.canonical);
  });
});

describe('words wholly in Greek or Cyrillic capitals in Latin text', () => {
  const codes = (text: string): Uint16Array => Uint16Array.from(text.toLowerCase(), (c) => c.charCodeAt(0));
  it('writes them as Latin capitals when most of the text is Latin', () => {
    expect(foldCapitalTwins('ΝΕΧΤ week: ΗΟΤ deals for СОМЕ buyers, ΝΟ fees', true)).toBe(
      'NEXT week: HOT deals for COME buyers, NO fees',
    );
  });
  it('keeps words with any other letter, and leaves a Greek or Russian text alone', () => {
    expect(foldCapitalTwins('ΝΑΤΟ and ΣΥΡΙΖΑ, МВД and Ноте', true)).toBe('NATO and ΣΥΡΙΖΑ, МВД and Ноте');
    for (const text of ['Η ΝΑΤΟ και η Αθήνα', 'ТАСС сообщает: ОМОН на месте']) {
      const latin = mostlyLatin(codes(text), text.length);
      expect(latin).toBe(false);
      expect(foldCapitalTwins(text, latin)).toBe(text);
    }
  });
  it('decides by the letters of Latin, Cyrillic and Greek only', () => {
    const text = 'Breaking news from the TASS agency: ТАСС 2024 !!!';
    expect(mostlyLatin(codes(text), text.length)).toBe(true);
  });
  it('lets a copy with whole words swapped into capitals sign like its original', () => {
    const config = resolveDedupConfig('news').signatures.canonical;
    const original = canonicalize(
      { text: 'The next hot deal is on the way to you, order today', kind: 'text' },
      config,
      'en',
    );
    const copy = canonicalize(
      { text: 'ΤΗΕ next ΗΟΤ deal is ΟΝ ТНЕ way ΤΟ you, order today', kind: 'text' },
      config,
      'en',
    );
    expect(copy.canonical).toBe(original.canonical);
  });
});
