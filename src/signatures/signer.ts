import type { SignatureConfig } from '../config/signatures.js';
import type { U64 } from '../hash/mix.js';
import { SEED_EXACT } from '../hash/seeds.js';
import { xxh64Hex } from '../hash/xxhash.js';
import type { LexiconSet } from '../lexicon/lexicon.js';
import type { CanonicalDoc } from '../text/canonical.js';
import type { KnownWordsOf } from '../text/dictionary-words.js';
import type { Language } from '../text/language.js';
import { stopWords } from '../text/stopwords.js';
import { ARABIC, CYRILLIC, LATIN } from '../text/word-scripts.js';
import { dateFactsOfKinds } from './facts.js';
import { markForeignPassages } from './foreign.js';
import { type ImatchSignature, imatchOfDistinct, lexiconVersionSeed } from './imatch.js';
import { type LexicalSignatures, lexicalSignatures } from './lexical.js';
import { type BroderShingles, broderShingles, minhashValues, shingleHashes } from './minhash.js';
import { type SentenceFingerprints, sentenceFingerprints } from './sentences.js';
import { type Fingerprint64, simhashOfCounts } from './simhash.js';
import { type TermVector, topTermsOfDistinct } from './terms.js';
import {
  FLAG_OTHER_SCRIPT,
  FLAG_STOP,
  type ForeignWords,
  INFO_FLAGS,
  INFO_LO,
  INFO_STAMP,
  INFO_STRIDE,
  INFO_TF,
  SCRATCH_TOKENS,
  Vocabulary,
} from './vocabulary.js';

/** The script of each language's letters, and the language whose lexicon reads a script's words. */
const SCRIPT_OF: Partial<Record<Language, number>> = { en: LATIN, ru: CYRILLIC, uk: CYRILLIC, fa: ARABIC };
const LANGUAGE_OF_SCRIPT: ReadonlyMap<number, Language> = new Map<number, Language>([
  [LATIN, 'en'],
  [CYRILLIC, 'ru'],
  [ARABIC, 'fa'],
]);

/**
 * Every signature of one document. Null where a method is disabled or has nothing to work on.
 * Its typed arrays may be views into a buffer other arrays share (typed-slab.ts): copy one
 * (`slice()`) before transferring its buffer.
 */
export interface Signatures {
  /** XXH64 of the canonical text, 16 hex digits. */
  exact: string;
  simhash: Fingerprint64 | null;
  /** The min-hash vector (superShingles * superShingleSize values); kept to estimate Jaccard. */
  minhash: Uint32Array | null;
  broder: BroderShingles | null;
  /** Non-NULL I-Match signatures; empty when NULL for every lexicon or no lexicon exists. */
  imatch: ImatchSignature[];
  lexiconVersion: string | null;
  /** Top tf*idf words. */
  lexical: string | null;
  longest: string | null;
  heaviest: string | null;
  /** Top tf*idf terms (unit vector) for story-level cosine. */
  terms: TermVector | null;
  /** Calendar dates the text names (signatures/facts.ts): the story rule's facts check. */
  dates: number[];
  /**
   * Distinct shingles the min-hashes were taken over (0 without min-hashes): with two sides'
   * counts and their Jaccard estimate, how much of the smaller set lies in the larger one.
   */
  shingles: number;
  /**
   * Sentence fingerprints (signatures/sentences.ts), ascending; null when disabled. What finds and
   * verifies a copy contained in another (a teaser of an article, a partial reordered copy).
   */
  sentences: SentenceFingerprints | null;
  /** All tokens, and tokens left after stop words. */
  tokens: number;
  contentTokens: number;
}

const NO_LEXICAL: LexicalSignatures = { lexical: null, longest: null, heaviest: null };

interface LanguageState {
  vocab: Vocabulary;
  versionSeed: U64;
  version: string | null;
}

/**
 * Computes all signatures of canonical documents. Holds per-language vocabulary tables and
 * scratch buffers, so one instance serves one thread; results depend only on config, lexicons
 * and the document.
 */
