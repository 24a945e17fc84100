import { hamming64 } from '../hash/mix.js';
import {
  emptySentenceContainment,
  NO_CUT,
  type SentenceContainment,
  sentenceContainment,
} from '../signatures/sentences.js';
import { type TermVector, termCosine } from '../signatures/terms.js';
import { Flag, jaccardEstimate, Packed, packRecord } from './record.js';
import type { Evidence, SignatureRecord } from './types.js';

/**
 * Every comparison between a message and one candidate, from their stored signatures. Candidates
 * come from shared buckets, which only say "maybe": this is the true evidence (Hamming distance,
 * Jaccard estimate, I-Match and lexical equality, tf*idf cosine).
 */
export function compareRecords(a: SignatureRecord, b: SignatureRecord): Evidence {
  return oneOff.load(a).compare(b);
}

/**
 * Evidence with every field, the optional ones undefined: one object shape whatever a comparison
 * finds. Adding the containment fields only when measured gave the functions that read evidence
 * (matchLevel, judge, the verdict) several shapes, each new one after they were compiled a deopt
 * and a compile more. The optional fields are in the order they were added, so the JSON of a
 * verdict's evidence (undefined fields left out) is unchanged.
 */
export function newEvidence(
  exact: boolean,
  hamming: number | null,
  jaccard: number | null,
  imatch: boolean,
  lexical: number,
  cosine: number | null,
): Evidence {
  return {
    exact,
    hamming,
    jaccard,
    imatch,
    lexical,
    cosine,
    containment: undefined,
    contained: undefined,
    containedSentences: undefined,
    containedTokens: undefined,
  };
}

/** A copy of `e` in newEvidence's shape (the same fields in the same order). */
export function copyEvidence(e: Evidence): Evidence {
  const out = newEvidence(e.exact, e.hamming, e.jaccard, e.imatch, e.lexical, e.cosine);
  out.containment = e.containment;
  out.contained = e.contained;
  out.containedSentences = e.containedSentences;
  out.containedTokens = e.containedTokens;
  return out;
}

/**
 * `into` with every field set (newEvidence's, the optional ones undefined), or a new object
 * when null: the engine scores candidates into one scratch object.
 */
function evidenceIn(
  into: Evidence | null,
  exact: boolean,
  hamming: number | null,
  jaccard: number | null,
  imatch: boolean,
  lexical: number,
  cosine: number | null,
): Evidence {
  if (into === null) return newEvidence(exact, hamming, jaccard, imatch, lexical, cosine);
  into.exact = exact;
  into.hamming = hamming;
  into.jaccard = jaccard;
  into.imatch = imatch;
  into.lexical = lexical;
  into.cosine = cosine;
  into.containment = undefined;
  into.contained = undefined;
  into.containedSentences = undefined;
  into.containedTokens = undefined;
  return into;
}

/**
 * Compares one message with many candidates (up to maxCandidates per message): the message's
 * term vector is put in a small hash table once, so each cosine is one probe per candidate term
 * instead of a branchy merge of two sorted lists (a third of the comparison's time). Gives exactly
 * compareRecords' numbers: shared terms are summed in the same (ascending hash) order.
 */
export class Verifier {
  private a: SignatureRecord | null = null;
  private readonly terms = new TermTable();
  /** The message's vector has a repeated hash (24-bit collision): the merge handles pairing. */
  private mergeCosine = false;

  private packedA: Int32Array | null = null;

  load(a: SignatureRecord): this {
    this.a = a;
    const p = packedOf(a);
    this.packedA = p;
    if (p === null) {
      const terms = a.terms;
      this.mergeCosine = terms !== null && !this.terms.load(terms);
    } else {
      // From the packed words: a record kept packed (PackedRecord) rebuilds its term arrays on
      // every read of `terms`.
      const t = (p[Packed.Flags] as number) & Flag.Terms ? (p[Packed.Terms] as number) : -1;
      this.mergeCosine = t >= 0 && !this.terms.loadPacked(p, packedTermsAt(p), t);
    }
    return this;
  }

  /**
   * Reads (and discards) the start of each record's packed form before they are compared. A
   * candidate's record, packed array and its data are three dependent cache misses (the store's
   * records are spread over a large heap); compare() meets them one candidate at a time, while
   * this short loop of independent loads lets the CPU overlap them across candidates. Only reads.
   */
  touch(records: readonly { record: SignatureRecord }[]): void {
    let sink = 0;
    for (let i = 0; i < records.length; i++) {
      const r = (records[i] as { record: SignatureRecord }).record;
      const p = r.packed;
      if (p) sink ^= (p[Packed.Flags] as number) ^ r.tokens;
    }
    this.touchSink = sink;
  }

