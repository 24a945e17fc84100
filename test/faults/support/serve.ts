import { freePort } from '../../../src/dev/redis-server.js';
import { type ServeProcess, spawnServe } from '../../support/serve-process.js';

/**
 * `doppel serve` on the memory store, loopback, log level warn (a fuzz run's thousands of requests
 * log nothing but trouble). There is no listening line at that level: it runs on a free port
 * chosen here and is ready when /healthz answers.
 */
export async function quietServe(): Promise<ServeProcess> {
  return spawnServe({
    port: await freePort(),
    args: ['--store', 'memory', '--host', '127.0.0.1'],
    env: { DOPPEL_LOG_LEVEL: 'warn' },
  });
}
