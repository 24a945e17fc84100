import { z } from 'zod';
import { apiSchema, loggingSchema, telemetrySchema } from './ops.js';
import { signatureConfigSchema } from './signatures.js';

/**
 * Everything `doppel dedup` and the consumers run with: a profile's defaults (profiles.ts), then a
 * config file's overrides, validated once. Every default is documented in docs/configuration.md.
 */

export const INDEX_METHODS = [
  'exact',
  'simhash',
  'imatch',
  'mega',
  'bands',
  'lexical',
  'topic',
  'sentences',
] as const;
export type IndexMethod = (typeof INDEX_METHODS)[number];

export const indexSchema = z
  .object({
    /** Which signatures go into the index (candidate generation). Exact is always on. */
    methods: z.array(z.enum(INDEX_METHODS)).min(1),
    /** Members kept per bucket; a fuller bucket is "hot": counted, reported, not grown. */
    maxBucketSize: z.number().int().min(1).max(100_000),
    /** Candidates verified per message, those sharing the most buckets first. */
    maxCandidates: z.number().int().min(1).max(100_000),
    /** Topic keys per message (its heaviest tf*idf terms), for story candidates. */
    topicKeys: z.number().int().min(1).max(32),
    /**
     * Characters of each message's text the store keeps to show (the desk's snippet and its
     * side-by-side why), at most 200; 0 keeps none. Display only: no verdict depends on it.
     */
    snippetLength: z.number().int().min(0).max(200).default(200),
  })
  .strict();

export const thresholdsSchema = z
  .object({
    /** Jaccard estimate (MinHash) at or above which two messages are near-duplicates. */
    jaccard: z.number().min(0).max(1),
    /** SimHash Hamming distance at or below which two messages are near-duplicates... */
    hamming: z.number().int().min(0).max(64),
    /** ...when their Jaccard estimate is also at least this (guards short, templated texts). */
    hammingMinJaccard: z.number().min(0).max(1),
    /** An equal I-Match signature counts when the Jaccard estimate is at least this. */
    imatchMinJaccard: z.number().min(0).max(1),
    /** tf*idf cosine at or above which the level is met; null: cosine not used at this level... */
    cosine: z.number().min(0).max(1).nullable(),
    /** ...when the Jaccard estimate is also at least this (shared word sequences, not only shared topic). */
    cosineMinJaccard: z.number().min(0).max(1),
    /**
     * Containment (the smaller side's shingles found in the larger, engine/verify.ts) at or above
     * which the level is met; null or absent: not used. A short spam quoted whole in a templated
     * copy (greeting, tracking link, hash-buster words added) has a low Jaccard but is contained...
     */
    containment: z.number().min(0).max(1).nullable().optional(),
    /** ...when the Jaccard estimate is also at least this (the larger side is not mostly other text). */
    containmentMinJaccard: z.number().min(0).max(1).optional(),
    /**
     * Sentence containment (engine/verify.ts: the share of the smaller side's fingerprinted
     * sentence tokens in sentences both sides have) at or above which the level is met; null or
     * absent: not used. A teaser made of an article's first sentences, or a partial copy with its
     * sentences reordered, is contained whole in the full text at any Jaccard...
     */
    contained: z.number().min(0).max(1).nullable().optional(),
    /** ...when at least this many sentences are shared... */
    containedMinSentences: z.number().int().min(1).optional(),
    /** ...holding at least this many tokens (boilerplate sentences are few and short). */
    containedMinTokens: z.number().int().min(1).optional(),
  })
  .strict();

