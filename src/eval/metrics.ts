/**
 * Evaluation metrics for near-duplicate detection and story clustering.
 *
 * - Pairwise precision/recall/F1 and the adjusted Rand index compare two partitions (id -> cluster
 *   label). Both are computed from the contingency table of (gold label, predicted label) counts,
 *   in O(n): a feed of 10^5 messages has 5 * 10^9 pairs, which no one should enumerate.
 * - HFM and separation (Zobel & Hoad 2003) and a threshold
 *   sweep judge the scores a method gives to candidate pairs, before any threshold is chosen.
 * - `duplicateOfScores` judges what a streaming engine actually decides: for each message, the
 *   earlier message it is a duplicate of (or none).
 *
 * Conventions for empty denominators: precision is 1 when nothing was predicted (no claim is
 * wrong), recall is 1 when there was nothing to find, F1 is 0 when both precision and recall are
 * 0. An id missing from the predicted map is a singleton there; predicted ids absent from the gold
 * map are ignored, because the gold map defines the universe being evaluated.
 */

export interface PairwiseScores {
  truePositives: number;
  falsePositives: number;
  falseNegatives: number;
  precision: number;
  recall: number;
  f1: number;
}

/** Number of unordered pairs among n items. Exact in doubles up to n of about 10^8. */
function pairs(n: number): number {
  return (n * (n - 1)) / 2;
}

function scores(tp: number, fp: number, fn: number): PairwiseScores {
  const precision = tp + fp === 0 ? 1 : tp / (tp + fp);
  const recall = tp + fn === 0 ? 1 : tp / (tp + fn);
  const f1 = precision + recall === 0 ? 0 : (2 * precision * recall) / (precision + recall);
  return { truePositives: tp, falsePositives: fp, falseNegatives: fn, precision, recall, f1 };
}

interface Contingency {
  n: number;
  /** Sum over contingency cells of C(n_ij, 2): pairs together in both partitions. */
  together: number;
  /** Sum over gold clusters of C(a_i, 2). */
  goldPairs: number;
  /** Sum over predicted clusters of C(b_j, 2). */
  predictedPairs: number;
}

/**
 * Predicted labels are namespaced so that an id missing from `predicted` (a singleton) can never
 * collide with a real predicted label.
 */
function contingency(gold: ReadonlyMap<string, string>, predicted: ReadonlyMap<string, string>): Contingency {
  const goldSizes = new Map<string, number>();
  const predictedSizes = new Map<string, number>();
  const cells = new Map<string, Map<string, number>>();
  for (const [id, g] of gold) {
    const p = predicted.get(id);
    const pKey = p === undefined ? `s:${id}` : `p:${p}`;
    goldSizes.set(g, (goldSizes.get(g) ?? 0) + 1);
    predictedSizes.set(pKey, (predictedSizes.get(pKey) ?? 0) + 1);
    let row = cells.get(g);
    if (row === undefined) {
      row = new Map();
      cells.set(g, row);
    }
    row.set(pKey, (row.get(pKey) ?? 0) + 1);
  }
  let together = 0;
  for (const row of cells.values()) for (const count of row.values()) together += pairs(count);
  let goldPairs = 0;
  for (const size of goldSizes.values()) goldPairs += pairs(size);
  let predictedPairs = 0;
  for (const size of predictedSizes.values()) predictedPairs += pairs(size);
  return { n: gold.size, together, goldPairs, predictedPairs };
}

/**
 * Pair-counting precision/recall: a pair is positive when both ids share a cluster. TP = pairs
 * together in both partitions, FP = together only in the prediction, FN = together only in gold.
 */
export function pairwiseScores(
  gold: ReadonlyMap<string, string>,
  predicted: ReadonlyMap<string, string>,
): PairwiseScores {
  const c = contingency(gold, predicted);
  return scores(c.together, c.predictedPairs - c.together, c.goldPairs - c.together);
}

/**
 * Adjusted Rand index (Hubert & Arabie 1985): (index - expected) / (max - expected), with
 * index = sum C(n_ij,2), expected = sum C(a_i,2) * sum C(b_j,2) / C(n,2) and
 * max = (sum C(a_i,2) + sum C(b_j,2)) / 2. 1 for identical partitions, about 0 for independent
 * ones, negative when worse than chance. The denominator vanishes only when both partitions are
 * all singletons or both one cluster, i.e. identical: then 1 (as scikit-learn does).
 */
export function adjustedRandIndex(
  gold: ReadonlyMap<string, string>,
  predicted: ReadonlyMap<string, string>,
): number {
  const c = contingency(gold, predicted);
  if (c.n < 2) return 1;
  const expected = (c.goldPairs * c.predictedPairs) / pairs(c.n);
  const max = (c.goldPairs + c.predictedPairs) / 2;
  if (max === expected) return 1;
  return (c.together - expected) / (max - expected);
}

/** A similarity score given to a candidate pair by a method. */
export interface ScoredPair {
  a: string;
  b: string;
  score: number;
}

/** True when both ids are in gold and share a label; an unlabelled id never matches. */
function isTrueMatch(gold: ReadonlyMap<string, string>, a: string, b: string): boolean {
  const ga = gold.get(a);
  return ga !== undefined && ga === gold.get(b);
}

