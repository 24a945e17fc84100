import { randomBytes } from 'node:crypto';
import { Redis, type RedisOptions } from 'ioredis';
import type { IndexConfig, RedisConfig, WindowConfig } from '../../config/dedup.js';
import type {
  Candidate,
  ClusterListPage,
  ClusterListQuery,
  ClusterMember,
  ClusterMembersPage,
  ClusterView,
  CommitResult,
  Decision,
  DedupStore,
  IndexRequest,
  IndexResult,
  QueryResult,
  StoredVerdict,
  StoreStats,
} from '../../engine/types.js';
import { DoppelError } from '../../errors.js';
import { initHashing } from '../../hash/xxhash.js';
import { redactUrl } from '../../redact.js';
import { hotTail } from '../hot.js';
import { HitCounter } from '../rank.js';
import {
  parseCluster,
  parseCommitReply,
  parseRecordBlob,
  parseVerdict,
  type StoredRecord,
  writeRecordBlob,
} from './codec.js';
import { storeError } from './errors.js';
import {
  bucketAddresses,
  bucketAddressesMaxBytes,
  ID_FIELD_BYTES,
  idAddress,
  metaKey,
  namespaceBase,
  writeBucketAddresses,
  writeIdField,
} from './keys.js';
import { addMembers } from './members.js';
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
 * The Redis store: the engine's store port on Redis, one Lua script call per batch for `index`
 * and one for `commit`, plus one for the candidate records the client has not cached. Layout,
 * protocol and failure handling: docs/redis.md.
 */
export class RedisStore implements DedupStore {
  readonly kind = 'redis';
  private readonly base: string;
  private readonly meta: string;
  private readonly cache = new Map<number, StoredRecord>();
  private readonly hits = new HitCounter();
  private roundTrips = 0;
  /** index and commit run every batch: their calls are encoded here (resp.ts), not by ioredis. */
  private readonly writer = new RespWriter();
  private readonly indexScript = scriptSource('index');
  private readonly commitScript = scriptSource('commit');
  /** A message's bucket addresses are written here, then copied into the command. */
  private addresses = Buffer.allocUnsafe(4096);
  private readonly idField = Buffer.allocUnsafe(ID_FIELD_BYTES);
  /** The namespace's epoch (lua/open-1.lua), the last argument of every script call. */
  private epoch = '';

  private constructor(
    private readonly client: Redis,
    private readonly scripts: ScriptCommands,
    private readonly options: RedisStoreOptions,
    /** The client's last connection error (cleared when it is ready again). */
    private readonly connection: { lastError: unknown },
  ) {
    this.base = namespaceBase(options.redis.prefix, options.namespace);
    this.meta = metaKey(this.base);
  }

  static async open(options: RedisStoreOptions): Promise<RedisStore> {
    await initHashing();
    try {
      namespaceBase(options.redis.prefix, options.namespace);
    } catch (e) {
      throw new DoppelError('INVALID_CONFIG', (e as Error).message);
    }
    const r = options.redis;
    const redisOptions: RedisOptions = {
      lazyConnect: true,
      // Fail fast while disconnected (a typed, retryable error) instead of queueing without bound.
      enableOfflineQueue: false,
      maxRetriesPerRequest: 1,
      commandTimeout: r.commandTimeoutMs,
      connectTimeout: r.commandTimeoutMs,
      retryStrategy: (times) => Math.min(100 * 2 ** Math.min(times, 5), 2_000),
    };
    if (r.username !== undefined) redisOptions.username = r.username;
    if (r.password !== undefined) redisOptions.password = r.password;
    if (r.tls || options.url.startsWith('rediss://')) redisOptions.tls = {};
    // Checked here: ioredis's own failure (a TypeError) carries the whole URL, password included.
    if (!URL.canParse(options.url))
      throw new DoppelError('USAGE', `the store URL is not a valid URL: ${redactUrl(options.url)}`);
    const client = new Redis(options.url, redisOptions);
    // Errors reach callers as rejected commands ("Connection is closed."); the event says why,
    // e.g. WRONGPASS, so the last one is kept for the error the caller sees.
    const connection: { lastError: unknown } = { lastError: undefined };
    client.on('error', (e: unknown) => {
      connection.lastError = e;
    });
    client.on('ready', () => {
      connection.lastError = undefined;
    });
    try {
      await client.connect();
    } catch (e) {
      client.disconnect();
      throw storeError(e, `connect to ${redactUrl(options.url)}`, connection.lastError);
    }
    const store = new RedisStore(client, defineScripts(client), options, connection);
    try {
      await store.checkEvictionPolicy();
      await store.openNamespace();
    } catch (e) {
      client.disconnect();
      throw e;
    }
    return store;
  }

