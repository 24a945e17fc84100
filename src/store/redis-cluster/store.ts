import { createHash, randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { Cluster, type ClusterNode, type ClusterOptions, Command } from 'ioredis';
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
} from '../redis/codec.js';
import { storeError } from '../redis/errors.js';
import {
  bucketAddressesMaxBytes,
  ID_FIELD_BYTES,
  idAddress,
  luaKeyConstants,
  writeBucketAddresses,
  writeIdField,
} from '../redis/keys.js';
import { addMembers } from '../redis/members.js';
import { RespWriter } from '../redis/resp.js';
import { loadScript, scriptSource } from '../redis/scripts.js';
import { type ClusterLayout, clusterLayout, parseClusterUrl } from './layout.js';

export interface RedisClusterStoreOptions {
  /** redis+cluster://[user:pass@]host:port,host:port,... (rediss+cluster:// for TLS). */
  url: string;
  namespace: string;
  window: WindowConfig;
  limits: Pick<IndexConfig, 'maxBucketSize' | 'maxCandidates'>;
  redis: RedisConfig;
  /** As RedisStoreOptions.resetLost. */
  resetLost?: boolean;
}

/** Layout version of a spread namespace (the home's buckets-less layout plus the slot shards). */
const LAYOUT_VERSION = 'c7';

// Next to this module: the build copies src/**/*.lua to dist/ (scripts/copy-assets.mjs).
const LUA_DIR = new URL('./lua/', import.meta.url);

interface Script {
  lua: string;
  sha: string;
}

function script(lua: string): Script {
  return { lua, sha: createHash('sha1').update(lua).digest('hex') };
}

/**
 * A script of lua/ here, as scripts.ts sends the single-node ones: the key name constants of
 * keys.ts, then the file with the single-node scripts' shared chunks pasted in.
 */
function clusterScript(file: string): Script {
  const text = readFileSync(new URL(file, LUA_DIR), 'utf8').replace(
    /^--- @include (\w+)\s*$/gm,
    (_, name: string) => loadScript(`${name}.lua`),
  );
  return script(luaKeyConstants() + text);
}

type CachedRecord = StoredRecord;

/** An EVALSHA encoded by RespWriter; `keys` lets ioredis route it to the slot's node. */
class EncodedCommand extends Command {
  constructor(
    private readonly encoded: Buffer,
    sha: string,
    key: string,
    replyEncoding: BufferEncoding | null,
  ) {
    super('evalsha', [sha, '1', key], { replyEncoding });
  }

  override toWritable(): Buffer {
    return this.encoded;
  }
}

/**
 * The engine's store port on Redis Cluster, one namespace spread over N slot shards
 * (docs/redis.md, "Redis Cluster"). Per batch: one index-1.lua call on the home shard (ids,
 * sequence numbers, clock, records; no buckets), then one buckets-1.lua call per bucket shard,
 * all in parallel, each applied in sequence order; then records-1.lua and commit-1.lua on the
 * home shard, as on one Redis.
 */
