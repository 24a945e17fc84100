import type { z } from 'zod';
import { DoppelError } from '../errors.js';
import { parseJsonText } from '../json.js';
import { lazySchema, type Zod } from '../lazy-schema.js';

// A lone surrogate: a string that is not well-formed Unicode (String#isWellFormed, ES2024).
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

/**
 * Why an id that has the schema's type cannot be one: a string with a lone surrogate (it would
 * read back from Redis as U+FFFD, the same as another id); a number whose decimal string may not
 * be the one that was sent (past 2^53, a fraction, an exponent), so that two ids could read as
 * one and the second replay the first. Null when the id is fine or the schema decides.
 */
function idIssue(id: unknown): string | null {
  if (typeof id === 'string' && LONE_SURROGATE.test(id))
    return 'id: not well-formed Unicode (a lone surrogate); ids must be well-formed';
  if (typeof id === 'number' && !Number.isSafeInteger(id))
    return 'id: a number id must be an integer from -9007199254740991 to 9007199254740991; send other ids as strings';
  return null;
}

/**
 * The JSON Lines message format shared by `doppel sign`, `doppel dedup` and the consumers.
 * Unknown fields are allowed and ignored, so producers may add their own. Built with the zod it is
 * given: `messageSchema` (message-schema.ts) for the API's documents and the library, and the
 * copy parseMessageObject loads when it first needs one (messageSchemaNow).
 */
export function defineMessageSchema(z: Zod) {
  return z.looseObject({
    // parseMessageObject checks a string id's form and a number id's range first (idIssue).
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
}

type MessageSchema = ReturnType<typeof defineMessageSchema>;

/**
 * The schema, built on the first message that is not a plain one (plainMessage): most streams
 * never need it.
 */
const messageSchemaNow = lazySchema(defineMessageSchema);

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

/** The largest time a Date holds (ECMAScript: ±100,000,000 days from 1970). */
const MAX_TIME_MS = 8.64e15;

export const DEFAULT_LIMITS: ParseLimits = { maxMessageBytes: 4 * 1024 * 1024 };

const BASE64 = /^[A-Za-z0-9+/_-]*={0,2}$/;

/**
 * Best-effort id of a line that failed to parse, so that its error can be matched to the input. A
 * number is named by its digits as written, whole (`1e400`, never `1`); a string only when it is
 * well-formed, as ids must be.
 */
export function salvageId(line: string): string | null {
  const match =
    /"id"\s*:\s*(?:"((?:[^"\\]|\\.){1,1024})"|(-?\d+(?:\.\d+)?(?:[eE][+-]?\d+)?)(?=\s*[,}]))/.exec(
      line.slice(0, 4096),
    );
  if (!match) return null;
  if (match[2] !== undefined) return match[2];
  try {
    const id = JSON.parse(`"${match[1]}"`) as string;
    return LONE_SURROGATE.test(id) ? null : id;
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

type MessageFields = z.output<MessageSchema>;

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
  if (typeof id !== 'string' || id.length < 1 || id.length > 1024 || LONE_SURROGATE.test(id)) return null;
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
    const issue = typeof json === 'object' && json !== null ? idIssue((json as { id?: unknown }).id) : null;
    if (issue !== null) throw new DoppelError('INVALID_MESSAGE', issue);
    const result = messageSchemaNow().safeParse(json);
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
    // A time no Date can hold (e.g. 1e300) is no time at all; later ones are clamped (engine.ts).
    if (Math.abs(ms) > MAX_TIME_MS)
      throw new DoppelError(
        'INVALID_MESSAGE',
        `ts: out of range (at most ±${MAX_TIME_MS} ms): ${String(value.ts)}`,
      );
    message.ts = ms;
  }
  const hasContent =
    [message.text, message.html].some((s) => s !== undefined && s.trim() !== '') ||
    (message.raw?.length ?? 0) > 0;
  if (!hasContent) throw new DoppelError('MISSING_CONTENT', 'message has none of text, html or raw');
  return message;
}