export class Signer {
  private readonly languages = new Map<Language, LanguageState>();
  private slots = new Int32Array(SCRATCH_TOKENS);
  private content = new Int32Array(SCRATCH_TOKENS);
  private distinct = new Int32Array(SCRATCH_TOKENS);
  private tf = new Uint32Array(SCRATCH_TOKENS);
  private lo = new Uint32Array(SCRATCH_TOKENS);
  private shingles = new Uint32Array(SCRATCH_TOKENS);

  constructor(
    readonly config: SignatureConfig,
    readonly lexicons: LexiconSet,
  ) {}

  /** The lexicons' words, by language: canonicalize reads disguised words as them (dictionary-words.ts). */
  readonly knownWords: KnownWordsOf = (lang) => this.lexicons.get(lang);

  /** Words of other scripts in a `lang` text are weighed by their own language's lexicon and stop words. */
  private foreignWords(lang: Language): ForeignWords {
    return {
      script: SCRIPT_OF[lang] ?? 0,
      of: (script) => {
        const other = LANGUAGE_OF_SCRIPT.get(script);
        return other === undefined
          ? null
          : { lexicon: this.lexicons.get(other), stopWords: stopWords(other) };
      },
    };
  }

  private language(lang: Language): LanguageState {
    let state = this.languages.get(lang);
    if (!state) {
      const lexicon = this.lexicons.get(lang);
      const versionSeed: U64 = lexicon ? lexiconVersionSeed(lexicon.version) : { hi: 0, lo: 0 };
      state = {
        // Story terms: a 6-letter prefix is a serviceable stem for Russian and Ukrainian inflection.
        vocab: new Vocabulary(
          lexicon,
          stopWords(lang),
          undefined,
          lang === 'ru' || lang === 'uk' ? 6 : 0,
          this.foreignWords(lang),
        ),
        versionSeed,
        version: lexicon?.version ?? null,
      };
      this.languages.set(lang, state);
    }
    return state;
  }

