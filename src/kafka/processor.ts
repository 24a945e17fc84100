import type { EngineVerdict } from '../engine/engine.js';
import type { IndexRequest, StoryEvent } from '../engine/types.js';
import { type DoppelError, isInputError } from '../errors.js';
import type { DecodedMessage } from '../input/decode-message.js';
import type { MessageFlow } from '../pipeline/flow.js';
import type { InputFormat, OutputTopics } from './config.js';
import { errorHeaders, type Headers, verdictHeaders } from './headers.js';
import { type InputRecord, type ParsedInput, parseInput, salvageInputId } from './input.js';
import type { PoolSigner } from './pool-signer.js';

/** One message to produce. */
export interface OutputMessage {
  key: Buffer | string | null;
  value: Buffer | string | null;
  headers: Headers;
}

export interface TopicMessages {
  topic: string;
  messages: OutputMessage[];
}

export interface VerdictCounts {
  unique: number;
  duplicate: number;
  near_duplicate: number;
  invalid: number;
  replays: number;
  storyEvents: number;
}

export interface BatchResult {
  /** Everything to produce for the batch, grouped by topic (one producer.sendBatch). */
  outputs: TopicMessages[];
  counts: VerdictCounts;
  /** The engine's verdicts (valid messages, in order) and the error codes of the invalid ones. */
  verdicts: EngineVerdict[];
  invalidCodes: string[];
  /** Milliseconds in the store (flow.process: index + commit round trips and verification). */
  engineMs: number;
  /** Milliseconds decoding and signing. */
  signMs: number;
}

export interface ProcessorOptions {
  mode: 'tag' | 'drop';
  formatOf(topic: string): InputFormat;
  outputsOf(topic: string): OutputTopics;
  maxMessageBytes: number;
  /** Sign in worker threads (consumer.signThreads > 1); absent: on the calling thread. */
  pool?: PoolSigner;
}

export function emptyCounts(): VerdictCounts {
  return { unique: 0, duplicate: 0, near_duplicate: 0, invalid: 0, replays: 0, storyEvents: 0 };
}

/**
 * One message after the sign stage: what the engine needs of it (keys and stored record, made as
 * it is signed so a batch holds no texts or full signatures: MessageFlow.request), or the error
 * that dead-letters it.
 */
export type Slot =
  | { record: InputRecord; request: IndexRequest }
  | { record: InputRecord; error: DoppelError; id: string };

/** One message after the decode stage: its parsed and decoded form, or its error. */
export type DecodedSlot =
  | { record: InputRecord; parsed: ParsedInput; decoded: DecodedMessage }
  | { record: InputRecord; error: DoppelError; id: string };

/**
 * An error reading one message dead-letters it only when it says the input is bad (isInputError);
 * anything else (a bug) fails the batch, which is retried and then stops the consumer: the dlq
 * never takes good input.
 */
function inputError(error: unknown): DoppelError {
  if (isInputError(error)) return error;
  throw error;
}

/**
 * One consumed batch -> every output it produces: the message flow (src/pipeline/flow.ts) with
 * Kafka records in and Kafka messages out. Input errors become dead letters (never thrown);
 * store errors and bugs are thrown and nothing is produced, so the caller can retry the whole
 * batch (the store's replays make the retry give the same verdicts) or stop.
 */
export class BatchProcessor {
  constructor(
    private readonly flow: MessageFlow,
    private readonly options: ProcessorOptions,
  ) {}

  /**
   * Decode and sign (CPU only; no store call). Separate so a store retry does not re-sign. Two
   * passes (decode, then sign) so the consumer can trace and time the stages separately.
   */
  async prepare(records: readonly InputRecord[]): Promise<{ slots: Slot[]; signMs: number }> {
    const started = performance.now();
    const slots = await this.sign(await this.decode(records));
    return { slots, signMs: performance.now() - started };
  }

  /** Stage 1: the record's format (JSON, text, mail) parsed and its body decoded to text. */
  async decode(records: readonly InputRecord[]): Promise<DecodedSlot[]> {
    const out: DecodedSlot[] = [];
    for (const record of records) {
      const format = this.options.formatOf(record.topic);
      try {
        const parsed = parseInput(record, format, this.options.maxMessageBytes);
        out.push({ record, parsed, decoded: await this.flow.decode(parsed.message) });
      } catch (error) {
        out.push({ record, error: inputError(error), id: salvageInputId(record, format) });
      }
    }
    return out;
  }

