import { fmix32 } from '../hash/mix.js';

/**
 * A small seeded PRNG for the benchmark generator: xoshiro128** seeded through splitmix32.
 *
 * Math.random cannot be seeded, and a benchmark is only worth publishing when the same seed gives
 * byte-identical output on every machine. Streams are derived from (seed, labels) rather than
 * drawn from one shared sequence, so that adding a document, a kind or a variant leaves every
 * other document's variants unchanged: results stay comparable across generator runs that differ
 * only in their inputs.
 */

const UINT32 = 0x1_0000_0000;

/** FNV-1a over UTF-16 code units, then a murmur3 finalizer: labels are short, quality matters more than speed. */
export function hashString(text: string, seed = 0x811c9dc5): number {
  let h = seed >>> 0;
  for (let i = 0; i < text.length; i++) {
    h ^= text.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  return fmix32(h);
}

function splitmix32(state: { s: number }): number {
  state.s = (state.s + 0x9e3779b9) >>> 0;
  let z = state.s;
  z = Math.imul(z ^ (z >>> 16), 0x85ebca6b);
  z = Math.imul(z ^ (z >>> 13), 0xc2b2ae35);
  return (z ^ (z >>> 16)) >>> 0;
}

export class Random {
  private a: number;
  private b: number;
  private c: number;
  private d: number;

  private constructor(seed32: number) {
    const state = { s: seed32 >>> 0 };
    this.a = splitmix32(state);
    this.b = splitmix32(state);
    this.c = splitmix32(state);
    this.d = splitmix32(state);
    // xoshiro's one forbidden state; splitmix32 practically never yields it, but "practically" is not "never".
    if ((this.a | this.b | this.c | this.d) === 0) this.a = 1;
  }

  /**
   * An independent stream for (seed, ...labels). The seed may be any safe integer: both 32-bit
   * halves are mixed in, so seeds 1 and 2**32 + 1 differ.
   */
  static from(seed: number, ...labels: readonly string[]): Random {
    if (!Number.isSafeInteger(seed)) throw new RangeError(`seed must be a safe integer, got ${seed}`);
    const low = seed >>> 0;
    const high = Math.floor(seed / UINT32) >>> 0;
    let h = fmix32(low ^ fmix32(high ^ 0x5bd1e995));
    for (const label of labels) h = hashString(label, h ^ 0x9e3779b9);
    return new Random(h);
  }

  /** Next 32-bit unsigned integer. */
  nextUint32(): number {
    const result = Math.imul(rotl(Math.imul(this.b, 5), 7), 9) >>> 0;
    const t = this.b << 9;
    this.c ^= this.a;
    this.d ^= this.b;
    this.b ^= this.c;
    this.a ^= this.d;
    this.c ^= t;
    this.d = rotl(this.d, 11);
    return result;
  }

  /** Uniform in [0, 1), 53 bits. */
  next(): number {
    const hi = this.nextUint32() >>> 5; // 27 bits
    const lo = this.nextUint32() >>> 6; // 26 bits
    return (hi * 67108864 + lo) / 9007199254740992;
  }

  /** Uniform integer in [0, n). */
  int(n: number): number {
    if (!Number.isInteger(n) || n <= 0) throw new RangeError(`int(n) needs a positive integer, got ${n}`);
    return Math.floor(this.next() * n);
  }

  /** Uniform integer in [lo, hi], both inclusive. */
  between(lo: number, hi: number): number {
    return lo + this.int(hi - lo + 1);
  }

  /** Uniform real in [lo, hi). */
  uniform(lo: number, hi: number): number {
    return lo + (hi - lo) * this.next();
  }

  chance(p: number): boolean {
    return this.next() < p;
  }

  pick<T>(items: readonly T[]): T {
    if (items.length === 0) throw new RangeError('pick from an empty list');
    return items[this.int(items.length)] as T;
  }

  /** Picks by non-negative weights (pairs of item and weight). */
  weighted<T>(items: readonly (readonly [T, number])[]): T {
    const total = items.reduce((s, [, w]) => s + w, 0);
    if (!(total > 0)) throw new RangeError('weighted pick needs a positive total weight');
    let x = this.next() * total;
    for (const [item, w] of items) {
      x -= w;
      if (x < 0) return item;
    }
    return items[items.length - 1]![0];
  }

  /** A shuffled copy (Fisher-Yates). */
  shuffle<T>(items: readonly T[]): T[] {
    const out = items.slice();
    for (let i = out.length - 1; i > 0; i--) {
      const j = this.int(i + 1);
      const tmp = out[i] as T;
      out[i] = out[j] as T;
      out[j] = tmp;
    }
    return out;
  }

  /** k distinct integers of [0, n), in increasing order. */
  sample(n: number, k: number): number[] {
    const take = Math.min(Math.max(0, k), n);
    // Partial Fisher-Yates over a sparse map: O(k) even when n is large.
    const swapped = new Map<number, number>();
    const out: number[] = [];
    for (let i = 0; i < take; i++) {
      const j = i + this.int(n - i);
      const vj = swapped.get(j) ?? j;
      swapped.set(j, swapped.get(i) ?? i);
      out.push(vj);
    }
    return out.sort((x, y) => x - y);
  }

  /** Lower-case hex string of the given length. */
  hex(length: number): string {
    let out = '';
    while (out.length < length) out += this.nextUint32().toString(16).padStart(8, '0');
    return out.slice(0, length);
  }

  /** A string of decimal digits of the given length (leading zeros allowed, as in real order numbers). */
  digits(length: number): string {
    let out = '';
    for (let i = 0; i < length; i++) out += String(this.int(10));
    return out;
  }
}

/**
 * mulberry32: one 32-bit state, a number in [0, 1) per call. Smaller and faster than `Random`,
 * with no labelled streams: for the benchmarks' and tests' synthetic inputs that only need the
 * same sequence for the same seed (the seed is taken modulo 2^32).
 */
export function mulberry32(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

function rotl(x: number, k: number): number {
  return ((x << k) | (x >>> (32 - k))) >>> 0;
}
