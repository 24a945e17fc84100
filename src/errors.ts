/**
 * Every error doppel raises carries a code from this fixed list and a `retryable` flag.
 * Callers (the CLI, the Kafka consumer) decide retry vs. dead-letter by reading the flag,
 * never by matching message text.
 */
export const ERROR_CODES = {
  /** The input line is not valid JSON. */
  INVALID_JSON: { retryable: false, description: 'input line is not valid JSON' },
  /** The input parsed but does not have the message shape (missing id, wrong field types). */
  INVALID_MESSAGE: { retryable: false, description: 'input does not have the message shape' },
  /** The message has none of text, html or raw. */
  MISSING_CONTENT: { retryable: false, description: 'message has no text, html or raw content' },
  /** The message is larger than the configured limit. */
  TOO_LARGE: { retryable: false, description: 'message exceeds the size limit' },
  /** A JSON Lines input line longer than the limit (4 MiB): its bytes were skipped, not read. */
  /** `raw` is not valid base64. */
  INVALID_BASE64: { retryable: false, description: 'raw field is not valid base64' },
  /** Bytes that are neither UTF-8 nor a supported legacy charset (binary, unknown encoding). */
  UNDECODABLE: { retryable: false, description: 'bytes could not be decoded as text' },
  /** An RFC 822 / MIME mail that could not be parsed. */
  INVALID_MAIL: { retryable: false, description: 'e-mail could not be parsed' },
  /**
   * Not an error: a warning on a valid verdict. A mail of more MIME parts than are read (1,000
   * boundary lines; attachments and other non-text parts are dropped first): judged on the text
   * parts read (docs/formats.md).
   */
  MAIL_TRUNCATED: { retryable: false, description: 'mail judged on its first text parts only' },
  /** Nothing is left after canonicalization (empty body, only markup or stop words' punctuation). */
  EMPTY_TEXT: { retryable: false, description: 'no words or symbols left after canonicalization' },
  /** A lexicon file is missing, malformed or of an unknown format. */
  INVALID_LEXICON: { retryable: false, description: 'lexicon file is invalid' },
  /** The configuration does not pass the schema. */
  INVALID_CONFIG: { retryable: false, description: 'configuration is invalid' },
  /** A command-line usage error. */
  USAGE: { retryable: false, description: 'command-line usage error' },
  /** An I/O failure on a local file or stream. */
  IO: { retryable: true, description: 'local I/O failed' },
  /** The store (Redis) cannot be reached or dropped the connection. Retry the batch (replays are idempotent). */
  STORE_UNAVAILABLE: { retryable: true, description: 'store unavailable' },
  /** The store did not answer within the command timeout. */
  STORE_TIMEOUT: { retryable: true, description: 'store command timed out' },
  /** The store answered with an error that a retry will not fix (wrong key type, a script error, a layout mismatch). */
  STORE_ERROR: { retryable: false, description: 'store error' },
  /**
   * The namespace lost its data while in use (a Redis restart without persistence, FLUSHALL, an
   * eviction): going on would judge duplicates `unique`. Stops every client of the namespace until
   * an operator accepts the loss (DOPPEL_RESET_NAMESPACE=1, docs/redis.md).
   */
  STORE_DATA_LOST: { retryable: false, description: 'store namespace lost its data' },
  /**
   * A value read back from the store is not one doppel writes (tampered with, or written by
   * another program): never turned into a verdict. Stops like STORE_DATA_LOST (docs/redis.md).
   */
  STORE_CORRUPT: { retryable: false, description: 'store holds a malformed value' },
  /** A Kafka broker cannot be reached, or a request failed in a way the client says a retry may fix. */
  KAFKA_UNAVAILABLE: { retryable: true, description: 'kafka unavailable' },
  /** Kafka refused a request for good (authorization, a message too large, a fenced transactional producer). */
  KAFKA_ERROR: { retryable: false, description: 'kafka error' },
  /** HTTP API: the path names no route, or the message or cluster id is not in the store (or expired). */
  NOT_FOUND: { retryable: false, description: 'no such route, message or cluster' },
  /**
   * HTTP API: a single POSTed message reuses an id decided before with other content (another
   * exact hash). The answer carries the id's first verdict; send new content under a new id.
   */
  ID_CONFLICT: { retryable: false, description: 'the id was decided before with other content' },
  /** HTTP API: the route exists but not with this method. */
  METHOD_NOT_ALLOWED: { retryable: false, description: 'method not allowed on this route' },
  /** HTTP API: a request body that is not application/json. */
  UNSUPPORTED_MEDIA_TYPE: {
    retryable: false,
    description: 'request body must be application/json (or application/x-ndjson)',
  },
  /** HTTP API: a malformed query parameter or path (a bad cursor or limit, an undecodable id). */
  BAD_REQUEST: { retryable: false, description: 'malformed request parameters' },
  /** HTTP API: the request did not finish within api.requestTimeoutMs. */
  TIMEOUT: { retryable: true, description: 'request timed out' },
  // Hostile input: credentials and the HTTP API's edges.
  /** Redis refused the credentials (NOAUTH, WRONGPASS) or the user's permissions (NOPERM): configuration, so no retry fixes it. */
  STORE_AUTH: { retryable: false, description: 'store authentication failed' },
  /** HTTP API: /v1 needs the bearer token (DOPPEL_API_TOKEN / DOPPEL_API_TOKEN_FILE) and it is missing or wrong. */
  UNAUTHORIZED: { retryable: false, description: 'missing or wrong API token' },
  /** HTTP API: the client did not send the whole request (headers and body) within api.requestTimeoutMs. */
  REQUEST_TIMEOUT: { retryable: true, description: 'request not received in time' },
  /** HTTP API: the client closed the connection before the answer (counted as status 499, never sent). */
  CLIENT_CLOSED: { retryable: false, description: 'client closed the request' },
  /** A bug: an invariant did not hold. Not retryable: the same input would fail the same way. */
  INTERNAL: { retryable: false, description: 'internal error' },
} as const;