  /** Stage 2: canonicalization and signatures (errors of stage 1 pass through). */
  async sign(decoded: readonly DecodedSlot[]): Promise<Slot[]> {
    const { pool } = this.options;
    return pool ? pool.sign(decoded, this.options.formatOf) : this.signHere(decoded);
  }

  private signHere(decoded: readonly DecodedSlot[]): Slot[] {
    const slots: Slot[] = [];
    for (const slot of decoded) {
      if ('error' in slot) {
        slots.push(slot);
        continue;
      }
      const { record, parsed } = slot;
      try {
        // A mail without an id of its own (named by its position) goes by its Message-ID.
        const message =
          parsed.idSource === 'position' && slot.decoded.messageId
            ? { ...parsed.message, id: slot.decoded.messageId.slice(0, 1024) }
            : parsed.message;
        slots.push({ record, request: this.flow.request(message, slot.decoded, message.ts ?? Date.now()) });
      } catch (error) {
        const format = this.options.formatOf(record.topic);
        slots.push({ record, error: inputError(error), id: salvageInputId(record, format) });
      }
    }
    return slots;
  }

  /** The store part: one engine batch (index + commit, replays' story events), then the outputs. */
  async run(slots: readonly Slot[], signMs = 0): Promise<BatchResult> {
    const requests: IndexRequest[] = [];
    for (const slot of slots) if ('request' in slot) requests.push(slot.request);
    const started = performance.now();
    const verdicts = await this.flow.process(requests);
    const engineMs = performance.now() - started;
    const counts = emptyCounts();
    const invalidCodes: string[] = [];
    const byTopic = new Map<string, OutputMessage[]>();
    const emit = (topic: string, message: OutputMessage) => {
      const list = byTopic.get(topic);
      if (list) list.push(message);
      else byTopic.set(topic, [message]);
    };
    let v = 0;
    for (const slot of slots) {
      const { record } = slot;
      const topics = this.options.outputsOf(record.topic);
      if ('error' in slot) {
        counts.invalid++;
        invalidCodes.push(slot.error.code);
        emit(topics.dlq, deadLetter(record, slot.error, slot.id));
        continue;
      }
      const verdict = verdicts[v++] as EngineVerdict;
      counts[verdict.verdict]++;
      if (verdict.replay) counts.replays++;
      const target =
        this.options.mode === 'drop' && verdict.verdict !== 'unique' ? topics.duplicates : topics.tagged;
      emit(target, { key: record.key, value: record.value, headers: verdictHeaders(verdict, record) });
      for (const event of verdict.events) {
        counts.storyEvents++;
        emit(topics.stories, storyMessage(event, verdict.replay === true));
      }
    }
    return {
      outputs: [...byTopic].map(([topic, messages]) => ({ topic, messages })),
      counts,
      verdicts,
      invalidCodes,
      engineMs,
      signMs,
    };
  }

  async process(records: readonly InputRecord[]): Promise<BatchResult> {
    const { slots, signMs } = await this.prepare(records);
    return this.run(slots, signMs);
  }
}

/**
 * A dead letter: the input's key and value, untouched, with the error headers. A value over the
 * size limit is not copied (the dlq topic would refuse it as the outputs would): its headers say
 * where it is (`doppel-source-*`) and `doppel-value-dropped: true`.
 */
export function deadLetter(record: InputRecord, error: DoppelError, id: string): OutputMessage {
  const headers = errorHeaders(error, id, record);
  if (error.code === 'TOO_LARGE') {
    headers['doppel-value-dropped'] = 'true';
    return { key: record.key, value: null, headers };
  }
  return { key: record.key, value: record.value, headers };
}

/**
 * A story event as a Kafka message: JSON value, keyed by cluster so one cluster stays in order.
 * A replay's event carries `"replay": true` (and the `doppel-replay` header): the cluster's state
 * now, which a reader keyed by cluster id can apply like any other event.
 */
export function storyMessage(event: StoryEvent, replay = false): OutputMessage {
  const headers: Headers = { 'doppel-event': event.type, 'doppel-cluster': event.clusterId };
  if (replay) headers['doppel-replay'] = 'true';
  return {
    key: event.clusterId,
    value: JSON.stringify(replay ? { ...event, replay: true } : event),
    headers,
  };
}
