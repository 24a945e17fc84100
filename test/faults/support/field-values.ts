import fc from 'fast-check';
import type { ErrorCode } from '../../../src/errors.js';
import { SAMPLES } from './hostile.js';

/**
 * Messages whose every field value is hostile, for the field-value pass of the fault suite:
 * Object.prototype's names (and their case and subtag variants) as ids, languages and unknown
 * fields; numbers past 2^53, with exponents and fractions as ids; far-past and far-future times;
 * ill-formed strings (lone surrogates) as ids and text. Each case is one JSON line written by
 * hand, so that a number keeps the digits it was written with (JSON.stringify would round it).
 */

/** Every own name of Object.prototype ("constructor", "__proto__", "toString", ...). */
export const PROTOTYPE_NAMES: readonly string[] = Object.getOwnPropertyNames(Object.prototype);

/** The names as a hostile tag or key comes: as is, upper case, with a subtag, as a config-looking key. */
const prototypeName = fc
  .tuple(fc.constantFrom(...PROTOTYPE_NAMES), fc.constantFrom('', '-RU', '_uk', '-x-private'), fc.boolean())
  .map(([name, suffix, upper]) => (upper ? name.toUpperCase() : name) + suffix);

/** Times a clock or a window must survive: far past, far future, huge and negative numbers. */
const hostileTime = fc.oneof(
  fc.constantFrom(
    '"9999-12-31T00:00:00Z"',
    '"2100-01-01T00:00:00Z"',
    '"0001-01-01T00:00:00Z"',
    '"1970-01-01T00:00:00Z"',
    '"+275760-09-13T00:00:00Z"',
    '1e300',
    '-1e300',
    '8640000000000000',
    '-8640000000000000',
    '0',
    '-1',
    '1e400',
  ),
  fc.integer({ min: -8_640_000_000_000_000, max: 8_640_000_000_000_000 }).map(String),
  fc.date({ noInvalidDate: true }).map((d) => JSON.stringify(d.toISOString())),
);

/** Strings that are not well-formed Unicode, or are but read oddly. */
const illFormed = fc.oneof(
  fc.constantFrom(
    '\ud800',
    '\udfff',
    '\udc00\ud800',
    'a\ud83d',
    '\ufffd',
    '\u0000',
    '\ufdfa\ufdfa',
    '\u202e',
  ),
  fc.string({ unit: 'binary', maxLength: 12 }),
);

export type IdKind = 'plain' | 'prototype' | 'dot' | 'unsafe-number' | 'lone-surrogate';

export interface FieldCase {
  /** The JSON line. */
  line: string;
  /** The id as doppel must name it in a verdict (null when the line must be refused). */
  id: string | null;
  idKind: IdKind;
  /** Set when the line must be refused with this code. */
  mustFail?: ErrorCode;
}

/**
 * The `k`-th case: its id kind decides whether it must be refused. Plain ids are unique per case
 * (`<prefix>-<k>`); prototype names and dot ids repeat across cases on purpose, so a repeated id
 * must get its first verdict back.
 */
export function fieldCase(prefix: string, k: number): fc.Arbitrary<FieldCase> {
  const id = fc.oneof(
    {
      weight: 4,
      arbitrary: fc.constant({
        token: JSON.stringify(`${prefix}-${k}`),
        id: `${prefix}-${k}`,
        kind: 'plain' as const,
      }),
    },
    {
      weight: 2,
      arbitrary: prototypeName.map((n) => ({ token: JSON.stringify(n), id: n, kind: 'prototype' as const })),
    },
    fc.constantFrom('.', '..').map((n) => ({ token: JSON.stringify(n), id: n, kind: 'dot' as const })),
    fc
      .constantFrom(
        (9_007_199_254_740_993n + BigInt(k)).toString(),
        `1234567890123456789${k % 10}`,
        '1e400',
        '-1e400',
        `${k}.5`,
      )
      .map((token) => ({ token, id: null, kind: 'unsafe-number' as const })),
    fc
      .constantFrom('\ud800', '\udfff', '\udc00\ud800', 'a\ud83d')
      .map((s) => ({ token: JSON.stringify(`${s}${k}`), id: null, kind: 'lone-surrogate' as const })),
  );
  const lang = fc.oneof(prototypeName, fc.constantFrom('ru', 'en-GB', 'und', ''), illFormed);
  const text = fc.oneof(
    { weight: 3, arbitrary: fc.constantFrom(...Object.values(SAMPLES)) },
    fc.tuple(fc.constantFrom(...Object.values(SAMPLES)), illFormed).map(([s, x]) => `${x} ${s} ${x}`),
    illFormed,
  );
  const extraKey = prototypeName;
  return fc
    .record({
      id,
      lang: fc.option(lang, { nil: undefined }),
      ts: fc.option(hostileTime, { nil: undefined }),
      text,
      title: fc.option(fc.oneof(prototypeName, illFormed), { nil: undefined }),
      extra: fc.option(fc.tuple(extraKey, fc.oneof(prototypeName, fc.constant('{}'))), { nil: undefined }),
    })
    .map((c) => {
      const parts = [`"id":${c.id.token}`];
      if (c.lang !== undefined) parts.push(`"lang":${JSON.stringify(c.lang.slice(0, 35))}`);
      if (c.ts !== undefined) parts.push(`"ts":${c.ts}`);
      parts.push(`"text":${JSON.stringify(c.text)}`);
      if (c.title !== undefined) parts.push(`"title":${JSON.stringify(c.title)}`);
      if (c.extra !== undefined) parts.push(`${JSON.stringify(c.extra[0])}:${JSON.stringify(c.extra[1])}`);
      const out: FieldCase = { line: `{${parts.join(',')}}`, id: c.id.id, idKind: c.id.kind };
      if (c.id.id === null) out.mustFail = 'INVALID_MESSAGE';
      return out;
    });
}

/** `count` cases from `seed` (case k from seed + k, so one case replays alone). */
export function sampleFieldCases(seed: number, count: number, prefix: string): FieldCase[] {
  const cases: FieldCase[] = [];
  for (let k = 0; k < count; k++) {
    const [c] = fc.sample(fieldCase(prefix, k), { seed: seed + k, numRuns: 1 });
    cases.push(c as FieldCase);
  }
  return cases;
}

/** A verdict's identity: what a replay must repeat. */
export function verdictKey(v: { verdict?: unknown; duplicateOf?: unknown }): string {
  return `${String(v.verdict)}|${String(v.duplicateOf ?? '')}`;
}

/** Ids that got two different verdicts, as "id: a / b" lines. */
export function idsWithTwoVerdicts(verdicts: Iterable<{ id: string; key: string }>): string[] {
  const byId = new Map<string, Set<string>>();
  for (const v of verdicts) byId.set(v.id, (byId.get(v.id) ?? new Set()).add(v.key));
  return [...byId].filter(([, keys]) => keys.size > 1).map(([id, keys]) => `${id}: ${[...keys].join(' / ')}`);
}
