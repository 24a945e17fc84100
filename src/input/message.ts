import { z } from 'zod';
import { DoppelError } from '../errors.js';
import { parseJsonText } from '../json.js';

/**
 * The JSON Lines message format shared by `doppel sign`, `doppel dedup` and the consumers.
 * Unknown fields are allowed and ignored, so producers may add their own.
 */
export const messageSchema = z.looseObject({
  id: z.union([z.string().min(1).max(1024), z.number().finite().transform(String)]),
  text: z.string().optional(),
  title: z.string().optional(),
  html: z.string().optional(),
  /** Base64 of raw bytes: text in a legacy charset, an HTML page, or an RFC 822 mail. */
  raw: z.string().optional(),
  lang: z.string().max(35).optional(),
  /** Event time, ISO 8601 (or epoch milliseconds); used by windows in `doppel dedup`. */
  ts: z.union([z.string(), z.number().finite()]).optional(),
});

export interface Message {
  id: string;
  text?: string;
  title?: string;
  html?: string;
  raw?: Uint8Array;
  lang?: string;
  /** Epoch milliseconds, when given. */
  ts?: number;
  /** The source's address, when given as a string (displayed; the engine keeps only http(s) URLs). */
  url?: string;
  /** Every field of the input object (eval reads "cluster" from here). */
  fields: Record<string, unknown>;
}

export interface ParseLimits {
  /** Largest accepted line / message in bytes (UTF-16 length is used as a cheap upper bound check first). */
  maxMessageBytes: number;
}

export const DEFAULT_LIMITS: ParseLimits = { maxMessageBytes: 4 * 1024 * 1024 };

const BASE64 = /^[A-Za-z0-9+/_-]*={0,2}$/;

/** Best-effort id of a line that failed to parse, so that its error can be matched to the input. */
export function salvageId(line: string): string | null {
  const match = /"id"\s*:\s*(?:"((?:[^"\\]|\\.){1,1024})"|(-?\d+(?:\.\d+)?))/.exec(line.slice(0, 4096));
  if (!match) return null;
  if (match[2] !== undefined) return match[2];
  try {
    return JSON.parse(`"${match[1]}"`) as string;
  } catch {
    return null;
  }
}

export function parseMessageLine(line: string, limits: ParseLimits = DEFAULT_LIMITS): Message {
  if (line.length > limits.maxMessageBytes || Buffer.byteLength(line, 'utf8') > limits.maxMessageBytes) {
    throw new DoppelError('TOO_LARGE', `line is larger than ${limits.maxMessageBytes} bytes`);
  }
  return parseMessageObject(parseJsonText(line, 'line'));
}

type MessageFields = z.output<typeof messageSchema>;

const OPTIONAL_STRINGS = ['text', 'title', 'html', 'raw'] as const;

/**
 * The object itself when messageSchema would accept it and return it unchanged (a string id and
 * string fields: the common case), else null. Checked by hand because the schema's parse, which
 * copies the object, was a tenth of the time of reading a message; anything else goes through
 * the schema, for its transforms and its error messages.
 */
export function plainMessage(json: unknown): MessageFields | null {
  if (typeof json !== 'object' || json === null || Array.isArray(json)) return null;
  const o = json as Record<string, unknown>;
  const id = o.id;
  if (typeof id !== 'string' || id.length < 1 || id.length > 1024) return null;
  for (const field of OPTIONAL_STRINGS) {
    const v = o[field];
    if (v !== undefined && typeof v !== 'string') return null;
  }
  const lang = o.lang;
  if (lang !== undefined && (typeof lang !== 'string' || lang.length > 35)) return null;
  const ts = o.ts;
  if (ts !== undefined && typeof ts !== 'string' && !(typeof ts === 'number' && Number.isFinite(ts)))
    return null;
  return o as MessageFields;
}

export function parseMessageObject(json: unknown): Message {
  let value = plainMessage(json);
  if (value === null) {
    const result = messageSchema.safeParse(json);
    if (!result.success) {
      const issue = result.error.issues[0];
      const where = issue && issue.path.length > 0 ? `${issue.path.join('.')}: ` : '';
      throw new DoppelError('INVALID_MESSAGE', `${where}${issue?.message ?? 'not a message object'}`);
    }
    value = result.data;
  }
  const message: Message = { id: value.id, fields: value as Record<string, unknown> };
  if (value.text !== undefined) message.text = value.text;
  if (value.title !== undefined) message.title = value.title;
  if (value.html !== undefined) message.html = value.html;
  if (value.lang !== undefined) message.lang = value.lang;
  // Optional and display-only: a field of another type is ignored, as unknown fields are.
  if (typeof value.url === 'string') message.url = value.url;
  if (value.raw !== undefined) {
    const compact = value.raw.replace(/\s+/g, '');
    if (!BASE64.test(compact)) throw new DoppelError('INVALID_BASE64', 'raw is not base64');
    message.raw = new Uint8Array(
      Buffer.from(compact, compact.includes('-') || compact.includes('_') ? 'base64url' : 'base64'),
    );
  }
  if (value.ts !== undefined) {
    const ms = typeof value.ts === 'number' ? value.ts : Date.parse(value.ts);
    if (!Number.isFinite(ms))
      throw new DoppelError('INVALID_MESSAGE', `ts: not an ISO 8601 time: ${String(value.ts)}`);
    message.ts = ms;
  }
  const hasContent =
    [message.text, message.html].some((s) => s !== undefined && s.trim() !== '') ||
    (message.raw?.length ?? 0) > 0;
  if (!hasContent) throw new DoppelError('MISSING_CONTENT', 'message has none of text, html or raw');
  return message;
}
