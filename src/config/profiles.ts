import { DoppelError } from '../errors.js';
import { type DedupConfig, dedupConfigSchema, type ProfileName } from './dedup.js';
import { isProfileName } from './defaults.js';
import { parseConfig } from './validate.js';

const HOUR = 3_600_000;
const DAY = 24 * HOUR;

/**
 * Profile defaults. news: syndicated copies and re-written reports of one event over days; tag
 * mode, story clustering on. mail: campaigns of templated mails over a day; mail clean-up always
 * on, shorter shingles (mails are short), stricter story rule. Thresholds were tuned with
 * `doppel eval` on the evaluation corpus (docs/quality.md).
 */
const PROFILES: Record<ProfileName, unknown> = {
  news: {
    profile: 'news',
    mode: 'tag',
    // SimHash and I-Match still verify every candidate; as index tables (and the seed-002 lexical
    // signatures) they found no pair that bands and topic keys miss on any shared data set, at 20-25%
    // of the throughput (docs/quality.md). Turn them on with index.methods / signatures.lexical.
    // One repeated word holds at most 0.15 of the story vector (docs/quality.md, one heavy term).
    signatures: { lexical: { enabled: false }, terms: { maxTermShare: 0.15 } },
    index: {
      methods: ['exact', 'bands', 'topic', 'sentences'],
      maxBucketSize: 64,
      maxCandidates: 24,
      topicKeys: 5,
    },
    decision: {
      // Near-duplicate: Jaccard >= 0.4; or SimHash within 6 bits, or an equal I-Match signature, or
      // tf*idf cosine >= 0.8, each with some shared word sequences (Jaccard >= 0.2 / 0.15).
      nearDuplicate: {
        jaccard: 0.4,
        hamming: 6,
        hammingMinJaccard: 0.2,
        imatchMinJaccard: 0.2,
        cosine: 0.8,
        cosineMinJaccard: 0.15,
        // A teaser (an article's first sentences) or a partial copy with its sentences reordered:
        // most of the smaller side's sentences are whole sentences of the other (engine/verify.ts),
        // 12 tokens or more of them: a one- or two-sentence teaser ("Divers found a skull in the
        // Moika. Whether it is human will be known after the examination.") decides, while a
        // boilerplate line shared by many texts is left out of the window's sentences anyway
        // (commonSentenceGroups) and a short one ("Read more on our site.") is below the bound.
        contained: 0.6,
        containedMinSentences: 1,
        containedMinTokens: 12,
      },
      // Story: two reports of one event share their weighted vocabulary (cosine >= 0.35).
      story: {
        jaccard: 0.2,
        hamming: 12,
        hammingMinJaccard: 0.05,
        imatchMinJaccard: 0.05,
        cosine: 0.35,
        cosineMinJaccard: 0,
      },
      storyClustering: true,
      storyMinShare: 0.5,
      storyWindowMs: 2 * DAY,
      storyFacts: true,
      // Two reports on one topic that are different stories (a ruling and its reaction, two
      // matches of a tournament) share their vocabulary but rarely their headline's words; the
      // same story's reports mostly do (docs/quality.md, the story title check).
      storyTitleMinJaccard: 0.1,
      // duplicateOf: the earliest near-duplicate at this Jaccard or more before weaker ones.
      strongJaccard: 0.7,
      minTokensForNear: 8,
      // A sentence that candidates of 5 different texts hold is a site's furniture (a cookie
      // notice, a legal line), not a shared passage: it does not make two short articles of one
      // site contained in each other (docs/quality.md, site pages).
      commonSentenceGroups: 5,
      // Story evidence must come from more than sentences that candidates of 2 different texts
      // also hold (a site's "about us" paragraph or dek kept under every article): they are taken
      // out of the story cosine and Jaccard (docs/engine.md, docs/quality.md).
      storySharedSentenceGroups: 2,
    },
    window: { windowMs: 3 * DAY, generationMs: 3 * HOUR, maxMessages: 0 },
    batchSize: 256,
  },
  mail: {
    profile: 'mail',
    mode: 'tag',
    signatures: {
      // HTML mails are newsletters and spam, not articles: their whole text is signed (extracting
      // lowered the mail set's story recall, docs/extraction.md).
      // Random strings appended to spam to defeat hashing are left out (src/text/random-words.ts).
      canonical: { mailCleanup: 'always', html: 'page', randomWords: 'drop', spaceSplitWords: true },
      // Word sets, not word runs: a hash-buster word inserted every ~10 words breaks a third of
      // the 3-shingles but only ~10% of the word set (docs/quality.md, spam with hash-busters).
      minhash: { shingleSize: 1 },
      lexical: { enabled: false },
    },
    index: {
      // No sentence keys: templated mails share whole sentences (greeting, unsubscribe line), and
      // those buckets brought candidates that other rules then matched wrongly (docs/quality.md).
      // The record keeps the fingerprints, so candidates found otherwise are still verified.
      methods: ['exact', 'bands', 'topic'],
      maxBucketSize: 128,
      maxCandidates: 24,
      topicKeys: 5,
    },
    decision: {
      nearDuplicate: {
        jaccard: 0.5,
        hamming: 6,
        hammingMinJaccard: 0.2,
        imatchMinJaccard: 0.2,
        cosine: 0.8,
        cosineMinJaccard: 0.15,
        // A short spam quoted whole in a campaign copy (greeting, tracking link, reference and
        // hash-buster words added): word-set Jaccard 0.4-0.5 but containment ~1 (docs/quality.md).
        containment: 0.85,
        containmentMinJaccard: 0.3,
        // Sentence containment as in news, stricter: mails of one sender share template sentences.
        contained: 0.85,
        containedMinSentences: 1,
        containedMinTokens: 30,
      },
      // Word-set Jaccard (shingleSize 1) runs higher than 3-shingle Jaccard: 0.45, not 0.3.
      story: {
        jaccard: 0.45,
        hamming: 10,
        hammingMinJaccard: 0.1,
        imatchMinJaccard: 0.1,
        cosine: null,
        cosineMinJaccard: 0,
      },
      storyClustering: true,
      storyMinShare: 0.5,
      storyWindowMs: DAY,
      storyFacts: true,
      strongJaccard: 0.7,
      minTokensForNear: 5,
    },
    window: { windowMs: DAY, generationMs: HOUR, maxMessages: 0 },
    batchSize: 256,
  },
};

