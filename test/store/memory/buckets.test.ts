import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { BucketTable } from '../../../src/store/memory/buckets.js';

type Op = { kind: 'add'; table: number; key: number } | { kind: 'remove'; table: number; key: number };

/** The members of every bucket, as a Map per (table, key) would hold them. */
function membersOf(buckets: BucketTable, table: number, key: number): number[] {
  const cell = buckets.find(table, key);
  if (cell < 0) return [];
  const m = buckets.members(cell);
  return m >= 0 ? [m] : [...buckets.list(m)];
}

describe('BucketTable', () => {
  it('holds the same buckets as a Map per table through adds, growth and backward-shift removals', () => {
    // Few tables and keys, so that a small table stays crowded: buckets share probe runs, runs
    // wrap around the end, and removals shift entries back across it; growth happens early on.
    const op = fc.record({
      kind: fc.constantFrom<'add' | 'remove'>('add', 'remove'),
      table: fc.integer({ min: 0, max: 1 }),
      key: fc.oneof(
        { weight: 9, arbitrary: fc.integer({ min: 0, max: 6 }) },
        { weight: 1, arbitrary: fc.integer({ min: 0, max: 2 ** 31 - 1 }) },
      ),
    });
    fc.assert(
      fc.property(fc.array(op, { maxLength: 300 }), (ops: Op[]) => {
        const buckets = new BucketTable(2);
        const model = new Map<string, number[]>();
        let seq = 0;
        for (const o of ops) {
          const name = `${o.table}:${o.key}`;
          if (o.kind === 'add') {
            buckets.add(o.table, o.key, ++seq);
            model.set(name, [...(model.get(name) ?? []), seq]);
          } else {
            const cell = buckets.find(o.table, o.key);
            expect(cell >= 0).toBe(model.has(name));
            if (cell >= 0) buckets.remove(cell);
            model.delete(name);
          }
          expect(buckets.size).toBe(model.size);
        }
        for (const [name, members] of model) {
          const [table, key] = name.split(':').map(Number) as [number, number];
          expect(membersOf(buckets, table, key)).toEqual(members);
          expect(buckets.sizeOf(table, key)).toBe(members.length);
        }
      }),
      { numRuns: 1000 },
    );
  });

  it('replaces a list by its live members: one member stays a bare number', () => {
    const buckets = new BucketTable(2);
    for (const seq of [1, 2, 3]) buckets.add(0, 7, seq);
    let cell = buckets.find(0, 7);
    buckets.setMembers(cell, [2, 3]);
    expect(membersOf(buckets, 0, 7)).toEqual([2, 3]);
    buckets.setMembers(cell, [3]);
    cell = buckets.find(0, 7);
    expect(buckets.members(cell)).toBe(3);
    buckets.add(0, 7, 4);
    expect(membersOf(buckets, 0, 7)).toEqual([3, 4]);
  });
});
