import type { IndexMethod } from '../config/dedup.js';
import type { SignatureConfig } from '../config/signatures.js';
import { hex64, hexWord, parseHex64 } from '../hash/mix.js';
import { minhashBandHashesInto } from '../signatures/minhash.js';
import type { Signatures } from '../signatures/signer.js';
import { type BlockTablePlan, blockTablePlan, simhashTableHashesInto } from '../signatures/simhash.js';
import { heaviestTerms } from '../signatures/terms.js';

/**
 * Index (bucket) keys of a message: one per LSH table of every enabled method. A key is a table
 * name and a 64-bit value; stores keep one bucket per (table, value). Table names are short and
 * stable because they are part of the stored layout (docs/redis.md).
 */
export interface IndexKey {
  table: string;
  /**
   * The key's two 32-bit halves. Every reader takes them bit for bit (`>>> 0`, `^`, `Math.imul`),
   * so a key may hold them signed or unsigned; the builder makes them signed (`indexKey`).
   */
  hi: number;
  lo: number;
}

/**
 * A key with its halves as signed 32-bit integers: V8 keeps those in the object itself (small
 * integers), where an unsigned half over 2^31 was a heap number of its own, two a key.
 */
export function indexKey(table: string, hi: number, lo: number): IndexKey {
  return { table, hi: hi | 0, lo: lo | 0 };
}

/**
 * A message's index keys as a sign worker sends them (pipeline/prepared-wire.ts): entries
 * `start` .. `end` of a chunk's arrays, each key a table (an index into `tables`) and its two
 * halves (`words[2k]`, `words[2k + 1]`, signed 32-bit). One object a message, where the key
 * objects were ~30 (~2.1 KB of garbage a message on the thread that indexes); the memory store
 * reads them in place, other stores take `keyArray`.
 */
export class PackedKeys {
  constructor(
    readonly tables: readonly string[],
    readonly tableOf: Uint8Array,
    readonly words: Int32Array,
    readonly start: number,
    readonly end: number,
  ) {}

  get length(): number {
    return this.end - this.start;
  }

  /** The keys as objects, in order. */
  toArray(): IndexKey[] {
    const keys = new Array<IndexKey>(this.end - this.start);
    for (let j = 0, k = this.start; k < this.end; j++, k++)
      keys[j] = {
        table: this.tables[this.tableOf[k] as number] as string,
        hi: this.words[2 * k] as number,
        lo: this.words[2 * k + 1] as number,
      };
    return keys;
  }
}

/** A message's index keys: key objects (IndexKeyBuilder) or packed (PackedKeys). */
export type IndexKeys = readonly IndexKey[] | PackedKeys;

/** The keys as objects (a store that reads them one object at a time). */
export function keyArray(keys: IndexKeys): readonly IndexKey[] {
  return keys instanceof PackedKeys ? keys.toArray() : keys;
}

/** `keyNumber` of a key given by its halves. */
export function keyNumberOf(hi: number, lo: number): number {
  return (lo ^ Math.imul(hi, 0x9e3779b1)) >>> 1;
}

const NO_TERMS: readonly number[] = [];
const NO_SENTENCES = new Uint32Array(0);

/** Tables of each method: `x` exact; `s<t>` SimHash table t; `i<k>` I-Match lexicon k; `m` mega-shingles; `b<t>` band t; `t` topic terms; `c` sentence fingerprints; `l`, `ls`, `lh` lexical, longest and heaviest sentences. */
export function methodOfTable(table: string): IndexMethod {
  switch (table[0]) {
    case 'x':
      return 'exact';
    case 's':
      return 'simhash';
    case 'i':
      return 'imatch';
    case 'm':
      return 'mega';
    case 'b':
      return 'bands';
    case 't':
      return 'topic';
    case 'c':
      return 'sentences';
    default:
      return 'lexical';
  }
}

export function keyHex(key: IndexKey): string {
  return hex64(key.hi, key.lo);
}

/**
 * 31 bits of a key for in-memory maps: a small integer V8 stores unboxed (a 53-bit key was a heap
 * number per bucket). Two keys of one table that collide on 31 bits only share a bucket, which
 * adds a candidate that verification then rejects; no match is ever lost.
 */
export function keyNumber(key: IndexKey): number {
  return keyNumberOf(key.hi, key.lo);
}

