import type { MinhashConfig } from '../config/signatures.js';
import { combine64, fmix32, hex64, type U64 } from '../hash/mix.js';
import { SEED_SUPER, seededWords } from '../hash/seeds.js';
import { xxh64Bytes } from '../hash/xxhash.js';
import { minhashValuesSimd } from './minhash-simd.js';

/**
 * Broder shingles and min-wise hashing (Broder 1997/2000; seeds 002, 003, 004): 84 min-hashes,
 * 6 super-shingles of 14, 15 mega-shingles (pairs), and general b x r LSH bands.
 */

const PERMUTATION_SEEDS = seededWords(0x6d696e68, 256); // "minh"
// Odd multipliers: x -> a*x + b (mod 2^32) is then a bijection of the 32-bit space.
const PERMUTATION_MULTIPLIERS = seededWords(0x6d756c74, 256).map((a) => (a | 1) >>> 0); // "mult"
const EMPTY = 0xffffffff;
// Base of the rolling shingle hash (an odd constant with well-spread bits).
const ROLL_BASE = 0x01000193;

/**
 * Shingle hashes: every run of `shingleSize` consecutive content tokens. Each shingle is the
 * polynomial sum(lo_j * BASE^(w-1-j)) mod 2^32 of its tokens' hash low halves, rolled in O(1) per
 * shingle (Rabin-Karp), then fmix32 to spread it. Texts shorter than one shingle become one
 * shingle of all their tokens, so a short message still has a signature.
 */
export function shingleHashes(
  hashLo: Uint32Array,
  count: number,
  shingleSize: number,
  /** Where to write them (a view of its start is returned) when it has room: reused scratch. */
  into?: Uint32Array,
): Uint32Array {
  const w = Math.max(1, Math.min(shingleSize, count));
  const total = count === 0 ? 0 : count - w + 1;
  const out = into !== undefined && into.length >= total ? into.subarray(0, total) : new Uint32Array(total);
  if (total === 0) return out;
  let top = 1; // BASE^(w-1)
  for (let j = 1; j < w; j++) top = Math.imul(top, ROLL_BASE);
  let h = 0;
  for (let j = 0; j < w; j++) h = (Math.imul(h, ROLL_BASE) + (hashLo[j] as number)) | 0;
  out[0] = fmix32(h ^ w);
  for (let s = 1; s < total; s++) {
    h = (h - Math.imul(hashLo[s - 1] as number, top)) | 0;
    h = (Math.imul(h, ROLL_BASE) + (hashLo[s + w - 1] as number)) | 0;
    out[s] = fmix32(h ^ w);
  }
  return out;
}

/**
 * Min-hash values under `numHashes` seeded permutations of the 32-bit space, x -> a_i*x + b_i
 * (mod 2^32) with odd a_i. The inputs are already fmix32-spread shingle hashes, so this cheap
 * family behaves as min-wise independent in practice; test/signatures/minhash.test.ts checks the
 * Jaccard estimate's error against its theoretical spread.
 */
export function minhashValues(shingles: Uint32Array, numHashes: number): Uint32Array {
  return (
    minhashValuesSimd(shingles, numHashes, PERMUTATION_MULTIPLIERS, PERMUTATION_SEEDS) ??
    minhashValuesScalar(shingles, numHashes)
  );
}

/** minhashValues in plain JavaScript: where WebAssembly SIMD is missing, and the reference in tests. */
export function minhashValuesScalar(shingles: Uint32Array, numHashes: number): Uint32Array {
  const mins = new Uint32Array(numHashes);
  const count = shingles.length;
  const A = PERMUTATION_MULTIPLIERS;
  const B = PERMUTATION_SEEDS;
  // Four permutations per pass over the shingles: the running minima stay in registers and each
  // shingle is loaded once per four permutations (about 1.5x faster than one at a time).
  let i = 0;
  for (; i + 4 <= numHashes; i += 4) {
    const a0 = A[i] as number;
    const b0 = B[i] as number;
    const a1 = A[i + 1] as number;
    const b1 = B[i + 1] as number;
    const a2 = A[i + 2] as number;
    const b2 = B[i + 2] as number;
    const a3 = A[i + 3] as number;
    const b3 = B[i + 3] as number;
    let m0 = EMPTY;
    let m1 = EMPTY;
    let m2 = EMPTY;
    let m3 = EMPTY;
    for (let s = 0; s < count; s++) {
      const x = shingles[s] as number;
      const h0 = (Math.imul(x, a0) + b0) >>> 0;
      if (h0 < m0) m0 = h0;
      const h1 = (Math.imul(x, a1) + b1) >>> 0;
      if (h1 < m1) m1 = h1;
      const h2 = (Math.imul(x, a2) + b2) >>> 0;
      if (h2 < m2) m2 = h2;
      const h3 = (Math.imul(x, a3) + b3) >>> 0;
      if (h3 < m3) m3 = h3;
    }
    mins[i] = m0;
    mins[i + 1] = m1;
    mins[i + 2] = m2;
    mins[i + 3] = m3;
  }
  for (; i < numHashes; i++) {
    const a = A[i] as number;
    const b = B[i] as number;
    let min = EMPTY;
    for (let s = 0; s < count; s++) {
      const h = (Math.imul(shingles[s] as number, a) + b) >>> 0;
      if (h < min) min = h;
    }
    mins[i] = min;
  }
  return mins;
}

export interface BroderShingles {
  /** superShingles hex values, one per group of superShingleSize min-hashes. */
  super: string[];
  /** One per pair (i < j) of super-shingles, in lexicographic pair order: C(6, 2) = 15. */
  mega: string[];
}