  /**
   * An allkeys-* policy evicts index keys when memory is full: later duplicates would silently
   * come out unique. doppel sets no TTLs, so volatile-* policies never evict its keys.
   */
  private async checkEvictionPolicy(): Promise<void> {
    const info = await this.run('eviction policy check', () => this.client.info('memory'));
    const policy = /^maxmemory_policy:(\S+)/m.exec(info)?.[1];
    if (policy?.startsWith('allkeys-')) {
      throw new DoppelError(
        'STORE_ERROR',
        `Redis runs with maxmemory-policy ${policy}: it would evict index keys and duplicates would silently pass as unique; set maxmemory-policy noeviction (docs/redis.md)`,
      );
    }
  }

  /** Claims or checks the namespace (lua/open-1.lua): its layout, and the epoch every call checks. */
  private async openNamespace(): Promise<void> {
    const r = this.options.redis;
    const { namespace } = this.options;
    const layout = `${LAYOUT_VERSION}:${r.shards}:${r.clusterShards}:${this.options.window.generationMs}`;
    const fresh = randomBytes(8).toString('hex');
    const open = (reset: boolean) =>
      this.run('open', () => this.scripts.doppelOpen(this.meta, layout, fresh, reset ? '1' : '0')) as Promise<
        [string, string]
      >;
    let [status, value] = await open(false);
    if (status === 'lost' && this.options.resetLost) {
      await this.deleteNamespaceKeys();
      [status, value] = await open(true);
    }
    if (status === 'lost') {
      throw new DoppelError(
        'STORE_DATA_LOST',
        `namespace "${namespace}" lost its data while in use (${value}): its verdicts so far are gone, and going on would judge their duplicates unique. Fix Redis persistence (docs/redis.md), then accept the loss and start the namespace anew with DOPPEL_RESET_NAMESPACE=1 (or redis.resetLostNamespace: true), or use another namespace`,
      );
    }
    if (status === 'layout') {
      throw new DoppelError(
        'STORE_ERROR',
        `namespace "${namespace}" was created with layout ${value} (version:shards:clusterShards:generationMs), not ${layout}: use the same redis.shards, redis.clusterShards and window.generationMs, or another namespace`,
      );
    }
    this.epoch = value;
  }

  /** Every key of the namespace but meta (open-1.lua resets meta itself, atomically). */
  private async deleteNamespaceKeys(): Promise<void> {
    const pattern = `${this.base.replace(/[*?[\]\\]/g, '\\$&')}*`;
    let cursor = '0';
    do {
      const [next, keys] = await this.run('reset namespace', () =>
        this.client.scan(cursor, 'MATCH', pattern, 'COUNT', 1000),
      );
      cursor = next;
      const doomed = keys.filter((k) => k !== this.meta);
      if (doomed.length > 0) await this.run('reset namespace', () => this.client.unlink(...doomed));
    } while (cursor !== '0');
  }

  /** One command with bounded retries of retryable failures (exponential back-off). */
  private async run<T>(what: string, command: () => Promise<T>): Promise<T> {
    const attempts = this.options.redis.maxRetries + 1;
    for (let attempt = 1; ; attempt++) {
      try {
        this.roundTrips++;
        return await command();
      } catch (e) {
        const error = storeError(e, what, this.connection.lastError);
        if (!error.retryable || attempt >= attempts) throw error;
        await new Promise((resolve) => setTimeout(resolve, Math.min(50 * 2 ** attempt, 2_000)));
      }
    }
  }

  /** The writer, reset to an EVALSHA of `script` with its one key to come. */
  private start(script: ScriptSource): RespWriter {
    return this.writer.reset().string('evalsha').string(script.sha).int(1);
  }

