import { describe, expect, it } from 'vitest';
import { parseMessageObject, plainMessage, salvageId } from '../../src/input/message.js';
import { messageSchema } from '../../src/input/message-schema.js';
import { rng } from '../support/engine.js';

describe('message objects', () => {
  it('takes the fast path only for objects the schema accepts unchanged', () => {
    const random = rng(9);
    const values: unknown[] = [
      undefined,
      null,
      '',
      'x',
      'ж'.repeat(36),
      'a'.repeat(1025),
      7,
      0,
      -1.5,
      Number.NaN,
      true,
      [],
      {},
      ['a'],
      '2026-11-01T00:00:00Z',
    ];
    const pick = () => values[Math.floor(random() * values.length)];
    const fields = ['id', 'text', 'title', 'html', 'raw', 'lang', 'ts', 'cluster'];
    let fast = 0;
    for (let n = 0; n < 3000; n++) {
      const o: Record<string, unknown> = {};
      for (const f of fields) {
        const v = random() < 0.5 ? undefined : pick();
        if (v !== undefined || random() < 0.1) o[f] = v;
      }
      if (random() < 0.5) o.id = 'm1';
      if (random() < 0.3) o.text = 'some words';
      const parsed = messageSchema.safeParse(o);
      const plain = plainMessage(o);
      if (plain !== null) {
        fast++;
        expect(parsed.success).toBe(true);
        expect(parsed.data).toEqual(plain);
      }
    }
    expect(fast).toBeGreaterThan(100);
    expect(plainMessage([])).toBeNull();
    expect(plainMessage({ id: 5, text: 'a' })).toBeNull();
    expect(parseMessageObject({ id: 5, text: 'a b' }).id).toBe('5');
  });
});

describe('ids that cannot round-trip', () => {
  const refused = (json: unknown) => {
    try {
      parseMessageObject(json);
    } catch (error) {
      return (error as { code?: string }).code;
    }
    return 'accepted';
  };

  it('numeric ids above 2^53 are refused, not merged into one', () => {
    // JSON.parse reads both as 12345678901234567000: the second would replay the first's verdict.
    const a = JSON.parse('{"id":12345678901234567890,"text":"one"}') as unknown;
    const b = JSON.parse('{"id":12345678901234567891,"text":"two"}') as unknown;
    expect(refused(a)).toBe('INVALID_MESSAGE');
    expect(refused(b)).toBe('INVALID_MESSAGE');
    expect(refused({ id: 2 ** 53, text: 'x' })).toBe('INVALID_MESSAGE');
    expect(refused({ id: 1.5, text: 'x' })).toBe('INVALID_MESSAGE');
    expect(parseMessageObject({ id: Number.MAX_SAFE_INTEGER, text: 'x' }).id).toBe('9007199254740991');
    expect(parseMessageObject({ id: -42, text: 'x' }).id).toBe('-42');
  });

  it('an id of 1e400 is INVALID_MESSAGE and its error names "1e400", never "1"', () => {
    expect(refused(JSON.parse('{"id":1e400,"text":"x"}'))).toBe('INVALID_MESSAGE');
    expect(salvageId('{"id":1e400,"text":"x"}')).toBe('1e400');
    expect(salvageId('{"id":-2.5E+3 , "text":"x"}')).toBe('-2.5E+3');
    expect(salvageId('{"id":12345678901234567890}')).toBe('12345678901234567890');
  });

  it('ids with a lone surrogate are refused (they would read back as U+FFFD from Redis)', () => {
    for (const id of ['\ud800', 'a\udfff', '\udc00\ud800', `x${'\ud83d'}`]) {
      expect(refused({ id, text: 'some words' }), JSON.stringify(id)).toBe('INVALID_MESSAGE');
      expect(salvageId(JSON.stringify({ id, text: 'x' })), JSON.stringify(id)).toBeNull();
    }
    expect(parseMessageObject({ id: '\ud83d\ude00', text: 'x' }).id).toBe('😀');
  });
});
