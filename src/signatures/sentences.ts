import { fmix32 } from '../hash/mix.js';
import { transient } from '../typed-slab.js';
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
 * Lead passages (leadPassages below) share the array: values whose low byte is 0, after the
 * sentence values and in reading order (containment leaves out an unshared start or end of a
 * teaser, so it needs to know which runs come first), never sampled. One index key is made of the
 * first two (withLeadKey), so that a teaser whose sentence boundaries are not the article's is
 * found at all; the mail profile takes no sentence keys (templated mails share their openings).
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
  const lead = leadTokens > 0 ? leadPassages(info, slots, Math.min(leadTokens, slots.length)) : null;
  const keyed = withLeadKey(pick(all, distinct, keys), lead);
  if (distinct.length <= max)
    return {
      values: lead !== null && lead.length > 0 ? withPassages(distinct, lead) : distinct,
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
    values: lead !== null && lead.length > 0 ? withPassages(values, lead) : values,
    cut,
    keys: keyed,
  };
}

/**
 * The sentence keys and, when the text has two lead passages or more, one key of its opening: the
 * first two passages' values mixed (low byte 0, as a passage's, so it never equals a sentence
 * value). A teaser whose sentence boundaries are not the article's ("inflation.The" glued in the
 * article, a headline run into the first sentence) shares no sentence key with it, but opens with
 * the same two passages. Two passages (~10 tokens), not one: a dateline ("moscow nov 6 reuters")
 * opens many texts.
 */
function withLeadKey(keys: Uint32Array, lead: readonly number[] | null): Uint32Array {
  if (lead === null || lead.length < 2) return keys;
  const key =
    (fmix32(Math.imul((lead[0] as number) ^ 0x6f70656e, 0x9e3779b1) ^ (lead[1] as number)) & 0xffffff00) >>>
    0;
  const out = new Array<number>(keys.length + 1);
  for (let i = 0; i < keys.length; i++) out[i] = keys[i] as number;
  out[keys.length] = key;
  return ascendingDistinct(out);
}

/** Ascending sentence values, then the lead passages in reading order, as one array. */
function withPassages(sentences: Uint32Array, passages: readonly number[]): Uint32Array {
  const out = transient.uint32(sentences.length + passages.length);
  out.set(sentences);
  for (let k = 0; k < passages.length; k++) out[sentences.length + k] = passages[k] as number;
  return out;
}

/**
 * Tokens of a text its lead passages may leave out and still measure it: the last run, cut
 * mid-passage, and a tail such as "Read more".
 */
const LEAD_SLACK = 16;

/**
 * Tokens a lead passage has at least. Run ends are ANCHOR_REACH + 1 tokens apart at least, so only
 * a text's first run can be shorter; it gets no value (one or two words say nothing).
 */
const MIN_PASSAGE = 3;
/** Most tokens a passage's weight counts (4 bits of the value). */
const MAX_PASSAGE_WEIGHT = 15;

/** Is a lead passage's value (low byte 0, sentences' low byte is their length >= 1)? */
export function isPassage(v: number): boolean {
  return (v & 0xff) === 0;
}

/**
 * Calls `sentence` with each sentence value both fingerprint arrays hold (a merge over the
 * ascending sentence values, lead passages stepped over), then `passage` with each lead passage of
 * `a` (in reading order after the sentences) that `b` holds. For the engine's rules over shared
 * sentences; the verifier's own hot loop below stays inline.
 */
export function forEachSharedFingerprint(
  a: ArrayLike<number>,
  b: ArrayLike<number>,
  sentence: (v: number) => void,
  passage: (v: number) => void,
): void {
  let i = 0;
  let j = 0;
  while (i < a.length && j < b.length) {
    const x = a[i] as number;
    const y = b[j] as number;
    if (isPassage(x)) i++;
    else if (isPassage(y)) j++;
    else if (x === y) {
      sentence(x);
      i++;
      j++;
    } else if (x < y) i++;
    else j++;
  }
  for (let k = 0; k < a.length; k++) {
    const x = a[k] as number;
    if (!isPassage(x)) continue;
    for (let m = 0; m < b.length; m++) {
      if (b[m] === x) {
        passage(x);
        break;
      }
    }
  }
}

/** Tokens a lead passage value stands for (bits 8-11). */
export function passageTokens(v: number): number {
  return (v >>> 8) & 0xf;
}

