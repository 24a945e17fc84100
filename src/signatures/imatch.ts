import type { ImatchConfig } from '../config/signatures.js';
import { fmix32, hex64, type U64 } from '../hash/mix.js';
import { SEED_LEXICON_VERSION, seededWords } from '../hash/seeds.js';
import { SetHasher } from '../hash/set-hash.js';
import { xxh64 } from '../hash/xxhash.js';
import { FLAG_ELIGIBLE, FLAG_LETTER, FLAG_PRIMARY, FLAG_STOP, type Vocabulary } from './vocabulary.js';

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
  const { flags, secondaryRank, hashHi, hashLo } = vocab;
  const stamp = vocab.beginDocument();
  const primary: number[] = [];
  const secondary: number[] = [];
  let eligible = 0;
  for (let i = 0; i < contentSlots.length; i++) {
    const slot = contentSlots[i] as number;
    const f = flags[slot] as number;
    if ((f & (FLAG_ELIGIBLE | FLAG_LETTER)) !== (FLAG_ELIGIBLE | FLAG_LETTER) || f & FLAG_STOP) continue;
    if (vocab.count(slot, stamp) !== 1) continue;
    eligible++;
    if (f & FLAG_PRIMARY) primary.push(slot);
    else if ((secondaryRank[slot] as number) >= 0) secondary.push(slot);
  }
  if (eligible === 0) return [];
  secondary.sort((a, b) => (secondaryRank[a] as number) - (secondaryRank[b] as number));
  const required = Math.ceil(config.minLexiconShare * eligible);
  const hasher = new SetHasher();
  const first: U64 = { hi: 0, lo: 0 };
  const second: U64 = { hi: 0, lo: 0 };
  const out: ImatchSignature[] = [];
  for (let k = 0; k <= config.randomizedLexicons; k++) {
    hasher.reset();
    let chosen = 0;
    for (const slot of primary) {
      if (k > 0 && !inRandomLexicon(hashLo[slot] as number, k, config.randomizedDrop)) continue;
      hasher.add(hashHi[slot] as number, hashLo[slot] as number);
      chosen++;
    }
    const need = required - chosen;
    let borrowed = 0;
    if (need > 0) {
      if (secondary.length < need) continue;
      for (let i = 0; i < need; i++) {
        const slot = secondary[i] as number;
        hasher.add(hashHi[slot] as number, hashLo[slot] as number);
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
