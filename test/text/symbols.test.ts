import { describe, expect, it } from 'vitest';
import { canonicalSchema } from '../../src/config/signatures.js';
import { canonicalize } from '../../src/text/canonical.js';
import { symbolTokens } from '../../src/text/symbols.js';

const config = canonicalSchema.parse({});
const canonical = (text: string): string => canonicalize({ text, kind: 'text' }, config).canonical;

describe('texts of emoji and symbols only', () => {
  it('sign by their symbols: two different emoji texts differ, the same one is equal', () => {
    expect(canonical('☀️☀️☀️ ❤️')).toBe('☀ ☀ ☀ ❤');
    expect(canonical('⚠️ ✈️✈️ ☎️')).toBe('⚠ ✈ ✈ ☎');
    expect(canonical('☀️☀️☀️ ❤️')).not.toBe(canonical('⚠️ ✈️✈️ ☎️'));
    expect(canonical('☀☀☀❤')).toBe(canonical('☀️☀️☀️ ❤️'));
  });
  it('keep emoji sequences apart by their code points (ZWJ sequences, flags, skin tones)', () => {
    expect(canonical('👨‍👩‍👧')).toBe('👨 👩 👧');
    expect(canonical('🇺🇦')).not.toBe(canonical('🇷🇺'));
    expect(canonical('👍🏽')).not.toBe(canonical('👍'));
  });
  it('do not change the canonical text of a text with words', () => {
    expect(canonical('Great ❤️ news!')).toBe('great news');
  });
  it('still make a text of punctuation or math signs only EMPTY_TEXT', () => {
    expect(() => canonical('!!! ... ???')).toThrow(expect.objectContaining({ code: 'EMPTY_TEXT' }));
    expect(() => canonical('<<<< ==== ++ |')).toThrow(expect.objectContaining({ code: 'EMPTY_TEXT' }));
  });
  it('sign currency signs and dingbats too', () => {
    expect(canonical('$$$ ✔ €')).toBe('$ $ $ ✔ €');
  });
  it('give token offsets and sentence ends like the tokenizer (a line break ends a sentence)', () => {
    const tokens = symbolTokens('☀ ☀\n❤');
    expect(tokens.joined).toBe('☀ ☀ ❤');
    expect(Array.from(tokens.starts)).toEqual([0, 2, 4]);
    expect(tokens.sentenceEnds).toEqual([2, 3]);
  });
});
