import { describe, expect, it } from 'vitest';
import { cleanText } from '../../src/text/clean.js';
import { hasStrayMarks, stripLetterMarks, undoStackedMarks } from '../../src/text/stacked-marks.js';

const opts = { zwnj: 'join' as const };

describe('Zalgo: marks stacked on letters', () => {
  it('finds a mark that composes with nothing, but not accents that compose or the stress accents', () => {
    expect(hasStrayMarks('fre\u0336e')).toBe(true);
    expect(hasStrayMarks('e\u0301\u0308\u0334')).toBe(true);
    expect(hasStrayMarks('5\u0300\u0353')).toBe(true);
    expect(hasStrayMarks('cafe\u0301 Zoe\u0308 Sa\u0301nchez')).toBe(false);
    expect(hasStrayMarks('за\u0301мок замо\u0300к')).toBe(false);
    // Vietnamese written decomposed: every mark composes (ễ = e + circumflex + tilde).
    expect(hasStrayMarks('Nguye\u0302\u0303n')).toBe(false);
    expect(hasStrayMarks('plain text')).toBe(false);
  });

  it('in a decorated text, removes every mark written apart from a Latin or Cyrillic letter or a digit', () => {
    expect(stripLetterMarks('i\u0301te\u0307m 2\u03000\u03012\u03060')).toBe('item 2020');
    expect(stripLetterMarks('сло\u0301во\u0334')).toBe('слово');
  });

  it('removes them from Arabic and Persian letters too, whose vowel marks are of their own', () => {
    expect(stripLetterMarks('کت\u0301اب\u0300\u0353 سلا\u0336م')).toBe('کتاب سلام');
    expect(cleanText('خبر\u0301گزاری\u0300 فارس', opts)).toBe(cleanText('خبرگزاری فارس', opts));
    // Arabic harakat stay for the letter rules, which remove them anyway.
    expect(stripLetterMarks('كَتَبَ')).toBe('كَتَبَ');
  });

  it('keeps the marks that spell й, ё and ї when they stand alone on their letter', () => {
    expect(stripLetterMarks('и\u0306од е\u0308ж і\u0308жак')).toBe('и\u0306од е\u0308ж і\u0308жак');
    // A breve stacked with other marks on и is decoration, not й.
    expect(stripLetterMarks('ви\u0306\u0353\u0300д')).toBe('вид');
  });

  it('keeps precomposed letters and letters of other scripts as they are', () => {
    expect(stripLetterMarks('café Zoë ά')).toBe('café Zoë ά');
    expect(stripLetterMarks('α\u0301')).toBe('α\u0301');
  });

  it('leaves a text with no stray mark alone', () => {
    const text = 'Cafe\u0301 owner Zoë Sánchez';
    expect(undoStackedMarks(text)).toBe(text);
  });

  it('reads a Zalgo copy as its original in clean text, accents of the original kept', () => {
    const original = 'The café item was sold at 20 dollars, said Sánchez';
    const zalgo =
      'T\u0352he\u0301 café i\u0301\u0317te\u0300m was\u0303\u0325 so\u0308ld at 2\u03010 dollars, said Sánchez\u0361';
    expect(cleanText(zalgo, opts)).toBe(cleanText(original, opts));
    expect(cleanText('Зда\u0301\u0353ние мо\u0306\u0489й', opts)).toBe('здание мой');
  });
});
