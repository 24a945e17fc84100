import { Command, type Redis } from 'ioredis';

/**
 * A script call encoded by hand into one RESP buffer, for the two calls every batch makes (index
 * and commit: ~1,500-2,000 arguments each). ioredis' own encoding costs per argument: it turns
 * every number into a string, measures each item twice and copies it into a list of chunks, and
 * the caller had to allocate a Buffer per id field, record and address list first; together
 * with the garbage that made, about a fifth of a client's CPU in the store path
 * (docs/benchmarks.md). Here the arguments are written straight into one growing buffer.
 */
export class RespWriter {
  private buf = Buffer.allocUnsafe(64 * 1024);
  /** Where the arguments start: room for the `*<count>\r\n` header, written last. */
  private static readonly HEAD = 16;
  private at = RespWriter.HEAD;
  private count = 0;

  /** Starts a new command (the buffer is reused: take `finish()`'s result before the next `reset`). */
  reset(): this {
    this.at = RespWriter.HEAD;
    this.count = 0;
    return this;
  }

  /** Makes room for `bytes` more bytes of arguments. */
  private ensure(bytes: number): void {
    if (this.at + bytes <= this.buf.length) return;
    const grown = Buffer.allocUnsafe(Math.max(this.buf.length * 2, this.at + bytes + 1024));
    this.buf.copy(grown, 0, 0, this.at);
    this.buf = grown;
  }

  /** Writes `$<length>\r\n`. */
  private lengthHeader(length: number): void {
    const b = this.buf;
    b[this.at++] = 36; // $
    this.digits(length);
    b[this.at++] = 13;
    b[this.at++] = 10;
  }

  private digits(n: number): void {
    const b = this.buf;
    if (n < 10) {
      b[this.at++] = 48 + n;
      return;
    }
    let width = 1;
    for (let p = 10; n >= p; p *= 10) width++;
    for (let i = this.at + width - 1; i >= this.at; i--) {
      b[i] = 48 + (n % 10);
      n = Math.floor(n / 10);
    }
    this.at += width;
  }

  private crlf(): void {
    this.buf[this.at++] = 13;
    this.buf[this.at++] = 10;
  }

  /** A number as Redis reads it (what ioredis sends for it: `String(n)`). */
  int(n: number): this {
    if (!(Number.isSafeInteger(n) && n >= 0)) return this.string(String(n));
    this.ensure(40);
    let width = 1;
    for (let p = 10; n >= p; p *= 10) width++;
    this.count++;
    this.lengthHeader(width);
    this.digits(n);
    this.crlf();
    return this;
  }

  /** A string, UTF-8. */
  string(s: string): this {
    const length = Buffer.byteLength(s, 'utf8');
    this.ensure(length + 24);
    this.count++;
    this.lengthHeader(length);
    this.at += this.buf.write(s, this.at, 'utf8');
    this.crlf();
    return this;
  }

  /** Bytes as they are. */
  bytes(bytes: Uint8Array, start = 0, end = bytes.length): this {
    const length = end - start;
    this.ensure(length + 24);
    this.count++;
    this.lengthHeader(length);
    this.buf.set(start === 0 && end === bytes.length ? bytes : bytes.subarray(start, end), this.at);
    this.at += length;
    this.crlf();
    return this;
  }

  /**
   * An argument of exactly `length` bytes that the caller writes itself at the returned offset of
   * `buffer` (valid until the next call): no intermediate Buffer for records and id fields.
   */
  reserve(length: number): number {
    this.ensure(length + 24);
    this.count++;
    this.lengthHeader(length);
    const start = this.at;
    this.at += length;
    this.crlf();
    return start;
  }

  get buffer(): Buffer {
    return this.buf;
  }

  /** The command: a copy, so that the writer can be reused while it is in flight or retried. */
  finish(): Buffer {
    const head = `*${this.count}\r\n`;
    const start = RespWriter.HEAD - head.length;
    this.buf.write(head, start, 'latin1');
    return Buffer.from(this.buf.subarray(start, this.at));
  }
}

/**
 * A command whose wire form is already encoded (RespWriter): ioredis only queues it and parses the
 * reply. `route` is what ioredis reads to pick a cluster node ([sha, '1', key]); one Redis needs none.
 */
export class EncodedCommand extends Command {
  constructor(
    private readonly encoded: Buffer,
    replyEncoding: BufferEncoding | null,
    route: string[] = [],
  ) {
    super('evalsha', route, { replyEncoding });
  }

  override toWritable(): Buffer {
    return this.encoded;
  }
}

/**
 * `send` once more after `load` when Redis has lost the script (NOSCRIPT: a restart or SCRIPT
 * FLUSH), as ioredis' own script commands do.
 */
export async function retryOnNoScript(send: () => unknown, load: () => Promise<unknown>): Promise<unknown> {
  try {
    return await send();
  } catch (e) {
    if (!(e instanceof Error) || !e.message.includes('NOSCRIPT')) throw e;
    await load();
    return send();
  }
}

/** Sends an encoded EVALSHA (sha, numkeys and the arguments already in `encoded`) to one Redis. */
export function sendEncoded(
  redis: Redis,
  encoded: Buffer,
  lua: string,
  replyEncoding: BufferEncoding | null,
): Promise<unknown> {
  return retryOnNoScript(
    () => redis.sendCommand(new EncodedCommand(encoded, replyEncoding)),
    () => redis.script('LOAD', lua),
  );
}
