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

// Character codes of the 16 hex digits: a hex string is built by one String.fromCharCode call,
// not by 8 or 16 one-character concatenations (which cost more than the hashing they print).
const HEX_CODES = Uint8Array.from('0123456789abcdef', (c) => c.charCodeAt(0));
const hexDigit = (v: number, shift: number): number => HEX_CODES[(v >>> shift) & 15] as number;

/** Unsigned 32-bit integer as 8 lower-case hex digits. */
export function hex32(value: number): string {
  const v = value >>> 0;
  return String.fromCharCode(
    hexDigit(v, 28),
    hexDigit(v, 24),
    hexDigit(v, 20),
    hexDigit(v, 16),
    hexDigit(v, 12),
    hexDigit(v, 8),
    hexDigit(v, 4),
    hexDigit(v, 0),
  );
}

/** 64-bit value (two halves) as 16 lower-case hex digits, high half first. */
export function hex64(hi: number, lo: number): string {
  const h = hi >>> 0;
  const l = lo >>> 0;
  return String.fromCharCode(
    hexDigit(h, 28),
    hexDigit(h, 24),
    hexDigit(h, 20),
    hexDigit(h, 16),
    hexDigit(h, 12),
    hexDigit(h, 8),
    hexDigit(h, 4),
    hexDigit(h, 0),
    hexDigit(l, 28),
    hexDigit(l, 24),
    hexDigit(l, 20),
    hexDigit(l, 16),
    hexDigit(l, 12),
    hexDigit(l, 8),
    hexDigit(l, 4),
    hexDigit(l, 0),
  );
}

/** Parses 16 hex digits into halves; throws on anything else. */
export function parseHex64(hex: string): U64 {
  if (!/^[0-9a-f]{16}$/.test(hex)) throw new Error(`not a 64-bit hex value: ${hex}`);
  return { hi: Number.parseInt(hex.slice(0, 8), 16) >>> 0, lo: Number.parseInt(hex.slice(8), 16) >>> 0 };
}

/**
 * The unsigned value of the 8 lowercase hex digits of `s` at `from`, -1 if they are not (a
 * parse without the strings parseHex64's slices make, for the per-message path).
 */
export function hexWord(s: string, from: number): number {
  if (s.length < from + 8) return -1;
  let v = 0;
  for (let i = from; i < from + 8; i++) {
    const c = s.charCodeAt(i);
    const d = c >= 48 && c <= 57 ? c - 48 : c >= 97 && c <= 102 ? c - 87 : -1;
    if (d < 0) return -1;
    v = (v << 4) | d;
  }
  return v >>> 0;
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
