import type { Thresholds } from '../config/dedup.js';
import {
  emptySentenceContainment,
  forEachSharedFingerprint,
  isPassage,
  NO_CUT,
  passageTokens,
  sentenceContainment,
} from '../signatures/sentences.js';
import type { Candidate, Evidence, SignatureRecord } from './types.js';
import { compareRecords, setContained } from './verify.js';

/**
 * Sentences common in the window are page furniture, not content (the idea of boilerpipe and
 * jusText, applied at the index): a cookie notice, a legal line, a newsletter prompt or a comment
 * rule that a site puts on every page, when extraction leaves it in the text, is a whole sentence
 * that many unrelated messages share. Sentence containment would take two short articles of one
 * site that both carry it for a partial copy of each other.
 *
 * A sentence is common when the message's candidates holding it belong to at least `minGroups`
 * different texts. Holders that are copies of one text (the same canonical text, or near
 * duplicates by Jaccard or cosine) are one text: a syndicated article and its copies all hold its
 * lead, and a teaser of it must still be contained in them. Only the candidates the store returned
 * are counted (no state of its own, so both stores decide alike), and only for a message with a
 * sentence-containment match, so the cost falls on teasers, partial copies and chrome.
 */

/**
 * The message's sentence fingerprints that candidates of at least `minGroups` different texts
 * hold (see above), ascending; empty when none is.
 */
export function commonSentences(
  message: SignatureRecord,
  candidates: readonly Candidate[],
  minGroups: number,
  near: Thresholds,
): number[] {
  const own = message.sentences;
  if (own === undefined || own.length === 0) return [];
  const holders = new Map<number, Candidate[]>();
  // In arrival order, whatever order a store lists them in: the grouping below is greedy, and
  // both stores must count the same texts.
  for (const c of [...candidates].sort((a, b) => a.seq - b.seq)) {
    const theirs = c.record.sentences;
    if (theirs === undefined) continue;
    const hold = (v: number) => {
      const list = holders.get(v);
      if (list) list.push(c);
      else holders.set(v, [c]);
    };
    forEachSharedFingerprint(own, theirs, hold, hold);
  }
  const out: number[] = [];
  const sameText = new Map<string, boolean>();
  for (const [v, list] of holders) {
    if (list.length < minGroups) continue;
    if (groupsOf(list, near, sameText, minGroups) >= minGroups) out.push(v);
  }
  return out.sort((a, b) => a - b);
}

/**
 * Sentence containment of two records with the common sentences left out of both (as if they were
 * not in either text), into `out`'s contained fields.
 */
export function containedWithout(
  out: Evidence,
  a: SignatureRecord,
  b: SignatureRecord,
  common: readonly number[],
): void {
  const sa = without(a.sentences, common);
  const sb = without(b.sentences, common);
  if (sa.length === 0 || sb.length === 0) {
    out.contained = 0;
    out.containedSentences = 0;
    out.containedTokens = 0;
    return;
  }
  const c = sentenceContainment(
    sa,
    a.sentenceCut ?? NO_CUT,
    a.tokens - tokensOf(a.sentences, common),
    sb,
    b.sentenceCut ?? NO_CUT,
    b.tokens - tokensOf(b.sentences, common),
    RESULT,
  );
  setContained(out, c);
}

const RESULT = emptySentenceContainment();

/** Distinct texts among the holders, counted up to `enough` (then the answer is known). */
function groupsOf(
  holders: readonly Candidate[],
  near: Thresholds,
  sameText: Map<string, boolean>,
  enough: number,
): number {
  const firsts: Candidate[] = [];
  for (const h of holders) {
    if (!firsts.some((f) => copies(f, h, near, sameText))) {
      firsts.push(h);
      if (firsts.length >= enough) break;
    }
  }
  return firsts.length;
}

/** Whether two candidates are copies of one text: the same canonical text, or near by Jaccard or cosine. */
function copies(a: Candidate, b: Candidate, near: Thresholds, memo: Map<string, boolean>): boolean {
  if (a.record.exact === b.record.exact) return true;
  const key = a.seq < b.seq ? `${a.id}\u0000${b.id}` : `${b.id}\u0000${a.id}`;
  const known = memo.get(key);
  if (known !== undefined) return known;
  const e = compareRecords(a.record, b.record);
  const same =
    (e.jaccard !== null && e.jaccard >= near.jaccard) ||
    (near.cosine !== null && e.cosine !== null && e.cosine >= near.cosine);
  memo.set(key, same);
  return same;
}

function without(values: Uint32Array | undefined, common: readonly number[]): Uint32Array {
  if (values === undefined) return new Uint32Array(0);
  return values.filter((v) => !common.includes(v));
}

/**
 * Tokens of the record's sentences that are common (a fingerprint's low 8 bits count them; a lead
 * passage, common when a site opens every page with the same line, counts its own).
 */
function tokensOf(values: Uint32Array | undefined, common: readonly number[]): number {
  let n = 0;
  if (values !== undefined)
    for (const v of values) if (common.includes(v)) n += isPassage(v) ? passageTokens(v) : v & 0xff;
  return n;
}
