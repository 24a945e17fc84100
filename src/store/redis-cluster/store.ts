import { randomBytes } from 'node:crypto';
import { Cluster, type ClusterNode, type ClusterOptions } from 'ioredis';
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
import { hotTail } from '../hot.js';
import { HitCounter } from '../rank.js';
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
} from '../redis/codec.js';
import {
  CommandRunner,
  closeClient,
  connectStore,
  EvictionWatch,
  reconnectDelay,
} from '../redis/connection.js';
import {
  bucketAddressesMaxBytes,
  ID_FIELD_BYTES,
  idAddress,
  luaKeyConstants,
  writeBucketAddresses,
} from '../redis/keys.js';
import { type LookupArg, type LookupScript, RedisLookups } from '../redis/lookups.js';
import { addMembers } from '../redis/members.js';
import {
  checkNamespaceName,
  globEscape,
  layoutMismatch,
  namespaceLost,
  scanKeys,
} from '../redis/namespace.js';
import { RecordCache } from '../redis/records.js';
import { EncodedCommand, RespWriter, retryOnNoScript } from '../redis/resp.js';
import { loadScript, type ScriptSource, scriptSource, sourceOf } from '../redis/scripts.js';
import type { RedisStoreOptions } from '../redis/store.js';
import { type ClusterLayout, clusterLayout, parseClusterUrl } from './layout.js';

export interface RedisClusterStoreOptions extends RedisStoreOptions {
  /** redis+cluster://[user:pass@]host:port,host:port,... (rediss+cluster:// for TLS). */
  url: string;
}

/** Layout version of a spread namespace (the home's buckets-less layout plus the slot shards). */
const LAYOUT_VERSION = 'c7';

// Next to this module: the build copies src/**/*.lua to dist/ (scripts/copy-assets.mjs).
const LUA_DIR = new URL('./lua/', import.meta.url);

/**
 * A script of lua/ here, as scripts.ts sends the single-node ones: the key name constants of
 * keys.ts, then the file with the single-node scripts' shared chunks pasted in.
 */
function clusterScript(file: string): ScriptSource {
  return sourceOf(luaKeyConstants() + loadScript(file, LUA_DIR));
}

/**
 * The engine's store port on Redis Cluster, one namespace spread over N slot shards
 * (docs/redis.md, "Redis Cluster"). Per batch: one index-1.lua call on the home shard (ids,
 * sequence numbers, clock, records; no buckets), then one buckets-1.lua call per bucket shard,
 * all in parallel, each applied in sequence order; then records-1.lua and commit-1.lua on the
 * home shard, as on one Redis.
 */
export class RedisClusterStore extends RedisLookups implements DedupStore {
  readonly kind = 'redis-cluster';
  /**
   * Sequence gaps met on bucket shards: `waits` replies that a lower number was missing (another
   * client's batch in flight), `skips` gaps given up after gapTimeoutMs (a client that died).
   */
  readonly gaps = { waits: 0, skips: 0 };
  private readonly layout: ClusterLayout;
  private readonly homeMeta: string;
  /** Per master (by address): the eviction policy checked again while running. */
  private readonly evictions = new Map<string, EvictionWatch>();
  private readonly bucketShards: number[];
  private readonly cache: RecordCache;
  private readonly hits = new HitCounter();
  private epoch = '';
  private addresses = Buffer.allocUnsafe(4096);
  private readonly idField = Buffer.allocUnsafe(ID_FIELD_BYTES);
  private readonly scripts = {
    index: scriptSource('index'),
    commit: scriptSource('commit'),
    read: scriptSource('read'),
    records: scriptSource('records'),
    query: scriptSource('query'),
    members: scriptSource('members'),
    clusters: scriptSource('clusters'),
    open: scriptSource('open'),
    buckets: clusterScript('buckets-1.lua'),
    shardOpen: clusterScript('shard-open-1.lua'),
  };

  private constructor(
    private readonly client: Cluster,
    private readonly options: RedisClusterStoreOptions,
    private readonly runner: CommandRunner,
  ) {
    super(options.redis.shards, options.redis.clusterShards);
    this.cache = new RecordCache(options.redis.recordCacheSize);
    this.layout = clusterLayout(
      options.redis.prefix,
      options.namespace,
      options.redis.slotShards,
      options.redis.homeShardWeight,
    );
    this.homeMeta = `${this.layout.home}meta`;
    // A shard of no units (homeShardWeight 0) holds no bucket: index and query skip it.
    this.bucketShards = this.layout.shards
      .map((_, k) => k)
      .filter((k) => (this.layout.unitCount[k] as number) > 0);
  }

