/**
 * A sign worker (pipeline/sign-pool.ts): decode, canonicalize, sign and prepare (index keys and
 * stored record) the messages of each job it is sent, and answer with them packed
 * (prepared-wire.ts). It holds its own signature engine, vocabulary and scratch buffers; it never
 * sees the store, so verdicts stay decided by one thread in one order.
 */
import { parentPort, workerData } from 'node:worker_threads';
import type { DedupConfig } from '../config/dedup.js';
import { RequestPreparer } from '../engine/engine.js';
import type { IndexRequest } from '../engine/types.js';
import { isInputError } from '../errors.js';
import { initHashing } from '../hash/xxhash.js';
import { type DecodedMessage, decodeMessage } from '../input/decode-message.js';
import { type Message, parseMessageLine, salvageId } from '../input/message.js';
import { LexiconSet } from '../lexicon/lexicon.js';
import { Signer } from '../signatures/signer.js';
import type { Language } from '../text/language.js';
import { engineMessage } from './flow.js';
import { type PreparedItem, packChunk } from './prepared-wire.js';
import { type SignedMessage, signDecoded, signMessage } from './sign.js';

export interface SignWorkerData {
  config: DedupConfig;
  /** --lexicon overrides (LexiconSet.defaults). */
  lexicons: Partial<Record<Language, string>>;
}

/** A job: JSON lines, message objects, or messages already decoded (the Kafka consumer's stage 1). */
export type SignJob =
  | { seq: number; kind: 'lines'; lines: string[] }
  | { seq: number; kind: 'messages'; messages: Message[] }
  | {
      seq: number;
      kind: 'decoded';
      items: Array<{ message: Message; decoded: DecodedMessage; idFromDecoded: boolean }>;
    };

const data = workerData as SignWorkerData;
await initHashing();
const signer = new Signer(data.config.signatures, LexiconSet.defaults(data.lexicons));
const preparer = new RequestPreparer(data.config);

function item(signed: SignedMessage): PreparedItem {
  // The flow's prepare stage (MessageFlow.request), on this thread; the time is set on admission.
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
  const { id, keys, record, title, url, snippet } = request;
  const out: Omit<IndexRequest, 'ts'> = { id, keys, record };
  if (title !== undefined) out.title = title;
  if (url !== undefined) out.url = url;
  if (snippet !== undefined) out.snippet = snippet;
  return out;
}

function failed(error: unknown, id: string | null): PreparedItem {
  if (isInputError(error)) return { status: 1, id, error: { code: error.code, message: error.message } };
  const e = error instanceof Error ? error : new Error(String(error));
  return { status: 2, id, error: { code: 'INTERNAL', message: e.stack ?? e.message } };
}

async function run(job: SignJob): Promise<PreparedItem[]> {
  const out: PreparedItem[] = [];
  if (job.kind === 'lines') {
    for (const line of job.lines) {
      let id: string | null = null;
      try {
        const message = parseMessageLine(line);
        id = message.id;
        const decoded = decodeMessage(message);
        out.push(item(signDecoded(message, decoded instanceof Promise ? await decoded : decoded, signer)));
      } catch (error) {
        out.push(failed(error, id ?? salvageId(line)));
      }
    }
  } else if (job.kind === 'messages') {
    for (const message of job.messages) {
      try {
        out.push(item(await signMessage(message, signer)));
      } catch (error) {
        out.push(failed(error, message.id));
      }
    }
  } else {
    for (const { message, decoded, idFromDecoded } of job.items) {
      try {
        const signed = signDecoded(message, decoded, signer);
        if (idFromDecoded && signed.decoded.messageId)
          signed.message.id = signed.decoded.messageId.slice(0, 1024);
        out.push(item(signed));
      } catch (error) {
        out.push(failed(error, message.id));
      }
    }
  }
  return out;
}

const port = parentPort;
if (!port) throw new Error('sign-worker runs as a worker thread');
// Jobs run one after another: an async decode (mail, legacy charsets) must not let a later job's
// answer overtake an earlier one (the pool also matches answers by seq).
let queue = Promise.resolve();
port.on('message', (job: SignJob) => {
  queue = queue.then(async () => {
    const { chunk, transfer } = packChunk(await run(job));
    port.postMessage({ seq: job.seq, chunk }, transfer);
  });
});
port.postMessage({ ready: true });
