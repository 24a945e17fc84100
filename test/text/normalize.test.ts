import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  cleanLayout,
  collapseWhitespace,
  normalizeLetters,
  normalizeLettersReference,
  normalizeText,
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
  describe.skipIf(!hasSharedData())('on real articles (../shared/data)', () => {
    it('equals the reference for every article', () => {
      for (const file of ['news-ru.jsonl', 'news-en.jsonl', 'news-fa.jsonl', 'mail-en.jsonl']) {
        for (const doc of readSharedJsonl(file)) {
          expect(normalizeLetters(doc.text, opts)).toBe(normalizeLettersReference(doc.text, opts));
        }
      }
    });
  });
});
