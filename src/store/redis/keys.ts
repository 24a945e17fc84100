import type { IndexKey } from '../../engine/keys.js';
import { fmix32, type U64 } from '../../hash/mix.js';
import { xxh64 } from '../../hash/xxhash.js';

/**
 * Every Redis key name and hash field of the store, in one place (the Lua scripts build the same
 * names from the base this module gives them; docs/redis.md draws the layout).
 *
 *   <prefix>:{<ns>}:meta        hash   clock, sequence, live bound, counters, sweep cursor
 *   <prefix>:{<ns>}:gens        hash   generation -> first sequence number of the generation
 *   <prefix>:{<ns>}:k:<shard>   hash   bucket field (5 bytes) -> members (members.ts);
 *                                      id field -> the message's sequence number
 *   <prefix>:{<ns>}:r:<block>   hash   seq mod 64 -> record (ts, id, signatures; binary)
 *   <prefix>:{<ns>}:v:<block>   hash   seq mod 64 -> verdict (JSON)
 *   <prefix>:{<ns>}:c:<shard>   hash   root seq -> cluster (JSON), clusters of two or more
 *
 * `{<ns>}` is the hash tag: a namespace lives in one slot, so every script's keys are in one
 * slot on Redis Cluster and one batch is one atomic script call. Scale across slots with more
 * namespaces (one per feed or tenant).
 */

/** Sequence numbers per record / verdict block (one hash each). */
export const BLOCK_SIZE = 64;

const NAMESPACE = /^[A-Za-z0-9._-]{1,64}$/;
const PREFIX = /^[A-Za-z0-9._:-]{1,64}$/;

export function namespaceBase(prefix: string, namespace: string): string {
  if (!PREFIX.test(prefix)) throw new Error(`invalid Redis key prefix "${prefix}"`);
  if (!NAMESPACE.test(namespace))
    throw new Error(`invalid namespace "${namespace}" (letters, digits, . _ -)`);
  return `${prefix}:{${namespace}}:`;
}

export const metaKey = (base: string) => `${base}meta`;
export const gensKey = (base: string) => `${base}gens`;
export const shardKey = (base: string, shard: number) => `${base}k:${shard}`;
export const recordKey = (base: string, seq: number) => `${base}r:${Math.floor(seq / BLOCK_SIZE)}`;
export const verdictKey = (base: string, seq: number) => `${base}v:${Math.floor(seq / BLOCK_SIZE)}`;
export const clusterKey = (base: string, rootSeq: number, clusterShards: number) =>
  `${base}c:${rootSeq % clusterShards}`;

/** One byte per table name: part of every bucket field, so tables never share a bucket. */
export function tableCode(table: string): number {
  const n = table.length > 1 ? Number(table.slice(1)) : 0;
  switch (table[0]) {
    case 'x':
      return 1;
    case 'm':
      return 2;
    case 't':
      return 3;
    case 'l':
      return table === 'l' ? 4 : table === 'ls' ? 5 : 6;
    case 's':
      return 16 + (n & 15);
    case 'i':
      return 32 + (n & 31);
    case 'b':
      // 64..253; 255 marks id fields. More than 190 bands would share codes (never configured).
      return 64 + (n % 190);
    default:
      throw new Error(`unknown index table "${table}"`);
  }
}

/** Where an id field lives: a shard hash and the field. */
export interface FieldAddress {
  shard: number;
  field: Buffer;
}

/**
 * Bytes per bucket in the addresses argument of index-1.lua and query-1.lua (`bucketAt` in
 * lua/_members.lua): u32le shard, then the 5-byte field (table code, the key's low 32 bits).
 */
export const BUCKET_ADDRESS_BYTES = 9;

/**
 * A message's buckets as one argument (ioredis' cost is per argument). The shard mixes all 64
 * bits of the key (topic keys are 32-bit term hashes with hi = 0, and must still spread over
 * every shard), so a bucket is told apart by its 32 field bits plus about log2(shards) more; two
 * keys that agree on all of them share a bucket, which adds a candidate that verification rejects.
 */
export function bucketAddresses(keys: readonly IndexKey[], shards: number): Buffer {
  const out = Buffer.allocUnsafe(BUCKET_ADDRESS_BYTES * keys.length);
  keys.forEach((key, j) => {
    const at = BUCKET_ADDRESS_BYTES * j;
    const code = tableCode(key.table);
    const mixed = fmix32(key.hi ^ Math.imul(key.lo, 0x85ebca6b) ^ Math.imul(code, 0x9e3779b1));
    out.writeUInt32LE((mixed >>> 0) % shards, at);
    out[at + 4] = code;
    out.writeUInt32LE(key.lo >>> 0, at + 5);
  });
  return out;
}

const ID_SEED = 0x646f7070656c6964n; // "doppelid"
const scratch: U64 = { hi: 0, lo: 0 };

/** A message id's field: byte 255 and 8 bytes of its XXH64 (ids of any length cost 9 bytes). */
export function idAddress(id: string, shards: number): FieldAddress {
  const h = xxh64(id, ID_SEED, scratch);
  const field = Buffer.allocUnsafe(9);
  field[0] = 0xff;
  field.writeUInt32LE(h.hi >>> 0, 1);
  field.writeUInt32LE(h.lo >>> 0, 5);
  return { shard: (h.hi >>> 0) % shards, field };
}
