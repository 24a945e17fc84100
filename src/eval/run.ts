import type { DedupConfig } from '../config/dedup.js';
import { dedupConfigSchema } from '../config/dedup.js';
import { deepMerge } from '../config/profiles.js';
import { parseConfig } from '../config/validate.js';
import { DedupEngine, type EngineVerdict } from '../engine/engine.js';
import type { Evidence, IndexRequest } from '../engine/types.js';
import { isDoppelError } from '../errors.js';
import type { Message } from '../input/message.js';
import type { LexiconSet } from '../lexicon/lexicon.js';
import { MessageFlow } from '../pipeline/flow.js';
import { Signer } from '../signatures/signer.js';
import { MemoryStore } from '../store/memory/store.js';
import {
  adjustedRandIndex,
  type DuplicateOfScores,
  duplicateOfScores,
  hfmAndSeparation,
  type PairwiseScores,
  pairwiseScores,
  type ScoredPair,
} from './metrics.js';

export interface LabeledMessage {
  message: Message;
  /** Gold cluster label. */
  gold: string;
  /** Gold story label (defaults to `gold`: every near-duplicate cluster is one story). */
  story?: string;
}

/** Duplicate- and story-level scores of one slice of the stream (one language). */
export interface SliceScores {
  messages: number;
  duplicates: DuplicateOfScores;
  stories: PairwiseScores;
}

/** A configuration to evaluate: the profile's combined rule, or a single-method baseline. */
export interface EvalVariant {
  name: string;
  description: string;
  config: DedupConfig;
  /** The score whose HFM / separation is reported. */
  score: (e: Evidence) => number | null;
}

export interface EvalResult {
  name: string;
  description: string;
  messages: number;
  invalid: number;
  /** Duplicate level: each message's duplicateOf link against gold clusters. */
  duplicates: DuplicateOfScores;
  /** Final clusters (story clustering included) against gold clusters. */
  clusters: PairwiseScores & { ari: number };
  /** Final clusters against gold stories: pairwise story precision / recall / F1. */
  stories: PairwiseScores & { ari: number };
  /** The same per language of the messages. */
  byLanguage: Record<string, SliceScores>;
  /** Duplicate-level recall per kind of variant (the generator's "variant" field), when present. */
  recallByKind: Record<string, { messages: number; found: number; recall: number }>;
  /** Zobel-Hoad HFM and separation of the variant's score over all verified candidate pairs. */
  hfm: number | null;
  lowestTrue: number | null;
  separation: number | null;
  messagesPerSecond: number;
}

const jaccardScore = (e: Evidence) => (e.exact ? 1 : e.jaccard);
const simhashScore = (e: Evidence) => (e.exact ? 1 : e.hamming === null ? null : 1 - e.hamming / 64);

/** Combined score for the profile rule: the strongest single similarity. */
function combinedScore(e: Evidence): number | null {
  const scores = [jaccardScore(e), simhashScore(e), e.imatch ? 1 : null].filter(
    (x): x is number => x !== null,
  );
  return scores.length === 0 ? null : Math.max(...scores);
}

function variant(
  base: DedupConfig,
  name: string,
  description: string,
  overrides: unknown,
  score: EvalVariant['score'],
): EvalVariant {
  return {
    name,
    description,
    config: parseConfig(dedupConfigSchema, deepMerge(base, overrides), name),
    score,
  };
}

/**
 * The profile's combined rule and baselines that each use one method for both candidates and
 * decision; "minhash-lsh" is plain MinHash LSH (b x r bands, a Jaccard threshold), the method
 * text-dedup and datasketch use.
 */
export function evalVariants(base: DedupConfig): EvalVariant[] {
  const only = (method: 'simhash' | 'minhash' | 'imatch') => ({
    simhash: { enabled: method === 'simhash' },
    minhash: { enabled: method === 'minhash' },
    imatch: { enabled: method === 'imatch' },
    lexical: { enabled: false },
  });
  const noStory = { storyClustering: false };
  return [
    {
      name: 'combined',
      description: `the ${base.profile} profile's rule`,
      config: base,
      score: combinedScore,
    },
    variant(
      base,
      'minhash-lsh',
      'plain MinHash LSH: 20 x 4 bands, Jaccard >= 0.5',
      {
        signatures: only('minhash'),
        index: { methods: ['exact', 'bands'] },
        decision: { ...noStory, nearDuplicate: { jaccard: 0.5 } },
      },
      jaccardScore,
    ),
    variant(
      base,
      'broder-mega',
      'Broder mega-shingles (2 of 6 super-shingles), Jaccard >= 0.5',
      {
        signatures: only('minhash'),
        index: { methods: ['exact', 'mega'] },
        decision: { ...noStory, nearDuplicate: { jaccard: 0.5 } },
      },
      jaccardScore,
    ),
    variant(
      base,
      'simhash',
      'SimHash-64, Manku tables (6 blocks, k = 3), Hamming <= 3',
      {
        signatures: only('simhash'),
        index: { methods: ['exact', 'simhash'] },
        decision: { ...noStory, nearDuplicate: { hamming: 3 } },
      },
      simhashScore,
    ),
    variant(
      base,
      'i-match',
      'I-Match, secondary lexicon + 3 randomized lexicons, any equal signature',
      { signatures: only('imatch'), index: { methods: ['exact', 'imatch'] }, decision: noStory },
      (e) => (e.exact || e.imatch ? 1 : 0),
    ),
    variant(
      base,
      'exact',
      'exact canonical-text hash only',
      { signatures: only('imatch'), index: { methods: ['exact'] }, decision: noStory },
      (e) => (e.exact ? 1 : 0),
    ),
  ];
}

