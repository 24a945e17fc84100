import { fmix32 } from '../hash/mix.js';
import { INFO_LO, INFO_STRIDE } from './vocabulary.js';

/**
 * Sentence fingerprints: one 32-bit value per sentence of at least `minTokens` tokens, the top 24
 * bits a hash of the sentence's token sequence and the low 8 bits its token count (capped at 255).
 * They find and verify containment: a teaser made of an article's first sentences, or a partial
 * copy whose sentences were reordered, shares whole sentences with the full text even when their
 * shingle Jaccard is far below any near-duplicate threshold. Each kept fingerprint is an index key
 * (table `c`), and verification sums the token counts of the shared ones (engine/verify.ts).
 *
 * Short sentences are left out because boilerplate is made of them ("Read more.", "All rights
 * reserved."), and a match needs several tokens of shared sentences (decision thresholds).
 *
 * A text with more than `max` of them keeps the first max/2 by position (a teaser is a lead) and
 * the max/2 lowest values of all (a consistent sample: a sentence two texts share is kept by both
 * when it is below both cuts), and records the cut, the highest value the sample kept; else the
 * cut is 0xffffffff (everything kept). Kept values are returned distinct and ascending, so two
 * sets intersect by one merge.
 *
 * Lead passages (leadPassages below) share the array: values whose low byte is 0, never sampled
 * and never index keys (a teaser is found by its sentences and topic terms; a passage key found
 * two more of the seed-21 set's 460 teasers but brought templated mails together as stories).
 */
export interface SentenceFingerprints {
  values: Uint32Array;
  cut: number;
  /**
   * The index keys among them: the first keys/2 sentences by position and the keys/2 lowest
   * values (a teaser shares its lead, a reordered part the lowest values), ascending.
   */
  keys: Uint32Array;
}

export const NO_CUT = 0xffffffff;

/** Sentences below the cut a sampled estimate needs (see sentenceContainment). */
const MIN_SAMPLE = 3;

export function sentenceFingerprints(
  info: Uint32Array | Int32Array,
  slots: Int32Array,
  sentenceEnds: readonly number[],
  minTokens: number,
  max: number,
  keys = max,
  leadTokens = 0,
): SentenceFingerprints {
  const all: number[] = [];
  let start = 0;
  for (const end of sentenceEnds) {
    const length = end - start;
    if (length >= minTokens) {
      let h = 0x73656e74 ^ length; // "sent"
      for (let i = start; i < end; i++) {
        const slot = slots[i] as number;
        h = fmix32(Math.imul(h ^ (info[slot * INFO_STRIDE + INFO_LO] as number), 0x9e3779b1) ^ (i - start));
      }
      all.push(((h & 0xffffff00) | Math.min(length, 255)) >>> 0);
    }
    start = end;
  }
  const distinct = ascendingDistinct(all);
  const keyed = pick(all, distinct, keys);
  const lead =
    leadTokens > 0 ? ascendingDistinct(leadPassages(info, slots, Math.min(leadTokens, slots.length))) : null;
  if (distinct.length <= max)
    return {
      values: lead !== null && lead.length > 0 ? mergeDisjoint(distinct, lead) : distinct,
      cut: NO_CUT,
      keys: keyed,
    };
  const sampled = max - Math.floor(max / 2);
  const cut = distinct[sampled - 1] as number;
  const kept = [...distinct.subarray(0, sampled)];
  const first = new Set<number>();
  for (const v of all) {
    if (first.size >= Math.floor(max / 2)) break;
    first.add(v);
  }
  for (const v of first) if (v > cut) kept.push(v);
  const values = ascendingDistinct(kept);
  return {
    values: lead !== null && lead.length > 0 ? mergeDisjoint(values, lead) : values,
    cut,
    keys: keyed,
  };
}

/**
 * Two ascending arrays with no value in common (sentence values have a non-zero low byte, lead
 * passages a zero one) as one ascending array: a merge, without a sort.
 */
function mergeDisjoint(a: Uint32Array, b: Uint32Array): Uint32Array {
  const out = new Uint32Array(a.length + b.length);
  let i = 0;
  let j = 0;
  let k = 0;
  while (i < a.length && j < b.length)
    out[k++] = (a[i] as number) < (b[j] as number) ? (a[i++] as number) : (b[j++] as number);
  while (i < a.length) out[k++] = a[i++] as number;
  while (j < b.length) out[k++] = b[j++] as number;
  return out;
}

/**
 * Tokens of a text its lead passages may leave out and still measure it: the last run, cut
 * mid-passage, and a tail such as "Read more".
 */
const LEAD_SLACK = 16;

/** Tokens a lead passage has at least: shorter runs are common phrases ("as well as the"). */
const MIN_PASSAGE = 4;
/** Most tokens a passage's weight counts (4 bits of the value). */
const MAX_PASSAGE_WEIGHT = 15;

/** Is a lead passage's value (low byte 0, sentences' low byte is their length >= 1)? */
export function isPassage(v: number): boolean {
  return (v & 0xff) === 0;
}

/** Tokens a lead passage value stands for (bits 8-11). */
export function passageTokens(v: number): number {
  return (v >>> 8) & 0xf;
}

