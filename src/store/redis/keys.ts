import type { IndexKey } from '../../engine/index-keys.js';
import { fmix32, type U64 } from '../../hash/mix.js';
import { xxh64 } from '../../hash/xxhash.js';

/**
 * Every Redis key name and hash field of the store, in one place (the Lua scripts build the same
 * names from the constants this module gives them, `luaKeyConstants`; docs/redis.md draws the
 * layout).
 *
 *   <prefix>:{<ns>}:meta        hash   clock, sequence, live bound, counters, sweep cursor
 *   <prefix>:{<ns>}:gens        hash   generation -> first sequence number of the generation
 *   <prefix>:{<ns>}:k:<shard>   hash   bucket field (2 bytes) -> members (members.ts);
 *                                      id field (7 bytes) -> the message's sequence number
 *   <prefix>:{<ns>}:r:<block>   hash   seq mod 64 -> record (ts, id, signatures; binary)
 *   <prefix>:{<ns>}:v:<block>   hash   seq mod 64 -> verdict (JSON)
 *   <prefix>:{<ns>}:c:<shard>   hash   root seq -> cluster (JSON), clusters of two or more
 *   <prefix>:{<ns>}:t:<block>   hash   seq mod 64 -> the message's display title
 *   <prefix>:{<ns>}:x:<block>   hash   seq mod 64 -> the message's detail (engine/detail.ts)
 *   <prefix>:{<ns>}:m:<shard>   hash   root seq -> the cluster's decided members (packed)
 *   <prefix>:{<ns>}:cs, :cr     zset   stories by size, by last seen (the API's cluster list)
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

/**
 * The key families under a namespace's base: the one definition of the names. The client builds
 * the meta key (the scripts' KEYS[1], which routes a call to the namespace's slot); the scripts
 * build the others from the same parts, given to them as constants (`luaKeyConstants`), by
 * appending a shard or block number the client computed (its bucket and id addresses).
 */
export const KEY_PARTS = {
  meta: 'meta',
  gens: 'gens',
  shard: 'k:',
  record: 'r:',
  verdict: 'v:',
  cluster: 'c:',
  title: 't:',
  detail: 'x:',
  members: 'm:',
  bySize: 'cs',
  byRecency: 'cr',
} as const;

export const metaKey = (base: string) => `${base}${KEY_PARTS.meta}`;

/** Every key name a namespace may hold, for tests and tools that inspect a database. */
export function namespaceKeyPattern(base: string): RegExp {
  const escaped = base.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  const { meta, gens, bySize, byRecency, shard, record, verdict, cluster, title, detail, members } =
    KEY_PARTS;
  const numbered = [shard, record, verdict, cluster, title, detail, members].join('|');
  return new RegExp(`^${escaped}(?:${meta}|${gens}|${bySize}|${byRecency}|(?:${numbered})\\d+)$`);
}

/**
 * The marker field: every `k:<shard>` hash of a single-node namespace (lua/open-1.lua writes them
 * all when it creates the namespace) and every `v:<block>` hash (lua/index-1.lua, with the block's
 * first record) holds it, so a hash that lost it was deleted or evicted. One byte: bucket fields
 * are 2 bytes, id fields 7, verdict slots decimal numbers.
 */
export const MARKER_FIELD = '#';

/** The Lua constants every script starts with (scripts.ts prepends them): KEY_PARTS, BLOCK_SIZE, MARKER_FIELD. */
export function luaKeyConstants(): string {
  const { gens, shard, record, verdict, cluster, title, detail, members, bySize, byRecency } = KEY_PARTS;
  return [
    `local KEY_GENS, KEY_SHARD, KEY_RECORD, KEY_VERDICT, KEY_CLUSTER = '${gens}', '${shard}', '${record}', '${verdict}', '${cluster}'`,
    `local KEY_TITLE, KEY_DETAIL, KEY_MEMBERS, KEY_BY_SIZE, KEY_BY_RECENCY = '${title}', '${detail}', '${members}', '${bySize}', '${byRecency}'`,
    `local BLOCK_SIZE, MARKER_FIELD = ${BLOCK_SIZE}, '${MARKER_FIELD}'`,
    '',
  ].join('\n');
}