  static async open(options: RedisClusterStoreOptions): Promise<RedisClusterStore> {
    await initHashing();
    checkNamespaceName(() => clusterLayout(options.redis.prefix, options.namespace, 1));
    const parsed = parseClusterUrl(options.url);
    if (!parsed)
      throw new DoppelError(
        'USAGE',
        `the store URL is not a redis+cluster://host:port,host:port URL: ${redactUrl(options.url)}`,
      );
    const r = options.redis;
    const redisOptions: ClusterOptions['redisOptions'] = {
      connectTimeout: r.commandTimeoutMs,
      commandTimeout: r.commandTimeoutMs,
      maxRetriesPerRequest: 1,
    };
    const username = r.username ?? parsed.username;
    const password = r.password ?? parsed.password;
    if (username !== undefined) redisOptions.username = username;
    if (password !== undefined) redisOptions.password = password;
    if (r.tls || parsed.tls) redisOptions.tls = {};
    const clusterOptions: ClusterOptions = {
      lazyConnect: true,
      // Fail fast while a node is unreachable (a typed, retryable error), as the single-node store.
      enableOfflineQueue: false,
      scaleReads: 'master',
      // MOVED / ASK during a resharding are followed by ioredis; these bound a failover.
      maxRedirections: 16,
      retryDelayOnFailover: 100,
      retryDelayOnClusterDown: 100,
      slotsRefreshTimeout: r.commandTimeoutMs,
      clusterRetryStrategy: reconnectDelay,
      redisOptions,
    };
    const client = new Cluster(parsed.nodes as ClusterNode[], clusterOptions);
    const runner = new CommandRunner(r.maxRetries);
    return connectStore(
      client,
      options.url,
      runner,
      () => new RedisClusterStore(client, options, runner),
      async (store) => {
        await store.checkEvictionPolicy();
        await store.openNamespace();
      },
    );
  }

  /**
   * Every master's eviction policy and evicted_keys (redis/connection.ts EvictionWatch), at open
   * and, when due, before an index call: a loss found is marked in the home's meta (every client
   * stops at its next call).
   */
  private async checkEvictionPolicy(): Promise<void> {
    if (!this.evictionsDue()) return;
    for (const node of this.client.nodes('master')) {
      const server = `Redis node ${node.options.host}:${node.options.port}`;
      let watch = this.evictions.get(server);
      if (!watch) {
        watch = new EvictionWatch(this.options.redis.evictionCheckMs, server);
        this.evictions.set(server, watch);
      }
      const memory = await this.run('eviction policy check', () => node.info('memory'));
      const stats = await this.run('eviction policy check', () => node.info('stats'));
      const loss = watch.observe(memory, stats);
      if (loss === null) continue;
      const reason = `${Math.floor(Date.now() / 1000)}: ${loss}`;
      await this.run('mark lost', () => this.client.hset(this.homeMeta, 'lost', reason));
      throw namespaceLost(this.options.namespace, reason);
    }
  }

  private evictionsDue(): boolean {
    if (this.evictions.size === 0) return true;
    for (const watch of this.evictions.values()) if (watch.due()) return true;
    return false;
  }

  private layoutString(): string {
    const r = this.options.redis;
    return `${LAYOUT_VERSION}:${r.shards}:${r.clusterShards}:${this.options.window.generationMs}:${r.slotShards}:${this.layout.unitCount[0]}`;
  }

