import { describe, expect, it } from 'vitest';
import type { EngineVerdict } from '../../src/engine/engine.js';
import { HEADER, readHeaders, verdictHeaders } from '../../src/kafka/headers.js';
import type { InputRecord } from '../../src/kafka/input.js';

describe('readHeaders', () => {
  it('a header named "__proto__" is kept as a header, not assigned to the prototype', () => {
    const headers = JSON.parse('{"__proto__":"x","constructor":"y","id":"z"}') as Record<string, unknown>;
    const read = readHeaders(headers);
    expect(Object.getPrototypeOf(read)).toBe(Object.prototype);
    expect(Object.entries(read)).toEqual([
      ['__proto__', 'x'],
      ['constructor', 'y'],
      ['id', 'z'],
    ]);
  });
});

describe('verdictHeaders', () => {
  const record: InputRecord = {
    topic: 'news',
    partition: 0,
    offset: '7',
    key: null,
    value: null,
    timestamp: '0',
  };
  const base: EngineVerdict = {
    id: 'a',
    verdict: 'unique',
    clusterId: 'a',
    events: [],
    candidates: 0,
    hotBuckets: 0,
  };

  it('a replay of other content carries doppel-conflict beside doppel-replay; a plain replay does not', () => {
    const conflict = verdictHeaders({ ...base, replay: true, conflict: true }, record);
    expect([conflict[HEADER.replay], conflict[HEADER.conflict]]).toEqual(['true', 'true']);
    expect(HEADER.conflict).toBe('doppel-conflict');
    const replay = verdictHeaders({ ...base, replay: true }, record);
    expect(replay[HEADER.replay]).toBe('true');
    expect(replay).not.toHaveProperty(HEADER.conflict);
  });

  it('a mail judged on part of its text carries doppel-warning-code MAIL_TRUNCATED and the parts not read', () => {
    const cut = verdictHeaders({ ...base, verdict: 'near_duplicate', truncatedParts: 250 }, record);
    expect([cut['doppel-warning-code'], cut['doppel-warning-parts']]).toEqual(['MAIL_TRUNCATED', '250']);
    expect(cut[HEADER.verdict]).toBe('near_duplicate');
    const whole = verdictHeaders(base, record);
    expect(Object.keys(whole).filter((name) => name.startsWith('doppel-warning'))).toEqual([]);
  });
});
