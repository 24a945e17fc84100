import { fmix32, type U64 } from './mix.js';

/**
 * Order-independent hash of a set of 64-bit token hashes: four 32-bit lanes, each the sum
 * (mod 2^32) of a differently seeded fmix32 of every member, finished with the set size and a
 * context seed. No sorting and no string building, so the I-Match and lexical signatures cost
 * a few multiplications per word. Sums of pseudo-random lanes collide for two different sets
 * with probability about 2^-32 per lane; a caller that needs 64 or 128 bits takes 2 or 4 lanes.
 */
/** A member's contribution to each of the four lanes. */
export const laneA = (lo: number): number => fmix32(lo ^ 0x3c6ef372);
export const laneB = (hi: number): number => fmix32(hi ^ 0xa54ff53a);
export const laneC = (hi: number, lo: number): number => fmix32(lo ^ Math.imul(hi, 0x9e3779b1) ^ 0x510e527f);
export const laneD = (hi: number, lo: number): number => fmix32(hi ^ Math.imul(lo, 0x85ebca77) ^ 0x9b05688c);

export class SetHasher {
  private a = 0;
  private b = 0;
  private c = 0;
  private d = 0;
  private n = 0;

  reset(): this {
    this.a = 0;
    this.b = 0;
    this.c = 0;
    this.d = 0;
    this.n = 0;
    return this;
  }

  add(hi: number, lo: number): void {
    this.a = (this.a + laneA(lo)) | 0;
    this.b = (this.b + laneB(hi)) | 0;
    this.c = (this.c + laneC(hi, lo)) | 0;
    this.d = (this.d + laneD(hi, lo)) | 0;
    this.n++;
  }

  /**
   * Adds `count` members whose lane values (laneA..laneD of each, summed mod 2^32) were computed
   * elsewhere: one member's lanes can then serve several sets (I-Match's lexicons).
   */
  addLanes(a: number, b: number, c: number, d: number, count: number): void {
    this.a = (this.a + a) | 0;
    this.b = (this.b + b) | 0;
    this.c = (this.c + c) | 0;
    this.d = (this.d + d) | 0;
    this.n += count;
  }

  /** 64-bit result; `seed` separates contexts (lexicon version, lexicon index, signature kind). */
  digest64(seed: U64, out: U64): U64 {
    const n = this.n;
    out.hi = fmix32(this.a ^ fmix32(seed.hi ^ n));
    out.lo = fmix32(this.b ^ fmix32(seed.lo ^ out.hi));
    return out;
  }

  /** 128-bit result as [hi64, lo64]. */
  digest128(seed: U64, first: U64, second: U64): void {
    this.digest64(seed, first);
    const n = this.n;
    second.hi = fmix32(this.c ^ fmix32(seed.hi ^ first.lo ^ n));
    second.lo = fmix32(this.d ^ fmix32(seed.lo ^ second.hi ^ first.hi));
  }
}
