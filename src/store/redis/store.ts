import { randomBytes } from 'node:crypto';
import { Redis, type RedisOptions } from 'ioredis';
import type { IndexConfig, RedisConfig, WindowConfig } from '../../config/dedup.js';
import { keyArray } from '../../engine/index-keys.js';
import type {
  Candidate,
  CommitResult,
  Decision,
  DedupStore,
  IndexRequest,
  IndexResult,
  QueryResult,
  StoreStats,
} from '../../engine/types.js';
import { DoppelError } from '../../errors.js';
import { initHashing } from '../../hash/xxhash.js';
import { redactUrl } from '../../redact.js';
import { HitCounter } from '../rank.js';
import { BatchBuckets } from './batch-buckets.js';
import {
  BUCKET_STATS_FIELDS,
  type CommitReply,
  parseCommitReply,
  parseDecided,
  parseStats,
  REPLY_DECIDED,
  REPLY_NEW,
  replyStatus,
  STATS_FIELDS,
  writeDecisions,
  writeIndexHead,
  writeIndexMessage,
} from './codec.js';
import {
  CommandRunner,
  closeClient,
  connectStore,
  databaseOf,
  EvictionWatch,
  reconnectDelay,
  selectDatabase,
} from './connection.js';
import {
  bucketAddresses,
  ID_FIELD_BYTES,
  idAddress,
  KEY_PARTS,
  metaKey,
  namespaceBase,
  RecentBuckets,
} from './keys.js';
import { KnownSeqs } from './known-seqs.js';
import { type LookupArg, type LookupScript, RedisLookups } from './lookups.js';
import { addMembers } from './members.js';
import { MergedCalls } from './merged-calls.js';
import { checkNamespaceName, globEscape, layoutMismatch, namespaceLost, scanKeys } from './namespace.js';
import { RecordCache } from './records.js';
import { RespWriter, sendEncoded } from './resp.js';
import { defineScripts, type ScriptCommands, type ScriptSource, scriptSource } from './scripts.js';

export interface RedisStoreOptions {
  /** redis://[user:pass@]host:port[/db] or rediss:// for TLS. */
  url: string;
  namespace: string;
  window: WindowConfig;
  limits: Pick<IndexConfig, 'maxBucketSize' | 'maxCandidates'>;
  redis: RedisConfig;
  /**
   * Accept a namespace marked lost (STORE_DATA_LOST): delete what is left of it and start it
   * anew. An operator's decision (DOPPEL_RESET_NAMESPACE=1 or redis.resetLostNamespace); a
   * namespace that is whole is never touched.
   */
  resetLost?: boolean;
}

/** Layout settings a namespace is created with; opening it with others would scramble it. */
const LAYOUT_VERSION = 7;

/**
 * Most messages in one index or commit call made of calls made back to back: Redis runs nothing
 * else while a script runs (index-1.lua ~0.1 ms a message on real text), so this bounds what a
 * merge adds to the wait of other clients' calls (~0.2 s). On bench:peers' stream through the
 * Kafka consumer (4 partition batches of up to 375 messages at once) 2,048 against 1,024 made
 * 25.1 Redis commands per message against 28.7 (docs/benchmarks.md, "Fifth round").
 */
const MAX_MERGED_MESSAGES = 2_048;

/**
 * The Redis store: the engine's store port on Redis, one Lua script call per batch for `index`
 * and one for `commit`, plus one for the candidate records the client has not cached. Layout,
 * protocol and failure handling: docs/redis.md.
 */
export class RedisStore extends RedisLookups implements DedupStore {
  readonly kind = 'redis';
  private readonly base: string;
  private readonly meta: string;
  private readonly cache: RecordCache;
  private readonly hits = new HitCounter();
  /** index and commit run every batch: their calls are encoded here (resp.ts), not by ioredis. */
  private readonly writer = new RespWriter();
  private readonly indexScript = scriptSource('index');
  private readonly commitScript = scriptSource('commit');
  /** A message's bucket references are written here, then copied into the command. */
  private addresses = Buffer.allocUnsafe(4096);
  /** Sequence numbers of the index calls' messages and candidates, until their commits. */
  private readonly knownSeqs = new KnownSeqs();
  /**
   * Index calls made back to back, sent as one (merged-calls.ts). Not with window.maxMessages:
   * index-1.lua applies that cap at the end of a call, so a merged call would keep messages as
   * candidates that a call between would have dropped.
   */
  private readonly indexCalls: MergedCalls<IndexRequest, IndexResult>;
  /** Commit calls made back to back, sent as one (merged-calls.ts). */
  private readonly commitCalls: MergedCalls<Decision, CommitResult>;
  /** The distinct buckets of the index call being written (batch-buckets.ts). */
  private readonly batchBuckets: BatchBuckets;
  private readonly idField = Buffer.allocUnsafe(ID_FIELD_BYTES);
  /** Buckets this client wrote, for the index call's hint (keys.ts PROBABLY_THERE). */
  private readonly recent = new RecentBuckets();
  /** The namespace's epoch (lua/open-1.lua), the last argument of every script call. */
  private epoch = '';
  private readonly evictions: EvictionWatch;

