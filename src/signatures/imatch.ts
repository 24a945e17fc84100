import type { ImatchConfig } from '../config/signatures.js';
import { fmix32, hex64, type U64 } from '../hash/mix.js';
import { SEED_LEXICON_VERSION, seededWords } from '../hash/seeds.js';
import { laneA, laneB, laneC, laneD, SetHasher } from '../hash/set-hash.js';
import { xxh64 } from '../hash/xxhash.js';
import {
  FLAG_ELIGIBLE,
  FLAG_LETTER,
  FLAG_PRIMARY,
  FLAG_STOP,
  INFO_FLAGS,
  INFO_HI,
  INFO_LO,
  INFO_STRIDE,
  type Vocabulary,
} from './vocabulary.js';

/**
 * I-Match (Chowdhury et al. 2002) with the secondary lexicon of seed 001 (Kolcz & Chowdhury)
 * and K randomized lexicons (Kolcz, Chowdhury, Alspector 2004).
 */

const RANDOM_LEXICON_SEEDS = seededWords(0x696d6174, 17); // "imat"

export interface ImatchSignature {
  /** 0 = primary lexicon, 1..K = randomized lexicons. */
  lexicon: number;
  /** 128 bits, 32 hex digits. */
  hash: string;
  /** Words hashed (after the secondary extension), for explanations. */
  words: number;
  /** Words borrowed from the secondary lexicon. */
  borrowed: number;
}

/** The lexicon version as a 64-bit seed: part of every I-Match signature made with that lexicon. */
export function lexiconVersionSeed(version: string): U64 {
  return xxh64(version, SEED_LEXICON_VERSION, { hi: 0, lo: 0 });
}

/** A word's fixed coin for randomized lexicon k: deterministic, no RNG state. */
export function inRandomLexicon(wordHashLo: number, k: number, drop: number): boolean {
  return fmix32(wordHashLo ^ (RANDOM_LEXICON_SEEDS[k] as number)) / 0x100000000 >= drop;
}

/**
 * Signatures for lexicons 0..K over the document's content-token slots. A lexicon's signature is
 * NULL (left out) when the document's words in it, extended with the fewest secondary-lexicon
 * words in ascending-idf order, cannot reach `minLexiconShare` of its eligible words, or number
 * fewer than `minWords`. `versionSeed` is the lexicon version's hash: it is part of every
 * signature, so signatures made with different lexicons never meet.
 */
export function imatchSignatures(
  vocab: Vocabulary,
  contentSlots: Int32Array,
  config: ImatchConfig,
  versionSeed: U64,
): ImatchSignature[] {
  const distinct = new Int32Array(contentSlots.length);
  const d = vocab.countDistinct(
    contentSlots,
    contentSlots.length,
    distinct,
    new Uint32Array(contentSlots.length),
  );
  return imatchOfDistinct(vocab, distinct, d, config, versionSeed);
}

/**
 * Moves the `count` lowest-ranked slots to the front of `slots`, in ascending rank (ranks are
 * distinct): a partial selection sort when that is short, else a full sort.
 */
function lowestRanksFirst(slots: number[], count: number, rank: Int32Array): void {
  if (count * slots.length > 4096) {
    slots.sort((a, b) => (rank[a] as number) - (rank[b] as number));
    return;
  }
  for (let i = 0; i < count; i++) {
    let best = i;
    for (let j = i + 1; j < slots.length; j++)
      if ((rank[slots[j] as number] as number) < (rank[slots[best] as number] as number)) best = j;
    const t = slots[i] as number;
    slots[i] = slots[best] as number;
    slots[best] = t;
  }
}

// Per-lexicon lane sums and member counts, reused across documents (one engine per thread).
let laneSums = new Int32Array(4 * 17);
let chosenCounts = new Int32Array(17);