  /** Where touch() leaves what it read, so that the reads are not dropped as dead code (no meaning). */
  touchSink = 0;

  compare(b: SignatureRecord): Evidence {
    return this.compareInto(b, null);
  }

  /**
   * `compare` into `into` (every field overwritten), or into a new object when null. The engine
   * scores each candidate into one scratch object and copies only those that reach a match
   * level: most candidates of a bucket look-up are not kept (an object each was ~1 KB of garbage
   * a message).
   */
  compareInto(b: SignatureRecord, into: Evidence | null): Evidence {
    const a = this.a;
    if (a === null) throw new Error('Verifier.compare before load');
    const pa = this.packedA;
    const pb = packedOf(b);
    if (pa === null || pb === null) return this.compareFields(a, b, into);
    const fa = pa[Packed.Flags] as number;
    const fb = pb[Packed.Flags] as number;
    const both = fa & fb;
    const hamming =
      both & Flag.Simhash
        ? hamming64(
            pa[Packed.SimhashHi] as number,
            pa[Packed.SimhashLo] as number,
            pb[Packed.SimhashHi] as number,
            pb[Packed.SimhashLo] as number,
          )
        : null;
    const ka = pa[Packed.Imatch] as number;
    const kb = pb[Packed.Imatch] as number;
    // Sections after the fixed part: I-Match triples, min-hash words, terms.
    const minA = Packed.Fixed + 3 * ka;
    const minB = Packed.Fixed + 3 * kb;
    const m = pa[Packed.Minhash] as number;
    let jaccard: number | null = null;
    if (both & Flag.Minhash && m === pb[Packed.Minhash] && m > 0) {
      const words = (m + 3) >>> 2;
      // Equal bytes are zero bytes of the XOR; the zero padding of the last word is equal on
      // both sides and taken off.
      let equal = m - 4 * words;
      for (let i = 0; i < words; i++) {
        const x = (pa[minA + i] as number) ^ (pb[minB + i] as number);
        const zero = ~(((x & 0x7f7f7f7f) + 0x7f7f7f7f) | x | 0x7f7f7f7f);
        equal += Math.imul((zero >>> 7) & 0x01010101, 0x01010101) >>> 24;
      }
      jaccard = roundSimilarity(jaccardEstimate(equal, m));
    }
    let imatch = false;
    for (let i = 0; i < ka && !imatch; i++) {
      const at = Packed.Fixed + 3 * i;
      for (let j = 0; j < kb; j++) {
        const bt = Packed.Fixed + 3 * j;
        if (pa[at] === pb[bt] && pa[at + 1] === pb[bt + 1] && pa[at + 2] === pb[bt + 2]) {
          imatch = true;
          break;
        }
      }
    }
    let lexical = 0;
    if (
      both & Flag.Lexical &&
      pa[Packed.LexicalHi] === pb[Packed.LexicalHi] &&
      pa[Packed.LexicalLo] === pb[Packed.LexicalLo]
    )
      lexical++;
    if (
      both & Flag.Longest &&
      pa[Packed.LongestHi] === pb[Packed.LongestHi] &&
      pa[Packed.LongestLo] === pb[Packed.LongestLo]
    )
      lexical++;
    if (
      both & Flag.Heaviest &&
      pa[Packed.HeaviestHi] === pb[Packed.HeaviestHi] &&
      pa[Packed.HeaviestLo] === pb[Packed.HeaviestLo]
    )
      lexical++;
    let cosine: number | null = null;
    if (both & Flag.Terms) {
      const dot = this.mergeCosine
        ? termCosine(a.terms as TermVector, b.terms as TermVector)
        : this.terms.cosinePacked(
            pb,
            minB + (((pb[Packed.Minhash] as number) + 3) >>> 2),
            pb[Packed.Terms] as number,
          );
      cosine = roundSimilarity(dot);
    }
    const exact = pa[Packed.ExactHi] === pb[Packed.ExactHi] && pa[Packed.ExactLo] === pb[Packed.ExactLo];
    const out = evidenceIn(into, exact, hamming, jaccard, imatch, lexical, cosine);
    const containment = containmentOf(jaccard, a.shingles, b.shingles);
    if (containment !== null) out.containment = containment;
    addContained(out, a, b);
    return out;
  }

