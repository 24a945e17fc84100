import type { LexicalConfig } from '../config/signatures.js';
import { combine64, fmix32, hex64, type U64 } from '../hash/mix.js';
import { SetHasher } from '../hash/set-hash.js';
import {
  FLAG_LETTER,
  FLAG_STOP,
  IDF_AT,
  IDF_STRIDE,
  INFO_FLAGS,
  INFO_HI,
  INFO_LO,
  INFO_STRIDE,
  type Vocabulary,
} from './vocabulary.js';

/**
 * Seed 002's cheap single-value signatures (Zelenkov & Segalovich): the top tf*idf words, the
 * two longest sentences and the two heaviest sentences. Each is one index key; a set of them
 * survives headers, footers and comments better than a single checksum.
 */

const SEED_TOP_WORDS: U64 = { hi: 0x6c657869, lo: 0x63616c31 }; // "lexical1"
const SEED_LONGEST: U64 = { hi: 0x6c6f6e67, lo: 0x65737431 }; // "longest1"
const SEED_HEAVIEST: U64 = { hi: 0x68656176, lo: 0x69657374 }; // "heaviest"

export interface LexicalSignatures {
  lexical: string | null;
  longest: string | null;
  heaviest: string | null;
}

/** Compares two slots by token hash: a total order that needs no string comparison. */
function hashOrder(vocab: Vocabulary, a: number, b: number): number {
  const info = vocab.info;
  const ha = info[a * INFO_STRIDE + INFO_HI] as number;
  const hb = info[b * INFO_STRIDE + INFO_HI] as number;
  if (ha !== hb) return ha < hb ? -1 : 1;
  const la = info[a * INFO_STRIDE + INFO_LO] as number;
  const lb = info[b * INFO_STRIDE + INFO_LO] as number;
  return la === lb ? 0 : la < lb ? -1 : 1;
}

// Scratch of lexicalSignatures (one thread's): the hashers, the U64 results and the top words.
const HASHER = new SetHasher();
const OUT: U64 = { hi: 0, lo: 0 };
const SEQUENCE: U64 = { hi: 0, lo: 0 };
const PAIR_SEED: U64 = { hi: 0, lo: 0 };
const TOP: number[] = [];

/** The token sequence slots[start, end) hashed in order, into `out`. */
function sequenceHash(info: Uint32Array, slots: Int32Array, start: number, end: number, out: U64): U64 {
  out.hi = 0x73656e74; // "sent"
  out.lo = end - start;
  for (let i = start; i < end; i++) {
    const slot = slots[i] as number;
    combine64(
      out.hi,
      out.lo,
      info[slot * INFO_STRIDE + INFO_HI] as number,
      info[slot * INFO_STRIDE + INFO_LO] as number,
      out,
    );
  }
  return out;
}

/** The one or two sentences [s1, e1) and [s2, e2) (s2 < 0: none) hashed as a set, as 16 hex digits. */
function pairHash(
  info: Uint32Array,
  slots: Int32Array,
  s1: number,
  e1: number,
  s2: number,
  e2: number,
  seed: U64,
): string {
  HASHER.reset();
  sequenceHash(info, slots, s1, e1, SEQUENCE);
  HASHER.add(SEQUENCE.hi, SEQUENCE.lo);
  if (s2 >= 0) {
    sequenceHash(info, slots, s2, e2, SEQUENCE);
    HASHER.add(SEQUENCE.hi, SEQUENCE.lo);
  }
  PAIR_SEED.hi = seed.hi;
  PAIR_SEED.lo = fmix32(seed.lo ^ (s2 >= 0 ? 2 : 1));
  HASHER.digest64(PAIR_SEED, OUT);
  return hex64(OUT.hi, OUT.lo);
}

/**
 * - lexical: the `topWords` content words with the highest tf*idf (ties broken by token hash),
 *   hashed as a set. Null below 3 distinct words.
 * - longest / heaviest: the two sentences with the most tokens (ties: earlier) / the highest sum
 *   of their content words' tf*idf, among sentences of at least `minSentenceTokens` tokens; each
 *   sentence hashed as its token sequence, the two combined order-independently.
 *
 * `distinct[0, distinctCount)` are the document's distinct words in first-seen order, counted
 * (INFO_TF) under the vocabulary's current document stamp: the signer's one counting pass, so
 * the tokens are not counted again here. Words that are stop words or have no letter are skipped.
 */