export class RedisClusterStore implements DedupStore {
  readonly kind = 'redis-cluster';
  private readonly layout: ClusterLayout;
  private readonly homeMeta: string;
  private readonly bucketShards: number[];
  private readonly cache = new Map<number, CachedRecord>();
  private readonly hits = new HitCounter();
  private roundTrips = 0;
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
    private readonly connection: { lastError: unknown },
  ) {
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
    try {
      clusterLayout(options.redis.prefix, options.namespace, 1);
    } catch (e) {
      throw new DoppelError('INVALID_CONFIG', (e as Error).message);
    }
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
      clusterRetryStrategy: (times) => Math.min(100 * 2 ** Math.min(times, 5), 2_000),
      redisOptions,
    };
    const client = new Cluster(parsed.nodes as ClusterNode[], clusterOptions);
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
    const store = new RedisClusterStore(client, options, connection);
    try {
      await store.checkEvictionPolicy();
      await store.openNamespace();
    } catch (e) {
      client.disconnect();
      throw e;
    }
    return store;
  }

  private async checkEvictionPolicy(): Promise<void> {
    for (const node of this.client.nodes('master')) {
      const info = await this.run('eviction policy check', () => node.info('memory'));
      const policy = /^maxmemory_policy:(\S+)/m.exec(info)?.[1];
      if (policy?.startsWith('allkeys-')) {
        throw new DoppelError(
          'STORE_ERROR',
          `Redis node ${node.options.host}:${node.options.port} runs with maxmemory-policy ${policy}: it would evict index keys and duplicates would silently pass as unique; set maxmemory-policy noeviction (docs/redis.md)`,
        );
      }
    }
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
        [layout, fresh, reset ? '1' : '0'],
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
    if (status === 'lost') {
      throw new DoppelError(
        'STORE_DATA_LOST',
        `namespace "${namespace}" lost its data while in use (${value}): its verdicts so far are gone, and going on would judge their duplicates unique. Fix Redis persistence (docs/redis.md), then accept the loss and start the namespace anew with DOPPEL_RESET_NAMESPACE=1 (or redis.resetLostNamespace: true), or use another namespace`,
      );
    }
    if (status === 'layout') {
      throw new DoppelError(
        'STORE_ERROR',
        `namespace "${namespace}" was created with layout ${value} (version:shards:clusterShards:generationMs:slotShards:units of shard 0, from homeShardWeight), not ${layout}: use the same settings, or another namespace`,
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
    const glob = (s: string) => s.replace(/[*?[\]\\]/g, '\\$&');
    const patterns = [
      `${glob(prefix)}:{${glob(this.options.namespace)}:h~*}:*`,
      `${glob(prefix)}:{${glob(this.options.namespace)}:s*}:*`,
    ];
    for (const node of this.client.nodes('master')) {
      for (const pattern of patterns) {
        let cursor = '0';
        do {
          const [next, keys] = await this.run('reset namespace', () =>
            node.scan(cursor, 'MATCH', pattern, 'COUNT', 1000),
          );
          cursor = next;
          for (const key of keys) {
            // Shard tags are ours only when they parse back to one of this layout's bases.
            if (key === this.homeMeta) continue;
            if (key.startsWith(this.layout.home) || this.layout.shards.some((b) => key.startsWith(b)))
              await this.run('reset namespace', () => this.client.unlink(key));
          }
        } while (cursor !== '0');
      }
    }
  }

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

  /** EVALSHA of `s` on the slot of `key` (NOSCRIPT: loaded on that node, sent again). */
  private async send(
    s: Script,
    key: string,
    encoded: Buffer,
    replyEncoding: BufferEncoding | null,
  ): Promise<unknown> {
    try {
      return await this.client.sendCommand(new EncodedCommand(encoded, s.sha, key, replyEncoding));
    } catch (e) {
      if (!(e instanceof Error) || !e.message.includes('NOSCRIPT')) throw e;
      // A node restarted or SCRIPT FLUSH: load it on every master (a resharding may move the slot).
      await Promise.all(this.client.nodes('master').map((node) => node.script('LOAD', s.lua)));
      return this.client.sendCommand(new EncodedCommand(encoded, s.sha, key, replyEncoding));
    }
  }

  /** A script call with plain arguments (not on the per-batch path), the key first. */
  private call(
    what: string,
    s: Script,
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
    const { window, limits, redis } = this.options;
    // 1. The home shard: ids, sequence numbers, clock and records (index-1.lua with no buckets).
    const w = new RespWriter()
      .reset()
      .string('evalsha')
      .string(this.scripts.index.sha)
      .int(1)
      .string(this.homeMeta)
      .string(this.layout.home)
      .int(window.windowMs)
      .int(window.generationMs)
      .int(limits.maxBucketSize)
      // No bucket is on the home shard: the hot tail is buckets-1.lua's to apply.
      .int(hotTail(limits.maxBucketSize))
      .int(window.maxMessages)
      .int(redis.shards)
      .int(redis.clusterShards)
      .int(requests.length);
    for (const request of requests) {
      const shard = writeIdField(request.id, redis.shards, this.idField, 0);
      w.int(shard).bytes(this.idField).int(request.ts);
      writeRecordBlob(w, request);
      w.int(0).string('');
    }
    const encoded = w.string(this.epoch).finish();
    const home = (await this.run('index', () =>
      this.send(this.scripts.index, this.homeMeta, encoded, null),
    )) as Array<Array<Buffer | number>>;
    home.forEach((reply, r) => {
      const request = requests[r] as IndexRequest;
      if (statusOf(reply) === NEW)
        this.remember(Number(reply[1]), { id: request.id, ts: request.ts, record: request.record });
    });
    // 2. Every bucket shard, in parallel: its share of the buckets of every undecided message.
    const undecided: number[] = [];
    home.forEach((reply, r) => {
      if (statusOf(reply) !== DECIDED) undecided.push(r);
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
      if (statusOf(reply) === DECIDED) return [];
      this.hits.reset();
      const bound = Number(reply[1]);
      const live = Number(reply[2]);
      for (const v of values[r] as Buffer[]) addMembers(this.hits, v, live, bound);
      return this.hits.rank(limits.maxCandidates);
    });
    const candidates = await this.withRecords(ranked);
    return home.map((reply, r): IndexResult => {
      const request = requests[r] as IndexRequest;
      if (statusOf(reply) === DECIDED)
        return { status: 'decided', verdict: parseVerdict(request.id, String(reply[1])) };
      return {
        status: statusOf(reply) === NEW ? 'new' : 'pending',
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
      const keys = (requests[r] as IndexRequest).keys;
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
    for (let attempt = 0; ; attempt++) {
      const reply = (await this.run('index', () =>
        this.send(this.scripts.buckets, meta, encoded, null),
      )) as Array<Buffer | number>;
      if (String(reply[0]) === 'o') return reply;
      const now = Date.now();
      if (waitedSince === 0) waitedSince = now;
      else if (now - waitedSince >= redis.gapTimeoutMs) encoded = encode(lastSeq - 1);
      // Another client's lower numbers are in flight: usually there within a round trip.
      await new Promise((resolve) => setTimeout(resolve, Math.min(1 + attempt, 20)));
    }
  }

  private async withRecords(ranked: Array<Array<[number, number]>>): Promise<Candidate[][]> {
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

  private remember(seq: number, record: CachedRecord): void {
    const capacity = this.options.redis.recordCacheSize;
    if (capacity === 0) return;
    this.cache.set(seq, record);
    if (this.cache.size > capacity) {
      const oldest = this.cache.keys().next();
      if (!oldest.done) this.cache.delete(oldest.value);
    }
  }

  private async fetchRecords(seqs: number[]): Promise<void> {
    const blobs = (await this.call(
      'records',
      this.scripts.records,
      this.homeMeta,
      [this.layout.home, ...seqs, this.epoch],
      null,
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
      if (statusOf(reply) === DECIDED) return [];
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
      if (statusOf(reply) === DECIDED)
        return {
          status: 'decided',
          verdict: parseVerdict((requests[r] as IndexRequest).id, String(reply[1])),
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
      this.send(this.scripts.commit, this.homeMeta, encoded, 'utf8'),
    )) as string[];
    if (redis.recordCacheSize === 0) this.cache.clear();
    return replies.map((reply, i) => parseCommitReply(reply, decisions[i] as Decision));
  }

  private async read(mode: 'verdict' | 'cluster' | 'resolve', id: string): Promise<string | null> {
    const { redis } = this.options;
    const address = idAddress(id, redis.shards);
    const reply = await this.call(
      `read ${mode}`,
      this.scripts.read,
      this.homeMeta,
      [this.layout.home, redis.clusterShards, mode, address.shard, address.field, id, this.epoch],
      'utf8',
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

  /** members-1.lua on the home shard, which holds the clusters and their member lists. */
  async clusterMembers(clusterId: string, cursor: number, limit: number): Promise<ClusterMembersPage | null> {
    const { redis } = this.options;
    const address = idAddress(clusterId, redis.shards);
    const reply = (await this.call(
      'members',
      this.scripts.members,
      this.homeMeta,
      [this.layout.home, redis.clusterShards, address.shard, address.field, cursor, limit, this.epoch],
      'utf8',
    )) as Array<string | number> | null;
    if (!reply) return null;
    const total = Number(reply[0]);
    const members: ClusterMember[] = [];
    for (let x = 1; x + 2 < reply.length; x += 3) {
      const member: ClusterMember = parseVerdict(String(reply[x]), String(reply[x + 1]));
      const title = String(reply[x + 2]);
      if (title !== '') member.title = title;
      members.push(member);
    }
    const end = cursor + limit;
    return { items: members.map((m) => m.id), members, next: end < total ? end : null, total };
  }

  /** clusters-1.lua on the home shard. */
  async listClusters(query: ClusterListQuery): Promise<ClusterListPage> {
    const reply = (await this.call(
      'clusters',
      this.scripts.clusters,
      this.homeMeta,
      [
        this.layout.home,
        this.options.redis.clusterShards,
        query.order,
        query.since,
        query.cursor,
        query.limit,
        this.epoch,
      ],
      'utf8',
    )) as Array<string | number>;
    const next = Number(reply[0]);
    return { items: reply.slice(1).map((json) => parseCluster(String(json))), next: next < 0 ? null : next };
  }

  async resolveCluster(id: string): Promise<string> {
    return (await this.read('resolve', id)) ?? id;
  }

  async stats(): Promise<StoreStats> {
    const [seq, live, expired, clusters] = await this.run('stats', () =>
      this.client.hmget(this.homeMeta, 'seq', 'live', 'expired', 'clusters'),
    );
    const shards = await Promise.all(
      this.layout.shards.map((base) =>
        this.run('stats', () => this.client.hmget(`${base}meta`, 'hot', 'buckets', 'hotb')),
      ),
    );
    let hot = 0;
    let buckets = 0;
    let hotBuckets = 0;
    for (const [h, b, filled] of shards) {
      hot += Number(h ?? 0);
      buckets += Number(b ?? 0);
      hotBuckets += Number(filled ?? 0);
    }
    return {
      messages: Math.max(0, Number(seq ?? 0) - Number(live ?? 1) + 1),
      clusters: Number(clusters ?? 0),
      buckets,
      hotBucketEvents: hot,
      hotBuckets,
      expiredGenerations: Number(expired ?? 0),
      roundTrips: this.roundTrips,
    };
  }

  async close(): Promise<void> {
    if (this.client.status === 'ready') {
      let timer: NodeJS.Timeout | undefined;
      const timeout = new Promise<void>((resolve) => {
        timer = setTimeout(resolve, this.options.redis.commandTimeoutMs);
      });
      await Promise.race([this.client.quit().catch(() => undefined), timeout]);
      clearTimeout(timer);
    }
    this.client.disconnect();
  }
}

/** How many buckets an addresses argument holds (keys.ts bucketAddresses: d, d digits, flag, 2 bytes). */
function entries(addresses: Buffer): number {
  let count = 0;
  for (let at = 0; at < addresses.length; at += (addresses[at] as number) + 4) count++;
  return count;
}
const NEW = 0x6e;
const DECIDED = 0x64;
function statusOf(reply: ReadonlyArray<Buffer | number>): number {
  const status = reply[0];
  return Buffer.isBuffer(status) ? (status[0] as number) : -1;
}