  compute(doc: CanonicalDoc): Signatures {
    const { config } = this;
    const { vocab, versionSeed, version } = this.language(doc.lang);
    const total = doc.tokenCount;
    if (total > this.slots.length) {
      this.slots = new Int32Array(total * 2);
      this.content = new Int32Array(total * 2);
    }
    const slots = this.slots.subarray(0, total);
    vocab.lookupSpans(doc.canonical, doc.tokenStarts, slots, doc.tokenHashes);

    // Content tokens: stop words out (seed 003). A text of nothing but stop words keeps them all,
    // so that it still has near-duplicate signatures. The same pass counts the content words
    // (distinct slots in first-seen order, tf) for SimHash, I-Match and the term vector.
    if (this.distinct.length < total) {
      this.distinct = new Int32Array(total * 2);
      this.tf = new Uint32Array(total * 2);
    }
    const info = vocab.info;
    const distinct = this.distinct;
    const stamp = vocab.beginDocument();
    let n = 0;
    let d = 0;
    let flagsSeen = 0;
    for (let i = 0; i < total; i++) {
      const slot = slots[i] as number;
      const b = slot * INFO_STRIDE;
      const flags = info[b + INFO_FLAGS] as number;
      flagsSeen |= flags;
      if (flags & FLAG_STOP) continue;
      this.content[n++] = slot;
      if (info[b + INFO_STAMP] !== stamp) {
        info[b + INFO_STAMP] = stamp;
        info[b + INFO_TF] = 1;
        distinct[d++] = slot;
      } else info[b + INFO_TF] = (info[b + INFO_TF] as number) + 1;
    }
    let content: Int32Array;
    if (n === 0) {
      content = slots;
      n = total;
      d = vocab.countDistinct(slots, total, distinct, this.tf);
    } else {
      content = this.content.subarray(0, n);
      for (let j = 0; j < d; j++)
        this.tf[j] = info[(distinct[j] as number) * INFO_STRIDE + INFO_TF] as number;
    }
    // Only a text with words of another script can hold a passage in another language.
    if (flagsSeen & FLAG_OTHER_SCRIPT) markForeignPassages(vocab, slots, total);

    const simhash = config.simhash.enabled
      ? simhashOfCounts(vocab, content, distinct, this.tf, d, config.simhash)
      : null;

    let minhash: Uint32Array | null = null;
    let broder: BroderShingles | null = null;
    let shingleCount = 0;
    if (config.minhash.enabled) {
      // Scratch, not a fresh array per message: both are read only by minhashValues below, and
      // a typed array of this size has its memory outside the heap, allocated and freed per use.
      if (this.lo.length < n) {
        this.lo = new Uint32Array(n * 2);
        this.shingles = new Uint32Array(n * 2);
      }
      const lo = this.lo;
      const info = vocab.info;
      for (let i = 0; i < n; i++) lo[i] = info[(content[i] as number) * INFO_STRIDE + INFO_LO] as number;
      const shingles = shingleHashes(lo, n, config.minhash.shingleSize, this.shingles);
      minhash = minhashValues(shingles, config.minhash.superShingles * config.minhash.superShingleSize);
      // Single words: the distinct content words counted above; longer shingles: counted in a set.
      shingleCount = config.minhash.shingleSize <= 1 || n <= 1 ? d : distinctCount(shingles);
      broder = broderShingles(minhash, config.minhash);
    }

    const imatch =
      config.imatch.enabled && vocab.lexicon
        ? imatchOfDistinct(vocab, distinct, d, config.imatch, versionSeed)
        : [];
    const terms = config.terms.enabled
      ? topTermsOfDistinct(vocab, distinct, this.tf, d, config.terms.size, config.terms.maxTermShare)
      : null;

    const lexical = config.lexical.enabled
      ? lexicalSignatures(vocab, slots, doc.sentenceEnds, distinct, d, config.lexical)
      : NO_LEXICAL;

    const sentences = config.sentences.enabled
      ? sentenceFingerprints(
          vocab.info,
          slots,
          doc.sentenceEnds,
          config.sentences.minTokens,
          config.sentences.max,
          config.sentences.keys,
          config.sentences.leadTokens,
        )
      : null;

    return {
      exact: xxh64Hex(doc.canonical, SEED_EXACT),
      simhash,
      minhash,
      broder,
      imatch,
      lexiconVersion: version,
      // Written out, not spread: a spread copies the fields one by one at run time, and the
      // object it makes need not have the literal's shape, which every reader of Signatures meets.
      lexical: lexical.lexical,
      longest: lexical.longest,
      heaviest: lexical.heaviest,
      terms,
      // From the token slots: the text is not split again (one pass over the text per message).
      dates: dateFactsOfKinds(vocab.factKinds, slots, total),
      shingles: shingleCount,
      sentences,
      tokens: total,
      contentTokens: n,
    };
  }
}

// distinctCount's open-addressing set: a slot holds a value while its stamp is the current call's,
// so the table is never cleared between documents.
let setValues = new Uint32Array(2 * SCRATCH_TOKENS);
let setStamps = new Int32Array(2 * SCRATCH_TOKENS);
let setStamp = 0;

/**
 * Distinct values of `values` (shingle hashes: fmix32 outputs, so their low bits index the set).
 * A hash set rather than a sort of the values: the sort was ~1.5% of a message's CPU.
 */
function distinctCount(values: Uint32Array): number {
  const n = values.length;
  if (n === 0) return 0;
  let size = 16;
  while (size < 2 * n) size <<= 1;
  if (setValues.length < size) {
    setValues = new Uint32Array(size);
    setStamps = new Int32Array(size);
    setStamp = 0;
  }
  if (setStamp === 0x7fffffff) {
    setStamps.fill(0);
    setStamp = 0;
  }
  const stamp = ++setStamp;
  const mask = size - 1;
  const table = setValues;
  const stamps = setStamps;
  let count = 0;
  for (let i = 0; i < n; i++) {
    const v = values[i] as number;
    let at = v & mask;
    for (;;) {
      if (stamps[at] !== stamp) {
        stamps[at] = stamp;
        table[at] = v;
        count++;
        break;
      }
      if (table[at] === v) break;
      at = (at + 1) & mask;
    }
  }
  return count;
}
