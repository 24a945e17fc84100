import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  dateFacts,
  dateFactsOfKinds,
  factKind,
  factsRelation,
  formatDate,
} from '../../src/signatures/facts.js';

const dates = (canonical: string) => dateFacts(canonical).map(formatDate);

describe('date facts (story rule: reports of a series differ in their dates)', () => {
  it('finds day-month dates in Russian, Ukrainian, English and Persian canonical text', () => {
    expect(dates('прогноз погоды в субботу 16 ноября по области снег')).toEqual(['11-16']);
    expect(dates('сесія 8 листопада і 9 листопада')).toEqual(['11-8', '11-9']);
    expect(dates('on november 16th and 3 december the court')).toEqual(['11-16', '12-3']);
    // Solar Hijri months are 13-24, apart from the Gregorian ones.
    expect(dates('روز 16 آبان و 2 دسامبر')).toEqual(['12-2', '20-16']);
  });

  it('ignores month words without a day, days out of range and dates given with their year', () => {
    // "may" the verb, a month alone, 45 is no day.
    expect(dates('it may 3d rain in may and 45 november')).toEqual([]);
    // A date with its year is mostly background (the earlier event a follow-up recalls).
    expect(dates('в аварии 5 июля 2019 года и 7 ноября')).toEqual(['11-7']);
    expect(dates('on may 9 2017 she fell')).toEqual([]);
  });

  it('relates two fact sets: agree on a shared date, conflict on disjoint dates, unknown without', () => {
    const a = dateFacts('16 ноября');
    const b = dateFacts('8 ноября 16 ноября');
    const c = dateFacts('8 ноября');
    expect(factsRelation(a, b)).toBe('agree');
    expect(factsRelation(a, c)).toBe('conflict');
    expect(factsRelation(a, [])).toBe('unknown');
    expect(factsRelation(undefined, c)).toBe('unknown');
  });
});

describe('dates from token kinds (the signer reads them from its vocabulary slots)', () => {
  // Word i of `words` sits in slot `slotOf[i]` of a shuffled kinds table, as in a vocabulary.
  const viaKinds = (canonical: string) => {
    const words = canonical.split(' ');
    const slotOf = new Map<string, number>();
    for (const w of words) if (!slotOf.has(w)) slotOf.set(w, (slotOf.size * 7 + 3) % 1009);
    const kinds = new Uint8Array(1009);
    for (const [w, slot] of slotOf) kinds[slot] = factKind(w);
    const slots = Int32Array.from(words, (w) => slotOf.get(w) as number);
    return dateFactsOfKinds(kinds, slots, words.length);
  };

  it('gives the dates of the text, on the cases above', () => {
    for (const text of [
      'прогноз погоды в субботу 16 ноября по области снег',
      'сесія 8 листопада і 9 листопада',
      'on november 16th and 3 december the court',
      'روز 16 آبان و 2 دسامبر',
      'it may 3d rain in may and 45 november',
      'в аварии 5 июля 2019 года и 7 ноября',
      'on may 9 2017 she fell',
      '16 ноября',
      '',
    ])
      expect(viaKinds(text), text).toEqual(dateFacts(text));
  });

  it('gives the dates of the text on any sequence of days, months, years and words', () => {
    const token = fc.constantFrom(
      '1',
      '16',
      '31',
      '32',
      '0',
      '3rd',
      '16th',
      '16го',
      '9е',
      'ноября',
      'may',
      'november',
      'آبان',
      'دسامبر',
      'листопада',
      '2019',
      '1999',
      '2100',
      'года',
      'and',
      'jan',
      'sept',
    );
    fc.assert(
      fc.property(fc.array(token, { maxLength: 40 }), (words) => {
        const text = words.join(' ');
        expect(viaKinds(text)).toEqual(dateFacts(text));
      }),
      { numRuns: 500 },
    );
  });

  it('keeps at most MAX_DATES dates, the smallest codes', () => {
    const text = Array.from({ length: 12 }, (_, d) => `${d + 1} ноября`).join(' и ');
    expect(viaKinds(text)).toEqual(dateFacts(text));
    expect(viaKinds(text)).toHaveLength(8);
  });
});
