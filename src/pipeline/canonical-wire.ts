import { DoppelError } from '../errors.js';
import { CanonicalDoc } from '../text/canonical.js';
import type { Language } from '../text/language.js';
import type { DisplayFields } from './flow.js';
import { failedAt } from './prepared-wire.js';

/**
 * A chunk of canonical texts (decoded and canonicalized messages, not yet signed) in the form a
 * sign worker sends back when the work is split by stage (sign-pool.ts, `splitByStage`): the
 * worker parses, decodes and canonicalizes, the receiving thread signs, indexes and verifies.
 * Token offsets, token hashes and sentence ends travel in three transferable arrays; the canonical
 * texts, ids and display fields as strings (copied flat by the structured clone).
 */
export interface CanonicalChunk {
  /** Per item: 0 canonical, 1 input error (an `invalid` verdict), 2 any other error (a bug). */
  status: Uint8Array;
  ids: Array<string | null>;
  /** The message's own event time (epoch ms), NaN when it has none. */
  ts: Float64Array;
  errors: Array<{ code: string; message: string } | null>;
  /** Each item's DisplayFields (flow.ts): title, url (as the message gave it), snippet, truncatedParts. */
  titles: Array<string | null>;
  urls: unknown[];
  snippets: Array<string | null>;
  truncated: Int32Array;
  /** The canonical text of each item ('' for a failed one) and its language. */
  texts: string[];
  langs: string[];
  /** Item i's tokens are tokenStarts/tokenHashes entries tokenAt[i] .. tokenAt[i + 1]. */
  tokenAt: Int32Array;
  tokenStarts: Int32Array;
  tokenHashes: Int32Array;
  /** Item i's sentence ends are sentenceEnds[sentenceAt[i] .. sentenceAt[i + 1]). */
  sentenceAt: Int32Array;
  sentenceEnds: Int32Array;
}

/** What a worker made of one message: its canonical text and display fields, or its error. */
export type CanonicalItem =
  | {
      status: 0;
      id: string;
      ts: number | undefined;
      fields: DisplayFields;
      doc: CanonicalDoc;
    }
  | { status: 1 | 2; id: string | null; error: { code: string; message: string } };

/** Packs a worker's items; the typed arrays' buffers are transferable. */
export function packCanonicalChunk(items: readonly CanonicalItem[]): {
  chunk: CanonicalChunk;
  transfer: ArrayBuffer[];
} {
  const n = items.length;
  let tokens = 0;
  let sentences = 0;
  for (const item of items)
    if (item.status === 0) {
      tokens += item.doc.tokenCount;
      sentences += item.doc.sentenceEnds.length;
    }
  const status = new Uint8Array(n);
  const ts = new Float64Array(n);
  const truncated = new Int32Array(n);
  const tokenAt = new Int32Array(n + 1);
  const tokenStarts = new Int32Array(tokens);
  const tokenHashes = new Int32Array(tokens);
  const sentenceAt = new Int32Array(n + 1);
  const sentenceEnds = new Int32Array(sentences);
  const chunk: CanonicalChunk = {
    status,
    ids: [],
    ts,
    errors: [],
    titles: [],
    urls: [],
    snippets: [],
    truncated,
    texts: [],
    langs: [],
    tokenAt,
    tokenStarts,
    tokenHashes,
    sentenceAt,
    sentenceEnds,
  };
  let t = 0;
  let s = 0;
  for (let i = 0; i < n; i++) {
    const item = items[i] as CanonicalItem;
    status[i] = item.status;
    chunk.ids.push(item.id);
    tokenAt[i] = t;
    sentenceAt[i] = s;
    if (item.status !== 0) {
      ts[i] = Number.NaN;
      chunk.errors.push(item.error);
      chunk.titles.push(null);
      chunk.urls.push(undefined);
      chunk.snippets.push(null);
      chunk.texts.push('');
      chunk.langs.push('');
      continue;
    }
    const { doc } = item;
    ts[i] = item.ts ?? Number.NaN;
    chunk.errors.push(null);
    const { fields } = item;
    chunk.titles.push(fields.title ?? null);
    chunk.urls.push(fields.url);
    chunk.snippets.push(fields.snippet ?? null);
    truncated[i] = fields.truncatedParts ?? 0;
    chunk.texts.push(doc.canonical);
    chunk.langs.push(doc.lang);
    tokenStarts.set(doc.tokenStarts, t);
    tokenHashes.set(doc.tokenHashes, t);
    t += doc.tokenCount;
    for (const end of doc.sentenceEnds) sentenceEnds[s++] = end;
  }
  tokenAt[n] = t;
  sentenceAt[n] = s;
  return {
    chunk,
    transfer: [status, ts, truncated, tokenAt, tokenStarts, tokenHashes, sentenceAt, sentenceEnds].map(
      (a) => a.buffer as ArrayBuffer,
    ),
  };
}

/** An item of a canonical chunk: the message the engine takes, less its signatures and time; or its error. */
export type CanonicalAdmitted =
  | {
      ok: true;
      id: string;
      ts: number | undefined;
      doc: CanonicalDoc;
      fields: DisplayFields;
    }
  | { ok: false; id: string | null; error: DoppelError; bug: boolean };

const notCarried = (): string => {
  throw new DoppelError('INTERNAL', 'a canonical text from a sign worker carries no clean text');
};

/** Item i of a canonical chunk. */
export function unpackCanonicalItem(c: CanonicalChunk, i: number): CanonicalAdmitted {
  const failed = failedAt(c, i);
  if (failed) return failed;
  const from = c.tokenAt[i] as number;
  const to = c.tokenAt[i + 1] as number;
  const sentenceEnds: number[] = [];
  for (let k = c.sentenceAt[i] as number; k < (c.sentenceAt[i + 1] as number); k++)
    sentenceEnds.push(c.sentenceEnds[k] as number);
  const doc = new CanonicalDoc(
    c.langs[i] as Language,
    notCarried,
    c.texts[i] as string,
    c.tokenStarts.subarray(from, to),
    sentenceEnds,
    c.tokenHashes.subarray(from, to),
  );
  const fields: DisplayFields = {};
  const title = c.titles[i];
  if (title !== null && title !== undefined) fields.title = title;
  const truncatedParts = c.truncated[i] as number;
  if (truncatedParts > 0) fields.truncatedParts = truncatedParts;
  const url = c.urls[i];
  if (url !== undefined) fields.url = url;
  const snippet = c.snippets[i];
  if (snippet !== null && snippet !== undefined) fields.snippet = snippet;
  const ts = c.ts[i] as number;
  return { ok: true, id: c.ids[i] as string, ts: Number.isNaN(ts) ? undefined : ts, doc, fields };
}
