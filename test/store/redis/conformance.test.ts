import { redisSchema } from '../../../src/config/dedup.js';
import { RedisStore } from '../../../src/store/redis/store.js';
import { redisUrl, uniqueNamespace } from '../../support/redis.js';
import { storeConformance } from '../conformance.js';

storeConformance('redis', async (window, limits) =>
  RedisStore.open({
    url: redisUrl(),
    namespace: uniqueNamespace('conf'),
    window,
    limits,
    redis: redisSchema.parse({ shards: 64, clusterShards: 16 }),
  }),
);
