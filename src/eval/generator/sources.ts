import { canonicalWords } from './text.js';
import type { SourceDoc } from './types.js';

/**
 * Source similarity and gold clusters: sources that are near-duplicates of each other (wire
 * copies under different ids) share one gold cluster, so a detector is not charged for finding them.
 */

// ---------------------------------------------------------------------------------------------
// Source similarity and gold clusters.

export function shingles(text: string): Set<string> {
  const words = canonicalWords(text);
  const out = new Set<string>();
  if (words.length < 3) {
    if (words.length > 0) out.add(words.join(' '));
    return out;
  }
  for (let i = 0; i + 3 <= words.length; i++) out.add(`${words[i]} ${words[i + 1]} ${words[i + 2]}`);
  return out;
}

export interface SourceSimilarity {
  a: string;
  b: string;
  /** Word 3-shingle Jaccard resemblance. */
  jaccard: number;
  /** Shared 3-shingles over the smaller document's: high when one is a (truncated) copy of the other. */
  containment: number;
  /** Number of distinct 3-shingles of a and of b. */
  sizes: [number, number];
}

/**
 * When two source documents count as near-duplicates of each other: Jaccard >= `jaccard`, or
 * containment >= `containment` where the smaller has at least `minShingles` shingles and
 * `minRatio` of the larger's. The size conditions keep out what containment alone would merge:
 * one-line mails "contained" in longer ones through shared boilerplate, replies quoting a whole
 * mail, and a 300-word excerpt of a 2,000-word article (ru-00083/84). The generator's own
 * truncations keep 70% of a text and more.
 */
export interface SourceDuplicateRule {
  jaccard: number;
  containment: number;
  minShingles: number;
  minRatio: number;
}

/**
 * Calibrated on the evaluation corpus: wire and truncated copies in the news sets score containment
 * 0.79-0.98 (Jaccard 0.46-0.95); rewrites of one story (AP and BBC on one event) at most 0.56.
 */
export const DEFAULT_SOURCE_DUPLICATE_RULE: SourceDuplicateRule = {
  jaccard: 0.5,
  containment: 0.75,
  minShingles: 20,
  minRatio: 0.5,
};

/**
 * Pairs of documents sharing at least `minContainment` of the smaller one's 3-shingles, through
 * an inverted index (no all-pairs loop: only documents that share a shingle are compared).
 */
export function findSimilarSources(docs: readonly SourceDoc[], minContainment = 0.3): SourceSimilarity[] {
  const sets = docs.map((d) => shingles(d.text));
  const index = new Map<string, number[]>();
  sets.forEach((set, i) => {
    for (const sh of set) {
      const list = index.get(sh);
      if (list === undefined) index.set(sh, [i]);
      else list.push(i);
    }
  });
  const out: SourceSimilarity[] = [];
  sets.forEach((set, i) => {
    const shared = new Map<number, number>();
    for (const sh of set) for (const j of index.get(sh)!) if (j > i) shared.set(j, (shared.get(j) ?? 0) + 1);
    for (const [j, inter] of [...shared].sort((x, y) => x[0] - y[0])) {
      const sim = similarity(docs[i]!.id, docs[j]!.id, set, sets[j]!, inter);
      if (sim.containment >= minContainment) out.push(sim);
    }
  });
  return out;
}

export function similarity(
  a: string,
  b: string,
  sa: Set<string>,
  sb: Set<string>,
  shared?: number,
): SourceSimilarity {
  let inter = shared ?? 0;
  if (shared === undefined) for (const sh of sa) if (sb.has(sh)) inter++;
  const union = sa.size + sb.size - inter;
  const smaller = Math.min(sa.size, sb.size);
  return {
    a,
    b,
    jaccard: union === 0 ? 0 : inter / union,
    containment: smaller === 0 ? 0 : inter / smaller,
    sizes: [sa.size, sb.size],
  };
}

/** True when two sources are near-duplicates by `rule`. */
export function isSourceDuplicate(
  sim: SourceSimilarity,
  rule: SourceDuplicateRule = DEFAULT_SOURCE_DUPLICATE_RULE,
): boolean {
  if (sim.jaccard >= rule.jaccard) return true;
  const smaller = Math.min(...sim.sizes);
  const larger = Math.max(...sim.sizes);
  return (
    sim.containment >= rule.containment && smaller >= rule.minShingles && smaller >= rule.minRatio * larger
  );
}

/**
 * Gold cluster of every source: its own id, or the id of the first document (input order) of a
 * group of near-duplicate sources (connected by pairs that `rule` calls near-duplicates; false:
 * every source is its own cluster).
 */
export function sourceClusters(
  docs: readonly SourceDoc[],
  rule: Partial<SourceDuplicateRule> | false = DEFAULT_SOURCE_DUPLICATE_RULE,
): Map<string, string> {
  const parent = docs.map((_d, i) => i);
  const find = (i: number): number => {
    let x = i;
    while (parent[x] !== x) {
      parent[x] = parent[parent[x]!]!;
      x = parent[x]!;
    }
    return x;
  };
  if (rule !== false) {
    const full = { ...DEFAULT_SOURCE_DUPLICATE_RULE, ...rule };
    const position = new Map(docs.map((d, i) => [d.id, i]));
    // Jaccard >= j implies containment >= j: one scan finds the pairs of either condition.
    for (const sim of findSimilarSources(docs, Math.min(full.containment, full.jaccard))) {
      if (!isSourceDuplicate(sim, full)) continue;
      const ri = find(position.get(sim.a)!);
      const rj = find(position.get(sim.b)!);
      // The root is always the earliest document, so the label is the first id of the group.
      if (ri !== rj) parent[Math.max(ri, rj)] = Math.min(ri, rj);
    }
  }
  return new Map(docs.map((d, i) => [d.id, docs[find(i)]!.id]));
}
