import type { DedupConfig } from '../config/dedup.js';
import { DoppelError } from '../errors.js';
import type { PreparedChunk } from '../pipeline/prepared-wire.js';
import { unpackItem } from '../pipeline/prepared-wire.js';
import { resolveThreads, SignPool, type SignPoolOptions } from '../pipeline/sign-pool.js';
import type { InputFormat } from './config.js';
import { salvageInputId } from './input.js';
import type { DecodedSlot, Slot } from './processor.js';

/** Messages per worker job: small enough that a batch spreads over every worker. */
const CHUNK = 64;

/**
 * The consumer's sign stage in worker threads (`consumer.signThreads` > 1): a batch's decoded
 * messages are canonicalized, signed and prepared (index keys + record) by the pool, and come
 * back as the slots BatchProcessor.sign makes on the event loop, in input order, with the same
 * ids, event times and input-error codes (so the same verdicts and dead letters).
 *
 * A worker that dies fails the batch with INTERNAL (the consumer retries it, never dead-letters
 * it); the broken pool is dropped and the next attempt starts a new one.
 */
export class PoolSigner {
  private pool: Promise<SignPool> | null = null;

  constructor(private readonly options: SignPoolOptions) {}

  /** Starts the workers now (start-up fails fast on a pool that cannot start). */
  async start(): Promise<void> {
    await this.current();
  }

  get threads(): number {
    return this.options.threads;
  }

  async sign(decoded: readonly DecodedSlot[], formatOf: (topic: string) => InputFormat): Promise<Slot[]> {
    const ok: number[] = [];
    const items: Parameters<SignPool['prepareDecoded']>[0] = [];
    decoded.forEach((slot, i) => {
      if ('error' in slot) return;
      ok.push(i);
      items.push({
        message: slot.parsed.message,
        decoded: slot.decoded,
        idFromDecoded: slot.parsed.idSource === 'position',
      });
    });
    const chunks = items.length > 0 ? await this.prepare(items) : [];
    const slots: Slot[] = [];
    let next = 0;
    for (let i = 0; i < decoded.length; i++) {
      const slot = decoded[i] as DecodedSlot;
      if ('error' in slot) {
        slots.push(slot);
        continue;
      }
      const n = next++;
      const item = unpackItem(chunks[Math.floor(n / CHUNK)] as PreparedChunk, n % CHUNK);
      const { record, parsed } = slot;
      if (item.ok) {
        slots.push({ record, request: { ...item.request, ts: parsed.message.ts ?? Date.now() } });
      } else if (item.bug) {
        // As on the event loop (processor.ts inputError): a bug fails the batch, never the dlq.
        throw new DoppelError(
          'INTERNAL',
          `signing ${record.topic}/${record.partition}@${record.offset} failed: ${item.error.message}`,
        );
      } else {
        slots.push({ record, error: item.error, id: salvageInputId(record, formatOf(record.topic)) });
      }
    }
    return slots;
  }

  async close(): Promise<void> {
    const pool = this.pool;
    this.pool = null;
    if (pool) await (await pool.catch(() => null))?.close();
  }

  private current(): Promise<SignPool> {
    this.pool ??= SignPool.start(this.options);
    const pool = this.pool;
    // A pool that failed to start is not kept: the batch's retry tries again.
    pool.catch(() => {
      if (this.pool === pool) this.pool = null;
    });
    return pool;
  }

  private async prepare(items: Parameters<SignPool['prepareDecoded']>[0]): Promise<PreparedChunk[]> {
    const pool = await this.current();
    const jobs: Array<Promise<PreparedChunk>> = [];
    for (let i = 0; i < items.length; i += CHUNK) jobs.push(pool.prepareDecoded(items.slice(i, i + CHUNK)));
    try {
      return await Promise.all(jobs);
    } catch (error) {
      // A failed pool rejects every job from then on: replace it for the next attempt.
      for (const job of jobs) job.catch(() => undefined);
      if (this.pool !== null && (await this.pool.catch(() => null)) === pool) this.pool = null;
      await pool.close().catch(() => undefined);
      throw error instanceof DoppelError
        ? error
        : new DoppelError('INTERNAL', `sign workers failed: ${(error as Error).message}`, { cause: error });
    }
  }
}

/** The consumer's pool for `consumer.signThreads` (0: one per core), or null for 1 (event loop). */
export async function startPoolSigner(signThreads: number, config: DedupConfig): Promise<PoolSigner | null> {
  const threads = resolveThreads(signThreads);
  if (threads <= 1) return null;
  const signer = new PoolSigner({ threads, config });
  await signer.start();
  return signer;
}