const codes = new Map<string, number>();

/** One code per table name, mixed into every bucket's shard and field, so tables never share a bucket. */
export function tableCode(table: string): number {
  // A message has 26 keys and a profile a few dozen table names: parse each name once.
  let code = codes.get(table);
  if (code === undefined) {
    code = parseTableCode(table);
    codes.set(table, code);
  }
  return code;
}

function parseTableCode(table: string): number {
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
    case 'c':
      return 7;
    case 's':
      return 16 + (n & 15);
    case 'i':
      return 32 + (n & 31);
    case 'b':
      // 64..253. More than 190 bands would share codes (never configured).
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

/** Bytes of a bucket field: id fields are longer, which is how the sweep tells them apart. */
export const BUCKET_FIELD_BYTES = 2;
/** Bytes of an id field. */
export const ID_FIELD_BYTES = 7;

/** The topic-term table's code: its buckets are read first (READ_FIRST). */
export const TOPIC_CODE = tableCode('t');

/** Flag byte of a bucket address: read the bucket before writing (topic buckets, mostly full). */
export const READ_FIRST = 1;
/**
 * Flag byte of a bucket address: this client wrote the bucket before, so it is probably there
 * (a near-duplicate shares most of its buckets with an earlier copy): index-1.lua reads it first
 * (HGET, then HSET) instead of an HSETNX that fails before the same two calls. A hint only: a
 * bucket that is absent after all is inserted as with no flag, so verdicts do not depend on it.
 */
export const PROBABLY_THERE = 2;

/**
 * The buckets this client wrote recently, as 32-bit fingerprints in a direct-mapped table (4 MB):
 * an entry is overwritten by a later bucket that maps to its slot, and a fingerprint that matches
 * a bucket never written costs one HGET more. Either way only the hint is wrong.
 */
export class RecentBuckets {
  private readonly slots = new Uint32Array(1 << 20);

  /** Whether `fingerprint` was seen (probably), and records it. */
  seenAndAdd(fingerprint: number): boolean {
    const f = fingerprint >>> 0 || 1;
    const i = (Math.imul(f, 0x9e3779b1) >>> 12) & 0xfffff;
    const seen = this.slots[i] === f;
    this.slots[i] = f;
    return seen;
  }
}

/** Most bytes per bucket in the addresses argument (shards < 2^24: at most 8 digits). */
const BUCKET_ADDRESS_MAX_BYTES = 1 + 8 + 1 + BUCKET_FIELD_BYTES;

/**
 * A message's buckets as one argument (ioredis' cost is per argument), read by `bucketAt` in
 * lua/_members.lua: per bucket a byte n, the shard in n decimal digits (the shard key's suffix, so
 * Lua only concatenates: parsing a binary number and formatting it cost twice as much per key), a
 * flag byte (READ_FIRST) and the 2-byte field.
 *
 * The shard and the field come from two different 32-bit mixes of the table code and all 64 key
 * bits (topic keys are 32-bit term hashes with hi = 0, and must still spread over every shard):
 * a bucket is told apart by log2(shards) + 16 bits, 30 with 16,384 shards. Two keys that agree on
 * all of them share a bucket: per lookup about fields per shard / 2^16, 0.2% at 120 fields per
 * shard (100k messages on 16,384 shards), ~0.5% at the sizing docs/redis.md recommends. A false
 * share only adds the other bucket's members as candidates (one shared bucket each, so they rank
 * below real near-duplicates, and verification rejects them) and puts the message in that bucket
 * instead of its own; measured, the bench's flagged count does not move (docs/benchmarks.md).
 * What it buys: a field is a 4-byte listpack entry, not 7 as with the key's 4 low bytes and a
 * table byte, on ~18 bucket fields per message: ~55 bytes per message, which the 600-byte budget
 * needed.
 */
export function bucketAddresses(keys: readonly IndexKey[], shards: number): Buffer {
  const out = Buffer.allocUnsafe(BUCKET_ADDRESS_MAX_BYTES * keys.length);
  return out.subarray(0, writeBucketAddresses(keys, shards, out, 0));
}

/** Most bytes `writeBucketAddresses` writes for `n` keys. */
export const bucketAddressesMaxBytes = (n: number): number => BUCKET_ADDRESS_MAX_BYTES * n;

/**
 * `bucketAddresses` written into `out` at `start` (which must have room for
 * `bucketAddressesMaxBytes(keys.length)`); returns where it ended. The store writes them into a
 * reused scratch buffer, not a new Buffer per message.
 */
/** The two 32-bit mixes of a bucket (`bucketAddresses`): shard = mix.shard mod shards, field = its low 16 bits. */
export interface BucketMix {
  shard: number;
  field: number;
}

/** Writes `key`'s shard and field mixes into `out` (no allocation per key); returns its table code. */
export function bucketMix(key: IndexKey, out: BucketMix): number {
  const code = tableCode(key.table);
  out.shard = fmix32(key.hi ^ Math.imul(key.lo, 0x85ebca6b) ^ Math.imul(code, 0x9e3779b1));
  out.field = fmix32(key.lo ^ Math.imul(key.hi, 0xcc9e2d51) ^ Math.imul(code + 1, 0x1b873593));
  return code;
}

const mixed: BucketMix = { shard: 0, field: 0 };

/**
 * A bucket's shard as the scripts read it: one byte of its digit count, then its decimal digits
 * (the key name's suffix, so that Lua concatenates it without a number conversion). Returns the
 * position after it.
 */
export function writeShardDigits(out: Buffer, at: number, shard: number): number {
  let digits = 1;
  for (let p = 10; shard >= p; p *= 10) digits++;
  out[at] = digits;
  let rest = shard;
  for (let i = digits; i >= 1; i--) {
    out[at + i] = 48 + (rest % 10);
    rest = Math.floor(rest / 10);
  }
  return at + digits + 1;
}

export function writeBucketAddresses(
  keys: readonly IndexKey[],
  shards: number,
  out: Buffer,
  start: number,
  recent?: RecentBuckets,
): number {
  let at = start;
  for (let j = 0; j < keys.length; j++) {
    const key = keys[j] as IndexKey;
    const code = bucketMix(key, mixed);
    const forShard = mixed.shard;
    const forField = mixed.field;
    at = writeShardDigits(out, at, forShard % shards);
    // Topic-term buckets are mostly there already, often full: index-1.lua reads them first.
    let flag = 0;
    if (code === TOPIC_CODE) flag = READ_FIRST;
    else if (recent?.seenAndAdd(forShard ^ Math.imul(forField, 0x85ebca6b))) flag = PROBABLY_THERE;
    out[at] = flag;
    out[at + 1] = forField & 0xff;
    out[at + 2] = (forField >>> 8) & 0xff;
    at += 3;
  }
  return at;
}

const ID_SEED = 0x646f7070656c6964n; // "doppelid"
const scratch: U64 = { hi: 0, lo: 0 };

/**
 * A message id's field: 7 bytes of its XXH64 (ids of any length cost the same). The shard takes
 * the low bits of the high word, the field the low word and the high word's top 24 bits, so an
 * id is told apart by ~62 bits plus the few the shard adds: two live ids that agree on all of
 * them would be taken for one message (about n^2 / 2^63 for n ids in a window: never in practice).
 */
export function idAddress(id: string, shards: number): FieldAddress {
  const field = Buffer.allocUnsafe(ID_FIELD_BYTES);
  return { shard: writeIdField(id, shards, field, 0), field };
}

/** `idAddress` without the allocations: writes the field into `out` at `at`, returns the shard. */
export function writeIdField(id: string, shards: number, out: Buffer, at: number): number {
  const h = xxh64(id, ID_SEED, scratch);
  const lo = h.lo >>> 0;
  out[at] = lo & 0xff;
  out[at + 1] = (lo >>> 8) & 0xff;
  out[at + 2] = (lo >>> 16) & 0xff;
  out[at + 3] = lo >>> 24;
  out[at + 4] = (h.hi >>> 8) & 0xff;
  out[at + 5] = (h.hi >>> 16) & 0xff;
  out[at + 6] = (h.hi >>> 24) & 0xff;
  return (h.hi >>> 0) % shards;
}
