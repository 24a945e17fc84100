import { displaySnippet } from '../engine/detail.js';
import type { DedupEngine, EngineMessage, EngineVerdict } from '../engine/engine.js';
import type { IndexRequest } from '../engine/types.js';
import { type DecodedMessage, decodeMessage } from '../input/decode-message.js';
import type { Message } from '../input/message.js';
import type { Signer } from '../signatures/signer.js';
import { type SignedMessage, signDecoded } from './sign.js';

/**
 * One message's way through doppel, written once for every entry point (the dedup CLI, the HTTP
 * API, the Kafka consumers, doppel eval, the benchmarks):
 *
 *   parse (the entry point's own format: a JSON line, a request body, a Kafka record)
 *     -> decode (content to text)  -> sign (canonical text, signatures)
 *     -> prepare (the engine's index request: keys and stored record; the text is dropped here)
 *     -> process (a batch: index, verify, decide, commit; replays and story events)
 *     -> verdict (the entry point writes it: a JSON line, a response, Kafka outputs)
 *
 * The entry points differ only in how they read messages, which event time a message without
 * `ts` gets, and where verdicts go. Input errors are thrown as DoppelErrors (isInputError) from
 * the decode and sign stages; the entry point turns them into its `invalid` output.
 */
export class MessageFlow {
  constructor(
    readonly engine: DedupEngine,
    readonly signer: Signer,
  ) {}

  /** Decode: the message's content as text (synchronous for `text` messages). */
  decode(message: Message): DecodedMessage | Promise<DecodedMessage> {
    return decodeMessage(message, this.signer.config.canonical);
  }

  /** Sign a decoded message and prepare its index request. */
  request(message: Message, decoded: DecodedMessage, ts: number): IndexRequest {
    return this.engine.indexRequest(engineMessage(signDecoded(message, decoded, this.signer), ts));
  }

  /** Decode, sign and prepare one message (synchronous for `text` messages). */
  prepare(message: Message, ts: number): IndexRequest | Promise<IndexRequest> {
    const decoded = this.decode(message);
    return decoded instanceof Promise
      ? decoded.then((d) => this.request(message, d, ts))
      : this.request(message, decoded, ts);
  }

  /** Decode and sign one message, keeping what the engine takes of it (not yet prepared). */
  async sign(message: Message, ts: number): Promise<EngineMessage> {
    return engineMessage(signDecoded(message, await this.decode(message), this.signer), ts);
  }

  /** Index and decide a batch of prepared messages (the store's round trips). */
  async process(requests: readonly IndexRequest[]): Promise<EngineVerdict[]> {
    return requests.length > 0 ? this.engine.process(requests) : [];
  }

  /** `process` of signed messages, preparing them in the same step. */
  async processMessages(messages: readonly EngineMessage[]): Promise<EngineVerdict[]> {
    return messages.length > 0 ? this.engine.processMessages(messages) : [];
  }

  /** The verdicts a batch would get, indexing nothing (the HTTP API's /v1/check). */
  async check(requests: readonly IndexRequest[]): Promise<EngineVerdict[]> {
    return requests.length > 0 ? this.engine.check(requests) : [];
  }
}

/** What the engine shows of a message besides its verdict: the fields of EngineMessage not signed. */
export type DisplayFields = Pick<EngineMessage, 'title' | 'truncatedParts' | 'url' | 'snippet'>;

/**
 * Sets a message's display fields on `into`: its title (the decoded one, else the message's),
 * the mail parts not read, its url, the opening of its decoded text.
 */
export function addDisplayFields<T extends DisplayFields>(
  into: T,
  message: Message,
  decoded: DecodedMessage,
): T {
  const title = decoded.title ?? message.title;
  if (title !== undefined) into.title = title;
  if (decoded.truncatedParts !== undefined) into.truncatedParts = decoded.truncatedParts;
  if (message.url !== undefined) into.url = message.url;
  const snippet = displaySnippet(decoded.text);
  if (snippet !== undefined) into.snippet = snippet;
  return into;
}

/** What the engine takes of a signed message: its signatures and language, and its display fields. */
export function engineMessage(signed: SignedMessage, ts: number): EngineMessage {
  const out: EngineMessage = {
    id: signed.message.id,
    signatures: signed.signatures,
    lang: signed.doc.lang,
    ts,
  };
  return addDisplayFields(out, signed.message, signed.decoded);
}