/**
 * Tokens each side of a run end that decide it: a token ends a run when its anchor hash is the
 * lowest of the 2 * ANCHOR_REACH + 1 tokens around it. Runs are then 3 tokens at least (two ends
 * are more than ANCHOR_REACH apart) and 5 on average. Short runs lose less to a changed word or
 * a cut; a run of 3 common words ("as well as") matches by chance, but a match needs most of the
 * smaller text's runs and 20 tokens of them (decision thresholds). Reach 3 (runs of 4-7 tokens):
 * recall 0.928 on teasers with a lead-in and 0.972 on the seed-21 teasers, against 0.956 and
 * 0.976 (docs/quality.md).
 */
const ANCHOR_REACH = 2;

/**
 * Lead passages: the first `n` tokens cut into content-defined runs, one value each. A run ends
 * after a token whose anchor hash is the lowest within ANCHOR_REACH tokens on either side (a
 * local minimum, as in winnowing): whether a token ends a run depends on its 7 neighbours alone,
 * not on where the previous run ended, so two texts cut the same words at the same places from
 * ANCHOR_REACH tokens past any difference between them. A lead-in, dateline, headline or
 * rewritten first line in front of a teaser costs the teaser the runs it falls in and the next
 * (a rule that ends a run at an anchor once the run holds a minimum of tokens depends on the
 * previous end, and stayed out of step with the article for 30 tokens and more after a two-word
 * lead-in).
 * Punctuation, line breaks and sentence boundaries play no part, so a teaser whose sentences
 * were glued ("inflation.The"), merged across paragraphs, cut at a word count or given a "Read
 * more" tail shares its inner runs with the article's lead. The text's last run (it ends at no
 * anchor: a teaser is cut there, mid-sentence or at a word limit) and a first run under
 * MIN_PASSAGE tokens get no value. Values: 20 bits of the run's hash, 4 bits of its token count
 * (capped at 15), low byte 0; in reading order.
 */
export function leadPassages(info: Uint32Array | Int32Array, slots: Int32Array, n: number): number[] {
  const out: number[] = [];
  // Anchor hashes of the window and the ANCHOR_REACH tokens after it (a run end near the window's
  // end is decided as it is in a longer text).
  const reach = Math.min(slots.length, n + ANCHOR_REACH);
  const anchors = anchorScratch(reach);
  for (let i = 0; i < reach; i++)
    anchors[i] = fmix32((info[(slots[i] as number) * INFO_STRIDE + INFO_LO] as number) ^ 0x616e6368) >>> 0;
  let start = 0;
  let h = 0x6c656164; // "lead"
  // A run end needs its ANCHOR_REACH followers: a text's last tokens end no run.
  const last = Math.min(n, reach - ANCHOR_REACH);
  for (let i = 0; i < n; i++) {
    const lo = info[(slots[i] as number) * INFO_STRIDE + INFO_LO] as number;
    h = fmix32(Math.imul(h ^ lo, 0x9e3779b1) ^ (i - start));
    if (i >= last || !isRunEnd(anchors, i, reach)) continue;
    const length = i + 1 - start;
    if (length >= MIN_PASSAGE)
      out.push(((h & 0xfffff000) | (Math.min(length, MAX_PASSAGE_WEIGHT) << 8)) >>> 0);
    start = i + 1;
    h = 0x6c656164;
  }
  return out;
}

/** Is anchors[i] below the ANCHOR_REACH values before it and not above the ones after it? */
function isRunEnd(anchors: Uint32Array, i: number, length: number): boolean {
  const a = anchors[i] as number;
  for (let j = Math.max(0, i - ANCHOR_REACH); j < i; j++) if ((anchors[j] as number) <= a) return false;
  const to = Math.min(length, i + ANCHOR_REACH + 1);
  for (let j = i + 1; j < to; j++) if ((anchors[j] as number) < a) return false;
  return true;
}

let anchorBuffer = new Uint32Array(128);
function anchorScratch(n: number): Uint32Array {
  if (anchorBuffer.length < n) anchorBuffer = new Uint32Array(n * 2);
  return anchorBuffer;
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
  // A slab view (typed-slab.ts), and the distinct prefix as a view of it rather than a copy.
  const out = transient.uint32(values.length);
  for (let i = 0; i < values.length; i++) out[i] = values[i] as number;
  out.sort();
  let n = 0;
  for (let i = 0; i < out.length; i++) if (n === 0 || out[i] !== out[n - 1]) out[n++] = out[i] as number;
  return out.subarray(0, n);
}