  async index(requests: readonly IndexRequest[]): Promise<IndexResult[]> {
    if (requests.length === 0) return [];
    const { window, limits, redis } = this.options;
    const w = this.start(this.indexScript)
      .string(this.meta)
      .string(this.base)
      .int(window.windowMs)
      .int(window.generationMs)
      .int(limits.maxBucketSize)
      .int(hotTail(limits.maxBucketSize))
      .int(window.maxMessages)
      .int(redis.shards)
      .int(redis.clusterShards)
      .int(requests.length);
    for (const request of requests) {
      // The id itself is not sent: the script finds the message by its id field.
      const shard = writeIdField(request.id, redis.shards, this.idField, 0);
      w.int(shard).bytes(this.idField).int(request.ts);
      writeRecordBlob(w, request);
      const keys = request.keys;
      if (this.addresses.length < bucketAddressesMaxBytes(keys.length))
        this.addresses = Buffer.allocUnsafe(2 * bucketAddressesMaxBytes(keys.length));
      w.int(keys.length).bytes(
        this.addresses,
        0,
        writeBucketAddresses(keys, redis.shards, this.addresses, 0),
      );
    }
    const encoded = w.string(this.epoch).finish();
    const replies = (await this.run('index', () =>
      sendEncoded(this.client, encoded, this.indexScript.lua, null),
    )) as Array<Array<Buffer | number>>;
    replies.forEach((reply, r) => {
      const request = requests[r] as IndexRequest;
      if (statusOf(reply) === NEW)
        this.remember(Number(reply[1]), { id: request.id, ts: request.ts, record: request.record });
    });
    const candidates = await this.candidatesOf(replies);
    return replies.map((reply, r): IndexResult => {
      const request = requests[r] as IndexRequest;
      const status = statusOf(reply);
      if (status === DECIDED)
        return { status: 'decided', verdict: parseVerdict(request.id, String(reply[1])) };
      return {
        status: status === NEW ? 'new' : 'pending',
        seq: Number(reply[1]),
        candidates: candidates[r] ?? [],
        hotBuckets: Number(reply[3]),
      };
    });
  }

