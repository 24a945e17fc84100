import type { Language } from '../text/language.js';

/**
 * A message's facts fingerprint: the calendar dates it names (day and month), a small,
 * deterministic set kept in the stored record so the story rule can tell two reports of one
 * topic from two reports of one event.
 *
 * Why dates and not every number or name: on the shared news sets (docs/quality.md), the story
 * links that joined different events were mostly series (weather forecasts for two days, daily
 * ratings of one city, two sessions of one parliament) whose weighted vocabulary is the same and
 * whose dates differ, while true same-story pairs share their date or only one side names one.
 * Plain numbers were no separator there: same-story reports quote different figures (scores,
 * ages, counts) as often as different events do, and refusing on "no shared number" lost more
 * true links than false ones.
 *
 * A date is a day 1-31 next to a month name (`16 ноября`, `November 16th`, `16 листопада`,
 * `۱۶ آبان` after digit folding); the code is month * 32 + day with Gregorian months 1-12 and
 * Solar Hijri months 13-24. At most MAX_DATES codes are kept (the smallest), sorted.
 */

export const MAX_DATES = 8;

const GREGORIAN: ReadonlyArray<readonly string[]> = [
  ['январь', 'января', 'січень', 'січня', 'january', 'jan', 'ژانویه'],
  ['февраль', 'февраля', 'лютий', 'лютого', 'february', 'feb', 'فوریه'],
  ['март', 'марта', 'березень', 'березня', 'march', 'mar', 'مارس'],
  ['апрель', 'апреля', 'квітень', 'квітня', 'april', 'apr', 'آوریل'],
  ['май', 'мая', 'травень', 'травня', 'may', 'مه'],
  ['июнь', 'июня', 'червень', 'червня', 'june', 'jun', 'ژوئن'],
  ['июль', 'июля', 'липень', 'липня', 'july', 'jul', 'ژوئیه', 'جولای'],
  ['август', 'августа', 'серпень', 'серпня', 'august', 'aug', 'اوت', 'آگوست'],
  ['сентябрь', 'сентября', 'вересень', 'вересня', 'september', 'sep', 'sept', 'سپتامبر'],
  ['октябрь', 'октября', 'жовтень', 'жовтня', 'october', 'oct', 'اکتبر'],
  ['ноябрь', 'ноября', 'листопад', 'листопада', 'november', 'nov', 'نوامبر'],
  ['декабрь', 'декабря', 'грудень', 'грудня', 'december', 'dec', 'دسامبر'],
];

const SOLAR = [
  'فروردین',
  'اردیبهشت',
  'خرداد',
  'تیر',
  'مرداد',
  'شهریور',
  'مهر',
  'آبان',
  'آذر',
  'دی',
  'بهمن',
  'اسفند',
];

const MONTH = new Map<string, number>();
GREGORIAN.forEach((names, i) => {
  for (const name of names) MONTH.set(name, i + 1);
});
SOLAR.forEach((name, i) => {
  MONTH.set(name, 13 + i);
});

/** A day of the month as a canonical token: 1-31, with an English or Russian ordinal ending. */
const DAY = /^(\d{1,2})(?:st|nd|rd|th|го|е|я)?$/;

const YEAR = /^(19|20)\d\d$/;

function dayOf(token: string | undefined): number {
  if (token === undefined) return 0;
  const m = DAY.exec(token);
  if (!m) return 0;
  const day = Number(m[1]);
  return day >= 1 && day <= 31 ? day : 0;
}

/**
 * The dates named in a canonical text (tokens joined by one space, lower case, digits folded to
 * ASCII). The language is not needed: month names do not collide across the supported scripts,
 * and a month word counts only next to a day number, which keeps `may` (the verb) and `мая`
 * without a day out.
 */