  /**
   * open-1.lua on the home shard, then shard-open-1.lua on every bucket shard. Shards are created
   * (with the home's epoch) while the home is not marked `ready`; after that a missing shard or
   * one with another epoch lost its data.
   */
  private async openNamespace(): Promise<void> {
    const layout = this.layoutString();
    const { namespace } = this.options;
    const fresh = randomBytes(8).toString('hex');
    const open = async (reset: boolean) =>
      (await this.call(
        'open',
        this.scripts.open,
        this.homeMeta,
        [layout, fresh, reset ? '1' : '0', this.options.redis.shards, this.layout.home],
        'utf8',
      )) as [string, string];
    let [status, value] = await open(false);
    if (status === 'ok') {
      const shardStatus = await this.openShards(layout, value);
      if (shardStatus) {
        if (!this.options.resetLost) [status, value] = shardStatus;
        else {
          // A lost shard: mark the home lost too, so the reset below starts everything anew.
          await this.run('reset namespace', () => this.client.hset(this.homeMeta, 'lost', shardStatus[1]));
          status = 'lost';
          value = shardStatus[1];
        }
      }
    }
    if (status === 'lost' && this.options.resetLost) {
      await this.deleteNamespaceKeys();
      [status, value] = await open(true);
      if (status === 'ok') {
        const again = await this.openShards(layout, value);
        if (again) [status, value] = again;
      }
    }
    if (status === 'lost') throw namespaceLost(namespace, value);
    if (status === 'layout') {
      throw layoutMismatch(
        namespace,
        value,
        layout,
        'version:shards:clusterShards:generationMs:slotShards:units of shard 0, from homeShardWeight',
        'use the same settings, or another namespace',
      );
    }
    this.epoch = value;
  }

  /** null when every shard is whole, else the first bad status. */
  private async openShards(layout: string, epoch: string): Promise<[string, string] | null> {
    const ready = (await this.run('open', () => this.client.hget(this.homeMeta, 'ready'))) === '1';
    const replies = (await Promise.all(
      this.layout.shards.map((base) =>
        this.call('open', this.scripts.shardOpen, `${base}meta`, [layout, epoch, ready ? '0' : '1'], 'utf8'),
      ),
    )) as Array<[string, string]>;
    const bad = replies.find(([status]) => status !== 'ok');
    if (bad) return bad;
    if (!ready) await this.run('open', () => this.client.hset(this.homeMeta, 'ready', '1'));
    return null;
  }

  /** Every key of the namespace on every master but the home meta (open-1.lua resets it). */
  private async deleteNamespaceKeys(): Promise<void> {
    const { prefix } = this.options.redis;
    const patterns = [
      `${globEscape(prefix)}:{${globEscape(this.options.namespace)}:h~*}:*`,
      `${globEscape(prefix)}:{${globEscape(this.options.namespace)}:s*}:*`,
    ];
    for (const node of this.client.nodes('master')) {
      for (const pattern of patterns) {
        await scanKeys(node, pattern, this.run, async (keys) => {
          for (const key of keys) {
            // Shard tags are ours only when they parse back to one of this layout's bases.
            if (key === this.homeMeta) continue;
            if (key.startsWith(this.layout.home) || this.layout.shards.some((b) => key.startsWith(b)))
              await this.run('reset namespace', () => this.client.unlink(key));
          }
        });
      }
    }
  }

  private readonly run = <T>(what: string, command: () => Promise<T>): Promise<T> =>
    this.runner.run(what, command);

  /** EVALSHA of `s` on the slot of `key` (NOSCRIPT: loaded on that node, sent again). */
  private send(
    s: ScriptSource,
    key: string,
    encoded: Buffer,
    replyEncoding: BufferEncoding | null,
  ): Promise<unknown> {
    return retryOnNoScript(
      () => this.client.sendCommand(new EncodedCommand(encoded, replyEncoding, [s.sha, '1', key])),
      // A node restarted or SCRIPT FLUSH: load it on every master (a resharding may move the slot).
      () => Promise.all(this.client.nodes('master').map((node) => node.script('LOAD', s.lua))),
    );
  }

  /** A script call with plain arguments (not on the per-batch path), the key first. */
  private call(
    what: string,
    s: ScriptSource,
    key: string,
    args: Array<string | number | Buffer>,
    replyEncoding: BufferEncoding | null,
  ): Promise<unknown> {
    const w = new RespWriter().reset().string('evalsha').string(s.sha).int(1).string(key);
    for (const a of args) {
      if (typeof a === 'number') w.int(a);
      else if (typeof a === 'string') w.string(a);
      else w.bytes(a);
    }
    const encoded = w.finish();
    return this.run(what, () => this.send(s, key, encoded, replyEncoding));
  }

