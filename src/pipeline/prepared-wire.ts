import { keyArray, PackedKeys } from '../engine/index-keys.js';
import { decodePackedRecord, encodedSizeBound, encodeRecordInto } from '../engine/record-bytes.js';
import type { IndexRequest } from '../engine/types.js';
import { DoppelError, type ErrorCode } from '../errors.js';

/**
 * A chunk of prepared messages (index keys and stored record, RequestPreparer.indexRequest) in the form a
 * sign worker sends back: a few typed arrays moved, not copied (transferable), plus the ids. A
 * structured clone of the IndexRequest objects themselves cost ~30 heap objects a message on
 * both sides; this costs a handful of arrays a chunk.
 */
export interface PreparedChunk {
  /** Per item: 0 prepared, 1 input error (an `invalid` verdict), 2 any other error (a bug). */
  status: Uint8Array;
  ids: Array<string | null>;
  /** The display title of each prepared item (IndexRequest.title), null for none. */
  titles: Array<string | null>;
  /** IndexRequest.truncatedParts of each item, 0 for none. */
  truncated: Int32Array;
  /** The source URL and snippet of each prepared item (IndexRequest.url, .snippet), null for none. */
  urls: Array<string | null>;
  snippets: Array<string | null>;
  /** The message's own event time (epoch ms), NaN when it has none. */
  ts: Float64Array;
  errors: Array<{ code: string; message: string } | null>;
  /** Item i's keys are keyTable/keyWords entries keyStart[i] .. keyStart[i + 1]. */
  keyStart: Int32Array;
  /** Index into `tables` of each key. */
  keyTable: Uint8Array;
  /** hi, lo of each key, as signed 32-bit integers (engine/index-keys.ts `indexKey`). */
  keyWords: Int32Array;
  tables: string[];
  /** Item i's record (engine/record.ts binary form) is recordBytes[recordStart[i] .. recordStart[i + 1]). */
  recordStart: Int32Array;
  recordBytes: Uint8Array;
}

/** One item of a chunk as the worker produced it. */
export type PreparedItem =
  | { status: 0; id: string; ts: number | undefined; request: Omit<IndexRequest, 'ts'> }
  | { status: 1 | 2; id: string | null; error: { code: string; message: string } };

/** Packs a worker's items (keys and records as arrays; the buffers are transferable). */
export function packChunk(items: readonly PreparedItem[]): { chunk: PreparedChunk; transfer: ArrayBuffer[] } {
  const n = items.length;
  const status = new Uint8Array(n);
  const ts = new Float64Array(n);
  const ids: Array<string | null> = [];
  const titles: Array<string | null> = [];
  const truncated = new Int32Array(n);
  const urls: Array<string | null> = [];
  const snippets: Array<string | null> = [];
  const errors: PreparedChunk['errors'] = [];
  const keyStart = new Int32Array(n + 1);
  const recordStart = new Int32Array(n + 1);
  const tableIndex = new Map<string, number>();
  const tables: string[] = [];
  let keys = 0;
  let bound = 0;
  for (const item of items) {
    if (item.status === 0) {
      keys += item.request.keys.length;
      bound += encodedSizeBound(item.request.record);
    }
  }
  const keyTable = new Uint8Array(keys);
  const keyWords = new Int32Array(2 * keys);
  // The records are encoded straight into the buffer that is sent (sized for the worst case; the
  // rest is unused): no array per record, and no copy.
  const recordBytes = new Uint8Array(bound);
  let k = 0;
  let b = 0;
  for (let i = 0; i < n; i++) {
    const item = items[i] as PreparedItem;
    status[i] = item.status;
    ids.push(item.id);
    titles.push(item.status === 0 ? (item.request.title ?? null) : null);
    if (item.status === 0) truncated[i] = item.request.truncatedParts ?? 0;
    urls.push(item.status === 0 ? (item.request.url ?? null) : null);
    snippets.push(item.status === 0 ? (item.request.snippet ?? null) : null);
    keyStart[i] = k;
    recordStart[i] = b;
    if (item.status !== 0) {
      ts[i] = Number.NaN;
      errors.push(item.error);
      continue;
    }
    errors.push(null);
    ts[i] = item.ts ?? Number.NaN;
    for (const key of keyArray(item.request.keys)) {
      let t = tableIndex.get(key.table);
      if (t === undefined) {
        t = tables.length;
        tables.push(key.table);
        tableIndex.set(key.table, t);
      }
      keyTable[k] = t;
      keyWords[2 * k] = key.hi;
      keyWords[2 * k + 1] = key.lo;
      k++;
    }
    b = encodeRecordInto(item.request.record, recordBytes, b);
  }
  keyStart[n] = k;
  recordStart[n] = b;
  const chunk: PreparedChunk = {
    status,
    ids,
    titles,
    truncated,
    urls,
    snippets,
    ts,
    errors,
    keyStart,
    keyTable,
    keyWords,
    tables,
    recordStart,
    recordBytes,
  };
  return {
    chunk,
    transfer: [status, truncated, ts, keyStart, keyTable, keyWords, recordStart, recordBytes].map(
      (a) => a.buffer as ArrayBuffer,
    ),
  };
}

/** A prepared message without its event time, or its error (a bug when not an input error). */
export type AdmittedItem =
  | { ok: true; id: string; ts: number | undefined; request: Omit<IndexRequest, 'ts'> }
  | { ok: false; id: string | null; error: DoppelError; bug: boolean };

/** What a chunk of either kind (this one, canonical-wire.ts) says of a message that failed. */
export interface FailedItems {
  status: Uint8Array;
  ids: Array<string | null>;
  errors: Array<{ code: string; message: string } | null>;
}

/** Item i of a chunk, when it failed: its error as a DoppelError (a bug when status 2); null when it did not. */
export function failedAt(c: FailedItems, i: number): Extract<AdmittedItem, { ok: false }> | null {
  const status = c.status[i] as number;
  if (status === 0) return null;
  const e = c.errors[i] as { code: string; message: string };
  return {
    ok: false,
    id: c.ids[i] ?? null,
    error: new DoppelError(e.code as ErrorCode, e.message),
    bug: status === 2,
  };
}

/** Item i of a packed chunk: a request without its event time, or its error. */
export function unpackItem(c: PreparedChunk, i: number): AdmittedItem {
  const failed = failedAt(c, i);
  if (failed) return failed;
  // The keys stay in the chunk's arrays (one object, not one a key).
  const keys = new PackedKeys(
    c.tables,
    c.keyTable,
    c.keyWords,
    c.keyStart[i] as number,
    c.keyStart[i + 1] as number,
  );
  // Straight into the packed form the store keeps (no hex strings, no arrays packed again).
  const record = decodePackedRecord(
    c.recordBytes.subarray(c.recordStart[i] as number, c.recordStart[i + 1] as number),
  );
  const ts = c.ts[i] as number;
  const id = c.ids[i] as string;
  const request: Omit<IndexRequest, 'ts'> = { id, keys, record };
  const title = c.titles[i];
  if (title !== null && title !== undefined) request.title = title;
  const truncatedParts = c.truncated[i] as number;
  if (truncatedParts > 0) request.truncatedParts = truncatedParts;
  const url = c.urls[i];
  if (url !== null && url !== undefined) request.url = url;
  const snippet = c.snippets[i];
  if (snippet !== null && snippet !== undefined) request.snippet = snippet;
  return { ok: true, id, ts: Number.isNaN(ts) ? undefined : ts, request };
}

export function chunkLength(c: PreparedChunk): number {
  return c.status.length;
}
