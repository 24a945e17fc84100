import type { Fingerprint64 } from '../signatures/simhash.js';
import type { TermVector } from '../signatures/terms.js';
import type { IndexKey } from './index-keys.js';

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
}

/** A verdict as decided and stored (the first verdict of a message id; replays return it). */
export interface StoredVerdict {
  id: string;
  seq: number;
  ts: number;
  verdict: Exclude<VerdictKind, 'invalid'>;
  /** Cluster at decision time (clusters may merge later; `resolveCluster` gives the current id). */
  clusterId: string;
  duplicateOf?: string;
  similarity?: number;
  method?: string;
}

export interface IndexRequest {
  id: string;
  /** Event time, epoch ms. */
  ts: number;
  keys: IndexKey[];
  record: SignatureRecord;
}

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
  /** Indexed and decided before: the first verdict. */
  | { status: 'decided'; verdict: StoredVerdict };

/**
 * A read-only look-up (`DedupStore.query`): what `index` would return, with nothing inserted,
 * no sequence number taken and the store clock not moved. Candidates are every live member of
 * the message's buckets (it has no sequence number to be later than).
 */
export type QueryResult =
  | { status: 'unseen'; candidates: Candidate[]; hotBuckets: number }
  | { status: 'decided'; verdict: StoredVerdict };

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
}

export interface ClusterView {
  id: string;
  size: number;
  firstSeen: number;
  lastSeen: number;
  representative: string;
}

/** One page of a cluster's member ids, in the order they joined. */
export interface ClusterMembersPage {
  items: string[];
  /** Cursor of the next page, null on the last one. */
  next: number | null;
  total: number;
}

export interface StoreStats {
  messages: number;
  clusters: number;
  buckets: number;
  hotBucketEvents: number;
  expiredGenerations: number;
  roundTrips: number;
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
  verdict(id: string): Promise<StoredVerdict | null>;
  cluster(id: string): Promise<ClusterView | null>;
  /**
   * Member ids of a (current) cluster, `limit` from `cursor`. Optional: the memory store keeps
   * member lists; the Redis store does not (yet), and the HTTP API then answers `members: null`.
   */
  clusterMembers?(clusterId: string, cursor: number, limit: number): Promise<ClusterMembersPage | null>;
  /** The current id of a cluster (after merges). */
  resolveCluster(id: string): Promise<string>;
  stats(): Promise<StoreStats>;
  close(): Promise<void>;
}