  /** compare from the record's fields (a record without a packed form). */
  private compareFields(a: SignatureRecord, b: SignatureRecord, into: Evidence | null): Evidence {
    const hamming =
      a.simhash && b.simhash ? hamming64(a.simhash.hi, a.simhash.lo, b.simhash.hi, b.simhash.lo) : null;
    let jaccard: number | null = null;
    const ma = a.minhash;
    const mb = b.minhash;
    if (ma && mb && ma.length === mb.length && ma.length > 0) {
      let equal = 0;
      for (let i = 0; i < ma.length; i++) if (ma[i] === mb[i]) equal++;
      jaccard = roundSimilarity(jaccardEstimate(equal, ma.length));
    }
    // At most 1 + K signatures a side: a nested loop beats building a Set.
    let imatch = false;
    for (let i = 0; i < a.imatch.length && !imatch; i++) {
      for (let j = 0; j < b.imatch.length; j++) {
        if (a.imatch[i] === b.imatch[j]) {
          imatch = true;
          break;
        }
      }
    }
    let lexical = 0;
    if (a.lexical !== null && a.lexical === b.lexical) lexical++;
    if (a.longest !== null && a.longest === b.longest) lexical++;
    if (a.heaviest !== null && a.heaviest === b.heaviest) lexical++;
    let cosine: number | null = null;
    if (a.terms && b.terms) {
      const dot = this.mergeCosine ? termCosine(a.terms, b.terms) : this.terms.cosine(b.terms);
      cosine = roundSimilarity(dot);
    }
    const exact = a.exact === b.exact;
    const out = evidenceIn(into, exact, hamming, jaccard, imatch, lexical, cosine);
    const containment = containmentOf(jaccard, a.shingles, b.shingles);
    if (containment !== null) out.containment = containment;
    addContained(out, a, b);
    return out;
  }
}

/**
 * The share of the smaller shingle set inside the larger, from the Jaccard estimate J and the
 * distinct counts: the intersection is J (|A| + |B|) / (1 + J), divided by the smaller count
 * (clamped to 1: the estimate is noisy). Null without both counts.
 */
export function containmentOf(
  jaccard: number | null,
  a: number | undefined,
  b: number | undefined,
): number | null {
  if (jaccard === null || a === undefined || b === undefined || a <= 0 || b <= 0) return null;
  const shared = (jaccard * (a + b)) / (1 + jaccard);
  return roundSimilarity(Math.min(1, shared / Math.min(a, b)));
}

const SHARED = emptySentenceContainment();

/**
 * Sentence containment into the evidence (signatures/sentences.ts): the share of the smaller
 * side's sentence tokens that lie in sentences both sides have, with their count and tokens.
 * Exact on the fingerprints of texts of up to 24 sentences: a teaser of an article's first three
 * sentences is contained 1.0 in the article whatever their Jaccard. Nothing when either side
 * has no fingerprints.
 *
 * Lead passages (the same array) measure the same for a teaser whose sentence boundaries differ
 * from the article's (glued sentences, paragraphs run together, a cut mid-sentence): when their
 * share is the higher (or equal, over more tokens), it is the one reported, with the shared
 * passages and their tokens.
 */
function addContained(out: Evidence, a: SignatureRecord, b: SignatureRecord): void {
  const sa = a.sentences;
  const sb = b.sentences;
  if (sa === undefined || sb === undefined || sa.length === 0 || sb.length === 0) return;
  const c = sentenceContainment(
    sa,
    a.sentenceCut ?? NO_CUT,
    a.tokens,
    sb,
    b.sentenceCut ?? NO_CUT,
    b.tokens,
    SHARED,
  );
  setContained(out, c);
}

/**
 * The evidence's contained fields from a containment measure. Sentences and lead runs measure one
 * thing, how much of the smaller text the other holds, and each misses what the other sees:
 * sentence fingerprints miss glued or cut sentences and the short ones, runs miss a teaser's last
 * run (where it is cut) and the one its own words run into. `contained` is the higher of the two
 * shares and `containedTokens` the more of the two measures' shared tokens, so that neither hides
 * the other: a lead share of 1 over 18 tokens (a teaser behind a headline line) beside a sentence
 * share of 0.62 over 23 tokens is 1 over 23, where reporting either measure alone missed it.
 * `containedSentences` counts the shared sentences or runs of the measure with the higher share
 * (on a tie, the one over more tokens).
 */
export function setContained(out: Evidence, c: SentenceContainment): void {
  const lead = c.leadShare > c.share || (c.leadShare === c.share && c.leadTokens > c.tokens);
  out.contained = roundSimilarity(Math.max(c.leadShare, c.share));
  out.containedSentences = lead ? c.leadCount : c.count;
  out.containedTokens = Math.max(c.leadTokens, c.tokens);
}