  async index(requests: readonly IndexRequest[]): Promise<IndexResult[]> {
    if (requests.length === 0) return [];
    await this.checkEvictionPolicy();
    const { window, limits, redis } = this.options;
    // 1. The home shard: ids, sequence numbers, clock and records (index-1.lua with no buckets).
    const w = new RespWriter()
      .reset()
      .string('evalsha')
      .string(this.scripts.index.sha)
      .int(1)
      .string(this.homeMeta)
      .string(this.layout.home);
    // No bucket is on the home shard: the hot tail is buckets-1.lua's to apply.
    writeIndexHead(w, window, limits, redis, requests.length);
    for (const request of requests) {
      writeIndexMessage(w, request, redis.shards, this.idField);
      w.int(0).string('');
    }
    // An empty bucket table (batch-buckets.ts): no message names a bucket here.
    const encoded = w.string('').string(this.epoch).finish();
    const home = (await this.run('index', () =>
      this.send(this.scripts.index, this.homeMeta, encoded, null),
    )) as Array<Array<Buffer | number>>;
    home.forEach((reply, r) => {
      const request = requests[r] as IndexRequest;
      if (replyStatus(reply) === REPLY_NEW)
        this.cache.remember(Number(reply[1]), { id: request.id, ts: request.ts, record: request.record });
    });
    // 2. Every bucket shard, in parallel: its share of the buckets of every undecided message.
    const undecided: number[] = [];
    home.forEach((reply, r) => {
      if (replyStatus(reply) !== REPLY_DECIDED) undecided.push(r);
    });
    undecided.sort(
      (a, b) =>
        Number((home[a] as Array<Buffer | number>)[1]) - Number((home[b] as Array<Buffer | number>)[1]),
    );
    const values: Buffer[][] = requests.map(() => []);
    const hot = new Array<number>(requests.length).fill(0);
    if (undecided.length > 0) {
      const perShard = this.splitBuckets(requests, undecided);
      const replies = await Promise.all(
        this.bucketShards.map((k) =>
          this.applyOnShard(k, this.layout.shards[k] as string, undecided, home, perShard[k] as Buffer[]),
        ),
      );
      for (const reply of replies) {
        // Flat: position, hot, count, values... per message with anything here (buckets-1.lua).
        for (let x = 1; x < reply.length; ) {
          const r = undecided[Number(reply[x]) - 1] as number;
          hot[r] = (hot[r] as number) + Number(reply[x + 1]);
          const count = Number(reply[x + 2]);
          for (let y = 0; y < count; y++) (values[r] as Buffer[]).push(reply[x + 3 + y] as Buffer);
          x += 3 + count;
        }
      }
    }
    // 3. Candidates ranked as on one Redis, records from the cache or the home shard.
    const ranked = home.map((reply, r) => {
      if (replyStatus(reply) === REPLY_DECIDED) return [];
      this.hits.reset();
      const bound = Number(reply[1]);
      const live = Number(reply[2]);
      for (const v of values[r] as Buffer[]) addMembers(this.hits, v, live, bound);
      return this.hits.rank(limits.maxCandidates);
    });
    const candidates = await this.withRecords(ranked);
    return home.map((reply, r): IndexResult => {
      const request = requests[r] as IndexRequest;
      if (replyStatus(reply) === REPLY_DECIDED)
        return { status: 'decided', ...parseDecided(request.id, String(reply[1])) };
      return {
        status: replyStatus(reply) === REPLY_NEW ? 'new' : 'pending',
        seq: Number(reply[1]),
        candidates: candidates[r] ?? [],
        hotBuckets: hot[r] as number,
      };
    });
  }

