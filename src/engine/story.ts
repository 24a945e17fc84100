import type { DecisionConfig } from '../config/dedup.js';
import type { FactsRelation } from '../signatures/facts.js';
import type { Candidate, ClusterView, DedupStore, StoredVerdict } from './types.js';
import { roundSimilarity } from './verify.js';

/**
 * Story membership (news clustering) without chaining.
 *
 * A pairwise link at the loose story level is weak evidence: reports of different events on one
 * topic (daily case counts of two cities, two replies on one mailing list) share much of their
 * weighted vocabulary, and a union of such links chains unrelated stories into one. So a message
 * that matches nothing at the duplicate levels joins a story only when it is close to the story as
 * a whole: it must meet the story thresholds with at least `storyMinShare` of the story's members
 * among its candidates (the members that share index buckets with it; a member that shares a
 * bucket but not the story's substance counts against it), and the story must have had a message
 * within `storyWindowMs` of it. The candidates' current clusters are read from the store (their
 * verdicts and clusters). The share is taken over live candidates, not the cluster's stored size:
 * stores differ in what they remember of a cluster whose first members expired, and the verdicts
 * of the memory and Redis stores must be the same.
 */

/** A candidate's current cluster as the story rule needs it. */
export interface StoryCluster {
  id: string;
  size: number;
  /** The candidate's time: a story's last message is the latest of its candidates. */
  lastSeen: number;
  /** The story's title (its first message's, as the store keeps it); null when unknown or none. */
  title?: string | null;
}

/** Why a message joined (or did not join) a story: what `doppel explain` and the verdict show. */
export interface StoryLink {
  /** The cluster joined (its current id). */
  clusterId: string;
  /** The member it was linked through (its best story-level match there). */
  via: string;
  /** Members of the cluster the message meets the story thresholds with. */
  matched: number;
  /** Members of the cluster among the message's candidates: the share is matched / of. */
  of: number;
  share: number;
  /** Mean story similarity over the matched members. */
  similarity: number;
  /**
   * Members that met the story thresholds but whose facts conflict with the message's (both name
   * dates, none shared): counted in `of`, not in `matched`.
   */
  conflicts: number;
  /** Whether the rule accepted the link (false: the best story was refused; see `reason`). */
  joined: boolean;
  /**
   * Word overlap (Jaccard over title words) of the message's title and the story's, when both
   * have one and `decision.storyTitleMinJaccard` is set.
   */
  titleSimilarity?: number;
  /**
   * share: too small a share; facts: the share was enough only with the conflicting members;
   * title: the message's title shares too few words with the story's.
   */
  reason?: 'share' | 'window' | 'facts' | 'title';
}

export interface StoryMatch {
  id: string;
  seq: number;
  similarity: number;
  /** How the member's facts relate to the message's (signatures/facts.ts); unknown if absent. */
  facts?: FactsRelation;
}

/**
 * Current cluster of each candidate: its verdict's cluster, resolved through merges. A candidate
 * without a verdict yet (indexed in the same batch, or by another process, not yet committed) is
 * a story of one, as the stores treat it.
 */
export async function candidateClusters(
  store: DedupStore,
  candidates: readonly Candidate[],
  pendingTitles: ReadonlyMap<string, string> = new Map(),
): Promise<Map<string, StoryCluster>> {
  const out = new Map<string, StoryCluster>();
  // Two store calls for the whole batch (Redis: one script call each instead of one or two per
  // candidate).
  const verdicts = await store.verdictsOf(candidates.map((c) => c.id));
  const decided: Array<{ candidate: Candidate; verdict: StoredVerdict }> = [];
  candidates.forEach((c, i) => {
    const verdict = verdicts[i] ?? null;
    if (verdict === null) out.set(c.id, undecidedCluster(c, pendingTitles));
    else decided.push({ candidate: c, verdict });
  });
  // By the cluster id first; a store may no longer find a cluster by the id of a message that
  // expired (Redis), and then finds it through the live candidate's own id.
  const views = await store.clustersOf(
    decided.map((d) => ({ id: d.verdict.clusterId, fallback: d.candidate.id })),
  );
  for (const [i, d] of decided.entries()) {
    out.set(d.candidate.id, storyCluster(d.candidate, d.verdict, views[i] ?? null));
  }
  return out;
}

/** A candidate without a verdict: a story of one; its title when it is a message of the same batch. */
function undecidedCluster(c: Candidate, pendingTitles: ReadonlyMap<string, string>): StoryCluster {
  return { id: c.id, size: 1, lastSeen: c.ts, title: pendingTitles.get(c.id) ?? null };
}

function storyCluster(c: Candidate, verdict: StoredVerdict, view: ClusterView | null): StoryCluster {
  // The candidate's own time: a story's last message is taken over its live candidates, which
  // every store sees alike (stored cluster times differ after expiry).
  return view === null
    ? { id: verdict.clusterId, size: 1, lastSeen: c.ts, title: null }
    : { id: view.id, size: view.size, lastSeen: c.ts, title: view.title };
}