  private constructor(
    private readonly client: Redis,
    private readonly scripts: ScriptCommands,
    private readonly options: RedisStoreOptions,
    private readonly runner: CommandRunner,
  ) {
    super(options.redis.shards, options.redis.clusterShards);
    this.base = namespaceBase(options.redis.prefix, options.namespace);
    this.meta = metaKey(this.base);
    this.batchBuckets = new BatchBuckets(Buffer.from(this.base + KEY_PARTS.shard));
    this.cache = new RecordCache(options.redis.recordCacheSize);
    this.evictions = new EvictionWatch(options.redis.evictionCheckMs, 'Redis');
    this.indexCalls = new MergedCalls(
      (requests) => this.indexNow(requests),
      options.window.maxMessages > 0 ? 0 : MAX_MERGED_MESSAGES,
      // A repeated id is pending after its first call: index-1.lua checks the record that call
      // wrote, which one merged call has not written yet.
      (request) => request.id,
    );
    this.commitCalls = new MergedCalls((decisions) => this.commitNow(decisions), MAX_MERGED_MESSAGES);
  }

  static async open(options: RedisStoreOptions): Promise<RedisStore> {
    await initHashing();
    checkNamespaceName(() => namespaceBase(options.redis.prefix, options.namespace));
    const r = options.redis;
    const redisOptions: RedisOptions = {
      lazyConnect: true,
      // Fail fast while disconnected (a typed, retryable error) instead of queueing without bound.
      enableOfflineQueue: false,
      maxRetriesPerRequest: 1,
      commandTimeout: r.commandTimeoutMs,
      connectTimeout: r.commandTimeoutMs,
      retryStrategy: reconnectDelay,
    };
    if (r.username !== undefined) redisOptions.username = r.username;
    if (r.password !== undefined) redisOptions.password = r.password;
    if (r.tls || options.url.startsWith('rediss://')) redisOptions.tls = {};
    // Checked here: ioredis's own failure (a TypeError) carries the whole URL, password included.
    if (!URL.canParse(options.url))
      throw new DoppelError('USAGE', `the store URL is not a valid URL: ${redactUrl(options.url)}`);
    const db = databaseOf(options.url);
    const client = new Redis(options.url, redisOptions);
    const runner = new CommandRunner(r.maxRetries);
    return connectStore(
      client,
      options.url,
      runner,
      () => new RedisStore(client, defineScripts(client), options, runner),
      async (store) => {
        await selectDatabase(client, db, store.run);
        await store.checkEvictions();
        await store.openNamespace();
      },
    );
  }

  /**
   * The eviction policy and evicted_keys (EvictionWatch), when due: a loss found is marked in
   * meta, as the scripts mark it, so every client of the namespace stops.
   */
  private async checkEvictions(): Promise<void> {
    if (!this.evictions.due()) return;
    const memory = await this.run('eviction policy check', () => this.client.info('memory'));
    const stats = await this.run('eviction policy check', () => this.client.info('stats'));
    const loss = this.evictions.observe(memory, stats);
    if (loss === null) return;
    const reason = `${Math.floor(Date.now() / 1000)}: ${loss}`;
    await this.run('mark lost', () => this.client.hset(this.meta, 'lost', reason));
    throw namespaceLost(this.options.namespace, reason);
  }