  /**
   * Candidates of each reply of index-1.lua or query-1.lua ({status, seq bound, live, hot,
   * bucket values...}; none for "d"): the earlier members of its buckets, counted and ranked as
   * the memory store does, with their records (one more call for those not cached).
   */
  private async candidatesOf(replies: ReadonlyArray<ReadonlyArray<Buffer | number>>): Promise<Candidate[][]> {
    const ranked = replies.map((reply) => {
      if (statusOf(reply) === DECIDED) return [];
      const bound = Number(reply[1]) || Number.POSITIVE_INFINITY;
      const live = Number(reply[2]);
      this.hits.reset();
      for (let x = 4; x < reply.length; x++) addMembers(this.hits, reply[x] as Buffer, live, bound);
      return this.hits.rank(this.options.limits.maxCandidates);
    });
    const missing = new Set<number>();
    for (const list of ranked) for (const [seq] of list) if (!this.cache.has(seq)) missing.add(seq);
    if (missing.size > 0) await this.fetchRecords([...missing]);
    return ranked.map((list) => {
      const candidates: Candidate[] = [];
      for (const [seq, hits] of list) {
        const cached = this.cache.get(seq);
        if (cached) candidates.push({ id: cached.id, seq, ts: cached.ts, record: cached.record, hits });
      }
      return candidates;
    });
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
      args.push(id.shard, id.field, request.keys.length, bucketAddresses(request.keys, redis.shards));
    }
    args.push(this.epoch);
    const replies = (await this.run('query', () => this.scripts.doppelQueryBuffer(...args))) as Array<
      Array<Buffer | number>
    >;
    const candidates = await this.candidatesOf(replies);
    return replies.map((reply, r): QueryResult => {
      if (statusOf(reply) === DECIDED)
        return {
          status: 'decided',
          verdict: parseVerdict((requests[r] as IndexRequest).id, String(reply[1])),
        };
      return { status: 'unseen', candidates: candidates[r] ?? [], hotBuckets: Number(reply[3]) };
    });
  }

  private remember(seq: number, record: StoredRecord): void {
    const capacity = this.options.redis.recordCacheSize;
    if (capacity === 0) return;
    this.cache.set(seq, record);
    if (this.cache.size > capacity) {
      // Oldest inserted first: sequence numbers arrive roughly in order, and old ones expire first.
      const oldest = this.cache.keys().next();
      if (!oldest.done) this.cache.delete(oldest.value);
    }
  }

  private async fetchRecords(seqs: number[]): Promise<void> {
    const blobs = (await this.run('records', () =>
      this.scripts.doppelRecordsBuffer(this.meta, this.base, ...seqs, this.epoch),
    )) as Array<Buffer | null>;
    seqs.forEach((seq, i) => {
      const blob = blobs[i];
      if (!blob) return;
      try {
        const record = parseRecordBlob(blob);
        if (this.options.redis.recordCacheSize === 0) this.cache.set(seq, record);
        else this.remember(seq, record);
      } catch (e) {
        throw new DoppelError('STORE_ERROR', `record ${seq} in Redis is unreadable: ${(e as Error).message}`);
      }
    });
  }

  async commit(decisions: readonly Decision[]): Promise<CommitResult[]> {
    if (decisions.length === 0) return [];
    const { redis } = this.options;
    const w = this.start(this.commitScript)
      .string(this.meta)
      .string(this.base)
      .int(redis.clusterShards)
      .int(decisions.length);
    for (const d of decisions) {
      w.string(d.id)
        .int(d.seq)
        .int(d.ts)
        .string(d.verdict)
        .string(d.duplicateOf ?? '')
        .string(d.similarity === undefined ? '' : String(d.similarity))
        .string(d.method ?? '')
        .string(d.title ?? '')
        .int(d.joins.length);
      for (const join of d.joins) {
        const shard = writeIdField(join, redis.shards, this.idField, 0);
        w.int(shard).bytes(this.idField);
      }
    }
    const encoded = w.string(this.epoch).finish();
    const replies = (await this.run('commit', () =>
      sendEncoded(this.client, encoded, this.commitScript.lua, 'utf8'),
    )) as string[];
    if (redis.recordCacheSize === 0) this.cache.clear();
    return replies.map((reply, i) => parseCommitReply(reply, decisions[i] as Decision));
  }

  private async read(mode: 'verdict' | 'cluster' | 'resolve', id: string): Promise<string | null> {
    const { redis } = this.options;
    const address = idAddress(id, redis.shards);
    const reply = await this.run(`read ${mode}`, () =>
      this.scripts.doppelRead(
        this.meta,
        this.base,
        redis.clusterShards,
        mode,
        address.shard,
        address.field,
        id,
        this.epoch,
      ),
    );
    return reply === null || reply === undefined ? null : String(reply);
  }

  async verdict(id: string): Promise<StoredVerdict | null> {
    const json = await this.read('verdict', id);
    return json === null ? null : parseVerdict(id, json);
  }

  async cluster(id: string): Promise<ClusterView | null> {
    const json = await this.read('cluster', id);
    return json === null ? null : parseCluster(json);
  }

  async clusterMembers(clusterId: string, cursor: number, limit: number): Promise<ClusterMembersPage | null> {
    const { redis } = this.options;
    const address = idAddress(clusterId, redis.shards);
    const reply = (await this.run('members', () =>
      this.scripts.doppelMembers(
        this.meta,
        this.base,
        redis.clusterShards,
        address.shard,
        address.field,
        cursor,
        limit,
        this.epoch,
      ),
    )) as Array<string | number> | null;
    if (!reply) return null;
    const total = Number(reply[0]);
    const members: ClusterMember[] = [];
    for (let x = 1; x + 2 < reply.length; x += 3) {
      const id = String(reply[x]);
      const member: ClusterMember = parseVerdict(id, String(reply[x + 1]));
      const title = String(reply[x + 2]);
      if (title !== '') member.title = title;
      members.push(member);
    }
    const end = cursor + limit;
    return { items: members.map((m) => m.id), members, next: end < total ? end : null, total };
  }

  async listClusters(query: ClusterListQuery): Promise<ClusterListPage> {
    const reply = (await this.run('clusters', () =>
      this.scripts.doppelClusters(
        this.meta,
        this.base,
        this.options.redis.clusterShards,
        query.order,
        query.since,
        query.cursor,
        query.limit,
        this.epoch,
      ),
    )) as Array<string | number>;
    const next = Number(reply[0]);
    return { items: reply.slice(1).map((json) => parseCluster(String(json))), next: next < 0 ? null : next };
  }

  async resolveCluster(id: string): Promise<string> {
    return (await this.read('resolve', id)) ?? id;
  }

  async stats(): Promise<StoreStats> {
    const [seq, live, hot, expired, buckets, clusters, hotBuckets] = await this.run('stats', () =>
      this.client.hmget(this.meta, 'seq', 'live', 'hot', 'expired', 'buckets', 'clusters', 'hotb'),
    );
    const last = Number(seq ?? 0);
    return {
      messages: Math.max(0, last - Number(live ?? 1) + 1),
      clusters: Number(clusters ?? 0),
      buckets: Number(buckets ?? 0),
      hotBucketEvents: Number(hot ?? 0),
      hotBuckets: Number(hotBuckets ?? 0),
      expiredGenerations: Number(expired ?? 0),
      roundTrips: this.roundTrips,
    };
  }

  /** Never throws and never waits on a dead server: a QUIT only when connected, bounded by the timeout. */
  async close(): Promise<void> {
    if (this.client.status === 'ready') {
      let timer: NodeJS.Timeout | undefined;
      const timeout = new Promise<void>((resolve) => {
        timer = setTimeout(resolve, this.options.redis.commandTimeoutMs);
      });
      await Promise.race([this.client.quit().catch(() => undefined), timeout]);
      clearTimeout(timer);
    }
    // Also stops the reconnect timer, which would keep the process alive.
    this.client.disconnect();
  }
}

/** A script reply's status letter ('n', 'p', 'u' or 'd') as a byte: no string per reply. */
const NEW = 0x6e;
const DECIDED = 0x64;
function statusOf(reply: ReadonlyArray<Buffer | number>): number {
  const status = reply[0];
  return Buffer.isBuffer(status) ? (status[0] as number) : -1;
}
