import { describe, expect, it } from 'vitest';
import type { IndexKey } from '../../../src/engine/index-keys.js';
import { BatchBuckets, BUCKET_REF_BYTES } from '../../../src/store/redis/batch-buckets.js';
import { bucketAddresses, PROBABLY_THERE, READ_FIRST, RecentBuckets } from '../../../src/store/redis/keys.js';

/** The (key name, field) pairs of a bucket table (key name: prefix and shard digits), field in hex. */
function tableEntries(table: Buffer): string[] {
  const out: string[] = [];
  for (let at = 0; at < table.length; ) {
    const length = table.readUInt16LE(at);
    out.push(
      `${table.subarray(at + 2, at + 2 + length).toString('latin1')}/${table.subarray(at + 2 + length, at + 4 + length).toString('hex')}`,
    );
    at += length + 4;
  }
  return out;
}

function addressEntries(addresses: Buffer): string[] {
  const out: string[] = [];
  for (let at = 0; at < addresses.length; ) {
    const digits = addresses[at] as number;
    out.push(
      `${addresses.subarray(at + 1, at + 1 + digits).toString('latin1')}/${addresses.subarray(at + 2 + digits, at + 4 + digits).toString('hex')}`,
    );
    at += digits + 4;
  }
  return out;
}

/** Each reference's (index, flag). */
function refs(out: Buffer): Array<[number, number]> {
  const list: Array<[number, number]> = [];
  for (let at = 0; at < out.length; at += BUCKET_REF_BYTES) {
    list.push([out.readUIntLE(at, 3), out[at + 3] as number]);
  }
  return list;
}

const A: IndexKey[] = [
  { table: 'x', hi: 1, lo: 2 },
  { table: 'b0', hi: 3, lo: 4 },
  { table: 't', hi: 0, lo: 5 },
];
const B: IndexKey[] = [
  { table: 'b0', hi: 3, lo: 4 },
  { table: 'b1', hi: 9, lo: 10 },
  { table: 't', hi: 0, lo: 5 },
];

describe("a batch's distinct buckets (index-1.lua's bucket table)", () => {
  it('names each distinct bucket once, with the shard and field of the per-message addresses', () => {
    const batch = new BatchBuckets();
    const write = (keys: IndexKey[], recent?: RecentBuckets) => {
      const out = Buffer.alloc(BatchBuckets.refsMaxBytes(keys.length));
      return out.subarray(0, batch.writeRefs(keys, 1_000, out, 0, recent));
    };
    const first = write(A);
    const second = write(B);
    expect(batch.size).toBe(4);
    expect(refs(first).map(([i]) => i)).toEqual([0, 1, 2]);
    // b0=3:4 and the topic term repeat: the same indexes as in the first message.
    expect(refs(second).map(([i]) => i)).toEqual([1, 3, 2]);
    const table = tableEntries(batch.entries());
    const all = [...addressEntries(bucketAddresses(A, 1_000)), ...addressEntries(bucketAddresses(B, 1_000))];
    expect(table).toEqual([...new Set(all)]);
    // A new call starts a new table.
    batch.reset();
    expect(batch.size).toBe(0);
    expect(refs(write(B)).map(([i]) => i)).toEqual([0, 1, 2]);
    expect(tableEntries(batch.entries())).toEqual(addressEntries(bucketAddresses(B, 1_000)));
  });

  it("writes whole key names: the shard keys' prefix, then the shard's digits", () => {
    const prefix = 'doppel:{tenant-ü}:k:';
    const batch = new BatchBuckets(Buffer.from(prefix));
    const out = Buffer.alloc(BatchBuckets.refsMaxBytes(A.length + B.length));
    batch.writeRefs(B, 1_000, out, batch.writeRefs(A, 1_000, out, 0));
    const named = tableEntries(batch.entries());
    const all = [...addressEntries(bucketAddresses(A, 1_000)), ...addressEntries(bucketAddresses(B, 1_000))];
    expect(named).toEqual([...new Set(all)].map((entry) => Buffer.from(prefix).toString('latin1') + entry));
  });

  it('keeps the flag per reference: topic buckets read first, buckets this client wrote probably there', () => {
    const batch = new BatchBuckets();
    const recent = new RecentBuckets();
    const write = (keys: IndexKey[]) => {
      const out = Buffer.alloc(BatchBuckets.refsMaxBytes(keys.length));
      return out.subarray(0, batch.writeRefs(keys, 16_384, out, 0, recent));
    };
    expect(refs(write(A)).map(([, f]) => f)).toEqual([0, 0, READ_FIRST]);
    // The same bucket again in the same call: same index, now flagged.
    expect(refs(write(B)).map(([, f]) => f)).toEqual([PROBABLY_THERE, 0, READ_FIRST]);
  });

  it('counts past one byte of indexes (3-byte little-endian references)', () => {
    const batch = new BatchBuckets();
    const keys: IndexKey[] = Array.from({ length: 70_000 }, (_, i) => ({
      table: 'b2',
      hi: i,
      lo: i * 7 + 1,
    }));
    const out = Buffer.alloc(BatchBuckets.refsMaxBytes(keys.length));
    const end = batch.writeRefs(keys, 16_384, out, 0);
    const list = refs(out.subarray(0, end));
    const distinct = new Set(addressEntries(bucketAddresses(keys, 16_384))).size;
    expect(batch.size).toBe(distinct);
    expect(Math.max(...list.map(([i]) => i))).toBe(distinct - 1);
    expect(distinct).toBeGreaterThan(65_536);
  });
});