export { isProfileName } from './defaults.js';

/**
 * Deep merge of plain objects: `over` wins; arrays are replaced, not merged. `over` is a config
 * file's content: a key is merged with `base`'s own property only (never one of Object.prototype's,
 * such as "constructor"), and defined, not assigned, so that "__proto__" stays a key the schema
 * refuses instead of replacing the merged object's prototype.
 */
export function deepMerge(base: unknown, over: unknown): unknown {
  if (over === undefined) return base;
  if (!isPlainObject(base) || !isPlainObject(over)) return over;
  const out: Record<string, unknown> = { ...base };
  for (const [key, value] of Object.entries(over)) {
    const own = Object.hasOwn(base, key) ? base[key] : undefined;
    Object.defineProperty(out, key, {
      value: deepMerge(own, value),
      enumerable: true,
      writable: true,
      configurable: true,
    });
  }
  return out;
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** The profile's defaults with `overrides` (a config file's content) applied, validated. */
export function resolveDedupConfig(profile: string, overrides: unknown = {}, source = 'config'): DedupConfig {
  const fileProfile =
    isPlainObject(overrides) && typeof overrides.profile === 'string' ? overrides.profile : undefined;
  const name = fileProfile ?? profile;
  if (!isProfileName(name))
    throw new DoppelError('INVALID_CONFIG', `unknown profile "${name}" (news or mail)`);
  return parseConfig(dedupConfigSchema, deepMerge(PROFILES[name], overrides), source);
}
