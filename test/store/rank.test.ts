import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { HitCounter } from '../../src/store/rank.js';

/** The ranking by definition: count, sort by (hits desc, seq asc), take `limit`. */
function reference(members: readonly number[], limit: number): Array<[number, number]> {
  const hits = new Map<number, number>();
  for (const m of members) hits.set(m, (hits.get(m) ?? 0) + 1);
  return [...hits.entries()].sort((a, b) => b[1] - a[1] || a[0] - b[0]).slice(0, limit);
}

describe('HitCounter', () => {
  it('ranks exactly as counting and sorting would, for any members and limit', () => {
    fc.assert(
      fc.property(
        fc.array(fc.integer({ min: 1, max: 60 }), { maxLength: 400 }),
        fc.integer({ min: 1, max: 30 }),
        (members, limit) => {
          const counter = new HitCounter();
          counter.reset();
          for (const m of members) counter.add(m);
          expect(counter.rank(limit)).toEqual(reference(members, limit));
        },
      ),
      { numRuns: 300 },
    );
  });

  it('keeps the most shared buckets first, then the oldest, up to the limit', () => {
    const counter = new HitCounter();
    for (const [seq, hits] of [
      [5, 1],
      [3, 4],
      [9, 4],
      [1, 2],
      [7, 1],
    ])
      for (let i = 0; i < (hits as number); i++) counter.add(seq as number);
    expect(counter.rank(3)).toEqual([
      [3, 4],
      [9, 4],
      [1, 2],
    ]);
    expect(counter.rank(10).map(([seq]) => seq)).toEqual([3, 9, 1, 5, 7]);
    counter.reset();
    expect(counter.rank(3)).toEqual([]);
  });

  it('is reusable: reset forgets the previous message, and it grows past its first buffer', () => {
    const counter = new HitCounter();
    for (let i = 0; i < 5000; i++) counter.add(i % 7);
    expect(counter.rank(2)).toEqual([
      [0, 715],
      [1, 715],
    ]);
    counter.reset();
    counter.add(2 ** 40);
    counter.add(2 ** 40);
    expect(counter.rank(5)).toEqual([[2 ** 40, 2]]);
  });
});