export const decisionSchema = z
  .object({
    nearDuplicate: thresholdsSchema,
    /** Looser thresholds for story (cluster) membership only: no duplicate verdict. */
    story: thresholdsSchema,
    /** Story clustering on: messages that meet only the story thresholds join the cluster. */
    storyClustering: z.boolean(),
    /**
     * A message with only story-level matches joins a story when it meets the story thresholds
     * with at least this share of the story's members (of at most index.maxCandidates of them):
     * close to the story as a whole, not to one member, so that loose links do not chain.
     */
    storyMinShare: z.number().min(0).max(1),
    /** ...and the story had a message at most this long (ms) before it. */
    storyWindowMs: z.number().int().positive(),
    /**
     * ...and a member whose facts conflict with the message's (both name calendar dates, none
     * shared: signatures/facts.ts) counts against the story, not for it.
     */
    storyFacts: z.boolean(),
    /**
     * ...and, when the message and the story (its first message) both have a title, their title
     * words overlap at least this much (Jaccard; engine/story.ts titleWords). Absent or null: off.
     */
    storyTitleMinJaccard: z.number().min(0).max(1).nullable().optional(),
    /**
     * `duplicateOf` prefers a near-duplicate with at least this Jaccard estimate to an earlier one
     * with less (engine/choose.ts); absent: 1, the earliest near-duplicate.
     */
    strongJaccard: z.number().min(0).max(1).optional(),
    /** Messages with fewer tokens than this are never near-duplicates (only exact duplicates). */
    minTokensForNear: z.number().int().min(1),
    /**
     * Sentence containment leaves out a sentence that the message's candidates of at least this
     * many different texts hold: page furniture, not content (engine/common-sentences.ts).
     * Absent or null: every shared sentence counts.
     */
    commonSentenceGroups: z.number().int().min(2).nullable().optional(),
    /**
     * A story-level match is judged again with the shared sentences that the message's
     * candidates of at least this many different texts hold taken out of its cosine and Jaccard
     * (engine/story-sentences.ts): two articles of one site that share only a kept paragraph of
     * page text are not one story. 1: every shared sentence. Absent or null: off.
     */
    storySharedSentenceGroups: z.number().int().min(1).nullable().optional(),
  })
  .strict();

export { DEFAULT_MAX_FUTURE_SKEW_MS, maxFutureSkew } from './skew.js';

export const windowSchema = z
  .object({
    /** How long a message stays in the index (ms). All its entries expire together. */
    windowMs: z.number().int().positive(),
    /** Width of one generation (ms): whole generations expire at once. */
    generationMs: z.number().int().positive(),
    /** Upper bound on indexed messages in memory, oldest generations dropped first (0 = none). */
    maxMessages: z.number().int().min(0),
    /**
     * How far past the clock a message's time may be (ms; default 1 hour, maxFutureSkew): a later
     * time is clamped to the clock plus this (counted, logged), so one message dated in the far
     * future cannot expire the window. The clock is the wall clock (Redis' TIME on Redis).
     */
    maxFutureSkewMs: z
      .number()
      .int()
      .min(0)
      .max(365 * 24 * 3_600_000)
      .optional(),
  })
  .strict()
  .refine((w) => w.generationMs <= w.windowMs, {
    message: 'window.generationMs must not exceed window.windowMs',
  });

/**
 * The Redis store (`--store redis://...`). The layout settings (shards, clusterShards) are fixed
 * for a namespace when it is first used; the store refuses to open it with others.
 */
