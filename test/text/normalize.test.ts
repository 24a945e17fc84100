import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  cleanLayout,
  collapseWhitespace,
  normalizeLetters,
  normalizeLettersReference,
  normalizeText,
  normalizeTextCodes,
} from '../../src/text/normalize.js';
import { hasSharedData, readSharedJsonl, warnIfNoSharedData } from '../support/shared-data.js';

warnIfNoSharedData();

const opts = { zwnj: 'space' as const };

describe('cleanLayout (seed 002 clean-up)', () => {
  it('re-joins a word hyphenated at a line end', () => {
    expect(cleanLayout('сельскохозяй-\nственного года')).toBe('сельскохозяйственного года');
    expect(cleanLayout('inter-\n  national')).toBe('international');
  });
  it('keeps a hyphen before a capitalised line (compound or list)', () => {
    expect(cleanLayout('Москва-\nПекин')).toBe('Москва-\nПекин');
  });
  it('drops soft hyphens and zero-width characters', () => {
    expect(cleanLayout('пере\u00adнос\u200bслова')).toBe('переносслова');
  });
  it('drops lines that are only a page number', () => {
    const page = 'конец страницы\n\n- 12 -\n\nначало следующей\n7\nстр. 8\nPage 9\n12/40\n';
    const cleaned = cleanLayout(page);
    expect(cleaned).not.toMatch(/\d/);
    expect(cleaned).toContain('конец страницы');
    expect(cleaned).toContain('начало следующей');
  });
  it('keeps numbers inside sentences', () => {
    expect(cleanLayout('в 2019 году\n17,5 миллиона')).toBe('в 2019 году\n17,5 миллиона');
  });
  it('turns form feeds and CRLF into line breaks', () => {
    expect(cleanLayout('a\r\nb\fc\rd')).toBe('a\nb\nc\nd');
  });
});

describe('normalizeLetters', () => {
  it('lower-cases and maps ё to е', () => {
    expect(normalizeLetters('ЁЛКА Ёж', opts)).toBe('елка еж');
  });
  it('unifies Ukrainian apostrophes', () => {
    const forms = ["м'ясо", 'м’ясо', 'мʼясо', 'м‘ясо'];
    expect(new Set(forms.map((f) => normalizeLetters(f, opts)))).toEqual(new Set(["м'ясо"]));
  });
  it('maps Arabic yeh and kaf to the Persian forms', () => {
    expect(normalizeLetters('بانكي', opts)).toBe('بانکی');
    expect(normalizeLetters('روستايي', opts)).toBe('روستایی');
    expect(normalizeLetters('مصطفى', opts)).toBe('مصطفی');
  });
  it('removes tatweel and harakat', () => {
    expect(normalizeLetters('كـــتاب', opts)).toBe('کتاب');
    expect(normalizeLetters('مُحَمَّد', opts)).toBe('محمد');
  });
  it('turns Persian and Arabic-Indic digits into ASCII', () => {
    expect(normalizeLetters('۱۳۹۸ و ٢٠١٩', opts)).toBe('1398 و 2019');
  });
  it('applies one ZWNJ rule everywhere', () => {
    expect(normalizeLetters('می\u200cشود', { zwnj: 'space' })).toBe('می شود');
    expect(normalizeLetters('می\u200cشود', { zwnj: 'remove' })).toBe('میشود');
  });
  it('applies NFKC (ligatures, full-width, presentation forms)', () => {
    expect(normalizeLetters('ﬁle ＡＢＣ', opts)).toBe('file abc');
    expect(normalizeLetters('\ufee1\ufeb3', opts)).toBe('مس');
  });
});

describe('collapseWhitespace / normalizeText', () => {
  it('collapses spaces and blank lines but keeps single line breaks', () => {
    expect(collapseWhitespace('  a \t b \n\n\n c  ')).toBe('a b\nc');
  });
  it('is idempotent', () => {
    const once = normalizeText('Россия  с начала\u00a0года —\n\n«Ёлки»  ', opts);
    expect(normalizeText(once, opts)).toBe(once);
  });
});

describe('foldLetters (one-pass letter rules)', () => {
  const both = [{ zwnj: 'space' as const }, { zwnj: 'remove' as const }];
  it('equals the string-operation reference on tricky strings', () => {
    const cases = [
      'ΟΔΥΣΣΕΥΣ Σ', // final sigma depends on context
      'İstanbul', // lower case longer than one code unit
      '𐐀𐐁 Deseret', // astral capitals
      'Ёлка М’ЯСО كتاب ۱۲۳ می\u200cشود مُحَمَّد كـــتاب',
      '',
    ];
    for (const options of both) {
      for (const text of cases)
        expect(normalizeLetters(text, options)).toBe(normalizeLettersReference(text, options));
    }
  });
  it('equals the reference on random strings', () => {
    const alphabet = fc.constantFrom(
      ...'AaЁёИйΣσςİIı’ʼ`´يىكۀةأإٱؤ\u064b\u0670\u0640۱٢\u200c\u200d ﬁ½Ａ.'.split(''),
      '😀',
      '𐐀',
    );
    for (const options of both) {
      fc.assert(
        fc.property(fc.array(alphabet, { maxLength: 30 }), (chars) => {
          const text = chars.join('');
          expect(normalizeLetters(text, options)).toBe(normalizeLettersReference(text, options));
        }),
        { numRuns: 1500 },
      );
    }
  });
  it('equals the reference on full-range random strings', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'binary', maxLength: 50 }), (text) => {
        expect(normalizeLetters(text, opts)).toBe(normalizeLettersReference(text, opts));
      }),
      { numRuns: 3000 },
    );
  });
  describe.skipIf(!hasSharedData())('on real articles (evaluation corpus)', () => {
    it('equals the reference for every article', () => {
      for (const file of ['news-ru.jsonl', 'news-en.jsonl', 'news-fa.jsonl', 'mail-en.jsonl']) {
        for (const doc of readSharedJsonl(file)) {
          expect(normalizeLetters(doc.text, opts)).toBe(normalizeLettersReference(doc.text, opts));
        }
      }
    });
  });
});