  /** Claims or checks the namespace (lua/open-1.lua): its layout, and the epoch every call checks. */
  private async openNamespace(): Promise<void> {
    const r = this.options.redis;
    const { namespace } = this.options;
    const layout = `${LAYOUT_VERSION}:${r.shards}:${r.clusterShards}:${this.options.window.generationMs}`;
    const fresh = randomBytes(8).toString('hex');
    const open = (reset: boolean) =>
      this.run('open', () =>
        this.scripts.doppelOpen(this.meta, layout, fresh, reset ? '1' : '0', r.shards, this.base),
      ) as Promise<[string, string]>;
    let [status, value] = await open(false);
    if (status === 'lost' && this.options.resetLost) {
      await this.deleteNamespaceKeys();
      [status, value] = await open(true);
    }
    if (status === 'lost') throw namespaceLost(namespace, value);
    if (status === 'layout') {
      throw layoutMismatch(
        namespace,
        value,
        layout,
        'version:shards:clusterShards:generationMs',
        'use the same redis.shards, redis.clusterShards and window.generationMs, or another namespace',
      );
    }
    this.epoch = value;
  }

  /** Every key of the namespace but meta (open-1.lua resets meta itself, atomically). */
  private async deleteNamespaceKeys(): Promise<void> {
    await scanKeys(this.client, `${globEscape(this.base)}*`, this.run, async (keys) => {
      const doomed = keys.filter((k) => k !== this.meta);
      if (doomed.length > 0) await this.run('reset namespace', () => this.client.unlink(...doomed));
    });
  }

  /** Every call but index's and commit's own: calls waiting to be merged go first, in the order made. */
  private readonly run = <T>(what: string, command: () => Promise<T>): Promise<T> => {
    this.indexCalls.flush();
    this.commitCalls.flush();
    return this.runner.run(what, command);
  };

  /** The writer, reset to an EVALSHA of `script` with its one key to come. */
  private start(script: ScriptSource): RespWriter {
    return this.writer.reset().string('evalsha').string(script.sha).int(1);
  }

  /**
   * Index calls made back to back (no other call of this client between them: the Kafka
   * consumer's partitions within one turn of the event loop) go to Redis as one index-1.lua call,
   * which gives each the results that back-to-back calls would (merged-calls.ts).
   */
  index(requests: readonly IndexRequest[]): Promise<IndexResult[]> {
    if (requests.length === 0) return Promise.resolve([]);
    this.commitCalls.flush();
    return this.indexCalls.call(requests);
  }

  private async indexNow(requests: readonly IndexRequest[]): Promise<IndexResult[]> {
    // Awaited only when due, so that a merged call is written before any call made after it.
    if (this.evictions.due()) await this.checkEvictions();
    const { window, limits, redis } = this.options;
    const w = this.start(this.indexScript).string(this.meta).string(this.base);
    writeIndexHead(w, window, limits, redis, requests.length);
    const buckets = this.batchBuckets;
    buckets.reset();
    for (const request of requests) {
      writeIndexMessage(w, request, redis.shards, this.idField);
      // Packed keys (from sign workers) as key objects: this store reads them one by one.
      const keys = keyArray(request.keys);
      if (this.addresses.length < BatchBuckets.refsMaxBytes(keys.length))
        this.addresses = Buffer.allocUnsafe(2 * BatchBuckets.refsMaxBytes(keys.length));
      w.int(keys.length).bytes(
        this.addresses,
        0,
        buckets.writeRefs(keys, redis.shards, this.addresses, 0, this.recent),
      );
    }
    const encoded = w.bytes(buckets.entries()).string(this.epoch).finish();
    const replies = (await this.runner.run('index', () =>
      sendEncoded(this.client, encoded, this.indexScript.lua, null),
    )) as Array<Array<Buffer | number>>;
    replies.forEach((reply, r) => {
      const request = requests[r] as IndexRequest;
      if (replyStatus(reply) === REPLY_NEW)
        this.cache.remember(Number(reply[1]), { id: request.id, ts: request.ts, record: request.record });
    });
    const candidates = await this.candidatesOf(replies);
    const seqOfId = new Map<string, number>();
    for (const list of candidates) for (const c of list) seqOfId.set(c.id, c.seq);
    let undecided = 0;
    const results = replies.map((reply, r): IndexResult => {
      const request = requests[r] as IndexRequest;
      const status = replyStatus(reply);
      if (status === REPLY_DECIDED)
        return { status: 'decided', ...parseDecided(request.id, String(reply[1])) };
      seqOfId.set(request.id, Number(reply[1]));
      undecided++;
      return {
        status: status === REPLY_NEW ? 'new' : 'pending',
        seq: Number(reply[1]),
        candidates: candidates[r] ?? [],
        hotBuckets: Number(reply[3]),
      };
    });
    this.knownSeqs.add(seqOfId, undecided);
    return results;
  }