  /** Each undecided message's bucket addresses, split by slot shard (bucket hash h mod N). */
  private splitBuckets(requests: readonly IndexRequest[], undecided: readonly number[]): Buffer[][] {
    const n = this.options.redis.slotShards;
    const { units, shardOfUnit } = this.layout;
    const shards = this.options.redis.shards;
    const out: Buffer[][] = Array.from({ length: n }, () => []);
    const parts: number[][] = Array.from({ length: n }, () => []);
    for (const r of undecided) {
      const keys = keyArray((requests[r] as IndexRequest).keys);
      if (this.addresses.length < bucketAddressesMaxBytes(keys.length))
        this.addresses = Buffer.allocUnsafe(2 * bucketAddressesMaxBytes(keys.length));
      const a = this.addresses;
      const end = writeBucketAddresses(keys, shards, a, 0);
      for (const p of parts) p.length = 0;
      // Entries: a byte d, the shard in d decimal digits, a flag byte, 2 field bytes.
      for (let at = 0; at < end; ) {
        const d = a[at] as number;
        let h = 0;
        for (let i = 1; i <= d; i++) h = h * 10 + ((a[at + i] as number) - 48);
        (parts[shardOfUnit[h % units] as number] as number[]).push(at, at + d + 4);
        at += d + 4;
      }
      parts.forEach((spans, k) => {
        let bytes = 0;
        for (let i = 0; i < spans.length; i += 2) bytes += (spans[i + 1] as number) - (spans[i] as number);
        const buf = Buffer.allocUnsafe(bytes);
        let o = 0;
        for (let i = 0; i < spans.length; i += 2)
          o += a.copy(buf, o, spans[i] as number, spans[i + 1] as number);
        (out[k] as Buffer[]).push(buf);
      });
    }
    return out;
  }

  /**
   * buckets-1.lua on shard k, again while a lower sequence number is missing there (another
   * client's batch in flight); after gapTimeoutMs of that, the gap is skipped (its client died).
   */
  private async applyOnShard(
    k: number,
    base: string,
    undecided: readonly number[],
    home: ReadonlyArray<ReadonlyArray<Buffer | number>>,
    addresses: readonly Buffer[],
  ): Promise<Array<Buffer | number>> {
    const { limits, redis } = this.options;
    const meta = `${base}meta`;
    const encode = (skipTo: number) => {
      const w = new RespWriter()
        .reset()
        .string('evalsha')
        .string(this.scripts.buckets.sha)
        .int(1)
        .string(meta)
        .string(base)
        .int(limits.maxBucketSize)
        .int(hotTail(limits.maxBucketSize))
        .int(redis.shards)
        .int(this.layout.units)
        .int(this.layout.firstUnit[k] as number)
        .int(this.layout.unitCount[k] as number)
        .int(skipTo)
        .int(undecided.length);
      undecided.forEach((r, i) => {
        const reply = home[r] as ReadonlyArray<Buffer | number>;
        const buckets = addresses[i] as Buffer;
        const at = w.reserve(16 + buckets.length);
        w.buffer.writeDoubleLE(Number(reply[1]), at);
        w.buffer.writeDoubleLE(Number(reply[2]), at + 8);
        w.buffer.set(buckets, at + 16);
      });
      return w.string(this.epoch).finish();
    };
    // Every gap of the call lies below its highest number (a pending message's may be far lower).
    const lastSeq = Number(
      (home[undecided[undecided.length - 1] as number] as ReadonlyArray<Buffer | number>)[1],
    );
    let encoded = encode(0);
    let waitedSince = 0;
    let skipping = false;
    for (let attempt = 0; ; attempt++) {
      const reply = (await this.run('index', () =>
        this.send(this.scripts.buckets, meta, encoded, null),
      )) as Array<Buffer | number>;
      if (String(reply[0]) === 'o') return reply;
      this.gaps.waits++;
      const now = Date.now();
      if (waitedSince === 0) waitedSince = now;
      else if (now - waitedSince >= redis.gapTimeoutMs && !skipping) {
        skipping = true;
        this.gaps.skips++;
        encoded = encode(lastSeq - 1);
      }
      // Another client's lower numbers are in flight: usually there within a round trip.
      await new Promise((resolve) => setTimeout(resolve, Math.min(1 + attempt, 20)));
    }
  }

  /** Candidates with their records: from the cache, or records-1.lua on the home shard. */
  private withRecords(ranked: Array<Array<[number, number]>>): Promise<Candidate[][]> {
    return this.cache.candidates(
      ranked,
      (seqs) =>
        this.call(
          'records',
          this.scripts.records,
          this.homeMeta,
          [this.layout.home, ...seqs, this.epoch],
          null,
        ) as Promise<Array<Buffer | null>>,
    );
  }

