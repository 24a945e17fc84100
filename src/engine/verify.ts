import { hamming64 } from '../hash/mix.js';
import { termCosine } from '../signatures/terms.js';
import { jaccardEstimate } from './record.js';
import type { Evidence, SignatureRecord } from './types.js';

/**
 * Every comparison between a message and one candidate, from their stored signatures. Candidates
 * come from shared buckets, which only say "maybe": this is the true evidence (Hamming distance,
 * Jaccard estimate, I-Match and lexical equality, tf*idf cosine). Runs up to maxCandidates times
 * per message, so it allocates nothing but the result.
 */
export function compareRecords(a: SignatureRecord, b: SignatureRecord): Evidence {
  const hamming =
    a.simhash && b.simhash ? hamming64(a.simhash.hi, a.simhash.lo, b.simhash.hi, b.simhash.lo) : null;
  let jaccard: number | null = null;
  const ma = a.minhash;
  const mb = b.minhash;
  if (ma && mb && ma.length === mb.length && ma.length > 0) {
    let equal = 0;
    for (let i = 0; i < ma.length; i++) if (ma[i] === mb[i]) equal++;
    jaccard = Math.round(jaccardEstimate(equal, ma.length) * 10_000) / 10_000;
  }
  // At most 1 + K signatures a side: a nested loop beats building a Set.
  let imatch = false;
  for (let i = 0; i < a.imatch.length && !imatch; i++) {
    for (let j = 0; j < b.imatch.length; j++) {
      if (a.imatch[i] === b.imatch[j]) {
        imatch = true;
        break;
      }
    }
  }
  let lexical = 0;
  if (a.lexical !== null && a.lexical === b.lexical) lexical++;
  if (a.longest !== null && a.longest === b.longest) lexical++;
  if (a.heaviest !== null && a.heaviest === b.heaviest) lexical++;
  return {
    exact: a.exact === b.exact,
    hamming,
    jaccard,
    imatch,
    lexical,
    cosine: a.terms && b.terms ? Math.round(termCosine(a.terms, b.terms) * 10_000) / 10_000 : null,
  };
}
