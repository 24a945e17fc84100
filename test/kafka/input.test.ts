import { describe, expect, it } from 'vitest';
import { DoppelError } from '../../src/errors.js';
import { errorHeaders, readHeaders, verdictHeaders } from '../../src/kafka/headers.js';
import { type InputRecord, parseInput, positionId, salvageInputId } from '../../src/kafka/input.js';

function record(value: string | Buffer | null, key: string | null = null): InputRecord {
  return {
    topic: 'in',
    partition: 2,
    offset: '17',
    key: key === null ? null : Buffer.from(key),
    value: value === null ? null : Buffer.from(value),
    timestamp: '1795000000000',
  };
}

describe('input decoding and id resolution', () => {
  it('json: the payload id first, then the key, then topic-partition-offset', () => {
    expect(parseInput(record('{"id":"p1","text":"hello world"}', 'k1'), 'json', 1e6)).toMatchObject({
      message: { id: 'p1', text: 'hello world' },
      idSource: 'payload',
    });
    expect(parseInput(record('{"text":"hello world"}', 'k1'), 'json', 1e6)).toMatchObject({
      message: { id: 'k1' },
      idSource: 'key',
    });
    expect(parseInput(record('{"text":"hello world"}'), 'json', 1e6)).toMatchObject({
      message: { id: 'in-2-17' },
      idSource: 'position',
    });
    expect(positionId(record(null))).toBe('in-2-17');
  });

  it('uses the payload ts, else the Kafka timestamp', () => {
    expect(
      parseInput(record('{"id":"a","text":"x y","ts":"2026-11-20T00:00:00Z"}'), 'json', 1e6).message.ts,
    ).toBe(Date.parse('2026-11-20T00:00:00Z'));
    expect(parseInput(record('{"id":"a","text":"x y"}'), 'json', 1e6).message.ts).toBe(1795000000000);
  });

  it('text: UTF-8 as text, other bytes as raw for the charset detector', () => {
    expect(parseInput(record('plain words here', 'k'), 'text', 1e6).message).toMatchObject({
      id: 'k',
      text: 'plain words here',
    });
    const cp1251 = parseInput(record(Buffer.from([0xcf, 0xf0, 0xe8, 0xe2, 0xe5, 0xf2])), 'text', 1e6).message;
    expect(cp1251.text).toBeUndefined();
    expect(cp1251.raw?.length).toBe(6);
  });

  it('mail: RFC 822 bytes go to the mail parser; anything else is INVALID_MAIL', () => {
    const mail = 'From: a@example.org\r\nSubject: hi\r\nMessage-ID: <m1@x>\r\n\r\nbody text here\r\n';
    expect(parseInput(record(mail), 'mail', 1e6).message.raw?.length).toBe(Buffer.byteLength(mail));
    expect(() => parseInput(record('no headers at all'), 'mail', 1e6)).toThrow(
      expect.objectContaining({ code: 'INVALID_MAIL' }),
    );
  });

  it('rejects bad records with typed, non-retryable errors', () => {
    const cases: Array<[InputRecord, 'json' | 'text' | 'mail', string]> = [
      [record(null), 'json', 'MISSING_CONTENT'],
      [record(''), 'text', 'MISSING_CONTENT'],
      [record('  \n'), 'text', 'MISSING_CONTENT'],
      [record('{"id":'), 'json', 'INVALID_JSON'],
      [record('[1,2]'), 'json', 'INVALID_MESSAGE'],
      [record('{"id":"a"}'), 'json', 'MISSING_CONTENT'],
      [record('x'.repeat(100)), 'text', 'TOO_LARGE'],
    ];
    for (const [r, format, code] of cases) {
      let error: unknown;
      try {
        parseInput(r, format, 50);
      } catch (e) {
        error = e;
      }
      expect(error, `${format} ${String(r.value)}`).toBeInstanceOf(DoppelError);
      expect((error as DoppelError).code).toBe(code);
      expect((error as DoppelError).retryable).toBe(false);
    }
  });

  it('salvages an id for the dlq', () => {
    expect(salvageInputId(record('{"id": "broken-1", "text": '), 'json')).toBe('broken-1');
    expect(salvageInputId(record('garbage', 'k9'), 'json')).toBe('k9');
    expect(salvageInputId(record('garbage'), 'text')).toBe('in-2-17');
  });
});

describe('headers', () => {
  it('carry the verdict, evidence and source position; errors carry code and reason', () => {
    const r = record('{}');
    const h = verdictHeaders(
      {
        id: 'b',
        verdict: 'near_duplicate',
        clusterId: 'a',
        duplicateOf: 'a',
        similarity: 0.81,
        method: 'minhash',
        evidence: { exact: false, hamming: 5, jaccard: 0.81, imatch: false, lexical: 0, cosine: 0.9 },
        events: [],
        candidates: 1,
        hotBuckets: 0,
      },
      r,
    );
    expect(h).toMatchObject({
      'doppel-id': 'b',
      'doppel-verdict': 'near_duplicate',
      'doppel-cluster': 'a',
      'doppel-duplicate-of': 'a',
      'doppel-similarity': '0.81',
      'doppel-method': 'minhash',
      'doppel-source-topic': 'in',
      'doppel-source-partition': '2',
      'doppel-source-offset': '17',
    });
    expect(JSON.parse(h['doppel-evidence'] as string).jaccard).toBe(0.81);
    expect(h['doppel-replay']).toBeUndefined();
    const e = errorHeaders(new DoppelError('INVALID_JSON', 'x'.repeat(2000)), 'id1', r);
    expect(e['doppel-error-code']).toBe('INVALID_JSON');
    expect(e['doppel-error-reason']).toHaveLength(512);
    expect(e['doppel-error-retryable']).toBe('false');
    expect(readHeaders({ a: Buffer.from('x'), b: ['y'], c: undefined })).toEqual({ a: 'x', b: 'y' });
  });
});
