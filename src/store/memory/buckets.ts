/**
 * Every bucket of every table in one open-addressing hash table (linear probing) over an
 * Int32Array, four words an entry in one 16-byte cell: table index + 1 (0 = empty), the key's 31
 * bits, and the members: a sequence number while the bucket has one member (most band buckets
 * never get a second), else -(list + 1) for a list of sequence numbers, oldest first. A lookup is
 * one probe into one cell; a `Map` per table cost a hash-table and an entry object per look-up,
 * spread over the heap (26 look-ups per message), and its entries and rehashes were GC work.
 * Sequence numbers are below 2^31 (a process would need 2^31 messages to pass that).
 */
export class BucketTable {
  private cells: Int32Array;
  private mask: number;
  private used = 0;
  private readonly lists: number[][] = [];
  private readonly freeLists: number[] = [];

  /** `log2Cells`: the initial size (tests start small to exercise growth and wrap-around). */
  constructor(log2Cells = 16) {
    this.cells = new Int32Array(4 << log2Cells);
    this.mask = (1 << log2Cells) - 1;
  }

  /** Buckets (distinct table and key) held. */
  get size(): number {
    return this.used;
  }

  /** The cell of bucket (table, key), or -1. */
  find(table: number, key: number): number {
    const cells = this.cells;
    const mask = this.mask;
    const tag = table + 1;
    let at = hashBucket(table, key) & mask;
    for (;;) {
      const c = 4 * at;
      const t = cells[c] as number;
      if (t === 0) return -1;
      if (t === tag && cells[c + 1] === key) return c;
      at = (at + 1) & mask;
    }
  }

  /**
   * Reads (and discards) the first cell each bucket of `tables[i], keys[i]` (i < n) probes: a
   * message's ~26 look-ups each miss the cache, and a short loop of independent loads lets the
   * CPU overlap those misses before find() meets them one by one.
   */
  touch(tables: Int32Array, keys: Int32Array, n: number): void {
    const cells = this.cells;
    const mask = this.mask;
    let sink = 0;
    for (let i = 0; i < n; i++) {
      const at = hashBucket(tables[i] as number, keys[i] as number) & mask;
      sink ^= cells[4 * at + 1] as number;
    }
    this.touchSink = sink;
  }

  /** Where touch() leaves what it read, so that the reads are not dropped as dead code (no meaning). */
  touchSink = 0;

  /** The members word of a cell (see the class comment). */
  members(cell: number): number {
    return this.cells[cell + 2] as number;
  }

  list(members: number): number[] {
    return this.lists[-members - 1] as number[];
  }

  /** How many members the bucket (table, key) has. */
  sizeOf(table: number, key: number): number {
    const cell = this.find(table, key);
    if (cell < 0) return 0;
    const m = this.cells[cell + 2] as number;
    return m >= 0 ? 1 : this.list(m).length;
  }

  /** Appends `seq` to bucket (table, key), making the bucket if it is new. */
  add(table: number, key: number, seq: number): void {
    const cell = this.find(table, key);
    if (cell >= 0) {
      const m = this.cells[cell + 2] as number;
      if (m >= 0) this.cells[cell + 2] = this.newList([m, seq]);
      else this.list(m).push(seq);
      return;
    }
    if (2 * (this.used + 1) > this.mask + 1) this.grow();
    const cells = this.cells;
    const mask = this.mask;
    let at = hashBucket(table, key) & mask;
    while (cells[4 * at] !== 0) at = (at + 1) & mask;
    cells[4 * at] = table + 1;
    cells[4 * at + 1] = key;
    cells[4 * at + 2] = seq;
    this.used++;
  }

  /** Sets the members of an existing bucket to one member or a list of two or more. */
  setMembers(cell: number, live: number[]): void {
    const m = this.cells[cell + 2] as number;
    if (m < 0 && live.length > 1) {
      this.lists[-m - 1] = live;
      return;
    }
    if (m < 0) this.freeList(m);
    this.cells[cell + 2] = live.length === 1 ? (live[0] as number) : this.newList(live);
  }

  /** Removes the bucket at `cell` (backward-shift deletion: no tombstones). */
  remove(cell: number): void {
    const cells = this.cells;
    const mask = this.mask;
    const m = cells[cell + 2] as number;
    if (m < 0) this.freeList(m);
    let hole = cell >> 2;
    let at = hole;
    for (;;) {
      at = (at + 1) & mask;
      const c = 4 * at;
      const t = cells[c] as number;
      if (t === 0) break;
      const home = hashBucket(t - 1, cells[c + 1] as number) & mask;
      // The entry at `at` may fill the hole unless its home lies cyclically in (hole, at]: its
      // distance past the hole is 1 .. at's. One comparison for both sides of the table's wrap,
      // so that optimized code does not meet the first wrap-around untried (a deopt and a
      // compile of its caller again).
      if (((home - hole - 1) & mask) < ((at - hole) & mask)) continue;
      cells[4 * hole] = t;
      cells[4 * hole + 1] = cells[c + 1] as number;
      cells[4 * hole + 2] = cells[c + 2] as number;
      hole = at;
    }
    cells[4 * hole] = 0;
    cells[4 * hole + 1] = 0;
    cells[4 * hole + 2] = 0;
    this.used--;
  }

  private newList(members: number[]): number {
    // A freed index, else the next one: one store either way (the first reuse of a freed list
    // came late in a run, after its callers were compiled without it, and dropped their code).
    const at = this.freeLists.pop() ?? this.lists.length;
    this.lists[at] = members;
    // Not -at - 1: with at 0, -at is -0, which optimized code does not expect either.
    return -1 - at;
  }

  private freeList(m: number): void {
    this.lists[-m - 1] = EMPTY_LIST;
    this.freeLists.push(-m - 1);
  }

  private grow(): void {
    const old = this.cells;
    const entries = 2 * (this.mask + 1);
    const cells = new Int32Array(4 * entries);
    const mask = entries - 1;
    for (let c = 0; c < old.length; c += 4) {
      const t = old[c] as number;
      if (t === 0) continue;
      let at = hashBucket(t - 1, old[c + 1] as number) & mask;
      while (cells[4 * at] !== 0) at = (at + 1) & mask;
      cells[4 * at] = t;
      cells[4 * at + 1] = old[c + 1] as number;
      cells[4 * at + 2] = old[c + 2] as number;
    }
    this.cells = cells;
    this.mask = mask;
  }
}

const EMPTY_LIST: number[] = [];

function hashBucket(table: number, key: number): number {
  const h = Math.imul(key ^ Math.imul(table + 1, 0x85ebca6b), 0x9e3779b1);
  return h ^ (h >>> 16);
}
