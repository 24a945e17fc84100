import { describe, expect, it } from 'vitest';
import { redisSchema } from '../../../src/config/dedup.js';
import type { IndexKey } from '../../../src/engine/index-keys.js';
import {
  bucketAddresses,
  bucketAddressesMaxBytes,
  PROBABLY_THERE,
  READ_FIRST,
  RecentBuckets,
  writeBucketAddresses,
} from '../../../src/store/redis/keys.js';
import { RedisStore } from '../../../src/store/redis/store.js';
import { redisUrl, uniqueNamespace } from '../../support/redis.js';
import { request } from '../conformance.js';

/** The flag byte of each bucket in an addresses argument (keys.ts bucketAddresses' format). */
function flags(addresses: Buffer): number[] {
  const out: number[] = [];
  for (let at = 0; at < addresses.length; ) {
    const digits = addresses[at] as number;
    out.push(addresses[at + digits + 1] as number);
    at += digits + 4;
  }
  return out;
}

const KEYS: IndexKey[] = [
  { table: 'x', hi: 1, lo: 2 },
  { table: 'b0', hi: 3, lo: 4 },
  { table: 't', hi: 0, lo: 5 },
  { table: 'c', hi: 0, lo: 6 },
];

describe('bucket addresses: the probably-there hint', () => {
  it('flags the buckets a client wrote before, topic buckets stay read-first, addresses unchanged', () => {
    const recent = new RecentBuckets();
    const write = (keys: IndexKey[]) => {
      const out = Buffer.alloc(bucketAddressesMaxBytes(keys.length));
      return out.subarray(0, writeBucketAddresses(keys, 16_384, out, 0, recent));
    };
    const first = write(KEYS);
    expect(flags(first)).toEqual([0, 0, READ_FIRST, 0]);
    const again = write(KEYS);
    expect(flags(again)).toEqual([PROBABLY_THERE, PROBABLY_THERE, READ_FIRST, PROBABLY_THERE]);
    // Only the flags differ from the addresses without a hint.
    const plain = bucketAddresses(KEYS, 16_384);
    expect(flags(plain)).toEqual([0, 0, READ_FIRST, 0]);
    const masked = (b: Buffer) => {
      const copy = Buffer.from(b);
      for (let at = 0; at < copy.length; ) {
        const digits = copy[at] as number;
        copy[at + digits + 1] = 0;
        at += digits + 4;
      }
      return copy;
    };
    expect(masked(again).equals(masked(plain))).toBe(true);
    // A key never written is not flagged.
    expect(flags(write([{ table: 'b1', hi: 7, lo: 8 }]))).toEqual([0]);
  });

  it('inserts the message into buckets flagged probably there that hold no live member: the hint costs no verdict', async () => {
    const HOUR = 3_600_000;
    const T0 = Date.UTC(2026, 10, 1);
    const open = () =>
      RedisStore.open({
        url: redisUrl(),
        namespace,
        window: { windowMs: HOUR, generationMs: HOUR, maxMessages: 0 },
        limits: { maxBucketSize: 8, maxCandidates: 16 },
        redis: redisSchema.parse({ shards: 8, clusterShards: 4 }),
      });
    const namespace = uniqueNamespace('hint');
    const store = await open();
    const other = await open();
    try {
      const story = ['b0=a1', 'b1=a2', 'b2=a3'];
      await store.index([request('first', story, T0)]);
      // Three hours later: the first message's generation leaves the window, and 300 messages
      // take the sweep round all 12 hashes (which drops its bucket entries).
      const later = T0 + 3 * HOUR;
      for (let b = 0; b < 300; b += 50) {
        await store.index(
          Array.from({ length: 50 }, (_, i) =>
            request(`filler-${b + i}`, [`b5=${(b + i + 0x1000).toString(16)}`], later),
          ),
        );
      }
      // This client wrote the story's buckets, so it flags them: they hold no live member, and the
      // message is inserted into them all the same.
      const [second] = await store.index([request('second', story, later + 1)]);
      expect(second?.status).toBe('new');
      expect(second?.status === 'new' ? second.candidates : null).toEqual([]);
      // A client without the hint finds the second message in all three buckets.
      const [third] = await other.index([request('third', story, later + 2)]);
      expect(third?.status === 'new' ? third.candidates.map((c) => [c.id, c.hits]) : null).toEqual([
        ['second', 3],
      ]);
    } finally {
      await store.close();
      await other.close();
    }
  });
});