export function dateFacts(canonical: string, _lang?: Language): number[] {
  const tokens = canonical.split(' ');
  const codes = new Set<number>();
  for (let i = 0; i < tokens.length; i++) {
    const month = MONTH.get(tokens[i] as string);
    if (month === undefined) continue;
    // "16 ноября" (day first) is the usual order; "november 16" the English one.
    const before = dayOf(tokens[i - 1]);
    const day = before || dayOf(tokens[i + 1]);
    if (day === 0) continue;
    // A date with its year ("5 июля 2019", "may 9 2017") is mostly background (the earlier
    // event a follow-up recalls); the report's own date is named without one.
    if (YEAR.test(tokens[before ? i + 1 : i + 2] ?? '')) continue;
    codes.add(month * 32 + day);
  }
  return [...codes].sort((a, b) => a - b).slice(0, MAX_DATES);
}

/** factKind of a token that is neither a month, a day nor a year. */
export const FACT_NONE = 0;
/** factKind of a day d (1-31) is DAY_KIND + d; months are 1-24 (Gregorian 1-12, Solar Hijri 13-24). */
const DAY_KIND = 32;
const YEAR_KIND = 64;

/**
 * What one canonical token is to dateFacts, as a byte: a month (1-24), a day (DAY_KIND + 1-31), a
 * year (YEAR_KIND), or FACT_NONE. The signer keeps it per vocabulary word, so a message's dates
 * are read from its token slots without splitting the text again (dateFactsOfKinds).
 */
export function factKind(token: string): number {
  const month = MONTH.get(token);
  if (month !== undefined) return month;
  const day = dayOf(token);
  if (day !== 0) return DAY_KIND + day;
  return YEAR.test(token) ? YEAR_KIND : FACT_NONE;
}

function dayOfKind(kind: number): number {
  return kind > DAY_KIND && kind <= DAY_KIND + 31 ? kind - DAY_KIND : 0;
}

/**
 * dateFacts of the token sequence whose token i has factKind `kinds[slots[i]]` (i < count): the
 * same dates as dateFacts of the text those tokens make (dateFacts, which splits the text, is the
 * reference: explain and the tests use it).
 */
export function dateFactsOfKinds(kinds: Uint8Array, slots: Int32Array, count: number): number[] {
  let codes: number[] | null = null;
  for (let i = 0; i < count; i++) {
    const month = kinds[slots[i] as number] as number;
    if (month === FACT_NONE || month > 24) continue;
    const before = i > 0 ? dayOfKind(kinds[slots[i - 1] as number] as number) : 0;
    const day = before || (i + 1 < count ? dayOfKind(kinds[slots[i + 1] as number] as number) : 0);
    if (day === 0) continue;
    // One addition for both orders ("5 march 2024", "march 5 2024"): the order first seen late
    // would have cost the signer a recompile.
    const year = i + (before ? 1 : 2);
    if (year < count && kinds[slots[year] as number] === YEAR_KIND) continue;
    const code = month * 32 + day;
    codes ??= [];
    if (!codes.includes(code)) codes.push(code);
  }
  return codes === null ? [] : codes.sort((a, b) => a - b).slice(0, MAX_DATES);
}

export type FactsRelation = 'agree' | 'conflict' | 'unknown';

/**
 * How two messages' facts relate: `agree` when they share a date, `conflict` when both name
 * dates and share none, `unknown` when a side names none (a truncated copy, a report without a
 * date), which is never held against a link.
 */
export function factsRelation(
  a: readonly number[] | undefined,
  b: readonly number[] | undefined,
): FactsRelation {
  if (a === undefined || b === undefined || a.length === 0 || b.length === 0) return 'unknown';
  let i = 0;
  let j = 0;
  while (i < a.length && j < b.length) {
    const x = a[i] as number;
    const y = b[j] as number;
    if (x === y) return 'agree';
    if (x < y) i++;
    else j++;
  }
  return 'conflict';
}

/** A date code as text (`11-16`: month-day; Solar Hijri months are 13-24), for explain. */
export function formatDate(code: number): string {
  return `${Math.floor(code / 32)}-${code % 32}`;
}
