/** One caller's part of a merged call. */
interface Part<T, R> {
  items: readonly T[];
  resolve: (results: R[]) => void;
  reject: (error: unknown) => void;
}

/**
 * Calls of one kind made one after another, with no other call of the client between them, sent
 * as one call over all their items, in order: the Kafka consumer indexes the batches of the
 * partitions it consumes at once within the same turn of the event loop, and one index-1.lua call
 * over all of them is what back-to-back calls would do (Redis runs a script atomically, and the
 * calls of one connection in order), but it names each bucket once: copies of one story spread
 * over the partitions then share the call's copy of their buckets instead of each call reading
 * them again and writing them back (docs/redis.md, "The protocol").
 *
 * Parts wait for the end of the event loop's turn (setImmediate), for a part that would take the
 * call past `maxItems` or repeats a waiting item's key, or for `flush`, which the client calls before sending anything else, so
 * its calls reach Redis in the order they were made. Each part gets its own items' results; a
 * failure of the call fails every part of it.
 */
export class MergedCalls<T, R> {
  private parts: Part<T, R>[] = [];
  private items = 0;
  private scheduled = false;
  /** The keys of the items waiting (with `keyOf`). */
  private readonly keys = new Set<string>();

  /**
   * @param send sends one call over the items (synchronously up to writing it to the connection,
   *   so that a flush keeps the order of calls) and resolves to one result per item, in order
   * @param maxItems most items in one merged call (a part larger than this is sent alone)
   * @param keyOf an item's key: a part with an item whose key is waiting already goes in the
   *   next call (the index script judges a repeated id by what the calls before wrote)
   */
  constructor(
    private readonly send: (items: readonly T[]) => Promise<R[]>,
    private readonly maxItems: number,
    private readonly keyOf?: (item: T) => string,
  ) {}

  call(items: readonly T[]): Promise<R[]> {
    return new Promise<R[]>((resolve, reject) => {
      if (this.items > 0 && (this.items + items.length > this.maxItems || this.repeats(items))) this.flush();
      this.parts.push({ items, resolve, reject });
      this.items += items.length;
      if (this.keyOf) for (const item of items) this.keys.add(this.keyOf(item));
      if (!this.scheduled) {
        this.scheduled = true;
        setImmediate(() => {
          this.scheduled = false;
          this.flush();
        });
      }
    });
  }

  /** Whether an item of `items` has the key of one waiting. */
  private repeats(items: readonly T[]): boolean {
    const keyOf = this.keyOf;
    if (!keyOf) return false;
    for (const item of items) if (this.keys.has(keyOf(item))) return true;
    return false;
  }

  /** Sends the parts waiting now as one call. */
  flush(): void {
    const parts = this.parts;
    if (parts.length === 0) return;
    this.parts = [];
    this.items = 0;
    this.keys.clear();
    const only = parts.length === 1 ? (parts[0] as Part<T, R>) : null;
    let sent: Promise<R[]>;
    try {
      sent = this.send(only ? only.items : parts.flatMap((p) => p.items));
    } catch (error) {
      sent = Promise.reject(error);
    }
    sent.then(
      (results) => {
        if (only) {
          only.resolve(results);
          return;
        }
        let at = 0;
        for (const part of parts) {
          part.resolve(results.slice(at, at + part.items.length));
          at += part.items.length;
        }
      },
      (error: unknown) => {
        for (const part of parts) part.reject(error);
      },
    );
  }
}
