/**
 * 32-bit integer mixing used where a 64-bit hash would have to go through BigInt.
 * All functions are pure and use only Math.imul and shifts, so results are identical on
 * every platform and Node version.
 */

/** MurmurHash3's finalizer: a bijection on 32-bit integers with full avalanche. */
export function fmix32(input: number): number {
  let h = input | 0;
  h ^= h >>> 16;
  h = Math.imul(h, 0x85ebca6b);
  h ^= h >>> 13;
  h = Math.imul(h, 0xc2b2ae35);
  h ^= h >>> 16;
  return h >>> 0;
}

/** A 64-bit value as two unsigned 32-bit halves. */
export interface U64 {
  hi: number;
  lo: number;
}

/**
 * Order-dependent combination of two 64-bit hashes into one (word n-grams from word hashes).
 * Each output half depends on all 128 input bits.
 */
export function combine64(aHi: number, aLo: number, bHi: number, bLo: number, out: U64): U64 {
  const lo = fmix32(aLo ^ Math.imul(bLo ^ 0x9e3779b9, 0x27d4eb2f) ^ ((bHi << 11) | (bHi >>> 21)));
  const hi = fmix32(aHi ^ Math.imul(bHi ^ 0x7f4a7c15, 0x165667b1) ^ ((bLo << 19) | (bLo >>> 13)) ^ lo);
  out.hi = hi;
  out.lo = lo;
  return out;
}

const HEX = '0123456789abcdef';

/** Unsigned 32-bit integer as 8 lower-case hex digits. */
export function hex32(value: number): string {
  let v = value >>> 0;
  let s = '';
  for (let i = 0; i < 8; i++) {
    s = HEX[v & 15] + s;
    v >>>= 4;
  }
  return s;
}

/** 64-bit value (two halves) as 16 lower-case hex digits, high half first. */
export function hex64(hi: number, lo: number): string {
  return hex32(hi) + hex32(lo);
}

/** Parses 16 hex digits into halves; throws on anything else. */
export function parseHex64(hex: string): U64 {
  if (!/^[0-9a-f]{16}$/.test(hex)) throw new Error(`not a 64-bit hex value: ${hex}`);
  return { hi: Number.parseInt(hex.slice(0, 8), 16) >>> 0, lo: Number.parseInt(hex.slice(8), 16) >>> 0 };
}

/** Number of set bits in a 32-bit integer. */
export function popcount32(value: number): number {
  let v = value - ((value >>> 1) & 0x55555555);
  v = (v & 0x33333333) + ((v >>> 2) & 0x33333333);
  return (Math.imul((v + (v >>> 4)) & 0x0f0f0f0f, 0x01010101) >>> 24) & 0xff;
}

/** Hamming distance of two 64-bit values given as halves. */
export function hamming64(aHi: number, aLo: number, bHi: number, bLo: number): number {
  return popcount32((aHi ^ bHi) >>> 0) + popcount32((aLo ^ bLo) >>> 0);
}
