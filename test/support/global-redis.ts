import type { TestProject } from 'vitest/node';
import { type LocalRedis, redisServerAvailable, startLocalRedis } from '../../src/dev/redis-server.js';

/**
 * One real redis-server (Debian's) on a free loopback port for the whole run; every Redis test
 * uses its own namespace. `npm test` installs redis-server when it is missing
 * (scripts/ensure-servers.sh); without it the Redis suites fail with the reason, they do not skip.
 */
let redis: LocalRedis | undefined;

export async function setup(project: TestProject): Promise<void> {
  if (!redisServerAvailable()) {
    project.provide('redisUrl', '');
    process.stdout.write(
      '[redis] redis-server is not installed: Redis suites will fail (run npm test as root, or apt-get install -y redis-server)\n',
    );
    return;
  }
  redis = await startLocalRedis();
  project.provide('redisUrl', redis.url);
}

export async function teardown(): Promise<void> {
  await redis?.stop();
}

declare module 'vitest' {
  export interface ProvidedContext {
    redisUrl: string;
  }
}
