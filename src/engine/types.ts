import type { Fingerprint64 } from '../signatures/simhash.js';
import type { TermVector } from '../signatures/terms.js';
import type { IndexKeys } from './index-keys.js';

/**
 * What the index keeps of a message to verify it as a candidate later: its signatures, not its
 * text. Compact on purpose (the Redis store pays for every byte per message).
 */
export interface SignatureRecord {
  lang: string;
  tokens: number;
  exact: string;
  /** SimHash-64. */
  simhash: Fingerprint64 | null;
  /** The lowest 8 bits of each min-hash (84 by default; b-bit minwise hashing, engine/record.ts). */
  minhash: Uint8Array | null;
  /** I-Match signatures as `<lexicon index>:<16 hex>` (the first 64 bits). */
  imatch: string[];
  lexical: string | null;
  longest: string | null;
  heaviest: string | null;
  /** Top tf*idf terms (unit vector; 24-bit hashes, 8-bit weights) for story-level cosine. */
  terms: TermVector | null;
  /**
   * Calendar dates the message names (signatures/facts.ts codes, sorted, at most 8): the story
   * rule refuses a link between two messages that both name dates and share none. Absent when
   * it names none, and in records written before the field existed.
   */
  dates?: number[];
  /**
   * Distinct shingles under the min-hashes (at most 65535): with both sides' counts the Jaccard
   * estimate gives containment (engine/verify.ts). Absent in records written before the field.
   */
  shingles?: number;
  /**
   * Sentence fingerprints (signatures/sentences.ts: 24-bit hash, 8-bit token count), ascending:
   * containment between a teaser or partial copy and the full text. Absent when the message has
   * no sentence long enough, and in records written before the field.
   */
  sentences?: Uint32Array;
  /** The highest value the fingerprints' sample kept (a text with many sentences); absent: all kept. */
  sentenceCut?: number;
  /**
   * The fields above in the form verification reads (engine/record.ts `packRecord`): derived,
   * never stored or encoded. Set by compactRecord and decodeRecord; made on first comparison
   * for a record built otherwise; null when a field is not in its canonical form.
   */
  packed?: Int32Array | null;
}

export type VerdictKind = 'unique' | 'duplicate' | 'near_duplicate' | 'invalid';

/** Why two messages matched: every comparison that was made. */
export interface Evidence {
  exact: boolean;
  /** SimHash Hamming distance, null when either side has no SimHash. */
  hamming: number | null;
  /** MinHash Jaccard estimate, null when either side has no min-hashes. */
  jaccard: number | null;
  /** An I-Match signature (same lexicon) is equal. */
  imatch: boolean;
  /** Number of equal seed-002 signatures (lexical, longest, heaviest). */
  lexical: number;
  /** Cosine of the top tf*idf term vectors, null when either side has none. */
  cosine: number | null;
  /**
   * Share of the smaller side's shingles found in the larger one, from the Jaccard estimate and
   * both distinct shingle counts; absent when either record has no count (written before it).
   */
  containment?: number;
  /**
   * Sentence containment: the share of the smaller side's fingerprinted sentence tokens that lie
   * in sentences both sides have (the smaller side: fewer such tokens); absent when either record
   * has no sentence fingerprints.
   */
  contained?: number;
  /** ...how many sentences both sides have... */
  containedSentences?: number;
  /** ...and the tokens of those shared sentences (a match needs enough of them: boilerplate is short). */
  containedTokens?: number;
}

/**
 * What a store keeps of a message for people to read besides its verdict (engine/detail.ts
 * encodes it): its language, source URL, the opening of its text (the snippet), the evidence of
 * its decision and, for a message joined to a story by the story rule, the member it was linked
 * through.
 */
export interface MessageDetail {
  lang?: string;
  /** The input's `url` when it is an absolute http(s) URL. */
  url?: string;
  /** The first MAX_SNIPPET_LENGTH characters of the decoded text, whitespace made single spaces. */
  snippet?: string;
  /** Evidence against duplicateOf, or against `via` for a story join. */
  evidence?: Evidence;
  /** The story member a story-rule join was linked through (the verdict has no duplicateOf then). */
  via?: string;
}

