import { namespaceBase } from '../redis/keys.js';

/**
 * Where a namespace spread over Redis Cluster lives (docs/redis.md, "Redis Cluster"):
 *
 *   <prefix>:{<ns>:h}:...          the home shard: meta (sequence, clock, generations, live
 *                                  bound, epoch), id fields, records, verdicts, clusters: the
 *                                  single-node layout without buckets, run by the same scripts
 *   <prefix>:{<ns>:s<k>~<j>}:...   bucket shard k of N: meta (applied, live, counters, epoch) and
 *                                  the bucket hashes k:<h> with h mod N = k
 *
 * A bucket hash h (keys.ts bucketAddresses) lives on shard h mod N. Shard k's tag gets the first
 * suffix j that puts it in the k-th of N equal slot ranges, so with the slots split evenly over
 * M masters (redis-cli --cluster create does) and N a multiple of M, every master holds N / M
 * shards. `:` cannot occur in a namespace name, so no single-node namespace shares these tags.
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
  /** The home shard's key base, `<prefix>:{<ns>:h}:`. */
  home: string;
  /** Bucket shard k's key base. */
  shards: string[];
}

export function clusterLayout(prefix: string, namespace: string, slotShards: number): ClusterLayout {
  // Validates prefix and namespace as the single-node store does.
  namespaceBase(prefix, namespace);
  const shards: string[] = [];
  for (let k = 0; k < slotShards; k++) {
    const first = Math.floor((k * CLUSTER_SLOTS) / slotShards);
    const last = Math.floor(((k + 1) * CLUSTER_SLOTS) / slotShards) - 1;
    for (let j = 0; ; j++) {
      const tag = `${namespace}:s${k}~${j}`;
      const slot = keySlot(`{${tag}}`);
      if (slot >= first && slot <= last) {
        shards.push(`${prefix}:{${tag}}:`);
        break;
      }
    }
  }
  return { home: `${prefix}:{${namespace}:h}:`, shards };
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
