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

/**
 * - lexical: the `topWords` content words with the highest tf*idf (ties broken by token hash),
 *   hashed as a set. Null below 3 distinct words.
 * - longest / heaviest: the two sentences with the most tokens (ties: earlier) / the highest sum
 *   of their content words' tf*idf, among sentences of at least `minSentenceTokens` tokens; each
 *   sentence hashed as its token sequence, the two combined order-independently.
 */
export function lexicalSignatures(
  vocab: Vocabulary,
  slots: Int32Array,
  sentenceEnds: readonly number[],
  config: Pick<LexicalConfig, 'topWords' | 'minSentenceTokens'>,
): LexicalSignatures {
  const { info, idfs } = vocab;
  const distinct = vocab.distinctContentWords(slots);
  const score = (slot: number) => vocab.tfOf(slot) * (idfs[slot * IDF_STRIDE + IDF_AT] as number);

  let lexical: string | null = null;
  if (distinct.length >= Math.min(3, config.topWords)) {
    const top: number[] = [];
    for (const slot of distinct) {
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
    const hasher = new SetHasher();
    for (const slot of top)
      hasher.add(info[slot * INFO_STRIDE + INFO_HI] as number, info[slot * INFO_STRIDE + INFO_LO] as number);
    const out: U64 = { hi: 0, lo: 0 };
    hasher.digest64(SEED_TOP_WORDS, out);
    lexical = hex64(out.hi, out.lo);
  }

  const sentences: { start: number; end: number; weight: number }[] = [];
  let start = 0;
  for (const end of sentenceEnds) {
    if (end - start >= config.minSentenceTokens) {
      let weight = 0;
      for (let i = start; i < end; i++) {
        const slot = slots[i] as number;
        const f = info[slot * INFO_STRIDE + INFO_FLAGS] as number;
        if (!(f & FLAG_STOP) && f & FLAG_LETTER) weight += score(slot);
      }
      sentences.push({ start, end, weight });
    }
    start = end;
  }
  if (sentences.length === 0) return { lexical, longest: null, heaviest: null };
  const sequenceHash = (s: { start: number; end: number }): U64 => {
    const acc: U64 = { hi: 0x73656e74, lo: s.end - s.start }; // "sent"
    for (let i = s.start; i < s.end; i++) {
      const slot = slots[i] as number;
      combine64(
        acc.hi,
        acc.lo,
        info[slot * INFO_STRIDE + INFO_HI] as number,
        info[slot * INFO_STRIDE + INFO_LO] as number,
        acc,
      );
    }
    return acc;
  };
  const pairHash = (picked: { start: number; end: number }[], seed: U64): string => {
    const hasher = new SetHasher();
    for (const s of picked) {
      const h = sequenceHash(s);
      hasher.add(h.hi, h.lo);
    }
    const out: U64 = { hi: 0, lo: 0 };
    hasher.digest64({ hi: seed.hi, lo: fmix32(seed.lo ^ picked.length) }, out);
    return hex64(out.hi, out.lo);
  };
  const byLength = [...sentences]
    .sort((a, b) => b.end - b.start - (a.end - a.start) || a.start - b.start)
    .slice(0, 2);
  const byWeight = [...sentences].sort((a, b) => b.weight - a.weight || a.start - b.start).slice(0, 2);
  return { lexical, longest: pairHash(byLength, SEED_LONGEST), heaviest: pairHash(byWeight, SEED_HEAVIEST) };
}