export function lexicalSignatures(
  vocab: Vocabulary,
  slots: Int32Array,
  sentenceEnds: readonly number[],
  distinct: Int32Array,
  distinctCount: number,
  config: Pick<LexicalConfig, 'topWords' | 'minSentenceTokens'>,
): LexicalSignatures {
  const { info, idfs } = vocab;
  const score = (slot: number) => vocab.tfOf(slot) * (idfs[slot * IDF_STRIDE + IDF_AT] as number);
  const isContent = (slot: number) => {
    const f = info[slot * INFO_STRIDE + INFO_FLAGS] as number;
    return !(f & FLAG_STOP) && (f & FLAG_LETTER) !== 0;
  };

  let words = 0;
  for (let j = 0; j < distinctCount; j++) if (isContent(distinct[j] as number)) words++;
  let lexical: string | null = null;
  if (words >= Math.min(3, config.topWords)) {
    const top = TOP;
    top.length = 0;
    for (let j = 0; j < distinctCount; j++) {
      const slot = distinct[j] as number;
      if (!isContent(slot)) continue;
      const s = score(slot);
      let at = top.length;
      while (at > 0) {
        const prev = top[at - 1] as number;
        const ps = score(prev);
        if (ps > s || (ps === s && hashOrder(vocab, prev, slot) < 0)) break;
        at--;
      }
      if (at < config.topWords) {
        top.splice(at, 0, slot);
        if (top.length > config.topWords) top.pop();
      }
    }
    HASHER.reset();
    for (const slot of top)
      HASHER.add(info[slot * INFO_STRIDE + INFO_HI] as number, info[slot * INFO_STRIDE + INFO_LO] as number);
    HASHER.digest64(SEED_TOP_WORDS, OUT);
    lexical = hex64(OUT.hi, OUT.lo);
  }

  // The first two sentences by length (longer first, then earlier) and by weight (heavier first,
  // then earlier), picked in one pass: sentences come in order, so a later one goes before an
  // earlier only when strictly longer or heavier.
  let long1 = -1;
  let long1End = 0;
  let long2 = -1;
  let long2End = 0;
  let heavy1 = -1;
  let heavy1End = 0;
  let heavy1Weight = 0;
  let heavy2 = -1;
  let heavy2End = 0;
  let heavy2Weight = 0;
  let start = 0;
  for (let k = 0; k < sentenceEnds.length; k++) {
    const end = sentenceEnds[k] as number;
    const length = end - start;
    if (length >= config.minSentenceTokens) {
      let weight = 0;
      for (let i = start; i < end; i++) {
        const slot = slots[i] as number;
        const f = info[slot * INFO_STRIDE + INFO_FLAGS] as number;
        if (!(f & FLAG_STOP) && f & FLAG_LETTER) weight += score(slot);
      }
      if (long1 < 0 || length > long1End - long1) {
        long2 = long1;
        long2End = long1End;
        long1 = start;
        long1End = end;
      } else if (long2 < 0 || length > long2End - long2) {
        long2 = start;
        long2End = end;
      }
      if (heavy1 < 0 || weight > heavy1Weight) {
        heavy2 = heavy1;
        heavy2End = heavy1End;
        heavy2Weight = heavy1Weight;
        heavy1 = start;
        heavy1End = end;
        heavy1Weight = weight;
      } else if (heavy2 < 0 || weight > heavy2Weight) {
        heavy2 = start;
        heavy2End = end;
        heavy2Weight = weight;
      }
    }
    start = end;
  }
  if (long1 < 0) return { lexical, longest: null, heaviest: null };
  return {
    lexical,
    longest: pairHash(info, slots, long1, long1End, long2, long2End, SEED_LONGEST),
    heaviest: pairHash(info, slots, heavy1, heavy1End, heavy2, heavy2End, SEED_HEAVIEST),
  };
}
