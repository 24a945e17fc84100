import { fmix32 } from '../hash/mix.js';
import { INFO_LO, INFO_STRIDE } from './vocabulary.js';

/**
 * Sentence fingerprints: one 32-bit value per sentence of at least `minTokens` tokens, the top 24
 * bits a hash of the sentence's token sequence and the low 8 bits its token count (capped at 255).
 * They find and verify containment: a teaser made of an article's first sentences, or a partial
 * copy whose sentences were reordered, shares whole sentences with the full text even when their
 * shingle Jaccard is far below any near-duplicate threshold. Each fingerprint is an index key
 * (table `c`), and verification sums the token counts of the shared ones (engine/verify.ts).
 *
 * Short sentences are left out because boilerplate is made of them ("Read more.", "All rights
 * reserved."), and a match needs several tokens of shared sentences (decision thresholds).
 *
 * At most `max` fingerprints: the first max/2 qualifying sentences by position (a teaser is a
 * lead), then the rest with the lowest hashes (a reordered or partial copy shares some of those).
 * Returned distinct and ascending, so two sets intersect by one merge.
 */
export function sentenceFingerprints(
  info: Uint32Array | Int32Array,
  slots: Int32Array,
  sentenceEnds: readonly number[],
  minTokens: number,
  max: number,
): Uint32Array {
  const all: number[] = [];
  let start = 0;
  for (const end of sentenceEnds) {
    const length = end - start;
    if (length >= minTokens) {
      let h = 0x73656e74 ^ length; // "sent"
      for (let i = start; i < end; i++) {
        const slot = slots[i] as number;
        h = fmix32(Math.imul(h ^ (info[slot * INFO_STRIDE + INFO_LO] as number), 0x9e3779b1) ^ (i - start));
      }
      all.push(((h & 0xffffff00) | Math.min(length, 255)) >>> 0);
    }
    start = end;
  }
  let picked = all;
  if (all.length > max) {
    const lead = Math.floor(max / 2);
    const rest = all.slice(lead).sort((a, b) => a - b);
    // The lowest-hash rest, skipping values the lead already holds.
    const seen = new Set(all.slice(0, lead));
    picked = all.slice(0, lead);
    for (const v of rest) {
      if (picked.length >= max) break;
      if (!seen.has(v)) {
        seen.add(v);
        picked.push(v);
      }
    }
  }
  const out = Uint32Array.from(picked).sort();
  let n = 0;
  for (let i = 0; i < out.length; i++) if (n === 0 || out[i] !== out[n - 1]) out[n++] = out[i] as number;
  return out.subarray(0, n).slice();
}

/** Token count of a fingerprint's sentence (capped at 255). */
export function fingerprintTokens(fingerprint: number): number {
  return fingerprint & 0xff;
}

/**
 * Shared sentences of two ascending fingerprint sets: how many, and their tokens. One merge,
 * no allocation (verification runs it on every candidate).
 */
export function sharedSentences(
  a: ArrayLike<number>,
  b: ArrayLike<number>,
  out: { count: number; tokens: number },
): { count: number; tokens: number } {
  let i = 0;
  let j = 0;
  let count = 0;
  let tokens = 0;
  while (i < a.length && j < b.length) {
    const x = a[i] as number;
    const y = b[j] as number;
    if (x === y) {
      count++;
      tokens += x & 0xff;
      i++;
      j++;
    } else if (x < y) i++;
    else j++;
  }
  out.count = count;
  out.tokens = tokens;
  return out;
}

/** Tokens of all the fingerprinted sentences. */
export function sentenceTokens(a: ArrayLike<number>): number {
  let tokens = 0;
  for (let i = 0; i < a.length; i++) tokens += (a[i] as number) & 0xff;
  return tokens;
}
