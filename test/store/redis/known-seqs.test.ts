import { describe, expect, it } from 'vitest';
import type { Decision } from '../../../src/engine/types.js';
import { KnownSeqs } from '../../../src/store/redis/known-seqs.js';

const decision = (id: string, seq: number): Decision => ({ id, seq, ts: 1, verdict: 'unique', joins: [] });

describe('KnownSeqs', () => {
  it("keeps each index call's numbers until its decisions are committed, whatever the calls after it", () => {
    const known = new KnownSeqs();
    const first = new Map([
      ['a', 1],
      ['b', 2],
      ['old', 0],
    ]);
    const second = new Map([
      ['c', 3],
      ['a', 1],
    ]);
    known.add(first, 2);
    known.add(second, 1);
    // The first call's decisions find its numbers although a later call was indexed before them.
    expect(known.take(decision('b', 2))).toBe(first);
    expect(known.take(decision('c', 3))).toBe(second);
    expect(known.take(decision('a', 1))).toBe(first);
    // Both calls' decisions are committed: nothing is kept.
    expect(known.take(decision('a', 1))).toBeUndefined();
    expect(known.take(decision('b', 2))).toBeUndefined();
  });

  it('does not take a decision whose sequence number another call gave its id', () => {
    const known = new KnownSeqs();
    known.add(new Map([['a', 7]]), 1);
    expect(known.take(decision('a', 8))).toBeUndefined();
    expect(known.take(decision('a', 7))?.get('a')).toBe(7);
  });

  it('keeps nothing for a call with no decision to come, and at most 16 calls', () => {
    const known = new KnownSeqs();
    known.add(new Map([['d', 1]]), 0);
    expect(known.take(decision('d', 1))).toBeUndefined();
    for (let i = 0; i < 17; i++) known.add(new Map([[`m${i}`, i]]), 1);
    // The oldest of 17 calls waiting for their commits was dropped (a batch that never commits).
    expect(known.take(decision('m0', 0))).toBeUndefined();
    expect(known.take(decision('m1', 1))?.get('m1')).toBe(1);
    expect(known.take(decision('m16', 16))?.get('m16')).toBe(16);
  });
});
