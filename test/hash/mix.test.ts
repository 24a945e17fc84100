import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { combine64, fmix32, hamming64, hex32, hex64, parseHex64, popcount32 } from '../../src/hash/mix.js';
import { seededWords } from '../../src/hash/seeds.js';

describe('mix', () => {
  it('fmix32 has the MurmurHash3 reference values', () => {
    expect(fmix32(0)).toBe(0);
    expect(fmix32(1)).toBe(0x514e28b7);
  });
  it('popcount32 counts bits', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 0xffffffff }), (v) => {
        expect(popcount32(v)).toBe(
          v
            .toString(2)
            .split('')
            .filter((c) => c === '1').length,
        );
      }),
    );
  });
  it('hex round-trips', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 0, max: 0xffffffff }),
        fc.integer({ min: 0, max: 0xffffffff }),
        (hi, lo) => {
          expect(parseHex64(hex64(hi, lo))).toEqual({ hi, lo });
        },
      ),
    );
    expect(hex32(0xabc)).toBe('00000abc');
  });
  it('hamming64 is the number of differing bits', () => {
    expect(hamming64(0, 0, 0xffffffff, 1)).toBe(33);
  });
  it('combine64 is order-dependent and flips about half the bits for a one-bit change', () => {
    const a = { hi: 0, lo: 0 };
    const b = { hi: 0, lo: 0 };
    combine64(1, 2, 3, 4, a);
    combine64(3, 4, 1, 2, b);
    expect(a).not.toEqual(b);
    let flips = 0;
    const trials = 2000;
    for (let i = 0; i < trials; i++) {
      combine64(i, i * 7, 99, 5, a);
      combine64(i, i * 7, 99, 5 ^ (1 << (i % 32)), b);
      flips += hamming64(a.hi, a.lo, b.hi, b.lo);
    }
    expect(flips / trials).toBeGreaterThan(30);
    expect(flips / trials).toBeLessThan(34);
  });
  it('seededWords is reproducible and varies with the seed', () => {
    expect([...seededWords(1, 4)]).toEqual([...seededWords(1, 4)]);
    expect([...seededWords(1, 4)]).not.toEqual([...seededWords(2, 4)]);
  });
});
