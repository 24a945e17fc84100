import { createReadStream, createWriteStream } from 'node:fs';
import type { Readable, Writable } from 'node:stream';
import { DoppelError } from '../errors.js';
import { DEFAULT_LIMITS } from '../input/message.js';

/**
 * A line longer than the reader's limit. Only its first HEAD_BYTES were kept (for the id of its
 * error record); the rest was discarded while the reader looked for its end.
 */
export class OversizedLine {
  constructor(
    /** Length of the line in bytes (without its line end). */
    readonly bytes: number,
    /** The line's first bytes, decoded (possibly cut inside a character). */
    readonly head: string,
    /** The limit it broke. */
    readonly limit: number,
  ) {}

  error(): DoppelError {
    return new DoppelError(
      // TOO_LARGE, as before: the error codes of the dedup/sign records are a contract.
      'TOO_LARGE',
      `line is ${this.bytes} bytes, more than the limit of ${this.limit}`,
    );
  }
}

export type InputLine = string | OversizedLine;

export interface ReadOptions {
  /** Longest line kept, in bytes without the line end; longer ones become OversizedLine. */
  maxLineBytes?: number;
  /** Bytes read so far, added to once per chunk (progress: not a cost per line). */
  counter?: { bytes: number };
}

/** Enough of a line's start for salvageId (which reads 4096 characters). */
const HEAD_BYTES = 4096;

/** Lines of a file, or of standard input for "-". */
export async function* readLines(
  path: string,
  stdin: Readable = process.stdin,
  options: ReadOptions = {},
): AsyncGenerator<InputLine> {
  for await (const lines of readLineBatches(path, stdin, options)) for (const line of lines) yield line;
}

/**
 * readLines a chunk at a time: the lines completed by each chunk read. Splits the bytes itself
 * (no readline, no stream decoder, no regex, and one await per chunk rather than per line). Only
 * "\n" ends a line (a JSON string may hold a raw "\r", which JSON.parse rejects, but readline's
 * rule made it two lines); one "\r" before it is dropped, for CRLF files. A last line without an
 * end is kept when it is not empty. A line is decoded as UTF-8 once it is whole; its pieces are
 * joined once, and a line over the limit is not kept at all beyond its head, so memory stays
 * bounded by the limit whatever the input.
 */
export function readLineBatches(
  path: string,
  stdin: Readable = process.stdin,
  options: ReadOptions = {},
): AsyncGenerator<InputLine[]> {
  return lineBatches(path, stdin, options, (whole, end) => whole.toString('utf8', 0, end));
}

/**
 * readLineBatches with each line kept as its bytes (a view of what was read, its line end and
 * "\r" off), not decoded: for a consumer that decodes elsewhere (the dedup CLI's sign workers).
 * Decoding such a line with `toString('utf8')` gives readLineBatches' string; oversized lines are
 * the same OversizedLine.
 */
export function readRawLineBatches(
  path: string,
  stdin: Readable = process.stdin,
  options: ReadOptions = {},
): AsyncGenerator<RawInputLine[]> {
  return lineBatches(path, stdin, options, (whole, end) => whole.subarray(0, end));
}

export type RawInputLine = Buffer | OversizedLine;

async function* lineBatches<T>(
  path: string,
  stdin: Readable,
  options: ReadOptions,
  make: (whole: Buffer, end: number) => T,
): AsyncGenerator<Array<T | OversizedLine>> {
  const maxLineBytes = options.maxLineBytes ?? DEFAULT_LIMITS.maxMessageBytes;
  const input = path === '-' ? stdin : createReadStream(path);
  const opened = new Promise<void>((resolve, reject) => {
    if (path === '-') resolve();
    input.once('open', () => resolve());
    input.once('error', (error: Error) =>
      reject(new DoppelError('IO', `cannot read ${path}: ${error.message}`, { cause: error })),
    );
  });
  await opened;
  // The pieces of a line not ended by the previous chunks, and their total length. Past the limit
  // (plus one byte for a "\r" that may end it) the pieces are dropped and only counted.
  let pieces: Buffer[] = [];
  let pending = 0;
  let head: Buffer | null = null;
  let lastByte = -1; // of the pieces (kept or dropped)
  const finish = (last: Buffer): T | OversizedLine => {
    const total = pending + last.length;
    let line: T | OversizedLine;
    if (head === null) {
      const whole = pieces.length === 0 ? last : Buffer.concat([...pieces, last], total);
      const end = total > 0 && whole[total - 1] === 0x0d ? total - 1 : total;
      line =
        end > maxLineBytes
          ? new OversizedLine(end, whole.toString('utf8', 0, Math.min(end, HEAD_BYTES)), maxLineBytes)
          : make(whole, end);
    } else {
      const cr = (last.length > 0 ? last[last.length - 1] : lastByte) === 0x0d;
      const bytes = total - (cr ? 1 : 0);
      line = new OversizedLine(bytes, head.toString('utf8', 0, Math.min(head.length, bytes)), maxLineBytes);
    }
    pieces = [];
    pending = 0;
    head = null;
    return line;
  };
  const keep = (rest: Buffer): void => {
    if (head === null && pending + rest.length > maxLineBytes + 1) {
      head = Buffer.concat([...pieces, rest.subarray(0, HEAD_BYTES)]).subarray(0, HEAD_BYTES);
      pieces = [];
    }
    // Copied: the rest of the chunk is all that is kept of it.
    if (head === null) pieces.push(Buffer.from(rest));
    pending += rest.length;
    lastByte = rest[rest.length - 1] as number;
  };
  for await (const chunk of input as AsyncIterable<Buffer | string>) {
    const bytes = typeof chunk === 'string' ? Buffer.from(chunk, 'utf8') : chunk;
    if (options.counter) options.counter.bytes += bytes.length;
    const lines: Array<T | OversizedLine> = [];
    let start = 0;
    for (;;) {
      const end = bytes.indexOf(0x0a, start);
      if (end < 0) break;
      lines.push(finish(bytes.subarray(start, end)));
      start = end + 1;
    }
    if (start < bytes.length) keep(bytes.subarray(start));
    if (lines.length > 0) yield lines;
  }
  if (pending > 0) yield [finish(Buffer.alloc(0))];
}