/**
 * Super-shingle g hashes min-hashes [g*s, (g+1)*s) with the group index in the seed; mega-shingle
 * (i, j) hashes both super-shingles and the pair index, so one index table can hold all 15 and
 * a match on any one means at least two of the six super-shingles agree.
 */
export function broderShingles(
  mins: Uint32Array,
  config: Pick<MinhashConfig, 'superShingles' | 'superShingleSize'>,
): BroderShingles {
  const { superShingles: groups, superShingleSize: size } = config;
  if (superHi.length < groups) {
    superHi = new Uint32Array(groups);
    superLo = new Uint32Array(groups);
  }
  if (groupWords.length < size) {
    groupWords = new Uint32Array(size);
    groupBytes = new Uint8Array(groupWords.buffer);
  }
  const out = BRODER_OUT;
  const bytes = groupBytes.subarray(0, size * 4);
  const superHex: string[] = new Array(groups);
  for (let g = 0; g < groups; g++) {
    // Min-hashes are hashed as their little-endian bytes (copied into a scratch array, in that
    // order on either kind of host).
    for (let k = 0; k < size; k++) {
      const v = mins[g * size + k] as number;
      groupWords[k] = BIG_ENDIAN_HOST
        ? ((v & 0xff) << 24) | ((v & 0xff00) << 8) | ((v >>> 8) & 0xff00) | (v >>> 24)
        : v;
    }
    xxh64Bytes(bytes, superSeed(g), out);
    superHi[g] = out.hi;
    superLo[g] = out.lo;
    superHex[g] = hex64(out.hi, out.lo);
  }
  const mega: string[] = new Array((groups * (groups - 1)) / 2);
  let pairIndex = 0;
  for (let i = 0; i < groups; i++) {
    for (let j = i + 1; j < groups; j++) {
      combine64(superHi[i] as number, superLo[i] as number, superHi[j] as number, superLo[j] as number, out);
      combine64(out.hi, out.lo, pairIndex, 0x6d656761, out); // "mega"
      mega[pairIndex] = hex64(out.hi, out.lo);
      pairIndex++;
    }
  }
  return { super: superHex, mega };
}

const BIG_ENDIAN_HOST = new Uint8Array(new Uint32Array([1]).buffer)[0] === 0;
// broderShingles' scratch: super-shingle halves, one group's min-hashes and their bytes, the
// result of each hash, and the seed of each group (a BigInt made once, not per message).
let superHi = new Uint32Array(8);
let superLo = new Uint32Array(8);
let groupWords = new Uint32Array(16);
let groupBytes = new Uint8Array(groupWords.buffer);
const BRODER_OUT: U64 = { hi: 0, lo: 0 };
const SUPER_SEEDS: bigint[] = [];
function superSeed(g: number): bigint {
  let seed = SUPER_SEEDS[g];
  if (seed === undefined) {
    seed = SEED_SUPER + BigInt(g);
    SUPER_SEEDS[g] = seed;
  }
  return seed;
}

/**
 * General LSH banding: band t hashes min-hashes [t*r, (t+1)*r). A pair with Jaccard J shares at
 * least one band with probability 1 - (1 - J^r)^b; 20 x 4 puts the 50% point near J = 0.47.
 */
export function minhashBandHashes(mins: Uint32Array, config: Pick<MinhashConfig, 'bands' | 'rows'>): U64[] {
  const hi = new Uint32Array(config.bands);
  const lo = new Uint32Array(config.bands);
  minhashBandHashesInto(mins, config, hi, lo);
  const keys: U64[] = [];
  for (let t = 0; t < config.bands; t++) keys.push({ hi: hi[t] as number, lo: lo[t] as number });
  return keys;
}

const BAND_ACC: U64 = { hi: 0, lo: 0 };

/** minhashBandHashes into hi[t], lo[t]: no object per band. */
export function minhashBandHashesInto(
  mins: Uint32Array,
  config: Pick<MinhashConfig, 'bands' | 'rows'>,
  hi: Uint32Array,
  lo: Uint32Array,
): void {
  const acc = BAND_ACC;
  for (let t = 0; t < config.bands; t++) {
    acc.hi = fmix32(t + 0x62616e64); // "band"
    acc.lo = t;
    for (let r = 0; r < config.rows; r++)
      combine64(acc.hi, acc.lo, mins[t * config.rows + r] as number, r, acc);
    hi[t] = acc.hi;
    lo[t] = acc.lo;
  }
}

/** Band keys as `<band>:<16 hex>` strings. */
export function minhashBandKeys(mins: Uint32Array, config: Pick<MinhashConfig, 'bands' | 'rows'>): string[] {
  return minhashBandHashes(mins, config).map((k, t) => `${t}:${hex64(k.hi, k.lo)}`);
}

/** Share of equal min-hashes: an unbiased estimate of the Jaccard similarity of the shingle sets. */
export function jaccardEstimate(a: Uint32Array, b: Uint32Array): number {
  const n = Math.min(a.length, b.length);
  if (n === 0) return 0;
  let equal = 0;
  for (let i = 0; i < n; i++) if (a[i] === b[i]) equal++;
  return equal / n;
}

/** Exact Jaccard similarity of two shingle sets (for tests and for explain). */
export function exactJaccard(a: Uint32Array, b: Uint32Array): number {
  const sa = new Set(a);
  const sb = new Set(b);
  let inter = 0;
  for (const x of sa) if (sb.has(x)) inter++;
  const union = sa.size + sb.size - inter;
  return union === 0 ? 0 : inter / union;
}
