import { describe, expect, it } from 'vitest';
import { cleanText } from '../../src/text/clean.js';
import { joinPersianAffixes } from '../../src/text/persian-affixes.js';

const join = (text: string): string => {
  const codes = Uint16Array.from(text, (ch) => ch.charCodeAt(0));
  return String.fromCharCode(...codes.subarray(0, joinPersianAffixes(codes, codes.length)));
};
const clean = (text: string): string => cleanText(text, { zwnj: 'join' });

describe('Persian: ZWNJ, no ZWNJ and a space give one word', () => {
  const triples: Array<[string, string, string]> = [
    ['می\u200cشود', 'میشود', 'می شود'],
    ['نمی\u200cدانم', 'نمیدانم', 'نمی دانم'],
    ['کتاب\u200cها', 'کتابها', 'کتاب ها'],
    ['کتاب\u200cهای', 'کتابهای', 'کتاب های'],
    ['بزرگ\u200cتر', 'بزرگتر', 'بزرگ تر'],
    ['بزرگ\u200cترین', 'بزرگترین', 'بزرگ ترین'],
    ['نامه\u200cای', 'نامهای', 'نامه ای'],
    ['رفته\u200cاند', 'رفتهاند', 'رفته اند'],
  ];
  for (const [zwnj, joined, spaced] of triples) {
    it(`${joined}`, () => {
      expect(clean(zwnj)).toBe(joined);
      expect(clean(joined)).toBe(joined);
      expect(clean(spaced)).toBe(joined);
    });
  }
  it('joins inside a sentence, with Arabic letter forms and tatweel, and chains prefix and suffix', () => {
    expect(clean('او مي گويد كه كتاب ها را نمی‌خواند')).toBe('او میگوید که کتابها را نمیخواند');
    expect(clean('مـی شـود')).toBe('میشود');
  });
  it('keeps ای apart where it is the vocative (not after a final ه)', () => {
    expect(join('ای خدا')).toBe('ای خدا');
    expect(join('گفت ای دوست')).toBe('گفت ای دوست');
  });
  it('never joins across a line break, punctuation, or to a word of another script', () => {
    expect(join('می\nشود')).toBe('می\nشود');
    expect(join('می، شود')).toBe('می، شود');
    expect(join('می test')).toBe('می test');
    expect(join('test ها')).toBe('test ها');
  });
  it('removes a ZWNJ inserted at random into words of any language', () => {
    expect(clean('the tra\u200cnsfer пере\u200cвод')).toBe('the transfer перевод');
  });
  it("keeps the 'space' rule when configured", () => {
    expect(cleanText('می\u200cشود', { zwnj: 'space' })).toBe('می شود');
    expect(cleanText('می شود', { zwnj: 'space' })).toBe('می شود');
  });
});

describe('tatweel', () => {
  it('is removed in every position and language', () => {
    expect(clean('ـکتاب کتـاب کتابـ')).toBe('کتاب کتاب کتاب');
    expect(clean('كـــتاب')).toBe('کتاب');
    expect(clean('bankـ caـt')).toBe('bank cat');
  });
});
