import type { DedupConfig } from '../config/dedup.js';
import type { DedupStore } from '../engine/types.js';
import { DoppelError } from '../errors.js';
import { MemoryStore } from './memory.js';

export interface StoreOptions {
  config: DedupConfig;
  namespace: string;
}

/** `memory` (the embedded default) or a redis:// URL. */
export async function openStore(spec: string, options: StoreOptions): Promise<DedupStore> {
  if (spec === 'memory') return new MemoryStore(options.config.window, options.config.index);
  if (/^rediss?:\/\//.test(spec)) {
    throw new DoppelError('USAGE', 'the Redis store is not available in this version (use --store memory)');
  }
  throw new DoppelError('USAGE', `--store takes "memory" or a redis:// URL, not "${spec}"`);
}