/**
 * Lead passages: the first `n` tokens cut into content-defined runs, one value each. A run ends
 * after a token whose hash falls in a quarter of the range (an anchor), once it holds
 * MIN_PASSAGE tokens; the text's last run, which ends at no anchor, gets no value (a teaser cut
 * there, mid-sentence or at a word limit, cuts a run). Where runs end depends on the words alone,
 * not on punctuation, line breaks or sentence boundaries, so a teaser whose sentences were glued
 * ("inflation.The"), merged across paragraphs, cut at a word count or given a "Read more" tail
 * shares all its inner runs with the article's lead: past the first anchor, both texts cut the
 * same words at the same places. Values: 20 bits of the run's hash, 4 bits of its token count
 * (capped at 15), low byte 0.
 */
export function leadPassages(info: Uint32Array | Int32Array, slots: Int32Array, n: number): number[] {
  const out: number[] = [];
  let start = 0;
  let h = 0x6c656164; // "lead"
  for (let i = 0; i < n; i++) {
    const lo = info[(slots[i] as number) * INFO_STRIDE + INFO_LO] as number;
    h = fmix32(Math.imul(h ^ lo, 0x9e3779b1) ^ (i - start));
    const length = i + 1 - start;
    if (length >= MIN_PASSAGE && (fmix32(lo ^ 0x616e6368) & 3) === 0) {
      out.push(((h & 0xfffff000) | (Math.min(length, MAX_PASSAGE_WEIGHT) << 8)) >>> 0);
      start = i + 1;
      h = 0x6c656164;
    }
  }
  return out;
}

/** The first n/2 values by position and the lowest n - n/2, ascending and distinct. */
function pick(all: readonly number[], ascending: Uint32Array, n: number): Uint32Array {
  if (ascending.length <= n) return ascending;
  const out = [...ascending.subarray(0, n - Math.floor(n / 2))];
  const lead = new Set<number>();
  for (const v of all) {
    if (lead.size >= Math.floor(n / 2)) break;
    lead.add(v);
  }
  return ascendingDistinct([...out, ...lead]);
}

function ascendingDistinct(values: readonly number[]): Uint32Array {
  const out = Uint32Array.from(values).sort();
  let n = 0;
  for (let i = 0; i < out.length; i++) if (n === 0 || out[i] !== out[n - 1]) out[n++] = out[i] as number;
  return out.slice(0, n);
}

/** What two fingerprint sets share, as verification reports it. */
export interface SentenceContainment {
  /** Share of the smaller text's sampled sentence tokens in shared sentences. */
  share: number;
  /** Shared sentences and their tokens. */
  count: number;
  tokens: number;
  /** Share of the smaller text's lead passage tokens in passages both leads have. */
  leadShare: number;
  /** Shared lead passages and their tokens. */
  leadCount: number;
  leadTokens: number;
}

/** A zeroed result for `sentenceContainment` to write into (one per caller, reused per pair). */
export function emptySentenceContainment(): SentenceContainment {
  return { share: 0, count: 0, tokens: 0, leadShare: 0, leadCount: 0, leadTokens: 0 };
}

/**
 * Containment of the smaller text (fewer `tokens`) in the other, from both kept sets: below the
 * lower of the two cuts both samples are complete, so the smaller side's sentences there are
 * the denominator; a shared sentence above it (a lead sentence both kept) counts on both sides.
 * Exact when neither side was cut. One merge, no allocation (it runs on every candidate).
 */
export function sentenceContainment(
  a: ArrayLike<number>,
  cutA: number,
  tokensA: number,
  b: ArrayLike<number>,
  cutB: number,
  tokensB: number,
  out: SentenceContainment,
): SentenceContainment {
  const cut = Math.min(cutA, cutB);
  const aSmaller = tokensA <= tokensB;
  let i = 0;
  let j = 0;
  let count = 0;
  let tokens = 0;
  let above = 0;
  let smallerBelow = 0;
  let smallerAll = 0;
  let below = 0;
  const small = aSmaller ? a : b;
  let smallerLead = 0;
  for (let k = 0; k < small.length; k++) {
    const v = small[k] as number;
    if (isPassage(v)) {
      smallerLead += passageTokens(v);
      continue;
    }
    smallerAll += v & 0xff;
    if (v <= cut) {
      smallerBelow += v & 0xff;
      below++;
    }
  }
  let leadCount = 0;
  let leadTokens = 0;
  while (i < a.length && j < b.length) {
    const x = a[i] as number;
    const y = b[j] as number;
    if (x === y) {
      if (isPassage(x)) {
        leadCount++;
        leadTokens += passageTokens(x);
      } else {
        count++;
        tokens += x & 0xff;
        if (x > cut) above += x & 0xff;
      }
      i++;
      j++;
    } else if (x < y) i++;
    else j++;
  }
  // Fewer than MIN_SAMPLE sentences below the cut is too small a sample to estimate from (one
  // shared quote would be "all of it"): then every kept sentence of the smaller side counts.
  const denominator = cut !== NO_CUT && below < MIN_SAMPLE ? smallerAll : smallerBelow + above;
  out.share = denominator > 0 ? Math.min(1, tokens / denominator) : 0;
  out.count = count;
  out.tokens = tokens;
  // Lead passages measure a text that lies within its lead window (a teaser): a longer one, whose
  // passages cover only its start, would be "contained" by sharing an opening paragraph.
  const smallerTokens = aSmaller ? tokensA : tokensB;
  const covered = smallerLead > 0 && smallerTokens <= smallerLead + LEAD_SLACK;
  out.leadShare = covered ? Math.min(1, leadTokens / smallerLead) : 0;
  out.leadCount = leadCount;
  out.leadTokens = leadTokens;
  return out;
}
