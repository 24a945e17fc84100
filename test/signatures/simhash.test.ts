import fc from 'fast-check';
import { beforeAll, describe, expect, it } from 'vitest';
import { hamming64 } from '../../src/hash/mix.js';
import type { Signer } from '../../src/signatures/signer.js';
import {
  blockTablePlan,
  simhashDistance,
  simhashHex,
  simhashTableKeys,
} from '../../src/signatures/simhash.js';
import { editWords, rng, signText, syntheticDoc, testEngine } from '../support/engine.js';

let engine: Signer;
beforeAll(async () => {
  engine = await testEngine();
});

describe('simhash64', () => {
  it('is deterministic and 16 hex digits', () => {
    const text = 'Россия с начала текущего сельскохозяйственного года экспортировала зерно';
    const a = signText(engine, text).simhash!;
    const b = signText(engine, text).simhash!;
    expect(simhashHex(a)).toMatch(/^[0-9a-f]{16}$/);
    expect(a).toEqual(b);
  });

  it('ignores case, punctuation and stop words', () => {
    const a = signText(engine, 'The price of petrol was tripled, and protests started in Tehran.', 'en')
      .simhash!;
    const b = signText(engine, 'PRICE OF PETROL TRIPLED; PROTESTS STARTED IN TEHRAN', 'en').simhash!;
    expect(simhashDistance(a, b)).toBe(0);
  });

  it('moves a few bits for small edits and about 32 for unrelated texts (synthetic, 300 words)', () => {
    const random = rng(42);
    const near: number[] = [];
    const far: number[] = [];
    for (let i = 0; i < 60; i++) {
      const doc = syntheticDoc(random, 300);
      const edited = editWords(random, doc, 0.03);
      const other = syntheticDoc(random, 300);
      const s = signText(engine, doc.join(' ')).simhash!;
      near.push(simhashDistance(s, signText(engine, edited.join(' ')).simhash!));
      far.push(simhashDistance(s, signText(engine, other.join(' ')).simhash!));
    }
    const mean = (xs: number[]) => xs.reduce((a, b) => a + b, 0) / xs.length;
    expect(mean(near)).toBeLessThan(8);
    expect(mean(far)).toBeGreaterThan(28);
    expect(mean(far)).toBeLessThan(36);
    expect(Math.min(...far)).toBeGreaterThan(14);
  });
});

describe('Manku block tables', () => {
  it('has C(B, k) tables covering B - k blocks of 64 bits', () => {
    const plan = blockTablePlan({ blocks: 6, tableDistance: 3 });
    expect(plan.tables).toHaveLength(20);
    expect(plan.blocks.reduce((n, b) => n + b.length, 0)).toBe(64);
    expect(plan.blocks.map((b) => b.length)).toEqual([11, 11, 11, 11, 10, 10]);
    expect(blockTablePlan({ blocks: 4, tableDistance: 3 }).tables).toHaveLength(4);
  });

  it('gives every pair within distance k at least one shared key', () => {
    const plan = blockTablePlan({ blocks: 6, tableDistance: 3 });
    const u32 = fc.integer({ min: 0, max: 0xffffffff });
    fc.assert(
      fc.property(
        u32,
        u32,
        fc.uniqueArray(fc.integer({ min: 0, max: 63 }), { maxLength: 3 }),
        (hi, lo, bits) => {
          let bHi = hi;
          let bLo = lo;
          for (const bit of bits) {
            if (bit < 32) bHi = (bHi ^ (1 << (31 - bit))) >>> 0;
            else bLo = (bLo ^ (1 << (63 - bit))) >>> 0;
          }
          expect(hamming64(hi, lo, bHi, bLo)).toBe(bits.length);
          const ka = simhashTableKeys({ hi, lo }, plan);
          const kb = new Set(simhashTableKeys({ hi: bHi, lo: bLo }, plan));
          expect(ka.some((k) => kb.has(k))).toBe(true);
        },
      ),
      { numRuns: 500 },
    );
  });

  it('keys carry exactly the bits of their blocks', () => {
    const plan = blockTablePlan({ blocks: 6, tableDistance: 3 });
    const fp = { hi: 0xdeadbeef, lo: 0x01234567 };
    const bits = fp.hi.toString(2).padStart(32, '0') + fp.lo.toString(2).padStart(32, '0');
    const keys = simhashTableKeys(fp, plan);
    keys.forEach((key, t) => {
      const [table, values] = key.split(':') as [string, string];
      expect(Number(table)).toBe(t);
      const parts = values.split('.').map((v) => Number.parseInt(v, 36));
      (plan.tables[t] as number[]).forEach((blockIndex, j) => {
        const block = plan.blocks[blockIndex]!;
        expect(parts[j]).toBe(Number.parseInt(bits.slice(block.start, block.start + block.length), 2));
      });
    });
  });
});
