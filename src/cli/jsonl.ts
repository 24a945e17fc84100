import { createReadStream, createWriteStream } from 'node:fs';
import type { Readable, Writable } from 'node:stream';
import { DoppelError } from '../errors.js';

/** Lines of a file, or of standard input for "-". A trailing "\r" is dropped. */
export async function* readLines(path: string, stdin: Readable = process.stdin): AsyncGenerator<string> {
  for await (const lines of readLineBatches(path, stdin)) for (const line of lines) yield line;
}

/**
 * readLines a chunk at a time: the lines completed by each chunk read. Splits the bytes itself
 * (no readline, no stream decoder, no regex, and one await per chunk rather than per line) with
 * readline's rules: "\n", "\r\n" and a lone "\r" end a line (also across chunks), and a last
 * line without an end is kept when it is not empty. A line is decoded as UTF-8 once it is whole.
 */
export async function* readLineBatches(
  path: string,
  stdin: Readable = process.stdin,
): AsyncGenerator<string[]> {
  const input = path === '-' ? stdin : createReadStream(path);
  const opened = new Promise<void>((resolve, reject) => {
    if (path === '-') resolve();
    input.once('open', () => resolve());
    input.once('error', (error: Error) =>
      reject(new DoppelError('IO', `cannot read ${path}: ${error.message}`, { cause: error })),
    );
  });
  await opened;
  // Bytes of a line not ended by the previous chunks.
  let carry: Buffer | null = null;
  // The previous chunk ended with "\r": a "\n" opening this one belongs to that line end.
  let afterCr = false;
  for await (const chunk of input as AsyncIterable<Buffer | string>) {
    const bytes = typeof chunk === 'string' ? Buffer.from(chunk, 'utf8') : chunk;
    const lines: string[] = [];
    let start = 0;
    if (afterCr && bytes.length > 0) {
      if (bytes[0] === 0x0a) start = 1;
      afterCr = false;
    }
    // Without a "\r" in the chunk (the usual case) the line ends are found by a native search.
    const crlf = bytes.indexOf(0x0d, start) >= 0;
    for (let i = start; i < bytes.length; i++) {
      if (!crlf) {
        i = bytes.indexOf(0x0a, i);
        if (i < 0) break;
      }
      const b = bytes[i];
      if (b !== 0x0a && b !== 0x0d) continue;
      if (carry === null) lines.push(bytes.toString('utf8', start, i));
      else {
        lines.push(Buffer.concat([carry, bytes.subarray(start, i)]).toString('utf8'));
        carry = null;
      }
      if (b === 0x0d) {
        if (i + 1 === bytes.length) afterCr = true;
        else if (bytes[i + 1] === 0x0a) i++;
      }
      start = i + 1;
    }
    if (start < bytes.length) {
      // Copied: the rest of the chunk is all that is kept of it.
      const rest = Buffer.from(bytes.subarray(start));
      carry = carry === null ? rest : Buffer.concat([carry, rest]);
    }
    if (lines.length > 0) yield lines;
  }
  if (carry !== null && carry.length > 0) yield [carry.toString('utf8')];
}

/** Buffered line writer that honours back-pressure; `close()` flushes and ends a file (never stdout). */
export class LineWriter {
  private chunks: string[] = [];
  private size = 0;
  private readonly ownsStream: boolean;
  private readonly stream: Writable;

  constructor(path: string, stdout: Writable = process.stdout) {
    this.ownsStream = path !== '-';
    this.stream = this.ownsStream ? createWriteStream(path) : stdout;
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
    if (this.chunks.length === 0) return;
    const data = this.chunks.join('');
    this.chunks = [];
    this.size = 0;
    if (!this.stream.write(data)) {
      await new Promise<void>((resolve, reject) => {
        const onError = (error: Error) => {
          this.stream.off('drain', onDrain);
          reject(error);
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
