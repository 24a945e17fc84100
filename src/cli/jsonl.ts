import { createReadStream, createWriteStream } from 'node:fs';
import { createInterface } from 'node:readline';
import type { Readable, Writable } from 'node:stream';
import { DoppelError } from '../errors.js';

/** Lines of a file, or of standard input for "-". A trailing "\r" is dropped. */
export async function* readLines(path: string, stdin: Readable = process.stdin): AsyncGenerator<string> {
  const input = path === '-' ? stdin : createReadStream(path);
  const opened = new Promise<void>((resolve, reject) => {
    if (path === '-') resolve();
    input.once('open', () => resolve());
    input.once('error', (error: Error) =>
      reject(new DoppelError('IO', `cannot read ${path}: ${error.message}`, { cause: error })),
    );
  });
  await opened;
  const lines = createInterface({ input, crlfDelay: Number.POSITIVE_INFINITY });
  for await (const line of lines) yield line;
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
    this.chunks.push(line, '\n');
    this.size += line.length + 1;
    if (this.size >= 1 << 16) await this.flush();
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
