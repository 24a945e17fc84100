import type { IndexKey } from '../../engine/index-keys.js';
import {
  bucketMix,
  PROBABLY_THERE,
  READ_FIRST,
  type RecentBuckets,
  TOPIC_CODE,
  writeShardDigits,
} from './keys.js';

/** Bytes per bucket reference in a message's argument: a 3-byte index and the flag byte. */
export const BUCKET_REF_BYTES = 4;
/** Most distinct buckets one call can name (3-byte indexes). */
export const MAX_BATCH_BUCKETS = 1 << 24;
/** Bytes per entry of the batch's bucket table besides the key prefix (length, 8 digits, field). */
const ENTRY_EXTRA_BYTES = 2 + 8 + 2;

/**
 * The distinct buckets of one index-1.lua call, and each message's buckets as references into
 * them. A batch names the same bucket many times (topic terms recur; copies of one story often
 * share a batch, and a message's keys repeat across its copies), and turning an address into a
 * key name, a field and the call's cache slot was ~0.8 µs of Redis CPU per bucket in Lua (string
 * slices and concatenations, each a new Lua string): the script now does that once per distinct
 * bucket, from this table, and per reference reads 4 bytes and indexes two arrays.
 *
 * Table entry (one argument for the call, in order of first reference): the length n of the key
 * name (2 bytes, little-endian), the shard hash's key name in n bytes (the key prefix, e.g.
 * `doppel:{news}:k:`, and the shard in decimal digits), the 2-byte field. Whole key names, so that
 * Lua makes one string per key (a slice), not a slice of the digits and a concatenation: each new
 * Lua string is interned (hashed, looked up, allocated), ~10% of Redis CPU in index calls under
 * `perf`. The script checks that each name starts with the namespace's prefix. Reference (per bucket of a message):
 * the entry's 0-based index in 3 bytes little-endian, then the flag byte (READ_FIRST,
 * PROBABLY_THERE), which stays per reference: it is what the client knew when it wrote that
 * message's buckets.
 */
export class BatchBuckets {
  /** @param keyPrefix the shard keys' common prefix (base and `k:`); empty: the digits alone. */
  constructor(private readonly keyPrefix: Buffer = Buffer.alloc(0)) {}

  private readonly index = new Map<number, number>();
  private table = Buffer.allocUnsafe(64 * 1024);
  private tableBytes = 0;
  private readonly mix = { shard: 0, field: 0 };

  /** Starts a new call. */
  reset(): void {
    this.index.clear();
    this.tableBytes = 0;
  }

  /** Most bytes `writeRefs` writes for `n` keys. */
  static refsMaxBytes(n: number): number {
    return BUCKET_REF_BYTES * n;
  }

  /**
   * A message's buckets as references, written into `out` at `start` (room for
   * `refsMaxBytes(keys.length)`); returns where they end. New buckets join the table.
   */
  writeRefs(
    keys: readonly IndexKey[],
    shards: number,
    out: Buffer,
    start: number,
    recent?: RecentBuckets,
  ): number {
    let at = start;
    const mix = this.mix;
    for (let j = 0; j < keys.length; j++) {
      const key = keys[j] as IndexKey;
      const code = bucketMix(key, mix);
      const shard = mix.shard % shards;
      const field = mix.field & 0xffff;
      // shard < 2^24 and field < 2^16: an exact number key.
      const name = shard * 65_536 + field;
      let i = this.index.get(name);
      if (i === undefined) {
        i = this.index.size;
        if (i >= MAX_BATCH_BUCKETS)
          throw new RangeError(`more than ${MAX_BATCH_BUCKETS} buckets in one index call`);
        this.index.set(name, i);
        this.addEntry(shard, field);
      }
      out[at] = i & 0xff;
      out[at + 1] = (i >>> 8) & 0xff;
      out[at + 2] = i >>> 16;
      // The same hint as the per-message addresses (keys.ts writeBucketAddresses).
      let flag = 0;
      if (code === TOPIC_CODE) flag = READ_FIRST;
      else if (recent?.seenAndAdd(mix.shard ^ Math.imul(mix.field, 0x85ebca6b))) flag = PROBABLY_THERE;
      out[at + 3] = flag;
      at += BUCKET_REF_BYTES;
    }
    return at;
  }

  /** The table of the call's distinct buckets so far (valid until the next `writeRefs` or `reset`). */
  entries(): Buffer {
    return this.table.subarray(0, this.tableBytes);
  }

  /** How many distinct buckets the call names. */
  get size(): number {
    return this.index.size;
  }

  private addEntry(shard: number, field: number): void {
    const prefix = this.keyPrefix;
    if (this.tableBytes + prefix.length + ENTRY_EXTRA_BYTES > this.table.length) {
      const grown = Buffer.allocUnsafe(2 * this.table.length + prefix.length + ENTRY_EXTRA_BYTES);
      this.table.copy(grown, 0, 0, this.tableBytes);
      this.table = grown;
    }
    const t = this.table;
    const start = this.tableBytes;
    prefix.copy(t, start + 2);
    // writeShardDigits writes its digit count at its start, overwritten by the prefix's last byte
    // (or the length's second byte when there is no prefix): shift by one to keep it out.
    const last = start + 1 + prefix.length;
    const saved = t[last] as number;
    const at = writeShardDigits(t, last, shard);
    t[last] = saved;
    const length = at - start - 2;
    t[start] = length & 0xff;
    t[start + 1] = length >>> 8;
    t[at] = field & 0xff;
    t[at + 1] = field >>> 8;
    this.tableBytes = at + 2;
  }
}