/** imatchSignatures given the document's distinct content slots in first-seen order. */
export function imatchOfDistinct(
  vocab: Vocabulary,
  distinct: Int32Array,
  distinctCount: number,
  config: ImatchConfig,
  versionSeed: U64,
): ImatchSignature[] {
  const { info, secondaryRank } = vocab;
  const lexicons = config.randomizedLexicons + 1;
  if (chosenCounts.length < lexicons) {
    laneSums = new Int32Array(4 * lexicons);
    chosenCounts = new Int32Array(lexicons);
  }
  const sums = laneSums;
  const chosenBy = chosenCounts;
  sums.fill(0, 0, 4 * lexicons);
  chosenBy.fill(0, 0, lexicons);
  const secondary: number[] = [];
  let eligible = 0;
  // A primary word's lanes are computed once and summed into every lexicon that keeps it (the
  // set hash is a sum, so this equals hashing each lexicon's words apart).
  for (let i = 0; i < distinctCount; i++) {
    const slot = distinct[i] as number;
    const at = slot * INFO_STRIDE;
    const f = info[at + INFO_FLAGS] as number;
    if ((f & (FLAG_ELIGIBLE | FLAG_LETTER)) !== (FLAG_ELIGIBLE | FLAG_LETTER) || f & FLAG_STOP) continue;
    eligible++;
    if (f & FLAG_PRIMARY) {
      const hi = info[at + INFO_HI] as number;
      const lo = info[at + INFO_LO] as number;
      const a = laneA(lo);
      const b = laneB(hi);
      const c = laneC(hi, lo);
      const e = laneD(hi, lo);
      for (let k = 0; k < lexicons; k++) {
        if (k > 0 && !inRandomLexicon(lo, k, config.randomizedDrop)) continue;
        sums[4 * k] = ((sums[4 * k] as number) + a) | 0;
        sums[4 * k + 1] = ((sums[4 * k + 1] as number) + b) | 0;
        sums[4 * k + 2] = ((sums[4 * k + 2] as number) + c) | 0;
        sums[4 * k + 3] = ((sums[4 * k + 3] as number) + e) | 0;
        chosenBy[k] = (chosenBy[k] as number) + 1;
      }
    } else if ((secondaryRank[slot] as number) >= 0) secondary.push(slot);
  }
  if (eligible === 0) return [];
  const required = Math.ceil(config.minLexiconShare * eligible);
  // Only the lowest-ranked `need` secondary words are ever used, and most documents borrow none.
  let maxNeed = 0;
  for (let k = 0; k < lexicons; k++) maxNeed = Math.max(maxNeed, required - (chosenBy[k] as number));
  if (maxNeed > 0) lowestRanksFirst(secondary, Math.min(maxNeed, secondary.length), secondaryRank);
  const hasher = new SetHasher();
  const first: U64 = { hi: 0, lo: 0 };
  const second: U64 = { hi: 0, lo: 0 };
  const out: ImatchSignature[] = [];
  for (let k = 0; k < lexicons; k++) {
    hasher.reset();
    let chosen = chosenBy[k] as number;
    hasher.addLanes(
      sums[4 * k] as number,
      sums[4 * k + 1] as number,
      sums[4 * k + 2] as number,
      sums[4 * k + 3] as number,
      chosen,
    );
    const need = required - chosen;
    let borrowed = 0;
    if (need > 0) {
      if (secondary.length < need) continue;
      for (let i = 0; i < need; i++) {
        const slot = secondary[i] as number;
        hasher.add(
          info[slot * INFO_STRIDE + INFO_HI] as number,
          info[slot * INFO_STRIDE + INFO_LO] as number,
        );
      }
      borrowed = need;
      chosen += need;
    }
    if (chosen < config.minWords) continue;
    hasher.digest128(
      { hi: versionSeed.hi ^ Math.imul(k + 1, 0x9e3779b1), lo: versionSeed.lo },
      first,
      second,
    );
    out.push({
      lexicon: k,
      hash: hex64(first.hi, first.lo) + hex64(second.hi, second.lo),
      words: chosen,
      borrowed,
    });
  }
  return out;
}