  /** query-1.lua on the home shard (ids only), then on every bucket shard (buckets only). */
  async query(requests: readonly IndexRequest[]): Promise<QueryResult[]> {
    if (requests.length === 0) return [];
    const { limits, redis } = this.options;
    const homeArgs: Array<string | number | Buffer> = [
      this.layout.home,
      requests.length,
      limits.maxBucketSize,
    ];
    for (const request of requests) {
      const id = idAddress(request.id, redis.shards);
      homeArgs.push(id.shard, id.field, 0, '');
    }
    homeArgs.push(this.epoch);
    const home = (await this.call('query', this.scripts.query, this.homeMeta, homeArgs, null)) as Array<
      Array<Buffer | number>
    >;
    const all = requests.map((_, r) => r);
    const perShard = this.splitBuckets(requests, all);
    const shardReplies = await Promise.all(
      this.bucketShards.map((k) => {
        const base = this.layout.shards[k] as string;
        const args: Array<string | number | Buffer> = [base, requests.length, limits.maxBucketSize];
        // No id lives on a bucket shard: "-" is no id shard, so every request reads as unseen.
        for (const buf of perShard[k] as Buffer[]) args.push('-', '-', entries(buf), buf);
        args.push(this.epoch);
        return this.call('query', this.scripts.query, `${base}meta`, args, null) as Promise<
          Array<Array<Buffer | number>>
        >;
      }),
    );
    const ranked = home.map((reply, r) => {
      if (replyStatus(reply) === REPLY_DECIDED) return [];
      this.hits.reset();
      const bound = Number(reply[1]) || Number.POSITIVE_INFINITY;
      const live = Number(reply[2]);
      for (const shard of shardReplies) {
        const out = shard[r] as Array<Buffer | number>;
        for (let x = 4; x < out.length; x++) addMembers(this.hits, out[x] as Buffer, live, bound);
      }
      return this.hits.rank(limits.maxCandidates);
    });
    const candidates = await this.withRecords(ranked);
    return home.map((reply, r): QueryResult => {
      if (replyStatus(reply) === REPLY_DECIDED)
        return {
          status: 'decided',
          ...parseDecided((requests[r] as IndexRequest).id, String(reply[1])),
        };
      let hot = 0;
      for (const shard of shardReplies) hot += Number((shard[r] as Array<Buffer | number>)[3]);
      return { status: 'unseen', candidates: candidates[r] ?? [], hotBuckets: hot };
    });
  }

  async commit(decisions: readonly Decision[]): Promise<CommitResult[]> {
    if (decisions.length === 0) return [];
    const { redis } = this.options;
    const w = new RespWriter()
      .reset()
      .string('evalsha')
      .string(this.scripts.commit.sha)
      .int(1)
      .string(this.homeMeta)
      .string(this.layout.home)
      .int(redis.clusterShards);
    writeDecisions(w, decisions, redis.shards, this.idField);
    const encoded = w.string(this.epoch).finish();
    const replies = (await this.run('commit', () =>
      this.send(this.scripts.commit, this.homeMeta, encoded, 'utf8'),
    )) as CommitReply[];
    this.cache.committed();
    return replies.map((reply, i) => parseCommitReply(reply, decisions[i] as Decision));
  }

  /** The lookups run on the home shard, which holds the verdicts, clusters and member lists. */
  protected lookup(what: string, script: LookupScript, args: LookupArg[]): Promise<unknown> {
    return this.call(
      what,
      this.scripts[script],
      this.homeMeta,
      [this.layout.home, ...args, this.epoch],
      'utf8',
    );
  }

  async stats(): Promise<StoreStats> {
    const home = await this.run('stats', () => this.client.hmget(this.homeMeta, ...STATS_FIELDS));
    const shards = await Promise.all(
      this.layout.shards.map((base) =>
        this.run('stats', () => this.client.hmget(`${base}meta`, ...BUCKET_STATS_FIELDS)),
      ),
    );
    return parseStats(home, shards, this.runner.roundTrips);
  }

  async close(): Promise<void> {
    await closeClient(this.client, this.options.redis.commandTimeoutMs);
  }
}

/** How many buckets an addresses argument holds (keys.ts bucketAddresses: d, d digits, flag, 2 bytes). */
function entries(addresses: Buffer): number {
  let count = 0;
  for (let at = 0; at < addresses.length; at += (addresses[at] as number) + 4) count++;
  return count;
}
