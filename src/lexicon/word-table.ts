/**
 * A lexicon's words in flat typed arrays: an open-addressing table keyed by the FNV-1a hash of
 * the word's UTF-16 units, each word's idf and secondary-lexicon rank, and the characters of all
 * words in one array. It is built from a lexicon file's word list, or read as-is from the compact
 * binary form (compact.ts): loading that costs a file read and a few array views, where the JSON
 * form cost a parse, a schema check and two Maps of 40,000 strings (~0.1 s of CPU per language,
 * paid by every process and every sign worker).
 */
/** A word's UTF-16 units, for find; a longer word gets an array of its own (not kept). */
const scratch = new Uint16Array(64);

export class WordTable {
  constructor(
    /** idf of word i. */
    readonly idf: Float64Array,
    /** Rank of word i in the secondary lexicon B (ascending idf), -1 when not in B. */
    readonly rank: Int32Array,
    /** Word i is chars[starts[i], starts[i + 1]). */
    readonly starts: Uint32Array,
    readonly chars: Uint16Array,
    /** word index + 1 (0 = empty) by (hash ^ hash >>> 15) & (length - 1), linear probing. */
    readonly slots: Int32Array,
  ) {}

  get size(): number {
    return this.idf.length;
  }

  /** Index of `word`, or -1 (its UTF-16 units looked up as findCodes does). */
  find(word: string): number {
    const length = word.length;
    const codes = length <= scratch.length ? scratch : new Uint16Array(length);
    for (let j = 0; j < length; j++) codes[j] = word.charCodeAt(j);
    return this.findCodes(codes, 0, length);
  }

  /** Index of the word codes[start, end) (UTF-16 units), or -1: find without making a string. */
  findCodes(codes: Uint16Array, start: number, end: number): number {
    const length = end - start;
    let h = 0x811c9dc5;
    for (let j = start; j < end; j++) h = Math.imul(h ^ (codes[j] as number), 0x01000193);
    const slots = this.slots;
    const mask = slots.length - 1;
    for (let at = (h ^ (h >>> 15)) & mask; ; at = (at + 1) & mask) {
      const entry = slots[at] as number;
      if (entry === 0) return -1;
      const i = entry - 1;
      const first = this.starts[i] as number;
      if ((this.starts[i + 1] as number) - first !== length) continue;
      let j = 0;
      while (j < length && this.chars[first + j] === codes[start + j]) j++;
      if (j === length) return i;
    }
  }

  /**
   * The table of a lexicon file's `words` ([word, idf], sorted by idf then word). A word is in
   * B when its idf is above `idfHi` and its length within bounds; ranks follow the list's order.
   * A word listed twice keeps its first place with the later idf (as a Map's set would).
   */
  static fromWords(
    words: ReadonlyArray<readonly [string, number]>,
    primary: { idfHi: number; minWordLength: number; maxWordLength: number },
  ): WordTable {
    const index = new Map<string, number>();
    const idf: number[] = [];
    const rank: number[] = [];
    let secondary = 0;
    for (const [word, value] of words) {
      let i = index.get(word);
      if (i === undefined) {
        i = idf.length;
        index.set(word, i);
        idf.push(value);
        rank.push(-1);
      } else idf[i] = value;
      if (
        value > primary.idfHi &&
        word.length >= primary.minWordLength &&
        word.length <= primary.maxWordLength
      ) {
        if (rank[i] === -1) rank[i] = secondary++;
        else rank[i] = secondary;
      }
    }
    let capacity = 16;
    while (capacity < 2 * index.size) capacity *= 2;
    const slots = new Int32Array(capacity);
    const starts = new Uint32Array(index.size + 1);
    let length = 0;
    for (const word of index.keys()) length += word.length;
    const chars = new Uint16Array(length);
    let at = 0;
    let i = 0;
    for (const word of index.keys()) {
      let h = 0x811c9dc5;
      for (let j = 0; j < word.length; j++) {
        const c = word.charCodeAt(j);
        chars[at + j] = c;
        h = Math.imul(h ^ c, 0x01000193);
      }
      at += word.length;
      starts[i + 1] = at;
      let probe = (h ^ (h >>> 15)) & (capacity - 1);
      while (slots[probe] !== 0) probe = (probe + 1) & (capacity - 1);
      slots[probe] = i + 1;
      i++;
    }
    return new WordTable(new Float64Array(idf), new Int32Array(rank), starts, chars, slots);
  }
}
