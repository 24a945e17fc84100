import { namespaceBase } from '../redis/keys.js';

/**
 * Where a namespace spread over Redis Cluster lives (docs/redis.md, "Redis Cluster"):
 *
 *   <prefix>:{<ns>:h~<j>}:...      the home shard: meta (sequence, clock, generations, live
 *                                  bound, epoch), id fields, records, verdicts, clusters: the
 *                                  single-node layout without buckets, run by the same scripts
 *   <prefix>:{<ns>:s<k>~<j>}:...   bucket shard k of N: meta (applied, live, counters, epoch) and
 *                                  the bucket hashes k:<h> of its units
 *
 * A bucket hash h (keys.ts bucketAddresses) is in unit h mod `units`; each shard holds a run of
 * units. Shard k's tag gets the first suffix j that puts it in the k-th of N equal slot ranges, so
 * with the slots split evenly over M masters (redis-cli --cluster create does) and N a multiple of
 * M, every master holds N / M shards. `:` cannot occur in a namespace name, so no single-node namespace shares these tags.
 */

export const CLUSTER_SLOTS = 16_384;

const CRC16_TABLE = (() => {
  const table = new Uint16Array(256);
  for (let i = 0; i < 256; i++) {
    let crc = i << 8;
    for (let b = 0; b < 8; b++) crc = crc & 0x8000 ? ((crc << 1) ^ 0x1021) & 0xffff : (crc << 1) & 0xffff;
    table[i] = crc;
  }
  return table;
})();

/** CRC16/XMODEM, as Redis Cluster hashes keys. */
export function crc16(bytes: Uint8Array): number {
  let crc = 0;
  for (const byte of bytes) crc = ((crc << 8) & 0xffff) ^ (CRC16_TABLE[((crc >> 8) ^ byte) & 0xff] as number);
  return crc;
}

/** The Redis Cluster slot of a key (its hash tag when it has a non-empty one). */
export function keySlot(key: string): number {
  let hashed = key;
  const open = key.indexOf('{');
  if (open >= 0) {
    const close = key.indexOf('}', open + 1);
    if (close > open + 1) hashed = key.slice(open + 1, close);
  }
  return crc16(Buffer.from(hashed, 'utf8')) % CLUSTER_SLOTS;
}

export interface ClusterLayout {
  /** The home shard's key base, `<prefix>:{<ns>:h~<j>}:` (in shard 0's slot range). */
  home: string;
  /** Bucket shard k's key base. */
  shards: string[];
  /** Units of the bucket hashes: hash h is in unit h mod `units`. */
  units: number;
  /** Shard k holds the units [firstUnit[k], firstUnit[k] + unitCount[k]). */
  firstUnit: number[];
  unitCount: number[];
  /** The shard of each unit. */
  shardOfUnit: Uint16Array;
}

/** Units of a bucket shard of full weight (shard 0 gets `homeShardWeight` of this many; 0: no buckets). */
const UNITS_PER_SHARD = 20;

/** The tag in slot range k of n: `<base>~<j>` with the first j that lands there. */
function tagInRange(base: string, k: number, n: number): string {
  const first = Math.floor((k * CLUSTER_SLOTS) / n);
  const last = Math.floor(((k + 1) * CLUSTER_SLOTS) / n) - 1;
  for (let j = 0; ; j++) {
    const tag = `${base}~${j}`;
    const slot = keySlot(`{${tag}}`);
    if (slot >= first && slot <= last) return tag;
  }
}

/**
 * The home shard and bucket shard k of N each get a tag in the k-th of N equal slot ranges, the
 * home in shard 0's. The home does about a fifth of a namespace's Redis work (ids, records,
 * verdicts, clusters), so shard 0, on the same master when the slots are split evenly, takes
 * `homeShardWeight` of a full share of the buckets (docs/redis.md, "Redis Cluster").
 */
export function clusterLayout(
  prefix: string,
  namespace: string,
  slotShards: number,
  homeShardWeight = 1,
): ClusterLayout {
  // Validates prefix and namespace as the single-node store does.
  namespaceBase(prefix, namespace);
  const shards: string[] = [];
  for (let k = 0; k < slotShards; k++)
    shards.push(`${prefix}:{${tagInRange(`${namespace}:s${k}`, k, slotShards)}}:`);
  const unitCount = shards.map((_, k) =>
    k === 0 && slotShards > 1 ? Math.round(homeShardWeight * UNITS_PER_SHARD) : UNITS_PER_SHARD,
  );
  const firstUnit: number[] = [];
  let units = 0;
  for (const count of unitCount) {
    firstUnit.push(units);
    units += count;
  }
  const shardOfUnit = new Uint16Array(units);
  unitCount.forEach((count, k) => {
    shardOfUnit.fill(k, firstUnit[k] as number, (firstUnit[k] as number) + count);
  });
  return {
    home: `${prefix}:{${tagInRange(`${namespace}:h`, 0, slotShards)}}:`,
    shards,
    units,
    firstUnit,
    unitCount,
    shardOfUnit,
  };
}

export interface ClusterUrl {
  nodes: Array<{ host: string; port: number }>;
  username?: string;
  password?: string;
  tls: boolean;
}

/** `redis+cluster://[user:pass@]host:port,host:port,...` (rediss+cluster:// for TLS). */
export function parseClusterUrl(url: string): ClusterUrl | null {
  const m = /^(rediss?)\+cluster:\/\/(?:([^@/]*)@)?([^/?#]+)\/?$/.exec(url);
  if (!m) return null;
  const out: ClusterUrl = { nodes: [], tls: m[1] === 'rediss' };
  if (m[2] !== undefined && m[2] !== '') {
    const colon = m[2].indexOf(':');
    const user = decodeURIComponent(colon < 0 ? m[2] : m[2].slice(0, colon));
    const pass = colon < 0 ? undefined : decodeURIComponent(m[2].slice(colon + 1));
    if (pass === undefined) out.password = user;
    else {
      if (user !== '') out.username = user;
      out.password = pass;
    }
  }
  for (const part of (m[3] as string).split(',')) {
    const hp = /^(\[[^\]]+\]|[^:]+):(\d{1,5})$/.exec(part);
    if (!hp) return null;
    const port = Number(hp[2]);
    if (port < 1 || port > 65_535) return null;
    out.nodes.push({ host: (hp[1] as string).replace(/^\[|\]$/g, ''), port });
  }
  return out.nodes.length > 0 ? out : null;
}
