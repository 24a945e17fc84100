import { describe, expect, it } from 'vitest';
import { clusterOut, rfc3339, verdictOut } from '../../src/api/times.js';

describe('API times (RFC 3339, UTC)', () => {
  it('writes epoch ms as RFC 3339 and back to the same instant', () => {
    const ms = Date.parse('2026-11-20T08:00:00.123Z');
    expect(rfc3339(ms)).toBe('2026-11-20T08:00:00.123Z');
    expect(Date.parse(rfc3339(ms))).toBe(ms);
    expect(rfc3339(0)).toBe('1970-01-01T00:00:00.000Z');
  });

  it('any finite ts a message may carry gives a date-time in years 0000-9999, never a throw', () => {
    expect(rfc3339(1e300)).toBe('9999-12-31T23:59:59.999Z');
    expect(rfc3339(-1e300)).toBe('0000-01-01T00:00:00.000Z');
    expect(rfc3339(Number.MAX_SAFE_INTEGER)).toBe('9999-12-31T23:59:59.999Z');
    expect(rfc3339(-62_135_596_800_001)).toBe('0000-12-31T23:59:59.999Z');
  });

  it('converts the time fields of stories and stored verdicts only', () => {
    const story = { id: 's', size: 2, firstSeen: 0, lastSeen: 1000, representative: 's', title: null };
    expect(clusterOut(story)).toEqual({
      ...story,
      firstSeen: '1970-01-01T00:00:00.000Z',
      lastSeen: '1970-01-01T00:00:01.000Z',
    });
    const verdict = { id: 'm', seq: 7, ts: 86_400_000, verdict: 'unique' as const, clusterId: 'm' };
    expect(verdictOut(verdict)).toEqual({ ...verdict, ts: '1970-01-02T00:00:00.000Z' });
  });
});
