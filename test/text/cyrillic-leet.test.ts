import { describe, expect, it } from 'vitest';
import { undoCyrillicLeet, undoCyrillicLeetText } from '../../src/text/cyrillic-leet.js';
import { codesOf, lexiconOf, textOf } from '../support/lexicon-fixture.js';

const known = lexiconOf({
  заработок: 6,
  бесплатно: 5,
  доход: 4,
  акция: 4,
  число: 3,
  время: 2,
  тело: 4,
  защита: 4,
  законе: 5,
  год: 2,
  су: 9,
});
const stops = new Set(['на', 'по', 'что', 'за', 'до', 'и', 'в', 'его']);
const apply = (text: string, rule: (codes: Uint16Array, n: number) => number): string => {
  const codes = codesOf(text);
  rule(codes, codes.length);
  return textOf(codes, codes.length);
};
const words = (text: string) => apply(text, (c, n) => undoCyrillicLeet(c, n, known));
const leetText = (text: string) => apply(text, (c, n) => undoCyrillicLeetText(c, n, known, stops));

describe('Cyrillic leet, word by word', () => {
  it('reads digits and @ as the Cyrillic letters they stand for, into known words', () => {
    expect(words('3аработок 6есплатно д0ход @кция 4исло 8ремя 3ащита')).toBe(
      'заработок бесплатно доход акция число время защита',
    );
    // 3 as з or as е, whichever makes the word; a final 0 is о.
    expect(words('тел0 3акон3')).toBe('тело законе');
  });
  it('leaves numbers, models, ordinals and words that read as no known word', () => {
    // "г0д" is too short a word to read alone, "х0р0ш0" reads as no known word.
    for (const text of ['су57 гл2 10го 3й 5g', 'х0р0ш0', 'г0д']) expect(words(text)).toBe(text);
    // Latin text is not read (its leet is dictionary-words.ts's).
    expect(words('fr33 m0ney')).toBe('fr33 m0ney');
  });
  it('counts the mixed runs it sees, short ones too', () => {
    const seen = { mixed: 0 };
    const codes = codesOf('н@ г0д 3аработок су57');
    undoCyrillicLeet(codes, codes.length, known, seen);
    expect(seen.mixed).toBe(3);
  });
});

describe('a text in Cyrillic leet throughout', () => {
  it('reads short words and word forms the lexicon lacks too', () => {
    expect(leetText('н@ г0д п0 4т0 3@ кн0пк3')).toBe('на год по что за кнопке');
  });
  it('leaves stop words and known words as written', () => {
    expect(leetText('на год и в')).toBe('на год и в');
  });
});
