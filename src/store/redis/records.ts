import type { Candidate } from '../../engine/types.js';
import { DoppelError } from '../../errors.js';
import { parseRecordBlob, type StoredRecord } from './codec.js';

/**
 * The candidate records a client keeps (redis.recordCacheSize of them), so a batch fetches only
 * the ones it has not seen (lua/records-1.lua). With a size of 0 a batch's fetched records are
 * kept until its commit, then dropped.
 */
export class RecordCache {
  private readonly cache = new Map<number, StoredRecord>();

  constructor(private readonly capacity: number) {}

  remember(seq: number, record: StoredRecord): void {
    if (this.capacity === 0) return;
    this.cache.set(seq, record);
    if (this.cache.size > this.capacity) {
      // Oldest inserted first: sequence numbers arrive roughly in order, and old ones expire first.
      const oldest = this.cache.keys().next();
      if (!oldest.done) this.cache.delete(oldest.value);
    }
  }

  /** After a commit: with no cache, the batch's records go. */
  committed(): void {
    if (this.capacity === 0) this.cache.clear();
  }

  /**
   * Ranked [seq, hits] lists as candidates with their records; `fetch` reads the blobs of those
   * not cached (null: gone).
   */
  async candidates(
    ranked: ReadonlyArray<ReadonlyArray<[number, number]>>,
    fetch: (seqs: number[]) => Promise<Array<Buffer | null>>,
  ): Promise<Candidate[][]> {
    const missing = new Set<number>();
    for (const list of ranked) for (const [seq] of list) if (!this.cache.has(seq)) missing.add(seq);
    if (missing.size > 0) await this.add([...missing], fetch);
    return ranked.map((list) => {
      const candidates: Candidate[] = [];
      for (const [seq, hits] of list) {
        const cached = this.cache.get(seq);
        if (cached) candidates.push({ id: cached.id, seq, ts: cached.ts, record: cached.record, hits });
      }
      return candidates;
    });
  }

  private async add(seqs: number[], fetch: (seqs: number[]) => Promise<Array<Buffer | null>>): Promise<void> {
    const blobs = await fetch(seqs);
    seqs.forEach((seq, i) => {
      const blob = blobs[i];
      if (!blob) return;
      try {
        const record = parseRecordBlob(blob);
        if (this.capacity === 0) this.cache.set(seq, record);
        else this.remember(seq, record);
      } catch (e) {
        throw new DoppelError(
          'STORE_CORRUPT',
          `record ${seq} in Redis is unreadable: ${(e as Error).message}`,
        );
      }
    });
  }
}
