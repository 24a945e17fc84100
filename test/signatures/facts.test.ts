import { describe, expect, it } from 'vitest';
import { dateFacts, factsRelation, formatDate } from '../../src/signatures/facts.js';

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
