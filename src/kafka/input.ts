import { DoppelError } from '../errors.js';
import { type Message, parseMessageObject, salvageId } from '../input/message.js';
import { parseJsonText } from '../json.js';
import { looksLikeMail } from '../text/decode/index.js';
import type { InputFormat } from './config.js';

/** One consumed Kafka record, as the processor sees it (kafkajs-independent). */
export interface InputRecord {
  topic: string;
  partition: number;
  offset: string;
  key: Buffer | null;
  value: Buffer | null;
  /** Kafka timestamp (epoch ms as a string, as kafkajs gives it). */
  timestamp: string;
}

/** The id a message gets when nothing else names it. */
export function positionId(record: Pick<InputRecord, 'topic' | 'partition' | 'offset'>): string {
  return `${record.topic}-${record.partition}-${record.offset}`;
}

const MAX_ID = 1024;

function keyId(record: InputRecord): string | undefined {
  if (!record.key || record.key.length === 0) return undefined;
  const key = record.key.toString('utf8');
  return key.length <= MAX_ID && !key.includes('\uFFFD') ? key : undefined;
}

/**
 * A parsed message whose id may still be unknown: the payload's id, else the Kafka key, else
 * (after decoding) the mail's Message-ID, else topic-partition-offset. `idSource` says which.
 */
export interface ParsedInput {
  message: Message;
  idSource: 'payload' | 'key' | 'message-id' | 'position';
}

const utf8 = new TextDecoder('utf-8', { fatal: true });

/**
 * Parses one record in its topic's format. Throws DoppelError (not retryable) for input that
 * cannot be used; the caller dead-letters it.
 */
export function parseInput(record: InputRecord, format: InputFormat, maxBytes: number): ParsedInput {
  const value = record.value;
  if (value === null || value.length === 0) throw new DoppelError('MISSING_CONTENT', 'empty record value');
  if (value.length > maxBytes) throw new DoppelError('TOO_LARGE', `value is larger than ${maxBytes} bytes`);
  const key = keyId(record);
  const fallback = key ?? positionId(record);
  const idSource: ParsedInput['idSource'] = key !== undefined ? 'key' : 'position';
  const ts = Number(record.timestamp);
  if (format === 'json') {
    let text: string;
    try {
      text = utf8.decode(value);
    } catch {
      throw new DoppelError('INVALID_JSON', 'value is not valid UTF-8 JSON');
    }
    const json = parseJsonText(text, 'value');
    const isObject = typeof json === 'object' && json !== null && !Array.isArray(json);
    const payloadId = isObject ? (json as { id?: unknown }).id : undefined;
    const hasId = payloadId !== undefined && payloadId !== null;
    // Not an object: the schema says why. An object without an id: the key's, or the position.
    const message = parseMessageObject(!isObject || hasId ? json : { ...(json as object), id: fallback });
    if (message.ts === undefined && Number.isFinite(ts)) message.ts = ts;
    return { message, idSource: hasId ? 'payload' : idSource };
  }
  const message: Message = { id: fallback, fields: {} };
  if (Number.isFinite(ts)) message.ts = ts;
  if (format === 'mail') {
    if (!looksLikeMail(value))
      throw new DoppelError('INVALID_MAIL', 'value does not start with RFC 822 headers');
    message.raw = new Uint8Array(value.buffer, value.byteOffset, value.length);
    return { message, idSource };
  }
  // Plain text: UTF-8 as it is; other bytes through the charset detector.
  try {
    message.text = utf8.decode(value);
    if (message.text.trim() === '') throw new DoppelError('MISSING_CONTENT', 'value is only white space');
  } catch (error) {
    if (error instanceof DoppelError) throw error;
    delete message.text;
    message.raw = new Uint8Array(value.buffer, value.byteOffset, value.length);
  }
  return { message, idSource };
}

/** Best-effort id of a record that failed to parse (for the dlq headers). */
export function salvageInputId(record: InputRecord, format: InputFormat): string {
  if (format === 'json' && record.value) {
    const id = salvageId(record.value.subarray(0, 4096).toString('utf8'));
    if (id) return id;
  }
  return keyId(record) ?? positionId(record);
}