/** A verdict as decided and stored (the first verdict of a message id; replays return it). */
export interface StoredVerdict extends MessageDetail {
  id: string;
  seq: number;
  ts: number;
  verdict: Exclude<VerdictKind, 'invalid'>;
  /** Cluster at decision time (clusters may merge later; `resolveCluster` gives the current id). */
  clusterId: string;
  duplicateOf?: string;
  similarity?: number;
  method?: string;
  /** The message's display title, from the read calls (verdict, clusterMembers) only. */
  title?: string;
}

export interface IndexRequest {
  id: string;
  /** Event time, epoch ms. */
  ts: number;
  /**
   * The time was past the clock plus window.maxFutureSkewMs and `ts` is that bound (the engine
   * sets it): stored as it is, but it moves no store clock, so it expires nothing.
   */
  clampedTs?: true;
  /** A mail's text parts not read (too many MIME parts): its verdict says MAIL_TRUNCATED. */
  truncatedParts?: number;
  keys: IndexKeys;
  record: SignatureRecord;
  /** The message's title or subject, at most MAX_TITLE_LENGTH characters (displayed; the story rule also compares headline words, decision.storyTitleMinJaccard). */
  title?: string;
  /** Displayed only (engine/detail.ts displayUrl). */
  url?: string;
  /** Displayed only (engine/detail.ts displaySnippet). */
  snippet?: string;
}

/** Titles are cut to this many characters before they reach a store (the Redis store pays per byte). */
export const MAX_TITLE_LENGTH = 160;

export interface Candidate {
  id: string;
  seq: number;
  ts: number;
  record: SignatureRecord;
  /** How many of the message's buckets the candidate shares. */
  hits: number;
}

export type IndexResult =
  /** First time this id is indexed: it was inserted with sequence number `seq`. */
  | { status: 'new'; seq: number; candidates: Candidate[]; hotBuckets: number }
  /** Indexed before but no verdict was committed (a crash between the two phases): not inserted again. */
  | { status: 'pending'; seq: number; candidates: Candidate[]; hotBuckets: number }
  /**
   * Indexed and decided before: the first verdict, and the exact hash of the record stored then
   * (absent when the store no longer has it), to tell a replay from an id reused with other content.
   */
  | { status: 'decided'; verdict: StoredVerdict; exact?: string };

/**
 * A read-only look-up (`DedupStore.query`): what `index` would return, with nothing inserted,
 * no sequence number taken and the store clock not moved. Candidates are every live member of
 * the message's buckets (it has no sequence number to be later than).
 */
export type QueryResult =
  | { status: 'unseen'; candidates: Candidate[]; hotBuckets: number }
  | { status: 'decided'; verdict: StoredVerdict; exact?: string };

export interface Decision {
  id: string;
  seq: number;
  ts: number;
  verdict: Exclude<VerdictKind, 'invalid'>;
  duplicateOf?: string;
  similarity?: number;
  method?: string;
  /** Ids of earlier messages whose clusters this message joins (empty: it starts a cluster). */
  joins: string[];
  /** The message's title (IndexRequest.title): a cluster's title is its first message's. */
  title?: string;
  /** The message's detail as engine/detail.ts encodes it ('' or absent: none), kept with the verdict. */
  detail?: string;
}

export type StoryEventType = 'created' | 'grown' | 'merged';

export interface StoryEvent {
  type: StoryEventType;
  clusterId: string;
  /** The message that caused the event. */
  messageId: string;
  size: number;
  firstSeen: number;
  lastSeen: number;
  representative: string;
  /** For `merged`: the cluster ids absorbed into clusterId. */
  mergedFrom?: string[];
}

export interface CommitResult {
  id: string;
  clusterId: string;
  events: StoryEvent[];
  /**
   * The id had a verdict already (another process decided it between this one's index and
   * commit): nothing was written, and the stored verdict, not this decision, is the id's.
   */
  decidedBefore?: true;
}

export interface ClusterView {
  id: string;
  size: number;
  firstSeen: number;
  lastSeen: number;
  representative: string;
  /** The representative's (first message's) title; null when it had none. */
  title: string | null;
}

/** A decided member of a cluster: its stored verdict, title and detail. */
export type ClusterMember = StoredVerdict;

/**
 * One page of a cluster's members still in the window, in sequence (arrival) order: members that
 * left the window are dropped, like everything else of theirs. `total` counts those in the
 * window; the cluster's `size` counts every message that ever joined.
 */