  /**
   * Candidates of each reply of index-1.lua or query-1.lua ({status, seq bound, live, hot,
   * bucket values...}; none for "d"): the earlier members of its buckets, counted and ranked as
   * the memory store does, with their records (one more call for those not cached).
   */
  private async candidatesOf(replies: ReadonlyArray<ReadonlyArray<Buffer | number>>): Promise<Candidate[][]> {
    const ranked = replies.map((reply) => {
      if (replyStatus(reply) === REPLY_DECIDED) return [];
      const bound = Number(reply[1]) || Number.POSITIVE_INFINITY;
      const live = Number(reply[2]);
      this.hits.reset();
      for (let x = 4; x < reply.length; x++) addMembers(this.hits, reply[x] as Buffer, live, bound);
      return this.hits.rank(this.options.limits.maxCandidates);
    });
    return this.cache.candidates(
      ranked,
      (seqs) =>
        this.run('records', () =>
          this.scripts.doppelRecordsBuffer(this.meta, this.base, ...seqs, this.epoch),
        ) as Promise<Array<Buffer | null>>,
    );
  }

  /** The read-only half of index (lua/query-1.lua): nothing is written. */
  async query(requests: readonly IndexRequest[]): Promise<QueryResult[]> {
    if (requests.length === 0) return [];
    const { limits, redis } = this.options;
    const args: Array<string | Buffer | number> = [
      this.meta,
      this.base,
      requests.length,
      limits.maxBucketSize,
    ];
    for (const request of requests) {
      const id = idAddress(request.id, redis.shards);
      const keys = keyArray(request.keys);
      args.push(id.shard, id.field, keys.length, bucketAddresses(keys, redis.shards));
    }
    args.push(this.epoch);
    const replies = (await this.run('query', () => this.scripts.doppelQueryBuffer(...args))) as Array<
      Array<Buffer | number>
    >;
    const candidates = await this.candidatesOf(replies);
    return replies.map((reply, r): QueryResult => {
      if (replyStatus(reply) === REPLY_DECIDED)
        return {
          status: 'decided',
          ...parseDecided((requests[r] as IndexRequest).id, String(reply[1])),
        };
      return { status: 'unseen', candidates: candidates[r] ?? [], hotBuckets: Number(reply[3]) };
    });
  }

  /**
   * Commit calls made back to back (the Kafka consumer's partitions: their batches decided in one
   * turn of the event loop) go to Redis as one commit-1.lua call, which gives each the results
   * back-to-back calls would: the script judges a decision by the verdicts of the call's earlier
   * ones as by stored ones, and writes a story grown by several of the batches once.
   */
  commit(decisions: readonly Decision[]): Promise<CommitResult[]> {
    if (decisions.length === 0) return Promise.resolve([]);
    this.indexCalls.flush();
    return this.commitCalls.call(decisions);
  }

  private async commitNow(decisions: readonly Decision[]): Promise<CommitResult[]> {
    const { redis } = this.options;
    const w = this.start(this.commitScript).string(this.meta).string(this.base).int(redis.clusterShards);
    writeDecisions(w, decisions, redis.shards, this.idField, (d) => this.knownSeqs.take(d));
    const encoded = w.string(this.epoch).finish();
    const replies = (await this.runner.run('commit', () =>
      sendEncoded(this.client, encoded, this.commitScript.lua, 'utf8'),
    )) as CommitReply[];
    this.cache.committed();
    return replies.map((reply, i) => parseCommitReply(reply, decisions[i] as Decision));
  }

  protected lookup(what: string, script: LookupScript, args: LookupArg[]): Promise<unknown> {
    const command = LOOKUP_COMMANDS[script];
    return this.run(what, () => this.scripts[command](this.meta, this.base, ...args, this.epoch));
  }

  async stats(): Promise<StoreStats> {
    const fields = await this.run('stats', () =>
      this.client.hmget(this.meta, ...STATS_FIELDS, ...BUCKET_STATS_FIELDS),
    );
    const home = fields.slice(0, STATS_FIELDS.length);
    return parseStats(home, [fields.slice(STATS_FIELDS.length)], this.runner.roundTrips);
  }

  async close(): Promise<void> {
    await closeClient(this.client, this.options.redis.commandTimeoutMs);
  }
}

const LOOKUP_COMMANDS = { read: 'doppelRead', members: 'doppelMembers', clusters: 'doppelClusters' } as const;