function fromHex(table: string, hex: string): IndexKey {
  // Read in place (no regex, no slices, no intermediate object: some 20 keys a message); what
  // is not 16+ lowercase hex digits goes to parseHex64 for its check and error.
  const hi = hexWord(hex, 0);
  const lo = hexWord(hex, 8);
  if (hi < 0 || lo < 0) {
    const parsed = parseHex64(hex.length > 16 ? hex.slice(0, 16) : hex);
    return indexKey(table, parsed.hi, parsed.lo);
  }
  return indexKey(table, hi, lo);
}

// Table names like "b7", made once: a fresh string per key per message was garbage to collect.
const TABLE_NAMES = new Map<string, string[]>();
function tableName(prefix: string, t: number): string {
  let names = TABLE_NAMES.get(prefix);
  if (!names) {
    names = [];
    TABLE_NAMES.set(prefix, names);
  }
  let name = names[t];
  if (name === undefined) {
    name = `${prefix}${t}`;
    names[t] = name;
  }
  return name;
}

export class IndexKeyBuilder {
  private readonly plan: BlockTablePlan;

  constructor(
    private readonly config: SignatureConfig,
    private readonly methods: ReadonlySet<IndexMethod>,
    private readonly topicKeys = 5,
  ) {
    this.plan = blockTablePlan(config.simhash);
  }

  private scratchHi = new Uint32Array(32);
  private scratchLo = new Uint32Array(32);

  /** Scratch arrays of at least `size` hashes (hi, lo halves). */
  private scratch(size: number): void {
    if (this.scratchHi.length < size) {
      this.scratchHi = new Uint32Array(size);
      this.scratchLo = new Uint32Array(size);
    }
  }

  keys(s: Signatures): IndexKey[] {
    const m = this.methods;
    const simhash = m.has('simhash') && s.simhash ? this.plan.tables.length : 0;
    const imatch = m.has('imatch') ? s.imatch.length : 0;
    const mega = m.has('mega') && s.broder ? s.broder.mega.length : 0;
    const bands = m.has('bands') && s.minhash ? this.config.minhash.bands : 0;
    const topic = m.has('topic') && s.terms ? heaviestTerms(s.terms, this.topicKeys) : NO_TERMS;
    const sentences = m.has('sentences') && s.sentences ? s.sentences.keys : NO_SENTENCES;
    const lexical = m.has('lexical');
    const count =
      1 +
      simhash +
      imatch +
      mega +
      bands +
      topic.length +
      sentences.length +
      (lexical ? (s.lexical ? 1 : 0) + (s.longest ? 1 : 0) + (s.heaviest ? 1 : 0) : 0);
    // Sized once: pushing ~32 keys grew (copied) the array three times a message.
    const keys = new Array<IndexKey>(count);
    let k = 0;
    keys[k++] = fromHex('x', s.exact);
    // Table and band hashes land in scratch arrays, then one key object each.
    if (simhash > 0 && s.simhash) {
      this.scratch(simhash);
      const hi = this.scratchHi;
      const lo = this.scratchLo;
      simhashTableHashesInto(s.simhash, this.plan, hi, lo);
      for (let t = 0; t < simhash; t++)
        keys[k++] = indexKey(tableName('s', t), hi[t] as number, lo[t] as number);
    }
    // 128-bit I-Match signatures: the first 64 bits are plenty for bucketing; verification compares all.
    for (let i = 0; i < imatch; i++) {
      const sig = s.imatch[i] as Signatures['imatch'][number];
      keys[k++] = fromHex(tableName('i', sig.lexicon), sig.hash);
    }
    for (let i = 0; i < mega; i++)
      keys[k++] = fromHex('m', (s.broder as NonNullable<Signatures['broder']>).mega[i] as string);
    if (bands > 0 && s.minhash) {
      this.scratch(bands);
      const hi = this.scratchHi;
      const lo = this.scratchLo;
      minhashBandHashesInto(s.minhash, this.config.minhash, hi, lo);
      for (let t = 0; t < bands; t++)
        keys[k++] = indexKey(tableName('b', t), hi[t] as number, lo[t] as number);
    }
    for (let i = 0; i < topic.length; i++) keys[k++] = indexKey('t', 0, topic[i] as number);
    // Sentence fingerprints: a teaser and its article, or a partial reordered copy and the full
    // text, share whole sentences and little else (signatures/sentences.ts).
    for (let i = 0; i < sentences.length; i++) keys[k++] = indexKey('c', 0, sentences[i] as number);
    if (lexical) {
      if (s.lexical) keys[k++] = fromHex('l', s.lexical);
      if (s.longest) keys[k++] = fromHex('ls', s.longest);
      if (s.heaviest) keys[k++] = fromHex('lh', s.heaviest);
    }
    return keys;
  }
}