export const redisSchema = z
  .object({
    /** First part of every key: `<prefix>:{<namespace>}:...`. */
    prefix: z
      .string()
      .regex(/^[A-Za-z0-9._:-]{1,64}$/)
      .default('doppel'),
    /** Namespace (feed or tenant) when the command line gives none; it is the hash tag. */
    namespace: z
      .string()
      .regex(/^[A-Za-z0-9._-]{1,64}$/)
      .default('default'),
    /**
     * Hashes that hold buckets and id fields. Size for at most ~200 fields each at the peak of
     * the window (messages in the window x index keys per message / 200), so they stay listpacks.
     */
    shards: z.number().int().min(1).max(16_777_216).default(16_384),
    /**
     * Redis Cluster (`--store redis+cluster://...`): hash tags one namespace's buckets spread
     * over; the number of masters (cheapest: every shard call carries the whole batch) or a
     * multiple of it (docs/redis.md, "Redis Cluster").
     */
    slotShards: z.number().int().min(1).max(1024).default(3),
    /**
     * Redis Cluster: the share of buckets of the shard beside the home shard (on the same master
     * when the slots are split evenly), relative to the others: the home does the rest of the work.
     */
    homeShardWeight: z.number().min(0).max(1).default(0.1),
    /**
     * Redis Cluster: how long a shard call waits for a lower sequence number before skipping it
     * (its client died between taking its numbers and calling the shards).
     */
    gapTimeoutMs: z.number().int().min(1).default(10_000),
    /** Hashes that hold clusters of two or more messages. */
    clusterShards: z.number().int().min(1).max(16_777_216).default(2_048),
    /** ACL user and password (also accepted in the URL: redis://user:pass@host:port/db). */
    username: z.string().optional(),
    password: z.string().optional(),
    /** TLS (also implied by a rediss:// URL). */
    tls: z.boolean().default(false),
    /** A command with no reply in this time fails with STORE_TIMEOUT (retryable). */
    commandTimeoutMs: z.number().int().min(1).default(5_000),
    /** Attempts per batch on a retryable store error, with exponential back-off, before giving up. */
    maxRetries: z.number().int().min(0).max(100).default(5),
    /**
     * How often (ms) a client checks the server's maxmemory-policy and evicted_keys again while
     * running (before an index call): an evicting policy switched on mid-run is refused, and keys
     * evicted under it mark the namespace lost (docs/redis.md, "Data loss").
     */
    evictionCheckMs: z.number().int().min(0).default(1_000),
    /** Candidate records kept by the client (they never change once written). */
    recordCacheSize: z.number().int().min(0).default(100_000),
    /**
     * Accept a namespace that lost its data (STORE_DATA_LOST) and start it anew; env
     * DOPPEL_RESET_NAMESPACE=1 does the same. Remove it once done: while set, a future loss is
     * accepted at the next start (docs/redis.md).
     */
    resetLostNamespace: z.boolean().default(false),
  })
  .strict();

export type RedisConfig = z.infer<typeof redisSchema>;

/** Which signature each index method needs. */
const METHOD_NEEDS: Record<IndexMethod, (s: DedupConfig['signatures']) => boolean> = {
  exact: () => true,
  simhash: (s) => s.simhash.enabled,
  imatch: (s) => s.imatch.enabled,
  mega: (s) => s.minhash.enabled,
  bands: (s) => s.minhash.enabled,
  lexical: (s) => s.lexical.enabled,
  topic: (s) => s.terms.enabled,
  sentences: (s) => s.sentences.enabled,
};

export const dedupConfigSchema = z
  .object({
    profile: z.enum(['news', 'mail']),
    /** tag: every message comes out with its verdict; drop: duplicates are separated (Kafka). */
    mode: z.enum(['tag', 'drop']),
    signatures: signatureConfigSchema,
    index: indexSchema,
    decision: decisionSchema,
    window: windowSchema,
    redis: redisSchema.prefault({}),
    /** Operations (src/config/ops.ts): none of them changes a verdict. */
    telemetry: telemetrySchema.prefault({}),
    logging: loggingSchema.prefault({}),
    api: apiSchema.prefault({}),
    /** Messages per batch (CLI, consumers): one store round trip per batch. */
    batchSize: z.number().int().min(1).max(10_000),
    /**
     * Sign threads of `doppel dedup` and `doppel serve` (pipeline/sign-pool.ts): 0 one per core,
     * 1 on the main thread. Verdicts do not depend on it.
     */
    threads: z.number().int().min(0).max(256).default(0),
  })
  .strict()
  .superRefine((c, ctx) => {
    for (const method of c.index.methods) {
      if (!METHOD_NEEDS[method](c.signatures)) {
        ctx.addIssue({
          code: 'custom',
          path: ['index', 'methods'],
          message: `index method "${method}" needs its signature enabled (signatures.${method === 'bands' || method === 'mega' ? 'minhash' : method === 'topic' ? 'terms' : method}.enabled)`,
        });
      }
    }
  });

export type DedupConfig = z.infer<typeof dedupConfigSchema>;
export type Thresholds = z.infer<typeof thresholdsSchema>;
export type DecisionConfig = z.infer<typeof decisionSchema>;
export type IndexConfig = z.infer<typeof indexSchema>;
export type WindowConfig = z.infer<typeof windowSchema>;
export type ProfileName = DedupConfig['profile'];
