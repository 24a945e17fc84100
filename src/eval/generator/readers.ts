import { readFileSync } from 'node:fs';
import { hashString, Random } from '../random.js';
import {
  DEFAULT_SOURCE_DUPLICATE_RULE,
  type SourceDuplicateRule,
  type SourceSimilarity,
  shingles,
  similarity,
} from './sources.js';
import type { SourceDoc } from './types.js';

/** The generator's readers: source documents, story pairs and their hard negatives, seeded samples. */

// ---------------------------------------------------------------------------------------------
// Story pairs: different reports of one story (or of different stories), judged by people.

export interface StoryPair {
  a: SourceDoc;
  b: SourceDoc;
  /** People judged both to report the same news story (which does not make them near-duplicates). */
  sameStory: boolean;
}

interface StoryPairRow {
  a: { url?: string; lang: string; title?: string; text: string };
  b: { url?: string; lang: string; title?: string; text: string };
  sameStory: boolean;
}

/**
 * Reads the evaluation corpus's story-pairs.jsonl. Its articles carry no id: an article is given the id
 * of the known document with the same URL or text (the shared news sets hold all of them), else
 * a stable id from its URL, so that one article in several pairs is one document.
 */
export function readStoryPairs(
  path: string,
  options: { knownDocs?: readonly SourceDoc[] } = {},
): StoryPair[] {
  const byUrl = new Map<string, string>();
  const byText = new Map<string, string>();
  for (const d of options.knownDocs ?? []) {
    if (d.url !== undefined) byUrl.set(d.url, d.id);
    byText.set(d.text, d.id);
  }
  const toDoc = (row: StoryPairRow['a']): SourceDoc => {
    const key = row.url ?? row.text;
    const id =
      (row.url === undefined ? undefined : byUrl.get(row.url)) ??
      byText.get(row.text) ??
      `story-${hashString(key).toString(16).padStart(8, '0')}${hashString(key, 0x2545f491).toString(16).padStart(8, '0')}`;
    const doc: SourceDoc = { id, lang: row.lang, text: row.text };
    if (row.title !== undefined) doc.title = row.title;
    if (row.url !== undefined) doc.url = row.url;
    return doc;
  };
  return readFileSync(path, 'utf8')
    .split('\n')
    .filter((line) => line.trim() !== '')
    .map((line, k) => {
      const row = JSON.parse(line) as StoryPairRow;
      if (
        typeof row.a?.text !== 'string' ||
        typeof row.b?.text !== 'string' ||
        typeof row.sameStory !== 'boolean'
      )
        throw new Error(`${path}:${k + 1}: not a story pair {a, b, sameStory}`);
      return { a: toDoc(row.a), b: toDoc(row.b), sameStory: row.sameStory };
    });
}

/** The distinct documents of story pairs, in order of first appearance: pass them as `negatives`. */
export function storyPairDocs(pairs: readonly StoryPair[]): SourceDoc[] {
  const seen = new Map<string, SourceDoc>();
  for (const p of pairs) for (const d of [p.a, p.b]) if (!seen.has(d.id)) seen.set(d.id, d);
  return [...seen.values()];
}

export interface HardNegative extends SourceSimilarity {
  sameStory: boolean;
}

/**
 * Pairs that a detector must NOT call near-duplicates: two reports of one story (the hard case)
 * or of different stories. Story pairs whose texts may themselves be near-duplicates are left
 * out: the shared set holds wire copies and excerpts judged "same story" (containment up to
 * 0.98). The bar is lower than for merging gold clusters (Jaccard or containment alone, without
 * the size conditions): a pair that is merely ambiguous is neither merged nor a negative.
 */
export function hardNegativePairs(
  pairs: readonly StoryPair[],
  rule: Pick<SourceDuplicateRule, 'jaccard' | 'containment'> = DEFAULT_SOURCE_DUPLICATE_RULE,
): HardNegative[] {
  const out: HardNegative[] = [];
  for (const p of pairs) {
    if (p.a.id === p.b.id) continue;
    const sim = similarity(p.a.id, p.b.id, shingles(p.a.text), shingles(p.b.text));
    if (sim.jaccard >= rule.jaccard || sim.containment >= rule.containment) continue;
    out.push({ ...sim, sameStory: p.sameStory });
  }
  return out;
}

/** Source documents from a JSON Lines file ({id, text, lang?, title?, spam?, url?} per line). */
export function readSourceDocs(path: string): SourceDoc[] {
  return readFileSync(path, 'utf8')
    .split('\n')
    .filter((line) => line.trim() !== '')
    .map((line) => {
      const row = JSON.parse(line) as Partial<SourceDoc> & { id?: string | number };
      if (row.id === undefined || typeof row.text !== 'string')
        throw new Error(`${path}: every line needs an id and a text`);
      const doc: SourceDoc = { id: String(row.id), lang: row.lang ?? 'und', text: row.text };
      if (row.title !== undefined) doc.title = row.title;
      if (row.spam !== undefined) doc.spam = row.spam;
      if (row.url !== undefined) doc.url = row.url;
      return doc;
    });
}

/** A seeded sample of `count` documents (a benchmark stays small without favouring the first lines). */
export function sampleDocs(docs: SourceDoc[], count: number, seed: number, label: string): SourceDoc[] {
  const r = Random.from(seed, 'sample', label);
  return r.sample(docs.length, count).map((i) => docs[i]!);
}
