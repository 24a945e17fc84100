import { afterAll, beforeAll } from 'vitest';
import { redisSchema } from '../../../src/config/dedup.js';
import { type LocalRedisCluster, startLocalRedisCluster } from '../../../src/dev/redis-cluster.js';
import { RedisClusterStore } from '../../../src/store/redis-cluster/store.js';
import { uniqueNamespace } from '../../support/redis.js';
import { storeConformance } from '../conformance.js';

// A real 3-master Redis Cluster (src/dev/redis-cluster.ts), started for this file.
let cluster: LocalRedisCluster;
beforeAll(async () => {
  cluster = await startLocalRedisCluster(3);
});
afterAll(async () => {
  await cluster?.stop();
});

storeConformance('redis cluster (3 masters, 6 slot shards)', async (window, limits) =>
  RedisClusterStore.open({
    url: cluster.url,
    namespace: uniqueNamespace('conf'),
    window,
    limits,
    redis: redisSchema.parse({ shards: 64, clusterShards: 16, slotShards: 6 }),
  }),
);
