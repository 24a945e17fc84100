import { describe, expect, it } from 'vitest';
import { resolveDedupConfig } from '../../src/config/profiles.js';
import { canonicalize } from '../../src/text/canonical.js';
import { foldGreekCapitals } from '../../src/text/greek-capitals.js';

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