/**
 * Whether a line read as bytes is empty or white space only, as `line.trim() === ''` says of the
 * decoded line. Decodes only a line of nothing but white space and non-ASCII bytes (it may be
 * Unicode white space); a JSON line is told by its first byte.
 */
export function isBlankLine(bytes: Uint8Array): boolean {
  let nonAscii = false;
  for (let i = 0; i < bytes.length; i++) {
    const b = bytes[i] as number;
    if (b === 0x20 || (b >= 0x09 && b <= 0x0d)) continue;
    if (b < 0x80) return false;
    nonAscii = true;
  }
  return (
    !nonAscii || Buffer.from(bytes.buffer, bytes.byteOffset, bytes.length).toString('utf8').trim() === ''
  );
}

/**
 * The reader of the output went away (`doppel dedup | head -1`: EPIPE). Not a failure: the
 * command stops writing and ends quietly with exit 0, as Unix filters do.
 */
export class OutputClosedError extends Error {
  constructor(cause: unknown) {
    super('the output was closed by its reader', { cause });
    this.name = 'OutputClosedError';
  }
}

export function isOutputClosed(value: unknown): value is OutputClosedError {
  return value instanceof OutputClosedError;
}

/** Buffered line writer that honours back-pressure; `close()` flushes and ends a file (never stdout). */
export class LineWriter {
  private chunks: string[] = [];
  private size = 0;
  private readonly ownsStream: boolean;
  private readonly stream: Writable;
  /** Set once the reader has closed the pipe: nothing more is written. */
  private closedBy: OutputClosedError | null = null;

  constructor(path: string, stdout: Writable = process.stdout) {
    this.ownsStream = path !== '-';
    this.stream = this.ownsStream ? createWriteStream(path) : stdout;
    // Always listening: an EPIPE reported after the last write would otherwise be an uncaught
    // 'error' event and end the process with a stack trace.
    this.stream.on('error', (error: NodeJS.ErrnoException) => {
      if (error.code === 'EPIPE') this.closedBy ??= new OutputClosedError(error);
    });
  }

  async write(line: string): Promise<void> {
    if (this.add(line)) await this.flush();
  }

  /** Buffers a line without flushing; true when the buffer is due a `flush()`. */
  add(line: string): boolean {
    this.chunks.push(line, '\n');
    this.size += line.length + 1;
    return this.size >= 1 << 16;
  }

  async flush(): Promise<void> {
    if (this.closedBy) throw this.closedBy;
    if (this.chunks.length === 0) return;
    const data = this.chunks.join('');
    this.chunks = [];
    this.size = 0;
    if (!this.stream.write(data)) {
      await new Promise<void>((resolve, reject) => {
        const onError = (error: NodeJS.ErrnoException) => {
          this.stream.off('drain', onDrain);
          reject(error.code === 'EPIPE' ? (this.closedBy ?? new OutputClosedError(error)) : error);
        };
        const onDrain = () => {
          this.stream.off('error', onError);
          resolve();
        };
        this.stream.once('drain', onDrain);
        this.stream.once('error', onError);
      });
    }
  }

  async close(): Promise<void> {
    await this.flush();
    if (!this.ownsStream) return;
    await new Promise<void>((resolve, reject) => {
      this.stream.once('error', reject);
      this.stream.end(() => resolve());
    });
  }
}
