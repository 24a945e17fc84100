/**
 * An append-only list of integer pairs in fixed blocks of Int32Array: what a generation of the
 * memory store records of every bucket entry it inserted (table index, key number), to remove
 * them when it expires. A pair of JS arrays grown by push copied every element about twice while
 * it grew (~1.4 KB of garbage a message at ~30 keys) and kept 8 bytes an element plus slack; a
 * block is never copied, and holds 4 bytes an element.
 */
const BLOCK_PAIRS = 4096;

export class PairLog {
  private readonly blocks: Int32Array[] = [];
  private size = 0;

  /** Pairs held. */
  get length(): number {
    return this.size;
  }

  push(a: number, b: number): void {
    const at = this.size % BLOCK_PAIRS;
    let block: Int32Array;
    if (at === 0) {
      // The first block is small: most generations of a short run hold few entries.
      block = new Int32Array(2 * (this.blocks.length === 0 ? 256 : BLOCK_PAIRS));
      this.blocks.push(block);
    } else {
      block = this.blocks[this.blocks.length - 1] as Int32Array;
      if (2 * at === block.length) {
        // The small first block is full: a full-size one takes its pairs.
        const full = new Int32Array(2 * BLOCK_PAIRS);
        full.set(block);
        this.blocks[this.blocks.length - 1] = full;
        block = full;
      }
    }
    block[2 * at] = a;
    block[2 * at + 1] = b;
    this.size++;
  }

  /** The first element of pair i (i < length). */
  first(i: number): number {
    return (this.blocks[Math.floor(i / BLOCK_PAIRS)] as Int32Array)[2 * (i % BLOCK_PAIRS)] as number;
  }

  /** The second element of pair i (i < length). */
  second(i: number): number {
    return (this.blocks[Math.floor(i / BLOCK_PAIRS)] as Int32Array)[2 * (i % BLOCK_PAIRS) + 1] as number;
  }
}
