import { describe, expect, it } from 'vitest';
import { cleanText, cleanTextCodes } from '../../src/text/clean.js';
import { normalizeText } from '../../src/text/normalize.js';

const opts = { zwnj: 'join' as const };

describe('cleanText (normalization, then look-alikes and Persian affixes)', () => {
  it('equals the normalized text when no word needs folding or joining', () => {
    for (const text of ['The Bank closed.', 'Банк закрылся.\nВторая строка', 'Київ і Львів']) {
      expect(cleanText(text, opts)).toBe(normalizeText(text, opts));
    }
  });
  it('applies every rule in one call: invisibles, look-alikes, tatweel, affixes', () => {
    expect(cleanText('The b\u200eаnk', opts)).toBe('the bank');
    expect(cleanText('کتـاب ها می\u200cشود', opts)).toBe('کتابها میشود');
  });
  it('returns code units that read as the same string', () => {
    const { codes, length } = cleanTextCodes('می شود', opts);
    expect(String.fromCharCode(...codes.subarray(0, length))).toBe('میشود');
  });
});
