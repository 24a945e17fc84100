/**
 * Signing in worker threads. Decoding, canonicalization and signatures are most of a message's
 * CPU and need nothing shared, so N workers (pipeline/sign-worker.ts) do them in parallel; the
 * store, verification and verdicts stay on the calling thread, one message after another in input
 * order, so the verdicts are those of one thread (byte for byte: test/pipeline/sign-pool.test.ts).
 * Each job answers a chunk of prepared messages packed into transferable typed arrays
 * (prepared-wire.ts); callers await the chunks in the order they submitted them.
 */
import { existsSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { fileURLToPath } from 'node:url';
import { Worker } from 'node:worker_threads';
import type { DedupConfig } from '../config/dedup.js';
import { DoppelError } from '../errors.js';
import type { DecodedMessage } from '../input/decode-message.js';
import type { Message } from '../input/message.js';
import type { Language } from '../text/language.js';
import type { CanonicalChunk } from './canonical-wire.js';
import type { PreparedChunk } from './prepared-wire.js';
import { type RawLines, rawLinesTransfer } from './raw-lines.js';
import type { SignJob, SignWorkerData } from './sign-worker.js';

/** `threads` as configured: 0 (or absent) means one per core. */
export function resolveThreads(threads: number | undefined): number {
  return threads === undefined || threads <= 0 ? availableParallelism() : Math.floor(threads);
}

/**
 * Below this many bytes of input, a lone sign worker is not worth its CPU (docs/benchmarks.md,
 * "One sign worker on a short file"): it does the signing the main thread would have done, plus
 * its own start-up and JIT warm-up (+11-17% process CPU on 17-68 MB of news text), for at most
 * 6-10% of wall time on 2 idle cores and less on busy ones.
 */
export const LONE_WORKER_MIN_INPUT_BYTES = 32 * 1024 * 1024;

/**
 * `doppel dedup`'s thread count when neither `--threads` nor the config's `threads` names one
 * (`threads` 0 or absent): one per core, except on 2 cores for an input file of known size under
 * LONE_WORKER_MIN_INPUT_BYTES, which runs on the main thread alone. `inputBytes` is null when the
 * input's size is not known before it is read (standard input, a pipe): the worker starts then.
 * With 3 or more cores the workers split the signing between them, which pays on short files too.
 */
export function defaultDedupThreads(cores: number, inputBytes: number | null): number {
  if (cores === 2 && inputBytes !== null && inputBytes < LONE_WORKER_MIN_INPUT_BYTES) return 1;
  return Math.max(1, cores);
}

/**
 * The worker's compiled module. Next to this one in dist/; a test that imports the TypeScript
 * sources (vitest) has no .js beside it and uses the build's.
 */
function workerUrl(): URL {
  const beside = new URL('./sign-worker.js', import.meta.url);
  if (existsSync(fileURLToPath(beside))) return beside;
  return new URL('../../dist/pipeline/sign-worker.js', import.meta.url);
}

/**
 * Whether a run with `workers` sign workers splits the work by stage rather than by message: its
 * one worker parses, decodes and canonicalizes, and the main thread signs, indexes, verifies and
 * writes (SignPool.canonicalRawLines). With one worker, signing there too left the main thread
 * idle most of the time and the worker the limit (docs/benchmarks.md, "Threads split by stage");
 * split by stage, each thread runs (and its JIT compiles) only its own stages' code, and one
 * vocabulary learns the stream's words. With two or more workers the main thread would be the
 * limit: they sign whole messages.
 */
export function splitByStage(workers: number): boolean {
  return workers === 1;
}

interface Pending {
  resolve: (chunk: PreparedChunk | CanonicalChunk) => void;
  reject: (error: Error) => void;
}

interface Slot {
  worker: Worker;
  pending: Map<number, Pending>;
}

export interface SignPoolOptions {
  threads: number;
  config: DedupConfig;
  lexicons?: Partial<Record<Language, string>>;
}

type JobBody =
  | { kind: 'lines'; lines: string[] }
  | { kind: 'raw'; lines: RawLines }
  | { kind: 'raw-canonical'; lines: RawLines }
  | { kind: 'messages'; messages: Message[] }
  | { kind: 'decoded'; items: Array<{ message: Message; decoded: DecodedMessage; idFromDecoded: boolean }> };

export class SignPool {
  private seq = 0;
  private next = 0;
  private failure: Error | null = null;
  private closed = false;

  private constructor(private readonly slots: Slot[]) {}

  /** Starts `threads` workers and waits until each has loaded its lexicons. */
  static async start(options: SignPoolOptions): Promise<SignPool> {
    const data: SignWorkerData = { config: options.config, lexicons: options.lexicons ?? {} };
    const url = workerUrl();
    const slots: Slot[] = [];
    const ready: Array<Promise<void>> = [];
    for (let i = 0; i < Math.max(1, options.threads); i++) {
      const worker = new Worker(url, { workerData: data, name: `doppel-sign-${i}` });
      slots.push({ worker, pending: new Map() });
      ready.push(
        new Promise<void>((resolve, reject) => {
          worker.once('message', () => resolve());
          worker.once('error', reject);
          worker.once('exit', (code) =>
            reject(new Error(`sign worker exited with code ${code} while starting`)),
          );
        }),
      );
    }
    const pool = new SignPool(slots);
    try {
      await Promise.all(ready);
    } catch (error) {
      await pool.close();
      throw new DoppelError('INTERNAL', `sign workers failed to start: ${(error as Error).message}`, {
        cause: error,
      });
    }
    for (const slot of slots) pool.listen(slot);
    return pool;
  }

  get threads(): number {
    return this.slots.length;
  }

  /** JSON lines (the dedup CLI's input) -> prepared messages, in order. */
  prepareLines(lines: string[]): Promise<PreparedChunk> {
    return this.submit({ kind: 'lines', lines }) as Promise<PreparedChunk>;
  }

  /**
   * JSON lines as bytes (packRawLines) -> prepared messages, in order; the worker decodes them.
   * The lines' buffers are transferred: detached here once this returns.
   */
  prepareRawLines(lines: RawLines): Promise<PreparedChunk> {
    return this.submit({ kind: 'raw', lines }, rawLinesTransfer(lines)) as Promise<PreparedChunk>;
  }

  /**
   * JSON lines as bytes -> canonical texts, in order: parsed, decoded and canonicalized, for the
   * caller to sign (splitByStage). The lines' buffers are transferred.
   */
  canonicalRawLines(lines: RawLines): Promise<CanonicalChunk> {
    return this.submit({ kind: 'raw-canonical', lines }, rawLinesTransfer(lines)) as Promise<CanonicalChunk>;
  }

  /** Parsed messages (the HTTP API's bodies) -> prepared messages, in order. */
  prepareMessages(messages: Message[]): Promise<PreparedChunk> {
    return this.submit({ kind: 'messages', messages }) as Promise<PreparedChunk>;
  }

  /** Decoded messages (the Kafka consumer's stage 1) -> prepared messages, in order. */
  prepareDecoded(
    items: Array<{ message: Message; decoded: DecodedMessage; idFromDecoded: boolean }>,
  ): Promise<PreparedChunk> {
    return this.submit({ kind: 'decoded', items }) as Promise<PreparedChunk>;
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    this.fail(new DoppelError('INTERNAL', 'sign pool closed'));
    await Promise.all(this.slots.map((s) => s.worker.terminate()));
  }

  private listen(slot: Slot): void {
    slot.worker.on('message', (m: { seq: number; chunk: PreparedChunk | CanonicalChunk }) => {
      const p = slot.pending.get(m.seq);
      if (!p) return;
      slot.pending.delete(m.seq);
      p.resolve(m.chunk);
    });
    const broken = (error: Error) =>
      this.fail(new DoppelError('INTERNAL', `sign worker failed: ${error.message}`));
    slot.worker.on('error', broken);
    slot.worker.on('exit', (code) => {
      if (!this.closed) broken(new Error(`exited with code ${code}`));
    });
  }

  private fail(error: Error): void {
    this.failure ??= error;
    for (const slot of this.slots) {
      for (const p of slot.pending.values()) p.reject(error);
      slot.pending.clear();
    }
  }

  private submit(body: JobBody, transfer: ArrayBuffer[] = []): Promise<PreparedChunk | CanonicalChunk> {
    if (this.failure) return Promise.reject(this.failure);
    // The least busy worker (round robin among equals): chunks differ in size, so a fixed
    // rotation would queue work behind a slow chunk while another worker idles.
    let best = this.slots[this.next % this.slots.length] as Slot;
    for (let i = 1; i < this.slots.length; i++) {
      const s = this.slots[(this.next + i) % this.slots.length] as Slot;
      if (s.pending.size < best.pending.size) best = s;
    }
    this.next++;
    const seq = ++this.seq;
    return new Promise<PreparedChunk | CanonicalChunk>((resolve, reject) => {
      best.pending.set(seq, { resolve, reject });
      best.worker.postMessage({ seq, ...body } as SignJob, transfer);
    });
  }
}
