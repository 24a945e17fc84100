/**
 * A sign worker (pipeline/sign-pool.ts): decode, canonicalize, sign and prepare (index keys and
 * stored record) the messages of each job it is sent, and answer with them packed
 * (prepared-wire.ts). It holds its own signature engine, vocabulary and scratch buffers; it never
 * sees the store, so verdicts stay decided by one thread in one order.
 */
import { parentPort, workerData } from 'node:worker_threads';
import type { DedupConfig } from '../config/dedup.js';
import { RequestPreparer } from '../engine/engine.js';
import { initHashing } from '../hash/xxhash.js';
import type { DecodedMessage } from '../input/decode-message.js';
import type { Message } from '../input/message.js';
import { LexiconSet } from '../lexicon/lexicon.js';
import { Signer } from '../signatures/signer.js';
import type { Language } from '../text/language.js';
import { packCanonicalChunk } from './canonical-wire.js';
import { canonicalLines, failedItem, preparedItem, prepareLines } from './prepare-lines.js';
import { type PreparedItem, packChunk } from './prepared-wire.js';
import { decodeRawLines, type RawLines } from './raw-lines.js';
import { signDecoded, signMessage } from './sign.js';

export interface SignWorkerData {
  config: DedupConfig;
  /** --lexicon overrides (LexiconSet.defaults). */
  lexicons: Partial<Record<Language, string>>;
}

/**
 * A job: JSON lines, message objects, or messages already decoded (the Kafka consumer's stage 1);
 * 'raw-canonical': JSON lines as bytes, answered as canonical texts, not signed (sign-pool.ts,
 * splitByStage).
 */
export type SignJob =
  | { seq: number; kind: 'lines'; lines: string[] }
  | { seq: number; kind: 'raw'; lines: RawLines }
  | { seq: number; kind: 'raw-canonical'; lines: RawLines }
  | { seq: number; kind: 'messages'; messages: Message[] }
  | {
      seq: number;
      kind: 'decoded';
      items: Array<{ message: Message; decoded: DecodedMessage; idFromDecoded: boolean }>;
    };

const data = workerData as SignWorkerData;
// Each answer's buffers are transferred, which detaches them in this thread, and V8 drops the
// optimized code of every function compiled before the thread's first detach (its
// ArrayBufferDetaching protector): ~70 functions, all compiled again, at the first answer.
// Detaching one empty buffer now, before anything is compiled, leaves that nothing to drop.
const detached = new ArrayBuffer(0);
structuredClone(detached, { transfer: [detached] });
await initHashing();
const signer = new Signer(data.config.signatures, LexiconSet.defaults(data.lexicons));
// Records leave as bytes (prepared-wire.ts): their packed form is made where they are verified.
const preparer = new RequestPreparer(data.config, { packRecords: false });

async function run(job: Exclude<SignJob, { kind: 'raw-canonical' }>): Promise<PreparedItem[]> {
  if (job.kind === 'lines') return prepareLines(job.lines, signer, preparer);
  if (job.kind === 'raw') return prepareLines(decodeRawLines(job.lines), signer, preparer);
  const out: PreparedItem[] = [];
  if (job.kind === 'messages') {
    for (const message of job.messages) {
      try {
        out.push(preparedItem(await signMessage(message, signer), preparer));
      } catch (error) {
        out.push(failedItem(error, message.id));
      }
    }
  } else {
    for (const { message, decoded, idFromDecoded } of job.items) {
      try {
        const signed = signDecoded(message, decoded, signer);
        if (idFromDecoded && signed.decoded.messageId)
          signed.message.id = signed.decoded.messageId.slice(0, 1024);
        out.push(preparedItem(signed, preparer));
      } catch (error) {
        out.push(failedItem(error, message.id));
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
    const { chunk, transfer } =
      job.kind === 'raw-canonical'
        ? packCanonicalChunk(await canonicalLines(decodeRawLines(job.lines), signer))
        : packChunk(await run(job));
    port.postMessage({ seq: job.seq, chunk }, transfer);
  });
});
port.postMessage({ ready: true });
