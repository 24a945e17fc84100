import { hamming64, parseHex64 } from '../hash/mix.js';
import { termCosine } from '../signatures/terms.js';
import type { Evidence, SignatureRecord } from './types.js';

/**
 * Every comparison between a message and one candidate, from their stored signatures. Candidates
 * come from shared buckets, which only say "maybe": this is the true evidence (Hamming distance,
 * Jaccard estimate, I-Match and lexical equality).
 */
export function compareRecords(a: SignatureRecord, b: SignatureRecord): Evidence {
  let hamming: number | null = null;
  if (a.simhash && b.simhash) {
    const x = parseHex64(a.simhash);
    const y = parseHex64(b.simhash);
    hamming = hamming64(x.hi, x.lo, y.hi, y.lo);
  }
  let jaccard: number | null = null;
  if (a.minhash && b.minhash && a.minhash.length === b.minhash.length && a.minhash.length > 0) {
    let equal = 0;
    for (let i = 0; i < a.minhash.length; i++) if (a.minhash[i] === b.minhash[i]) equal++;
    jaccard = Math.round((equal / a.minhash.length) * 10_000) / 10_000;
  }
  let imatch = false;
  if (a.imatch.length > 0 && b.imatch.length > 0) {
    const mine = new Set(a.imatch);
    imatch = b.imatch.some((s) => mine.has(s));
  }
  const same = (x: string | null, y: string | null) => (x !== null && x === y ? 1 : 0);
  return {
    exact: a.exact === b.exact,
    hamming,
    jaccard,
    imatch,
    lexical: same(a.lexical, b.lexical) + same(a.longest, b.longest) + same(a.heaviest, b.heaviest),
    cosine: a.terms && b.terms ? Math.round(termCosine(a.terms, b.terms) * 10_000) / 10_000 : null,
  };
}
