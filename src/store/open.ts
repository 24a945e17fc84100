import type { DedupConfig } from '../config/dedup.js';
import type { DedupStore } from '../engine/types.js';
import { DoppelError } from '../errors.js';
import { redactUrl } from '../redact.js';
import { MemoryStore } from './memory/store.js';

export interface StoreOptions {
  config: DedupConfig;
  /** Overrides config.redis.namespace (the command line's --namespace). */
  namespace?: string;
}

/** `memory` (the embedded default), a redis:// / rediss:// URL, or redis+cluster://h1:p1,h2:p2 (Redis Cluster). */
export async function openStore(spec: string, options: StoreOptions): Promise<DedupStore> {
  const { config } = options;
  if (spec === 'memory') return new MemoryStore(config.window, config.index);
  // The Redis stores (and ioredis, ~0.1 s of CPU to load) are imported only when a run uses them.
  if (/^rediss?\+cluster:\/\//.test(spec)) {
    const { RedisClusterStore } = await import('./redis-cluster/store.js');
    return RedisClusterStore.open({
      url: spec,
      namespace: options.namespace ?? config.redis.namespace,
      window: config.window,
      limits: config.index,
      redis: config.redis,
      resetLost: config.redis.resetLostNamespace || process.env.DOPPEL_RESET_NAMESPACE === '1',
    });
  }
  if (/^rediss?:\/\//.test(spec)) {
    const { RedisStore } = await import('./redis/store.js');
    return RedisStore.open({
      url: spec,
      namespace: options.namespace ?? config.redis.namespace,
      window: config.window,
      limits: config.index,
      redis: config.redis,
      resetLost: config.redis.resetLostNamespace || process.env.DOPPEL_RESET_NAMESPACE === '1',
    });
  }
  throw new DoppelError(
    'USAGE',
    `--store takes "memory", a redis:// URL or a redis+cluster://host:port,host:port URL, not "${redactUrl(spec)}"`,
  );
}
