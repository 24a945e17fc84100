import type { DecisionConfig } from '../config/dedup.js';
import { forEachSharedFingerprint, passageTokens } from '../signatures/sentences.js';
import { type Match, matchLevel } from './decide.js';
import type { Evidence, SignatureRecord } from './types.js';

/**
 * Story evidence beyond the sentences two texts share.
 *
 * Two reports of one event are written apart: they share words, rarely whole sentences. Two
 * short articles of one site share whole sentences and little else: a paragraph about the
 * company under every press release, a byline and dek, a notification prompt that extraction
 * keeps. In a short text such a paragraph is a large part of the tf*idf weight (in a Persian
 * article an English paragraph's words weigh the most, as the Persian idf table does not know
 * them), and it alone can lift the cosine over the story threshold. So a story-level match is
 * judged again with the shared sentences taken out of both texts, as far as the records allow:
 * they keep sentence fingerprints with token counts, not the words, so the sentences' share of
 * each text stands for their share of its weight.
 *
 * Cosine: with the shared part a fraction sA of text A and sB of text B, and the rest of each
 * text taken as orthogonal to it, the shared part contributes sqrt(sA * sB) to the cosine, and
 * the cosine of the rests is (cosine - sqrt(sA * sB)) / sqrt((1 - sA) * (1 - sB)). Jaccard: with
 * n tokens per text as shingles, the intersection of a Jaccard J is J * (nA + nB) / (1 + J) and
 * the union (nA + nB) / (1 + J); the shared sentences' t shingles leave both, (I - t) / (U - t).
 * Duplicate-level matches are not touched (a partial copy shares sentences and is one).
 */

/**
 * The level of a story-level match of `a` (the message) with `b` once the shared sentences are
 * taken out; any other match as it is. `common`: the sentences (and lead passages) that count,
 * those candidates of `decision.storySharedSentenceGroups` different texts hold (null: every one
 * both texts hold).
 */
export function storyBeyondSharedSentences(
  match: Match,
  e: Evidence,
  a: SignatureRecord,
  b: SignatureRecord,
  decision: DecisionConfig,
  common: readonly number[] | null,
): Match {
  if (match.level !== 'story') return match;
  const shared = sharedSentenceTokens(a, b, common);
  if (shared === 0) return match;
  const rest = withoutSharedSentences(e, a.tokens, b.tokens, shared);
  const level = matchLevel(rest, decision, a.tokens, b.tokens);
  // Less evidence never makes a closer match; a rest that would is taken as the story match.
  return level.level === 'none' || level.level === 'story' ? level : match;
}

/**
 * Tokens of the text both records hold as whole sentences, or as lead passages when those cover
 * more (a dek or byline of short sentences is found only as passages). The larger of the two, not
 * the sum: passages run over the lead's sentences. Only values in `common` when it is given.
 */
export function sharedSentenceTokens(
  a: SignatureRecord,
  b: SignatureRecord,
  common: readonly number[] | null = null,
): number {
  const x = a.sentences;
  const y = b.sentences;
  if (x === undefined || y === undefined) return 0;
  const counts = (v: number) => common === null || common.includes(v);
  let tokens = 0;
  let lead = 0;
  forEachSharedFingerprint(
    x,
    y,
    (v) => {
      if (counts(v)) tokens += v & 0xff;
    },
    (v) => {
      if (counts(v)) lead += passageTokens(v);
    },
  );
  return Math.max(tokens, lead);
}
/**
 * The evidence with its cosine and Jaccard estimated for the two texts without `shared` tokens of
 * shared sentences (see above); the evidence itself when they share none. Rounded to 4 places, as
 * the verifier rounds, so both stores (and every platform) compare the same numbers.
 */
export function withoutSharedSentences(
  e: Evidence,
  tokensA: number,
  tokensB: number,
  shared: number,
): Evidence {
  if (shared <= 0 || tokensA <= 0 || tokensB <= 0) return e;
  const sA = Math.min(1, shared / tokensA);
  const sB = Math.min(1, shared / tokensB);
  const out: Evidence = { ...e };
  if (e.cosine !== null) {
    const rest = Math.sqrt((1 - sA) * (1 - sB));
    out.cosine = rest <= 0 ? 0 : round4(clamp01((e.cosine - Math.sqrt(sA * sB)) / rest));
  }
  if (e.jaccard !== null) {
    const n = tokensA + tokensB;
    const inter = (e.jaccard * n) / (1 + e.jaccard);
    const union = n / (1 + e.jaccard);
    const t = Math.min(shared, inter);
    out.jaccard = union - t <= 0 ? 0 : round4(clamp01((inter - t) / (union - t)));
  }
  return out;
}

function clamp01(x: number): number {
  return Math.min(1, Math.max(0, x));
}

function round4(x: number): number {
  return Math.round(x * 10_000) / 10_000;
}