export interface ClusterMembersPage {
  /** The members with their verdicts, details and titles (`clusterId` is the cluster at decision). */
  members: ClusterMember[];
  /**
   * Where the next page starts: the sequence number of this page's last member (the next page
   * has the members after it), null on the last page. A position by key, not by count, so
   * members arriving or leaving the window between pages neither repeat nor skip one.
   */
  next: number | null;
  total: number;
}

export type ClusterOrder = 'size' | 'recent';

/**
 * A story's place in a listing order: its size (order `size`) or last seen time (`recent`), and
 * its root's sequence number, which breaks ties (newest root first).
 */
export interface ClusterKey {
  score: number;
  root: number;
}

/**
 * A page of current clusters of two or more messages (stories), largest first (`size`; ties:
 * newest root first) or last seen first (`recent`; ties: newest root first), after the story at
 * `after` in that order (null: from the start). `since` keeps those last seen at or after it
 * (epoch ms). Singletons are not listed: most messages are unique.
 */
export interface ClusterListQuery {
  order: ClusterOrder;
  since: number;
  after: ClusterKey | null;
  limit: number;
}

export interface ClusterListPage {
  items: ClusterView[];
  /** The key of each item, in the query's order (a listing may resume after any of them). */
  keys: ClusterKey[];
  /**
   * The key to ask for the next page `after`, null when the order is exhausted. By key, not
   * by count: stories created between pages do not shift the later pages.
   */
  next: ClusterKey | null;
}

export interface VerdictReadOptions {
  /** With the message's title and detail (MessageDetail): for people, not for the engine. */
  detail?: boolean;
}

export interface StoreStats {
  messages: number;
  clusters: number;
  buckets: number;
  /** Messages that met a full bucket (each took the place of its oldest recent member: store/hot.ts). */
  hotBucketEvents: number;
  /** Buckets that became full (hot): campaigns, syndicated stories, boilerplate. */
  hotBuckets: number;
  expiredGenerations: number;
  roundTrips: number;
}

/** A cluster read by id, then by `fallback` when the id finds none (DedupStore.clustersOf). */
export interface ClusterLookup {
  id: string;
  fallback?: string;
}

/**
 * The narrow port between the engine and its index. Two calls per batch:
 *  1. index: for each request in order, atomically: if the id is known return its state, else
 *     take the next sequence number, collect candidates (members of its buckets with a lower
 *     sequence number, expired ones skipped) and insert it. "First" is the sequence order.
 *  2. commit: store each decision and update clusters (union into the oldest), in order.
 * Implementations: MemoryStore (embedded default), RedisStore. One conformance suite tests both.
 */
export interface DedupStore {
  readonly kind: string;
  index(requests: readonly IndexRequest[]): Promise<IndexResult[]>;
  /** Candidates without indexing (the HTTP API's /v1/check); see QueryResult. */
  query(requests: readonly IndexRequest[]): Promise<QueryResult[]>;
  commit(decisions: readonly Decision[]): Promise<CommitResult[]>;
  verdict(id: string, options?: VerdictReadOptions): Promise<StoredVerdict | null>;
  cluster(id: string): Promise<ClusterView | null>;
  /**
   * `verdict` of many ids in one call, the same answers in the same order: the engine's story
   * reads of a batch (on Redis one script call instead of one a candidate).
   */
  verdictsOf(ids: readonly string[]): Promise<Array<StoredVerdict | null>>;
  /** Of each lookup, `cluster(id) ?? cluster(fallback)`, in one call (as verdictsOf). */
  clustersOf(lookups: readonly ClusterLookup[]): Promise<Array<ClusterView | null>>;
  /**
   * Members of a (current) cluster still in the window, `limit` of them after sequence number
   * `after` (0: from the first); null for no cluster.
   */
  clusterMembers(clusterId: string, after: number, limit: number): Promise<ClusterMembersPage | null>;
  /** Current stories (clusters of two or more), see ClusterListQuery. */
  listClusters(query: ClusterListQuery): Promise<ClusterListPage>;
  /** The current id of a cluster (after merges). */
  resolveCluster(id: string): Promise<string>;
  stats(): Promise<StoreStats>;
  close(): Promise<void>;
}