/**
 * The story a message joins, from its story-level matches and their clusters: the cluster with
 * the largest share of matched members (then the higher mean similarity, then the older member),
 * if that share and the time window allow it. Null when there is no story-level match at all.
 */
export function chooseStory(
  matches: readonly StoryMatch[],
  others: readonly string[],
  clusters: ReadonlyMap<string, StoryCluster>,
  ts: number,
  decision: DecisionConfig,
  title?: string,
): StoryLink | null {
  const minTitle = decision.storyTitleMinJaccard ?? null;
  const ownTitle = minTitle === null || title === undefined ? null : titleWords(title);
  const seen = new Map<string, number>();
  const lastSeen = new Map<string, number>();
  for (const id of [...matches.map((m) => m.id), ...others]) {
    const c = clusters.get(id);
    const cluster = c?.id ?? id;
    seen.set(cluster, (seen.get(cluster) ?? 0) + 1);
    if (c) lastSeen.set(cluster, Math.max(lastSeen.get(cluster) ?? c.lastSeen, c.lastSeen));
  }
  const groups = new Map<string, { cluster: StoryCluster; members: StoryMatch[] }>();
  for (const m of matches) {
    const cluster = clusters.get(m.id) ?? { id: m.id, size: 1, lastSeen: ts };
    const group = groups.get(cluster.id);
    if (group) group.members.push(m);
    else groups.set(cluster.id, { cluster, members: [m] });
  }
  // When the message's story-level neighbourhood names only other dates (some conflict, none
  // agrees), a member that names none is no evidence for the event: often it is a copy of a
  // conflicting member cut before its date, still undecided and so a story of its own.
  const neighbourhoodConflicts =
    matches.some((m) => m.facts === 'conflict') && !matches.some((m) => m.facts === 'agree');
  let best: StoryLink | null = null;
  let bestRaw = { share: 0, similarity: 0, seq: 0 };
  for (const { cluster, members } of groups.values()) {
    const of = seen.get(cluster.id) ?? members.length;
    // A member whose facts conflict does not share the story's substance; and a story whose
    // members name only other dates than the message (none the same) is another event, even
    // through a member that names none (a copy cut before its date).
    const conflicting = members.filter((m) => m.facts === 'conflict');
    const storyConflicts =
      neighbourhoodConflicts || (conflicting.length > 0 && !members.some((m) => m.facts === 'agree'));
    const agreeing = storyConflicts ? [] : members.filter((m) => m.facts !== 'conflict');
    const matched = agreeing.length;
    const share = matched / of;
    const counted = agreeing.length > 0 ? agreeing : members;
    const similarity = counted.reduce((s, m) => s + m.similarity, 0) / counted.length;
    const via = [...counted].sort((a, b) => b.similarity - a.similarity || a.seq - b.seq)[0] as StoryMatch;
    const link: StoryLink = {
      clusterId: cluster.id,
      via: via.id,
      matched,
      of,
      share: roundSimilarity(share),
      similarity: roundSimilarity(similarity),
      conflicts: members.length - matched,
      joined: true,
    };
    if (matched === 0 || share < decision.storyMinShare) {
      link.joined = false;
      link.reason = members.length / of >= decision.storyMinShare ? 'facts' : 'share';
    } else if (ts - (lastSeen.get(cluster.id) ?? cluster.lastSeen) > decision.storyWindowMs) {
      link.joined = false;
      link.reason = 'window';
    }
    if (ownTitle !== null && minTitle !== null && ownTitle.size > 0 && cluster.title) {
      const theirs = titleWords(cluster.title);
      if (theirs.size > 0) {
        link.titleSimilarity = roundSimilarity(jaccard(ownTitle, theirs));
        if (link.joined && link.titleSimilarity < minTitle) {
          link.joined = false;
          link.reason = 'title';
        }
      }
    }
    const better =
      best === null ||
      (link.joined && !best.joined) ||
      (link.joined === best.joined &&
        (share > bestRaw.share ||
          (share === bestRaw.share &&
            (similarity > bestRaw.similarity ||
              (similarity === bestRaw.similarity && via.seq < bestRaw.seq)))));
    if (better) {
      best = link;
      bestRaw = { share, similarity, seq: via.seq };
    }
  }
  return best;
}

/**
 * A title's words as the title rule compares them: lower case, ё as е, letters and digits only,
 * words of 3 characters or fewer left out (articles, prepositions), each cut to its first 5
 * characters (a crude stem: "Учёные" / "ученых", "acquits" / "acquitted" meet).
 */
export function titleWords(title: string): Set<string> {
  const out = new Set<string>();
  for (const w of title
    .normalize('NFKC')
    .toLowerCase()
    .replaceAll('ё', 'е')
    .split(/[^\p{L}\p{N}]+/u)) {
    if ([...w].length > 3) out.add([...w].slice(0, 5).join(''));
  }
  return out;
}

function jaccard(a: ReadonlySet<string>, b: ReadonlySet<string>): number {
  let shared = 0;
  for (const w of a) if (b.has(w)) shared++;
  return shared / (a.size + b.size - shared);
}
