import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { fastNfkc, MAX_NORMALIZED_LENGTH } from '../../src/text/nfkc.js';
import { normalizeText, normalizeTextCodes } from '../../src/text/normalize.js';
import { hasSharedData, readSharedJsonl, warnIfNoSharedData } from '../support/shared-data.js';

describe('fastNfkc', () => {
  it('equals String#normalize on tricky strings', () => {
    const cases = [
      'и\u0306 е\u0308 a\u0301', // combining marks after inert letters compose
      'ﬁ ＡＢＣ ½ № … \u00a0', // compatibility characters
      'ا\u0653 ی\u0654 و\u0654', // Arabic hamza/madda compose with the letter before
      '\u1100\u1161\u11a8 가', // Hangul jamo compose into a syllable
      '\ufee1\ufeb3\ufef5', // Arabic presentation forms
      '😀 \ud835\udc00', // astral characters
      '\u0301 leading mark',
      '',
    ];
    for (const text of cases) expect(fastNfkc(text)).toBe(text.normalize('NFKC'));
  });

  it('returns the same string object when nothing can change', () => {
    const text = 'Россия экспортировала 17,5 млн тонн — «рекорд». خبرگزاری فارس';
    expect(fastNfkc(text)).toBe(text);
  });

  it('equals String#normalize on random strings of mixed scripts', () => {
    const alphabet = fc.constantFrom(
      ...'aéи\u0306\u0301\u0308ёй ،ا\u0653\u0654ی\u064b\u0670ﬁ½…\u00a0\u200c\u1100\u1161가ﻡＡ.!'.split(''),
    );
    fc.assert(
      fc.property(fc.array(alphabet, { maxLength: 40 }), (chars) => {
        const text = chars.join('');
        expect(fastNfkc(text)).toBe(text.normalize('NFKC'));
      }),
      { numRuns: 2000 },
    );
  });

  it('equals String#normalize on full-range random strings', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'binary', maxLength: 60 }), (text) => {
        expect(fastNfkc(text)).toBe(text.normalize('NFKC'));
      }),
      { numRuns: 2000 },
    );
  });

  describe.skipIf(!hasSharedData())('on real articles (../shared/data)', () => {
    warnIfNoSharedData();
    it('equals String#normalize for every article', () => {
      for (const file of ['news-ru.jsonl', 'news-en.jsonl', 'news-fa.jsonl', 'mail-en.jsonl']) {
        for (const doc of readSharedJsonl(file)) expect(fastNfkc(doc.text)).toBe(doc.text.normalize('NFKC'));
      }
    });
  });
});

describe('NFKC expansion bound', () => {
  it('U+FDFA (one character, 18 once normalized): a 4 MiB line is TOO_LARGE before it is built', () => {
    // 1.4 M characters of U+FDFA (4 MiB of UTF-8) would normalize to 25 M characters.
    const line = '\ufdfa'.repeat(1_400_000);
    const started = process.cpuUsage();
    for (const normalize of [
      () => fastNfkc(line),
      () => normalizeText(line, { zwnj: 'space' }),
      () => normalizeTextCodes(line, { zwnj: 'space' }),
    ]) {
      expect(normalize).toThrowError(expect.objectContaining({ code: 'TOO_LARGE' }));
    }
    const { user, system } = process.cpuUsage(started);
    expect((user + system) / 1000, 'CPU ms for the three refusals').toBeLessThan(2_000);
  });

  it('below the bound the text normalizes as before', () => {
    const text = `${'\ufdfa '.repeat(1000)}end`;
    expect(fastNfkc(text)).toBe(text.normalize('NFKC'));
    expect(MAX_NORMALIZED_LENGTH).toBe(8 * 1024 * 1024);
  });
});