export type ErrorCode = keyof typeof ERROR_CODES;

/**
 * The codes that say the input itself is bad: only these become an `invalid` verdict or a DLQ
 * record. Anything else (a store failure, a bug) is about doppel, not the message: the batch is
 * retried and, failing that, the process stops; good input is never dead-lettered.
 */
export const INPUT_ERROR_CODES: ReadonlySet<ErrorCode> = new Set<ErrorCode>([
  'INVALID_JSON',
  'INVALID_MESSAGE',
  'MISSING_CONTENT',
  'TOO_LARGE',
  'INVALID_BASE64',
  'UNDECODABLE',
  'INVALID_MAIL',
  'EMPTY_TEXT',
]);

export function isInputError(value: unknown): value is DoppelError {
  return value instanceof DoppelError && INPUT_ERROR_CODES.has(value.code);
}

export class DoppelError extends Error {
  readonly code: ErrorCode;
  readonly retryable: boolean;

  constructor(code: ErrorCode, message: string, options?: { cause?: unknown; retryable?: boolean }) {
    super(message, options?.cause === undefined ? undefined : { cause: options.cause });
    this.name = 'DoppelError';
    this.code = code;
    this.retryable = options?.retryable ?? ERROR_CODES[code].retryable;
  }

  toJSON(): { code: ErrorCode; message: string } {
    return { code: this.code, message: this.message };
  }
}

export function isDoppelError(value: unknown): value is DoppelError {
  return value instanceof DoppelError;
}

/** Wraps anything thrown into a DoppelError so that callers see one shape. */
export function toDoppelError(value: unknown): DoppelError {
  if (value instanceof DoppelError) return value;
  const message = value instanceof Error ? value.message : String(value);
  return new DoppelError('INTERNAL', message, { cause: value });
}