/** Open addressing over a term vector's hashes (at most a few dozen): hash -> weight. */
class TermTable {
  private keys = new Uint32Array(128);
  private weights = new Float64Array(128);
  private stamps = new Uint32Array(128);
  private stamp = 0;
  private mask = 127;

  /** Returns false when the vector repeats a hash (then the caller merges instead). */
  load(v: TermVector): boolean {
    const n = v.hashes.length;
    this.begin(n);
    for (let i = 0; i < n; i++) if (!this.put(v.hashes[i] as number, v.weights[i] as number)) return false;
    return true;
  }

  /** `load` of a packed record's terms: t hashes from `at`, then t weights as float32 bits. */
  loadPacked(p: Int32Array, at: number, t: number): boolean {
    this.begin(t);
    for (let i = 0; i < t; i++) {
      FLOAT_BITS[0] = p[at + t + i] as number;
      if (!this.put(p[at + i] as number, FLOAT[0] as number)) return false;
    }
    return true;
  }

  /** An empty table for n terms. */
  private begin(n: number): void {
    if (n * 4 > this.keys.length) {
      let size = this.keys.length;
      while (n * 4 > size) size *= 2;
      this.keys = new Uint32Array(size);
      this.weights = new Float64Array(size);
      this.stamps = new Uint32Array(size);
      this.stamp = 0;
      this.mask = size - 1;
    }
    this.stamp = (this.stamp + 1) >>> 0;
    if (this.stamp === 0) {
      this.stamps.fill(0);
      this.stamp = 1;
    }
  }

  /** Adds a term; false when its hash is there already. */
  private put(key: number, weight: number): boolean {
    let at = slotOf(key) & this.mask;
    while (this.stamps[at] === this.stamp) {
      if (this.keys[at] === key) return false;
      at = (at + 1) & this.mask;
    }
    this.stamps[at] = this.stamp;
    this.keys[at] = key;
    this.weights[at] = weight;
    return true;
  }

  /** cosine over a packed record's terms: t hashes from `at`, then t weights as float32 bits. */
  cosinePacked(p: Int32Array, at: number, t: number): number {
    let dot = 0;
    let previous = -1;
    for (let j = 0; j < t; j++) {
      const key = p[at + j] as number;
      if (key === previous) continue;
      previous = key;
      let slot = slotOf(key) & this.mask;
      while (this.stamps[slot] === this.stamp) {
        if (this.keys[slot] === key) {
          FLOAT_BITS[0] = p[at + t + j] as number;
          dot += (this.weights[slot] as number) * (FLOAT[0] as number);
          break;
        }
        slot = (slot + 1) & this.mask;
      }
    }
    return Math.min(1, dot);
  }

  /** termCosine(loaded, b): b's hashes ascend, so shared terms add up in the merge's order. */
  cosine(b: TermVector): number {
    let dot = 0;
    let previous = -1;
    const hashes = b.hashes;
    for (let j = 0; j < hashes.length; j++) {
      const key = hashes[j] as number;
      // The merge pairs a repeated candidate hash once.
      if (key === previous) continue;
      previous = key;
      let at = slotOf(key) & this.mask;
      while (this.stamps[at] === this.stamp) {
        if (this.keys[at] === key) {
          dot += (this.weights[at] as number) * (b.weights[j] as number);
          break;
        }
        at = (at + 1) & this.mask;
      }
    }
    return Math.min(1, dot);
  }
}

/** Where a packed record's terms start: after the fixed part, the I-Match triples and the min-hash words. */
function packedTermsAt(p: Int32Array): number {
  const m = (p[Packed.Flags] as number) & Flag.Minhash ? (p[Packed.Minhash] as number) : 0;
  return Packed.Fixed + 3 * (p[Packed.Imatch] as number) + ((m + 3) >>> 2);
}

/** A record's packed form, made and kept on first use for a record that came without one. */
function packedOf(r: SignatureRecord): Int32Array | null {
  let p = r.packed;
  if (p === undefined) {
    p = packRecord(r);
    r.packed = p;
  }
  return p;
}

// Float32 weights stored as their bits in a packed record, read back through this pair.
const FLOAT = new Float32Array(1);
const FLOAT_BITS = new Int32Array(FLOAT.buffer);

function slotOf(key: number): number {
  return Math.imul(key, 0x9e3779b1) >>> 16;
}

// Synchronous from load to compare, so one shared instance serves every one-off comparison.
const oneOff = new Verifier();

/** Similarities as verdicts, explanations and story links report them: four decimals. */
export function roundSimilarity(x: number): number {
  return Math.round(x * 10_000) / 10_000;
}
