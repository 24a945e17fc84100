import type { DecisionConfig, Thresholds } from '../config/dedup.js';
import type { Evidence } from './types.js';

export type MatchLevel = 'duplicate' | 'near_duplicate' | 'story' | 'none';

export interface Match {
  level: MatchLevel;
  /** Which evidence decided: exact, minhash, simhash, imatch, cosine or containment. */
  method: string;
  /** The similarity that decided (Jaccard estimate, or 1 - Hamming/64 for SimHash). */
  similarity: number;
}

/**
 * No match. One object for every such answer (most candidates): never changed by its readers,
 * which only compare and copy matches.
 */
const NO_MATCH: Match = { level: 'none', method: '', similarity: 0 };

/** Does the evidence meet one set of thresholds? Returns the match at `level`, or null. */
function meets(e: Evidence, t: Thresholds, level: MatchLevel): Match | null {
  if (e.jaccard !== null && e.jaccard >= t.jaccard)
    return { level, method: 'minhash', similarity: e.jaccard };
  if (
    e.hamming !== null &&
    e.hamming <= t.hamming &&
    (e.jaccard === null || e.jaccard >= t.hammingMinJaccard)
  ) {
    return { level, method: 'simhash', similarity: 1 - e.hamming / 64 };
  }
  if (e.imatch && (e.jaccard === null || e.jaccard >= t.imatchMinJaccard)) {
    return { level, method: 'imatch', similarity: e.jaccard ?? 1 };
  }
  if (
    t.cosine !== null &&
    e.cosine !== null &&
    e.cosine >= t.cosine &&
    (e.jaccard === null || e.jaccard >= t.cosineMinJaccard)
  ) {
    return { level, method: 'cosine', similarity: e.cosine };
  }
  if (
    t.containment !== undefined &&
    t.containment !== null &&
    e.containment !== undefined &&
    e.containment >= t.containment &&
    e.jaccard !== null &&
    e.jaccard >= (t.containmentMinJaccard ?? 0)
  ) {
    return { level, method: 'containment', similarity: e.containment };
  }
  if (
    t.contained !== undefined &&
    t.contained !== null &&
    e.contained !== undefined &&
    e.contained >= t.contained &&
    (e.containedSentences ?? 0) >= (t.containedMinSentences ?? 1) &&
    (e.containedTokens ?? 0) >= (t.containedMinTokens ?? 1) &&
    sharesVocabulary(e)
  ) {
    return { level, method: 'containment', similarity: e.contained };
  }
  return null;
}

/** Below this cosine (and with no equal min-hash) two texts share no vocabulary worth the name. */
const CONTAINED_MIN_COSINE = 0.1;

/**
 * Corroboration of a sentence match by the rest of the evidence. A sentence fingerprint is 24 bits
 * of hash and the sentence's length, and it is both the index key that found the candidate and
 * the evidence that verifies it, so a fingerprint collision alone would "verify" (two unrelated
 * one-sentence texts of equal length, among a window of many). Texts that truly share sentences
 * share their words too: at least one equal min-hash or some tf*idf cosine. A collision has
 * neither (Jaccard 0, cosine 0).
 */
function sharesVocabulary(e: Evidence): boolean {
  return (e.jaccard !== null && e.jaccard > 0) || (e.cosine !== null && e.cosine >= CONTAINED_MIN_COSINE);
}

/**
 * The decision rule of a profile, two levels: the duplicate level (tag or drop) and the looser
 * story level (cluster membership only). Exact equality of the canonical text is a duplicate
 * whatever the length; near matches need enough tokens on both sides, because short texts share
 * signatures by chance.
 */
export function matchLevel(
  e: Evidence,
  config: DecisionConfig,
  tokens: number,
  candidateTokens: number,
): Match {
  if (e.exact) return { level: 'duplicate', method: 'exact', similarity: 1 };
  if (Math.min(tokens, candidateTokens) < config.minTokensForNear) return NO_MATCH;
  const near = meets(e, config.nearDuplicate, 'near_duplicate');
  if (near) return near;
  if (config.storyClustering) {
    const story = meets(e, config.story, 'story');
    if (story) return story;
  }
  return NO_MATCH;
}
