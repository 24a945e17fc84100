import type { RequestPreparer } from '../engine/engine.js';
import type { IndexRequest } from '../engine/types.js';
import { isInputError } from '../errors.js';
import { type DecodedMessage, decodeMessage } from '../input/decode-message.js';
import { type Message, parseMessageLine, salvageId } from '../input/message.js';
import type { Signer } from '../signatures/signer.js';
import { canonicalize } from '../text/canonical.js';
import type { CanonicalItem } from './canonical-wire.js';
import { addDisplayFields, engineMessage } from './flow.js';
import type { PreparedItem } from './prepared-wire.js';
import { type SignedMessage, signDecoded } from './sign.js';

/**
 * Each JSON line parsed and decoded, then made an item by `make`. An input error becomes an item
 * with its error (an `invalid` verdict), with the id salvaged from the line; anything else an
 * item marked as a bug.
 */
async function itemsOfLines<T>(
  lines: readonly string[],
  signer: Signer,
  make: (message: Message, decoded: DecodedMessage) => T,
): Promise<Array<T | FailedItem>> {
  const out: Array<T | FailedItem> = [];
  for (const line of lines) {
    let id: string | null = null;
    try {
      const message = parseMessageLine(line);
      id = message.id;
      const decoded = decodeMessage(message, signer.config.canonical);
      out.push(make(message, decoded instanceof Promise ? await decoded : decoded));
    } catch (error) {
      out.push(failedItem(error, id ?? salvageId(line)));
    }
  }
  return out;
}

/** JSON lines to prepared items (index keys and stored record, without event time): what a sign worker does with a chunk of the dedup CLI's lines. */
export function prepareLines(
  lines: readonly string[],
  signer: Signer,
  preparer: RequestPreparer,
): Promise<PreparedItem[]> {
  return itemsOfLines(lines, signer, (message, decoded) =>
    preparedItem(signDecoded(message, decoded, signer), preparer),
  );
}

/**
 * JSON lines to canonical texts (parsed, decoded, canonicalized; not signed): a sign worker's part
 * when the work is split by stage (sign-pool.ts, splitByStage). The display fields are those
 * engineMessage takes (addDisplayFields).
 */
export function canonicalLines(lines: readonly string[], signer: Signer): Promise<CanonicalItem[]> {
  return itemsOfLines(
    lines,
    signer,
    (message, decoded): CanonicalItem => ({
      status: 0,
      id: message.id,
      ts: message.ts,
      doc: canonicalize(decoded, signer.config.canonical, message.lang, signer.knownWords),
      fields: addDisplayFields({}, message, decoded),
    }),
  );
}

/** The flow's prepare stage (MessageFlow.request) of a signed message; the time is set on admission. */
export function preparedItem(signed: SignedMessage, preparer: RequestPreparer): PreparedItem {
  const request = preparer.indexRequest(engineMessage(signed, 0));
  return {
    status: 0,
    id: request.id,
    ts: signed.message.ts,
    request: withoutTime(request),
  };
}

/** The request without its time (set on admission), and without the fields it does not have. */
function withoutTime(request: IndexRequest): Omit<IndexRequest, 'ts'> {
  const { id, keys, record, title, url, snippet, truncatedParts } = request;
  const out: Omit<IndexRequest, 'ts'> = { id, keys, record };
  if (title !== undefined) out.title = title;
  if (url !== undefined) out.url = url;
  if (snippet !== undefined) out.snippet = snippet;
  if (truncatedParts !== undefined) out.truncatedParts = truncatedParts;
  return out;
}

/** A message that could not be prepared: status 1 for an input error, 2 for anything else (a bug). */
export type FailedItem = Extract<PreparedItem, { status: 1 | 2 }>;

export function failedItem(error: unknown, id: string | null): FailedItem {
  if (isInputError(error)) return { status: 1, id, error: { code: error.code, message: error.message } };
  const e = error instanceof Error ? error : new Error(String(error));
  return { status: 2, id, error: { code: 'INTERNAL', message: e.stack ?? e.message } };
}
