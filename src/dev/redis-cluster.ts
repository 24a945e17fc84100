import { Redis } from 'ioredis';
import { type LocalRedis, startLocalRedis } from './redis-server.js';

/**
 * A local Redis Cluster for tests and benchmarks: `masters` redis-servers (Debian's, started by
 * redis-server.ts on free loopback ports, no persistence, docs/redis.md's settings) with
 * `cluster-enabled yes`, the 16,384 slots split evenly in order (as `redis-cli --cluster create`
 * does: node 0 holds 0-5460 of three), joined with CLUSTER MEET; returns once every node says
 * cluster_state:ok and knows every other. No replicas: throw-away data.
 */
export interface LocalRedisCluster {
  /** `redis+cluster://127.0.0.1:p1,127.0.0.1:p2,...` (the store URL doppel takes). */
  url: string;
  nodes: LocalRedis[];
  stop(): Promise<void>;
}

export const SLOTS = 16_384;

export async function startLocalRedisCluster(masters = 3): Promise<LocalRedisCluster> {
  const nodes: LocalRedis[] = [];
  const clients: Redis[] = [];
  try {
    for (let i = 0; i < masters; i++) {
      nodes.push(
        await startLocalRedis({
          settings: {
            'cluster-enabled': 'yes',
            // Relative to the server's own temporary dir.
            'cluster-config-file': 'nodes.conf',
            'cluster-node-timeout': '5000',
          },
        }),
      );
    }
    for (const node of nodes) clients.push(new Redis(node.port, '127.0.0.1', { lazyConnect: false }));
    for (const [i, client] of clients.entries()) {
      const first = Math.floor((i * SLOTS) / masters);
      const last = Math.floor(((i + 1) * SLOTS) / masters) - 1;
      await client.call('CLUSTER', 'ADDSLOTSRANGE', String(first), String(last));
    }
    for (const node of nodes.slice(1))
      await clients[0]?.call('CLUSTER', 'MEET', '127.0.0.1', String(node.port));
    const deadline = Date.now() + 30_000;
    for (;;) {
      const states = await Promise.all(
        clients.map(async (c) => {
          const info = String(await c.call('CLUSTER', 'INFO'));
          return /cluster_state:ok/.test(info) && new RegExp(`cluster_known_nodes:${masters}\\b`).test(info);
        }),
      );
      if (states.every(Boolean)) break;
      if (Date.now() > deadline)
        throw new Error('the local Redis Cluster did not reach cluster_state:ok in 30 s');
      await new Promise((r) => setTimeout(r, 50));
    }
  } catch (e) {
    for (const c of clients) c.disconnect();
    await Promise.all(nodes.map((n) => n.stop()));
    throw e;
  }
  for (const c of clients) c.disconnect();
  return {
    url: `redis+cluster://${nodes.map((n) => `127.0.0.1:${n.port}`).join(',')}`,
    nodes,
    async stop() {
      await Promise.all(nodes.map((n) => n.stop()));
    },
  };
}

/** `node dist/dev/redis-cluster.js [MASTERS]`: runs a local cluster in the foreground until Ctrl-C. */
async function main(): Promise<void> {
  const cluster = await startLocalRedisCluster(Number(process.argv[2] ?? 3));
  process.stdout.write(`Redis Cluster on ${cluster.url}; Ctrl-C stops it\n`);
  const stop = () => {
    void cluster.stop().then(() => process.exit(0));
  };
  process.once('SIGINT', stop);
  process.once('SIGTERM', stop);
}

if (import.meta.url === `file://${process.argv[1]}`) void main();
