import type { z } from 'zod';
import type { ClusterView, DedupStore, Evidence, StoredVerdict } from '../engine/types.js';
import { DoppelError } from '../errors.js';
import type { whySchema } from './schemas.js';
import { clusterOut, rfc3339 } from './times.js';

/**
 * GET /v1/messages/{id}/why: a message beside the one it was matched with (its duplicateOf, or
 * for a story join the member it matched), the passages of their snippets both share marked,
 * and the stored evidence of the decision (what engine/verify.ts measured then) in words. The
 * index keeps no texts: the passages are those of the snippets, the openings of the texts.
 */

type Why = z.output<typeof whySchema>;
type Side = NonNullable<Why['other']>;
type Passage = Side['passages'][number];

/** Shared runs shorter than this many words are not marked (single common words match anything). */
const MIN_RUN = 3;

interface Word {
  norm: string;
  start: number;
  end: number;
}

function words(text: string): Word[] {
  const out: Word[] = [];
  for (const m of text.matchAll(/[\p{L}\p{N}]+/gu)) {
    const start = m.index ?? 0;
    out.push({ norm: m[0].normalize('NFKC').toLowerCase(), start, end: start + m[0].length });
  }
  return out;
}

/** For each word of `a`, whether it lies in a run of MIN_RUN or more words that `b` also has. */
function sharedWords(a: Word[], b: Word[]): boolean[] {
  const grams = new Set<string>();
  for (let i = 0; i + MIN_RUN <= b.length; i++)
    grams.add(
      b
        .slice(i, i + MIN_RUN)
        .map((w) => w.norm)
        .join(' '),
    );
  const marked = new Array<boolean>(a.length).fill(false);
  for (let i = 0; i + MIN_RUN <= a.length; i++) {
    const gram = a
      .slice(i, i + MIN_RUN)
      .map((w) => w.norm)
      .join(' ');
    if (grams.has(gram)) for (let j = i; j < i + MIN_RUN; j++) marked[j] = true;
  }
  return marked;
}

/** `text` cut into passages, those made of marked words (and the gaps between them) flagged. */
export function markPassages(text: string, other: string | undefined): Passage[] {
  if (text === '') return [];
  const own = words(text);
  const marked = other === undefined ? [] : sharedWords(own, words(other));
  const out: Passage[] = [];
  let at = 0;
  let i = 0;
  while (i < own.length) {
    if (!marked[i]) {
      i++;
      continue;
    }
    let j = i;
    while (j + 1 < own.length && marked[j + 1]) j++;
    const start = (own[i] as Word).start;
    const end = (own[j] as Word).end;
    if (start > at) out.push({ text: text.slice(at, start), match: false });
    out.push({ text: text.slice(start, end), match: true });
    at = end;
    i = j + 1;
  }
  if (at < text.length) out.push({ text: text.slice(at), match: false });
  return out;
}

const pct = (x: number) => `${Math.round(x * 100)}%`;

/** The evidence in words, strongest signal first. */
export function evidenceInWords(e: Evidence): string[] {
  const out: string[] = [];
  if (e.exact) out.push('The same text after normalization: the exact hashes are equal.');
  if (e.jaccard !== null)
    out.push(
      e.jaccard >= 0.2
        ? `About ${pct(e.jaccard)} of their overlapping word sequences (shingles) are shared (MinHash Jaccard estimate ${e.jaccard}).`
        : `Few of their word sequences (shingles) are shared (MinHash Jaccard estimate ${e.jaccard}): they are worded differently.`,
    );
  if (e.containment !== undefined && e.jaccard !== null && e.containment > e.jaccard + 0.05)
    out.push(
      `${pct(e.containment)} of the shorter text's shingles are in the longer one: one text contains most of the other.`,
    );
  if (e.hamming !== null)
    out.push(
      e.hamming <= 3
        ? `Their SimHash fingerprints differ in ${e.hamming} of 64 bits: nearly the same wording throughout.`
        : `Their SimHash fingerprints differ in ${e.hamming} of 64 bits.`,
    );
  if (e.imatch) out.push('The same I-Match signature: the same set of distinctive words.');
  if (e.lexical > 0)
    out.push(
      `${e.lexical} of 3 passage signatures are equal (top keywords, longest sentences, weightiest sentences).`,
    );
  if (e.cosine !== null)
    out.push(`Their key terms agree with cosine ${e.cosine} (1: the same terms in the same proportions).`);
  return out;
}

function side(v: StoredVerdict, other: StoredVerdict | null): Side {
  const out: Side = {
    id: v.id,
    ts: rfc3339(v.ts),
    verdict: v.verdict,
    passages: markPassages(v.snippet ?? '', other?.snippet),
  };
  if (v.title !== undefined) out.title = v.title;
  if (v.url !== undefined) out.url = v.url;
  if (v.lang !== undefined) out.lang = v.lang;
  return out;
}

function storyName(story: ClusterView | null, fallback: string): string {
  return story?.title ? `"${story.title}"` : fallback;
}

function summaryOf(v: StoredVerdict, relation: Why['relation'], story: ClusterView | null): string {
  const sim =
    v.similarity === undefined ? '' : ` (similarity ${v.similarity}${v.method ? `, ${v.method}` : ''})`;
  switch (relation) {
    case 'duplicate':
      return `A duplicate of ${v.duplicateOf}: the same text after normalization${sim}.`;
    case 'near_duplicate':
      return `A near-duplicate of ${v.duplicateOf}, the earliest close match${sim}.`;
    case 'story':
      return `Joined story ${storyName(story, v.clusterId)}: not a copy, but about the same event as ${v.via ?? 'an earlier message'}, found by the story rule (${v.method?.replace(/^story:/, '') ?? 'story'} similarity ${v.similarity ?? '?'}).`;
    case 'own_story':
      return 'Unique: no earlier message in the window was close enough; it started its own story.';
    default:
      return `Unique: it matched no earlier message itself; its story ${storyName(story, v.clusterId)} grew around it.`;
  }
}

export async function explainMessage(store: DedupStore, id: string): Promise<[number, Why]> {
  const v = await store.verdict(id, { detail: true });
  if (!v)
    throw new DoppelError(
      'NOT_FOUND',
      `message "${id}" is not in the index (never seen, undecided or expired)`,
    );
  const relation: Why['relation'] =
    v.verdict !== 'unique'
      ? v.verdict
      : v.method?.startsWith('story:')
        ? 'story'
        : v.clusterId === v.id
          ? 'own_story'
          : 'unique';
  const otherId = v.duplicateOf ?? v.via;
  const [other, story] = await Promise.all([
    otherId === undefined ? null : store.verdict(otherId, { detail: true }),
    store.resolveCluster(v.clusterId).then((c) => store.cluster(c)),
  ]);
  const reasons = v.evidence ? evidenceInWords(v.evidence) : [];
  if (relation === 'story' && story)
    reasons.unshift(
      `The story rule linked it to ${v.via ?? 'a member'} of the story ${storyName(story, story.id)} (${story.size} messages): their key terms match, though the texts are not copies.`,
    );
  if (otherId !== undefined && !other)
    reasons.push(`${otherId} has left the window since: its text is no longer shown.`);
  return [
    200,
    {
      id: v.id,
      verdict: v.verdict,
      relation,
      summary: summaryOf(v, relation, story),
      reasons,
      evidence: v.evidence ?? null,
      similarity: v.similarity ?? null,
      method: v.method ?? null,
      story: story && clusterOut(story),
      message: side(v, other),
      other: other ? side(other, v) : null,
    },
  ];
}
