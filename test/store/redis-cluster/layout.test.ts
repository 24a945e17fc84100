import { describe, expect, it } from 'vitest';
import {
  CLUSTER_SLOTS,
  clusterLayout,
  keySlot,
  parseClusterUrl,
} from '../../../src/store/redis-cluster/layout.js';

describe('Redis Cluster layout', () => {
  it('computes key slots as Redis does (CRC16/XMODEM mod 16384, hash tags)', () => {
    // Values from the Redis Cluster specification and CLUSTER KEYSLOT.
    expect(keySlot('foo')).toBe(12182);
    expect(keySlot('hello')).toBe(866);
    expect(keySlot('{user1000}.following')).toBe(keySlot('user1000'));
    // An empty first tag: the whole key is hashed.
    expect(keySlot('foo{}{bar}')).not.toBe(keySlot('bar'));
    expect(keySlot('{}foo')).not.toBe(keySlot('foo'));
  });

  it('puts shard k in the k-th of N slot ranges, the home in shard 0s', () => {
    for (const n of [1, 3, 6, 12]) {
      const layout = clusterLayout('doppel', 'news', n);
      layout.shards.forEach((base, k) => {
        const slot = keySlot(`${base}meta`);
        expect(slot).toBeGreaterThanOrEqual(Math.floor((k * CLUSTER_SLOTS) / n));
        expect(slot).toBeLessThan(Math.floor(((k + 1) * CLUSTER_SLOTS) / n));
      });
      expect(keySlot(`${layout.home}meta`)).toBeLessThan(Math.floor(CLUSTER_SLOTS / n));
      expect(new Set([layout.home, ...layout.shards]).size).toBe(n + 1);
    }
    // Tags never collide with a single-node namespace (":" is not allowed in a namespace name).
    expect(clusterLayout('doppel', 'news', 3).home).toMatch(/^doppel:\{news:h~\d+\}:$/);
    expect(() => clusterLayout('doppel', 'bad{ns}', 3)).toThrow(/invalid namespace/);
  });

  it('gives shard 0 homeShardWeight of a full share of the bucket hashes', () => {
    const layout = clusterLayout('doppel', 'news', 3, 0.35);
    const counts = [0, 0, 0];
    for (let h = 0; h < 16_384; h++) counts[layout.shardOfUnit[h % layout.units]!]!++;
    expect(counts[0]! / counts[1]!).toBeCloseTo(0.35, 1);
    expect(Math.abs(counts[1]! - counts[2]!)).toBeLessThanOrEqual(20);
    // Weight 1: even shares; one shard: all of them.
    const even = clusterLayout('doppel', 'news', 3, 1);
    expect(even.unitCount).toEqual([20, 20, 20]);
    expect(clusterLayout('doppel', 'news', 1, 0.35).unitCount).toEqual([20]);
    // Weight 0: the home's master holds no buckets (many masters: the home is work enough).
    const none = clusterLayout('doppel', 'news', 4, 0);
    expect(none.unitCount).toEqual([0, 20, 20, 20]);
    expect([...none.shardOfUnit].includes(0)).toBe(false);
  });

  it('parses redis+cluster:// URLs and refuses malformed ones', () => {
    expect(parseClusterUrl('redis+cluster://10.0.0.1:7000,10.0.0.2:7001')).toEqual({
      nodes: [
        { host: '10.0.0.1', port: 7000 },
        { host: '10.0.0.2', port: 7001 },
      ],
      tls: false,
    });
    expect(parseClusterUrl('rediss+cluster://u:p%40ss@h:1/')).toEqual({
      nodes: [{ host: 'h', port: 1 }],
      username: 'u',
      password: 'p@ss',
      tls: true,
    });
    expect(parseClusterUrl('redis+cluster://:secret@[::1]:7000')).toMatchObject({
      nodes: [{ host: '::1', port: 7000 }],
      password: 'secret',
    });
    for (const bad of [
      'redis://h:1',
      'redis+cluster://',
      'redis+cluster://h',
      'redis+cluster://h:0',
      'redis+cluster://h:1,',
    ]) {
      expect(parseClusterUrl(bad)).toBeNull();
    }
  });
});