/** What two fingerprint sets share, as verification reports it. */
export interface SentenceContainment {
  /** Share of the smaller text's sampled sentence tokens in shared sentences. */
  share: number;
  /** Shared sentences and their tokens. */
  count: number;
  tokens: number;
  /**
   * Share of the smaller text's lead passage tokens in passages both leads have, an unshared
   * start or end of it left out when the shared passages hold more tokens (see leadContainment).
   */
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
 * Exact when neither side was cut. No allocation (it runs on every candidate).
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
  let count = 0;
  let tokens = 0;
  let above = 0;
  let smallerBelow = 0;
  let smallerAll = 0;
  let below = 0;
  const small = aSmaller ? a : b;
  for (let k = 0; k < small.length; k++) {
    const v = small[k] as number;
    if (isPassage(v)) continue;
    smallerAll += v & 0xff;
    if (v <= cut) {
      smallerBelow += v & 0xff;
      below++;
    }
  }
  // The sentence values ascend; lead passages (after them, in reading order) are stepped over.
  let i = 0;
  let j = 0;
  while (i < a.length && j < b.length) {
    const x = a[i] as number;
    const y = b[j] as number;
    if (isPassage(x)) i++;
    else if (isPassage(y)) j++;
    else if (x === y) {
      count++;
      tokens += x & 0xff;
      if (x > cut) above += x & 0xff;
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
  leadContainment(small, aSmaller ? b : a, aSmaller ? tokensA : tokensB, out);
  return out;
}

/**
 * Least share of the stretch left when a teaser's own start or end is left out: past its own
 * words, a teaser is the article's text nearly word for word. Two articles on one story that
 * share a background sentence behind a headline line of their own have 0.6-0.7 there.
 */
const TRIMMED_MIN_SHARE = 0.75;

/**
 * The lead passages of the smaller text `small` that `other` has too, into out.lead*. They
 * measure a text that lies within its lead window (a teaser): a longer one, whose passages cover
 * only its start, would be "contained" by sharing an opening paragraph, so it gets leadShare 0.
 *
 * A teaser often carries words of its own before or after the article's lead: a headline line, a
 * dateline, a lead-in ("Breaking:"), a rewritten first sentence; or a "Related:" list of links.
 * Its passages before the first shared one, or those after the last, are left out of the share
 * when the shared passages hold more tokens than they do and at least TRIMMED_MIN_SHARE of what
 * is left: the share is then how much of the stretch the two texts have in common is the same
 * text. Never both ends: a reply that quotes a message between words of its own (mail), or an
 * article that quotes another's paragraph, has both, and is not the other's teaser. Unshared
 * runs between shared ones always count.
 */
function leadContainment(
  small: ArrayLike<number>,
  other: ArrayLike<number>,
  smallTokens: number,
  out: SentenceContainment,
): void {
  out.leadShare = 0;
  out.leadCount = 0;
  out.leadTokens = 0;
  // The text's run tokens first: most candidate pairs are two full articles, and the smaller
  // one's lead does not cover it, so its passages are never looked up in the other's.
  let lead = 0;
  for (let k = 0; k < small.length; k++) {
    const v = small[k] as number;
    if (isPassage(v)) lead += passageTokens(v);
  }
  if (lead === 0 || smallTokens > lead + LEAD_SLACK) return;
  let shared = 0;
  let count = 0;
  // Tokens of the passages before the first shared one, and since the last shared one.
  let before = 0;
  let after = 0;
  for (let k = 0; k < small.length; k++) {
    const v = small[k] as number;
    if (!isPassage(v)) continue;
    const t = passageTokens(v);
    if (holdsPassage(other, v)) {
      count++;
      shared += t;
      after = 0;
    } else if (count === 0) before += t;
    else after += t;
  }
  out.leadCount = count;
  out.leadTokens = shared;
  if (shared === 0) return;
  const edges = before + after;
  const trimmed = (before === 0 || after === 0) && edges < shared ? shared / (lead - edges) : 0;
  out.leadShare = Math.min(1, trimmed >= TRIMMED_MIN_SHARE ? trimmed : shared / lead);
}

/** Does `values` hold lead passage v? (A few dozen passages at most: a scan.) */
function holdsPassage(values: ArrayLike<number>, v: number): boolean {
  for (let k = values.length - 1; k >= 0; k--) {
    const x = values[k] as number;
    if (x === v) return true;
  }
  return false;
}