describe('normalizeTextCodes (one-pass fast path)', () => {
  const both = [{ zwnj: 'space' as const }, { zwnj: 'remove' as const }];
  const viaCodes = (text: string, options: { zwnj: 'space' | 'remove' }) => {
    const { codes, length } = normalizeTextCodes(text, options);
    return String.fromCharCode(...codes.subarray(0, length));
  };
  it('equals normalizeText around every layout rule and special character', () => {
    const cases = [
      'сельскохозяй-\nственного года',
      'inter- \t\n  national',
      'a-b\nc- x\nd',
      'конец\n\n- 12 -\n\nначало',
      'short 1\nline',
      'x'.repeat(20) + '1' + 'y'.repeat(23),
      'x'.repeat(21) + '1' + 'y'.repeat(23),
      'x'.repeat(20) + '1' + 'y'.repeat(24),
      `${'long line with no digit '.repeat(3)}\n${'x'.repeat(30)}7${'y'.repeat(30)}`,
      '7',
      'a\r\nb\fc',
      'пере\u00adнос\u200bслова\u200d',
      'ΟΔΥΣΣΕΥΣ Σ ﬁle ＡＢＣ مُحَمَّد كـــتاب ۱۳۹۸ می\u200cشود Ёлка М’ЯСО',
      '',
    ];
    // Page-number lines at the edges of cleanLayout's short-line pre-check.
    for (const before of [19, 20, 21])
      for (const after of [22, 23, 24]) {
        const line = `${' '.repeat(before)}7${' '.repeat(after)}`;
        cases.push(`text\n${line}\nmore`, line, `${line}\nmore`, `text\n${line}`);
      }
    for (const options of both)
      for (const text of cases) expect(viaCodes(text, options)).toBe(normalizeText(text, options));
  });
  it('equals normalizeText on random strings', () => {
    const alphabet = fc.constantFrom(
      ...'Aaё1 9\t\n\n-\u2010\u2011\rΣςİ’يك\u064b\u0640۱\u200c\u200d\u00adﬁ.'.split(''),
      'word',
      'стр.',
      '😀',
    );
    // Mostly characters of the one-pass path, so that its layout tracking is what gets tested.
    const fastAlphabet = fc.constantFrom(
      ...'Aaё1 9\t\n\n\n-\u2010\u2011’يك۱\u200c.'.split(''),
      'word',
      'стр.',
    );
    for (const options of both) {
      for (const chars of [alphabet, fastAlphabet]) {
        fc.assert(
          fc.property(fc.array(chars, { maxLength: 60 }), (list) => {
            const text = list.join('');
            expect(viaCodes(text, options)).toBe(normalizeText(text, options));
          }),
          { numRuns: 3000 },
        );
      }
    }
  });
  it('equals normalizeText around characters NFKC replaces and Arabic marks', () => {
    // Replaced one by one (… № no-break space ½ ﬁ Ａ ″, alef isolated form), droppable harakat,
    // composing hamza and madda, a composing Latin accent, and their neighbours.
    const alphabet = fc.constantFrom(
      ...'…№\u00a0½ﬁＡ″\ufe8d\u064b\u0651\u064e\u0670\u0653\u0654\u0655\u0301اويeE .\n'.split(''),
    );
    for (const options of both) {
      fc.assert(
        fc.property(fc.array(alphabet, { maxLength: 40 }), (list) => {
          const text = list.join('');
          expect(viaCodes(text, options)).toBe(normalizeText(text, options));
        }),
        { numRuns: 5000 },
      );
    }
  });
  it('drops only Arabic marks that compose with no character', () => {
    // The one-pass path drops these marks before NFKC: valid only if no character composes with them.
    const droppable: number[] = [];
    for (let code = 0x0600; code <= 0x06ff; code++) {
      const ch = String.fromCharCode(code);
      if (/\p{M}/u.test(ch) && normalizeLetters(ch, opts) === '' && ![0x0653, 0x0654, 0x0655].includes(code))
        droppable.push(code);
    }
    expect(droppable.length).toBeGreaterThan(30);
    const composing: string[] = [];
    for (const mark of droppable) {
      const m = String.fromCharCode(mark);
      for (let code = 0; code < 0x10000; code++) {
        if (code >= 0xd800 && code <= 0xdfff) continue;
        const x = String.fromCharCode(code);
        if ((x + m).normalize('NFKC').length !== x.normalize('NFKC').length + 1)
          composing.push(`${code.toString(16)}+${mark.toString(16)}`);
      }
    }
    expect(composing).toEqual([]);
  });
  describe.skipIf(!hasSharedData())('on real articles (evaluation corpus)', () => {
    it('equals normalizeText for every article', () => {
      for (const file of ['news-ru.jsonl', 'news-en.jsonl', 'news-fa.jsonl', 'mail-en.jsonl']) {
        for (const doc of readSharedJsonl(file))
          expect(viaCodes(doc.text, opts)).toBe(normalizeText(doc.text, opts));
      }
    });
  });
});
