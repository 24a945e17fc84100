import type { Scored } from './engine.js';

/**
 * Which of a message's matches its `duplicateOf` names, and which clusters it joins.
 *
 * `duplicateOf` is the earliest message it duplicates, compared at the strongest evidence found
 * first: an exact copy beats an earlier near-duplicate; a near-duplicate with strong evidence
 * (Jaccard estimate at least `strongJaccard`) beats an earlier one that only just met a
 * threshold; and a near-duplicate by containment alone (a short text quoted whole in a longer
 * one) comes last. Earliest-at-any-level linked a campaign copy to an older mail that shared its
 * template (Jaccard 0.51-0.58) although a copy of its own campaign (0.69-0.95) was a candidate
 * (docs/quality.md).
 */
export enum Tier {
  Exact = 0,
  Strong = 1,
  Near = 2,
  Contained = 3,
  Story = 4,
}

export function tierOf(s: Scored, strongJaccard: number): Tier {
  const level = s.level.level;
  if (level === 'duplicate') return Tier.Exact;
  if (level !== 'near_duplicate') return Tier.Story;
  if (s.level.method === 'containment') return Tier.Contained;
  const j = s.evidence.jaccard;
  return j !== null && j >= strongJaccard ? Tier.Strong : Tier.Near;
}

/** The earliest match of the strongest tier present below the story level, or null. */
export function chooseDuplicateOf(scored: readonly Scored[], strongJaccard: number): Scored | null {
  let best: Scored | null = null;
  let bestTier: Tier = Tier.Story;
  for (const s of scored) {
    const tier = tierOf(s, strongJaccard);
    if (tier === Tier.Story) continue;
    if (best === null || tier < bestTier || (tier === bestTier && s.candidate.seq < best.candidate.seq)) {
      best = s;
      bestTier = tier;
    }
  }
  return best;
}

/**
 * Clusters a message joins: those of all its duplicate and near-duplicate matches (several
 * clusters merge) other than containment-only ones, which join only the cluster `duplicateOf`
 * names when nothing closer matched (a short mail contained in two longer ones does not merge
 * them); with no such match, the story it was accepted into (`bestStory`), so that one message
 * loosely related to two stories does not chain them together.
 */
export function joinsOf(
  scored: readonly Scored[],
  bestStory: Scored | null,
  chosen: Scored | null = null,
): string[] {
  const close = scored.filter(
    (s) =>
      (s.level.level === 'duplicate' || s.level.level === 'near_duplicate') &&
      s.level.method !== 'containment',
  );
  if (close.length > 0) return close.map((s) => s.candidate.id);
  if (chosen) return [chosen.candidate.id];
  return bestStory ? [bestStory.candidate.id] : [];
}