/**
 * A candidate list may name one pair twice (once per signature that found it, or as (a, b) and
 * (b, a)); it counts once, with its highest score, so that recall can never exceed 1.
 */
function distinctPairs(pairsIn: readonly ScoredPair[]): ScoredPair[] {
  const best = new Map<string, ScoredPair>();
  for (const p of pairsIn) {
    if (p.a === p.b || Number.isNaN(p.score)) continue;
    const [a, b] = p.a < p.b ? [p.a, p.b] : [p.b, p.a];
    const key = `${a.length}:${a}${b}`;
    const seen = best.get(key);
    if (seen === undefined || p.score > seen.score) best.set(key, { a, b, score: p.score });
  }
  return [...best.values()];
}

/**
 * Zobel & Hoad's measures of a similarity score, independent of any threshold: HFM, the highest
 * score given to a false match, and separation, the lowest true-match score minus HFM. A positive
 * separation means some threshold separates true from false matches perfectly on these pairs.
 * Null when the pairs hold no false (HFM) or no true (lowestTrue) match.
 */
export function hfmAndSeparation(
  pairsIn: ScoredPair[],
  gold: ReadonlyMap<string, string>,
): { hfm: number | null; lowestTrue: number | null; separation: number | null } {
  let hfm: number | null = null;
  let lowestTrue: number | null = null;
  for (const p of distinctPairs(pairsIn)) {
    if (isTrueMatch(gold, p.a, p.b)) {
      if (lowestTrue === null || p.score < lowestTrue) lowestTrue = p.score;
    } else if (hfm === null || p.score > hfm) {
      hfm = p.score;
    }
  }
  return { hfm, lowestTrue, separation: hfm === null || lowestTrue === null ? null : lowestTrue - hfm };
}

/** Unordered pairs within gold clusters: the denominator of recall. */
export function goldPairCount(gold: ReadonlyMap<string, string>): number {
  const sizes = new Map<string, number>();
  for (const label of gold.values()) sizes.set(label, (sizes.get(label) ?? 0) + 1);
  let total = 0;
  for (const size of sizes.values()) total += pairs(size);
  return total;
}

/**
 * Pair-level precision and recall of "score >= t" for each threshold t. Precision is over the
 * given candidate pairs; recall is relative to `totalGoldPairs`, by default every gold pair,
 * so that pairs a method never proposed count as missed.
 */
export function thresholdSweep(
  pairsIn: ScoredPair[],
  gold: ReadonlyMap<string, string>,
  thresholds: number[],
  totalGoldPairs: number = goldPairCount(gold),
): { threshold: number; precision: number; recall: number }[] {
  const sorted = distinctPairs(pairsIn).sort((x, y) => y.score - x.score);
  // truesAbove[k] = true matches among the k highest-scored pairs.
  const truesAbove = new Int32Array(sorted.length + 1);
  sorted.forEach((p, k) => {
    truesAbove[k + 1] = truesAbove[k]! + (isTrueMatch(gold, p.a, p.b) ? 1 : 0);
  });
  return thresholds.map((threshold) => {
    // Binary search: the number of pairs with score >= threshold.
    let lo = 0;
    let hi = sorted.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (sorted[mid]!.score >= threshold) lo = mid + 1;
      else hi = mid;
    }
    const accepted = lo;
    const tp = truesAbove[accepted]!;
    return {
      threshold,
      precision: accepted === 0 ? 1 : tp / accepted,
      recall: totalGoldPairs === 0 ? 1 : tp / totalGoldPairs,
    };
  });
}

/** One streaming decision: the message and the earlier message it was judged a duplicate of. */
export interface DuplicateDecision {
  id: string;
  duplicateOf?: string;
}

export interface DuplicateOfScores extends PairwiseScores {
  /**
   * Wrong links on messages that did have an earlier message of their gold cluster. They count
   * once, as false positives; a stricter recall, where a wrong link also misses the right one,
   * is TP / (TP + FN + misattributed).
   */
  misattributed: number;
}

/**
 * Scores the links an engine outputs, in stream order: a decision with `duplicateOf` is a true
 * positive when both messages share a gold cluster, else a false positive; a decision without
 * one is a false negative when an earlier decision belongs to the same gold cluster. Messages
 * without a gold label count only when they are linked (as false positives).
 */
export function duplicateOfScores(
  gold: ReadonlyMap<string, string>,
  decisions: readonly DuplicateDecision[],
): DuplicateOfScores {
  const seenClusters = new Set<string>();
  let tp = 0;
  let fp = 0;
  let fn = 0;
  let misattributed = 0;
  for (const d of decisions) {
    const cluster = gold.get(d.id);
    const hadEarlier = cluster !== undefined && seenClusters.has(cluster);
    if (d.duplicateOf !== undefined) {
      if (isTrueMatch(gold, d.id, d.duplicateOf)) tp++;
      else {
        fp++;
        if (hadEarlier) misattributed++;
      }
    } else if (hadEarlier) {
      fn++;
    }
    if (cluster !== undefined) seenClusters.add(cluster);
  }
  return { ...scores(tp, fp, fn), misattributed };
}
