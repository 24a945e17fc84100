import { createHash } from 'node:crypto';
import { WordTable } from './word-table.js';

/**
 * The compact binary form of a lexicon: what `Lexicon` holds in memory (word-table.ts), written
 * as-is, so loading it is a file read and a few typed-array views. `npm run build` writes one per
 * shipped lexicon (scripts/build-lexicons.mjs: dist/lexicons/<lang>.bin, from
 * data/lexicons/<lang>.json); each records the SHA-256 of the JSON it was made from, and is used
 * only while that JSON is unchanged (otherwise the JSON is read).
 *
 * Layout (little-endian), every array 8-byte aligned:
 *   "DPLX" u32 version=1, u32 metaBytes, meta (UTF-8 JSON: the lexicon's fields but its words,
 *   plus `source` {bytes, sha256}), padding; u32 words, u32 slots, u32 chars, u32 0;
 *   f64 idf[words]; i32 rank[words]; u32 starts[words + 1]; i32 slots[slots]; u16 chars[chars].
 */

const MAGIC = 0x584c5044; // "DPLX"
const VERSION = 1;

export interface CompactMeta {
  [field: string]: unknown;
  source: { bytes: number; sha256: string };
}

export interface CompactLexicon {
  meta: CompactMeta;
  table: WordTable;
}

/** SHA-256 (hex) of a lexicon JSON file's bytes: what a compact file records of its source. */
export function sourceDigest(json: Uint8Array): { bytes: number; sha256: string } {
  return { bytes: json.length, sha256: createHash('sha256').update(json).digest('hex') };
}

const BIG_ENDIAN_HOST = new Uint8Array(new Uint16Array([1]).buffer)[0] === 0;
const align8 = (n: number) => (n + 7) & ~7;

export function encodeCompact(meta: CompactMeta, table: WordTable): Uint8Array {
  const metaBytes = Buffer.from(JSON.stringify(meta), 'utf8');
  const head = align8(12 + metaBytes.length);
  const n = table.size;
  const parts = [
    { at: 0, bytes: align8(8 * n), array: table.idf },
    { at: 0, bytes: align8(4 * n), array: table.rank },
    { at: 0, bytes: align8(4 * (n + 1)), array: table.starts },
    { at: 0, bytes: align8(4 * table.slots.length), array: table.slots },
    { at: 0, bytes: align8(2 * table.chars.length), array: table.chars },
  ];
  let at = head + 16;
  for (const part of parts) {
    part.at = at;
    at += part.bytes;
  }
  const out = Buffer.alloc(at);
  out.writeUInt32LE(MAGIC, 0);
  out.writeUInt32LE(VERSION, 4);
  out.writeUInt32LE(metaBytes.length, 8);
  metaBytes.copy(out, 12);
  out.writeUInt32LE(n, head);
  out.writeUInt32LE(table.slots.length, head + 4);
  out.writeUInt32LE(table.chars.length, head + 8);
  for (const part of parts) {
    const view = new Uint8Array(part.array.buffer, part.array.byteOffset, part.array.byteLength);
    out.set(view, part.at);
  }
  return out;
}

/** Reads a compact lexicon; null when `bytes` is not one (wrong magic or version, truncated). */
export function decodeCompact(bytes: Uint8Array): CompactLexicon | null {
  // The arrays are stored little-endian and viewed in host order.
  if (BIG_ENDIAN_HOST) return null;
  // Typed-array views need an 8-aligned start; a Buffer from the pool may not have one.
  const data = bytes.byteOffset % 8 === 0 ? bytes : new Uint8Array(bytes);
  if (data.length < 12) return null;
  const view = new DataView(data.buffer, data.byteOffset, data.byteLength);
  if (view.getUint32(0, true) !== MAGIC || view.getUint32(4, true) !== VERSION) return null;
  const metaLength = view.getUint32(8, true);
  const head = align8(12 + metaLength);
  if (data.length < head + 16) return null;
  const meta = JSON.parse(
    Buffer.from(data.buffer, data.byteOffset + 12, metaLength).toString('utf8'),
  ) as CompactMeta;
  const n = view.getUint32(head, true);
  const slots = view.getUint32(head + 4, true);
  const chars = view.getUint32(head + 8, true);
  let at = data.byteOffset + head + 16;
  const take = <T>(make: (buffer: ArrayBufferLike, offset: number) => T, size: number): T => {
    const array = make(data.buffer, at);
    at += align8(size);
    return array;
  };
  const end =
    head + 16 + align8(8 * n) + align8(4 * n) + align8(4 * (n + 1)) + align8(4 * slots) + align8(2 * chars);
  if (data.length < end) return null;
  const idf = take((b, o) => new Float64Array(b, o, n), 8 * n);
  const rank = take((b, o) => new Int32Array(b, o, n), 4 * n);
  const starts = take((b, o) => new Uint32Array(b, o, n + 1), 4 * (n + 1));
  const table = take((b, o) => new Int32Array(b, o, slots), 4 * slots);
  const text = take((b, o) => new Uint16Array(b, o, chars), 2 * chars);
  return { meta, table: new WordTable(idf, rank, starts, text, table) };
}