/** Runs one variant over the labelled stream, in order, on a fresh in-memory store. */
export async function runVariant(
  items: readonly LabeledMessage[],
  v: EvalVariant,
  lexicons: LexiconSet,
): Promise<EvalResult> {
  const signer = new Signer(v.config.signatures, lexicons);
  const store = new MemoryStore(v.config.window, v.config.index);
  const flow = new MessageFlow(new DedupEngine(v.config, store, { collectEvidence: true }), signer);
  const gold = new Map<string, string>();
  const storyGold = new Map<string, string>();
  const langOf = new Map<string, string>();
  const verdicts: EngineVerdict[] = [];
  let invalid = 0;
  let lastTs = 0;
  const started = performance.now();
  let batch: IndexRequest[] = [];
  const flush = async () => {
    if (batch.length > 0) for (const verdict of await flow.process(batch)) verdicts.push(verdict);
    batch = [];
  };
  for (const item of items) {
    try {
      const request = await flow.prepare(item.message, item.message.ts ?? lastTs);
      lastTs = item.message.ts ?? lastTs;
      gold.set(item.message.id, item.gold);
      storyGold.set(item.message.id, item.story ?? item.gold);
      langOf.set(item.message.id, request.record.lang);
      batch.push(request);
    } catch (error) {
      if (!isDoppelError(error)) throw error;
      invalid++;
    }
    if (batch.length >= v.config.batchSize) await flush();
  }
  await flush();
  const seconds = (performance.now() - started) / 1000;

  const predicted = new Map<string, string>();
  for (const verdict of verdicts) predicted.set(verdict.id, await store.resolveCluster(verdict.clusterId));
  const pairs: ScoredPair[] = [];
  for (const verdict of verdicts) {
    for (const m of verdict.matches ?? []) {
      const score = v.score(m.evidence);
      if (score !== null) pairs.push({ a: verdict.id, b: m.id, score });
    }
  }
  const decisions = verdicts.map((x) =>
    x.duplicateOf === undefined ? { id: x.id } : { id: x.id, duplicateOf: x.duplicateOf },
  );
  const separation = hfmAndSeparation(pairs, gold);
  const kindOf = new Map(
    items.map((item) => [item.message.id, String(item.message.fields.variant ?? 'unlabelled')]),
  );
  // A Map while counting: the kind is the input's "variant" field, and an object would hand
  // "__proto__" or "constructor" what it inherits. Object.fromEntries defines own keys.
  const byKind = new Map<string, { messages: number; found: number; recall: number }>();
  const seenClusters = new Set<string>();
  for (const x of verdicts) {
    const cluster = gold.get(x.id)!;
    if (seenClusters.has(cluster)) {
      const kind = kindOf.get(x.id) ?? 'unlabelled';
      const entry = byKind.get(kind) ?? { messages: 0, found: 0, recall: 0 };
      byKind.set(kind, entry);
      entry.messages++;
      if (x.duplicateOf !== undefined && gold.get(x.duplicateOf) === cluster) entry.found++;
      entry.recall = entry.found / entry.messages;
    }
    seenClusters.add(cluster);
  }
  const byLanguage: Record<string, SliceScores> = {};
  for (const lang of [...new Set(langOf.values())].sort()) {
    const inLang = (map: ReadonlyMap<string, string>) =>
      new Map([...map].filter(([id]) => langOf.get(id) === lang));
    const goldL = inLang(gold);
    byLanguage[lang] = {
      messages: goldL.size,
      duplicates: duplicateOfScores(
        goldL,
        decisions.filter((d) => goldL.has(d.id)),
      ),
      stories: pairwiseScores(inLang(storyGold), inLang(predicted)),
    };
  }
  return {
    name: v.name,
    description: v.description,
    messages: items.length,
    invalid,
    duplicates: duplicateOfScores(gold, decisions),
    recallByKind: Object.fromEntries(byKind),
    clusters: { ...pairwiseScores(gold, predicted), ari: adjustedRandIndex(gold, predicted) },
    stories: { ...pairwiseScores(storyGold, predicted), ari: adjustedRandIndex(storyGold, predicted) },
    byLanguage,
    ...separation,
    messagesPerSecond: items.length / seconds,
  };
}

export interface StoryPairResult {
  pairs: number;
  accuracy: number;
  precision: number;
  recall: number;
  f1: number;
}

/**
 * Story-level accuracy on judged pairs (same story or not): each pair runs through a fresh
 * engine, a then b; "same story" is predicted when b lands in a's cluster.
 */
export async function runStoryPairs(
  pairs: ReadonlyArray<{ a: Message; b: Message; sameStory: boolean }>,
  config: DedupConfig,
  lexicons: LexiconSet,
): Promise<StoryPairResult> {
  const signer = new Signer(config.signatures, lexicons);
  let tp = 0;
  let fp = 0;
  let fn = 0;
  let correct = 0;
  for (const pair of pairs) {
    const flow = new MessageFlow(
      new DedupEngine(config, new MemoryStore(config.window, config.index)),
      signer,
    );
    const [va, vb] = await flow.process([await flow.prepare(pair.a, 0), await flow.prepare(pair.b, 1)]);
    const same = va!.clusterId === vb!.clusterId;
    if (same === pair.sameStory) correct++;
    if (same && pair.sameStory) tp++;
    else if (same) fp++;
    else if (pair.sameStory) fn++;
  }
  const precision = tp + fp === 0 ? 1 : tp / (tp + fp);
  const recall = tp + fn === 0 ? 1 : tp / (tp + fn);
  return {
    pairs: pairs.length,
    accuracy: pairs.length === 0 ? 1 : correct / pairs.length,
    precision,
    recall,
    f1: precision + recall === 0 ? 0 : (2 * precision * recall) / (precision + recall),
  };
}
