import type { IndexKey } from '../../engine/keys.js';
import { fmix32, type U64 } from '../../hash/mix.js';
import { xxh64 } from '../../hash/xxhash.js';

/**
 * Every Redis key name and hash field of the store, in one place (the Lua scripts build the same
 * names from the base this module gives them; docs/redis.md draws the layout).
 *
 *   <prefix>:{<ns>}:meta        hash   clock, sequence, live bound, counters, sweep cursor
 *   <prefix>:{<ns>}:gens        hash   generation -> first sequence number of the generation
 *   <prefix>:{<ns>}:k:<shard>   hash   bucket field -> member sequence numbers ("12,40,41");
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

/** Where a bucket lives: a shard hash, and a 6-byte field (table code, 40 bits of the key). */
export interface FieldAddress {
  shard: number;
  field: Buffer;
}

/**
 * The shard comes from bits of the key that the field does not hold, so a bucket is told apart by
 * 40 + log2(shards) bits of its 64-bit key; two keys that agree on all of them share a bucket,
 * which adds a candidate that verification rejects.
 */
export function bucketAddress(key: IndexKey, shards: number): FieldAddress {
  const field = Buffer.allocUnsafe(6);
  field[0] = tableCode(key.table);
  field.writeUInt32LE(key.lo >>> 0, 1);
  field[5] = key.hi & 0xff;
  const shard = (fmix32((key.hi >>> 8) ^ Math.imul(field[0], 0x9e3779b1)) >>> 0) % shards;
  return { shard, field };
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
