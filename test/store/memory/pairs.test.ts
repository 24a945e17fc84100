import { describe, expect, it } from 'vitest';
import { PairLog } from '../../../src/store/memory/pairs.js';

describe('PairLog', () => {
  it('keeps every pair in order across its small first block and full blocks', () => {
    const log = new PairLog();
    expect(log.length).toBe(0);
    const n = 10_000;
    for (let i = 0; i < n; i++) log.push(i % 37, 1 - i * 7919);
    expect(log.length).toBe(n);
    for (let i = 0; i < n; i++) {
      expect(log.first(i)).toBe(i % 37);
      expect(log.second(i)).toBe(1 - i * 7919);
    }
  });

  it('holds 32-bit values bit for bit', () => {
    const log = new PairLog();
    log.push(0x7fffffff, -0x80000000);
    expect([log.first(0), log.second(0)]).toEqual([0x7fffffff, -0x80000000]);
  });
});
