import { describe, expect, it } from 'vitest';
import { messageSchema, parseMessageObject, plainMessage } from '../../src/input/message.js';
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
