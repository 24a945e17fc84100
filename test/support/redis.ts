import { randomBytes } from 'node:crypto';
import { inject } from 'vitest';

/** The run's Redis URL (test/support/global-redis.ts); throws with the reason when there is none. */
export function redisUrl(): string {
  const url = inject('redisUrl');
  if (!url) throw new Error('no redis-server for this run: install it (apt-get install -y redis-server)');
  return url;
}

/** A namespace no other test uses. */
export function uniqueNamespace(label: string): string {
  return `t-${label}-${randomBytes(4).toString('hex')}`;
}
