import type { EventEmitter } from 'node:events';
import { DoppelError } from '../../errors.js';
import { redactUrl } from '../../redact.js';
import { storeError } from './errors.js';

/**
 * What the single-node store (ioredis `Redis`) and the cluster store (ioredis `Cluster`) do alike
 * with their client: connect, retry, check the eviction policy, close. Each store keeps its own
 * client options and namespace layout.
 */

/** The calls used here, which `Redis` and `Cluster` both have. */
export interface StoreClient extends Pick<EventEmitter, 'on'> {
  readonly status: string;
  connect(): Promise<void>;
  quit(): Promise<unknown>;
  disconnect(): void;
}

/** Reconnect back-off of both clients: doubling from 200 ms, at most 2 s. */
export function reconnectDelay(times: number): number {
  return Math.min(100 * 2 ** Math.min(times, 5), 2_000);
}

/** Store commands with bounded retries of retryable failures, and the round trips they took. */
export class CommandRunner {
  roundTrips = 0;
  /**
   * The client's last connection error (cleared when it is ready again). Errors reach callers as
   * rejected commands ("Connection is closed."); the event says why, e.g. WRONGPASS.
   */
  lastError: unknown;

  constructor(private readonly maxRetries: number) {}

  watch(client: StoreClient): void {
    client.on('error', (e: unknown) => {
      this.lastError = e;
    });
    client.on('ready', () => {
      this.lastError = undefined;
    });
  }

  /** One command with bounded retries of retryable failures (exponential back-off). */
  async run<T>(what: string, command: () => Promise<T>): Promise<T> {
    const attempts = this.maxRetries + 1;
    for (let attempt = 1; ; attempt++) {
      try {
        this.roundTrips++;
        return await command();
      } catch (e) {
        const error = storeError(e, what, this.lastError);
        if (!error.retryable || attempt >= attempts) throw error;
        await new Promise((resolve) => setTimeout(resolve, Math.min(50 * 2 ** attempt, 2_000)));
      }
    }
  }
}

/**
 * Connects `client` (a typed error naming the redacted URL when it cannot), then makes the store
 * and opens it; the client is disconnected when any of that fails.
 */
export async function connectStore<S>(
  client: StoreClient,
  url: string,
  runner: CommandRunner,
  create: () => S,
  open: (store: S) => Promise<void>,
): Promise<S> {
  runner.watch(client);
  try {
    await client.connect();
  } catch (e) {
    client.disconnect();
    throw storeError(e, `connect to ${redactUrl(url)}`, runner.lastError);
  }
  const store = create();
  try {
    await open(store);
  } catch (e) {
    client.disconnect();
    throw e;
  }
  return store;
}

/**
 * An allkeys-* policy evicts index keys when memory is full: later duplicates would silently
 * come out unique. doppel sets no TTLs, so volatile-* policies never evict its keys. `info` is
 * INFO memory of `server` ("Redis", "Redis node host:port").
 */
export function checkEvictionPolicy(info: string, server: string): void {
  const policy = /^maxmemory_policy:(\S+)/m.exec(info)?.[1];
  if (policy?.startsWith('allkeys-')) {
    throw new DoppelError(
      'STORE_ERROR',
      `${server} runs with maxmemory-policy ${policy}: it would evict index keys and duplicates would silently pass as unique; set maxmemory-policy noeviction (docs/redis.md)`,
    );
  }
}

/**
 * The eviction policy, checked again while running (every redis.evictionCheckMs, before an
 * index call), not only at open: an operator may switch it to allkeys-* mid-run. One watch per
 * server. `observe` takes INFO memory and INFO stats: an allkeys-* policy with no key evicted yet
 * is refused (STORE_ERROR, as at open); keys evicted since the last look under any policy but
 * volatile-* (which never evicts doppel's keys: it sets no TTLs) mean the namespace may have lost
 * keys, so the caller marks it lost (STORE_DATA_LOST).
 */
export class EvictionWatch {
  private checkedAt = Number.NEGATIVE_INFINITY;
  private evicted: number | undefined;

  constructor(
    private readonly intervalMs: number,
    readonly server: string,
  ) {}

  due(now: number = Date.now()): boolean {
    return now - this.checkedAt >= this.intervalMs;
  }

  /** null when all is well; else why the namespace must be taken as lost. */
  observe(memory: string, stats: string, now: number = Date.now()): string | null {
    this.checkedAt = now;
    const policy = /^maxmemory_policy:(\S+)/m.exec(memory)?.[1] ?? 'unknown';
    const evicted = Number(/^evicted_keys:(\d+)/m.exec(stats)?.[1] ?? Number.NaN);
    const before = this.evicted;
    if (Number.isFinite(evicted)) this.evicted = evicted;
    if (before !== undefined && evicted > before && !policy.startsWith('volatile-'))
      return `${this.server} evicted ${evicted - before} keys (maxmemory-policy ${policy} now)`;
    checkEvictionPolicy(memory, this.server);
    return null;
  }
}

/** Redis' default `databases 16`: a URL's database number is 0..15. */
export const MAX_DATABASE = 15;

/**
 * The database number of a redis:// URL (its path; none: 0), checked before connecting: ioredis
 * turns `/abc` into SELECT NaN and, when SELECT fails, goes on in database 0, where tenants would
 * share keys. `url` has been checked to parse.
 */
export function databaseOf(url: string): number {
  const path = new URL(url).pathname;
  if (path === '' || path === '/') return 0;
  const digits = /^\/(\d{1,2})$/.exec(path)?.[1];
  const db = digits === undefined ? Number.NaN : Number(digits);
  if (!(db >= 0 && db <= MAX_DATABASE)) {
    throw new DoppelError(
      'INVALID_CONFIG',
      `the store URL's database number must be 0..${MAX_DATABASE}, not "${path.slice(1)}": ${redactUrl(url)}`,
    );
  }
  return db;
}

/**
 * SELECTs `db` itself, through the runner: a server configured with fewer databases refuses it
 * ("DB index is out of range"), which ioredis would otherwise swallow on connect.
 */
export async function selectDatabase(
  client: { select(db: number): Promise<unknown> },
  db: number,
  run: <T>(what: string, command: () => Promise<T>) => Promise<T>,
): Promise<void> {
  try {
    await run(`select database ${db}`, () => client.select(db));
  } catch (e) {
    const message = e instanceof Error ? e.message : String(e);
    if (/out of range|invalid DB index/i.test(message))
      throw new DoppelError('INVALID_CONFIG', `Redis has no database ${db}: ${message}`, { cause: e });
    throw e;
  }
}

/** Never throws and never waits on a dead server: a QUIT only when connected, bounded by the timeout. */
export async function closeClient(client: StoreClient, timeoutMs: number): Promise<void> {
  if (client.status === 'ready') {
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<void>((resolve) => {
      timer = setTimeout(resolve, timeoutMs);
    });
    await Promise.race([client.quit().catch(() => undefined), timeout]);
    clearTimeout(timer);
  }
  // Also stops the reconnect timer, which would keep the process alive.
  client.disconnect();
}
