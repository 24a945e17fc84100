import type { IndexMethod } from '../config/dedup.js';
import type { SignatureConfig } from '../config/signatures.js';
import { hex64, parseHex64 } from '../hash/mix.js';
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
  hi: number;
  lo: number;
}

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
  return (key.lo ^ Math.imul(key.hi, 0x9e3779b1)) >>> 1;
}

function fromHex(table: string, hex: string): IndexKey {
  // Read in place (no regex, no slices, no intermediate object: some 20 keys a message); what
  // is not 16+ lowercase hex digits goes to parseHex64 for its check and error.
  const hi = hexWord(hex, 0);
  const lo = hexWord(hex, 8);
  if (hi < 0 || lo < 0) {
    const parsed = parseHex64(hex.length > 16 ? hex.slice(0, 16) : hex);
    return { table, hi: parsed.hi, lo: parsed.lo };
  }
  return { table, hi, lo };
}

/** The unsigned value of the 8 lowercase hex digits of `s` at `from`, -1 if they are not. */
function hexWord(s: string, from: number): number {
  if (s.length < from + 8) return -1;
  let v = 0;
  for (let i = from; i < from + 8; i++) {
    const c = s.charCodeAt(i);
    const d = c >= 48 && c <= 57 ? c - 48 : c >= 97 && c <= 102 ? c - 87 : -1;
    if (d < 0) return -1;
    v = (v << 4) | d;
  }
  return v >>> 0;
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
    const keys: IndexKey[] = [fromHex('x', s.exact)];
    const m = this.methods;
    // Table and band hashes land in scratch arrays, then one key object each.
    if (m.has('simhash') && s.simhash) {
      const tables = this.plan.tables.length;
      this.scratch(tables);
      const hi = this.scratchHi;
      const lo = this.scratchLo;
      simhashTableHashesInto(s.simhash, this.plan, hi, lo);
      for (let t = 0; t < tables; t++)
        keys.push({ table: tableName('s', t), hi: hi[t] as number, lo: lo[t] as number });
    }
    // 128-bit I-Match signatures: the first 64 bits are plenty for bucketing; verification compares all.
    if (m.has('imatch'))
      for (const sig of s.imatch) keys.push(fromHex(tableName('i', sig.lexicon), sig.hash));
    if (m.has('mega') && s.broder) for (const mega of s.broder.mega) keys.push(fromHex('m', mega));
    if (m.has('bands') && s.minhash) {
      const bands = this.config.minhash.bands;
      this.scratch(bands);
      const hi = this.scratchHi;
      const lo = this.scratchLo;
      minhashBandHashesInto(s.minhash, this.config.minhash, hi, lo);
      // Fields written out, not spread: a spread added them to a literal one by one, with an
      // out-of-object property array per key.
      for (let t = 0; t < bands; t++)
        keys.push({ table: tableName('b', t), hi: hi[t] as number, lo: lo[t] as number });
    }
    if (m.has('topic') && s.terms) {
      for (const hash of heaviestTerms(s.terms, this.topicKeys)) keys.push({ table: 't', hi: 0, lo: hash });
    }
    // Sentence fingerprints: a teaser and its article, or a partial reordered copy and the full
    // text, share whole sentences and little else (signatures/sentences.ts).
    if (m.has('sentences') && s.sentences) {
      const sentences = s.sentences.keys;
      for (let i = 0; i < sentences.length; i++) keys.push({ table: 'c', hi: 0, lo: sentences[i] as number });
    }
    if (m.has('lexical')) {
      if (s.lexical) keys.push(fromHex('l', s.lexical));
      if (s.longest) keys.push(fromHex('ls', s.longest));
      if (s.heaviest) keys.push(fromHex('lh', s.heaviest));
    }
    return keys;
  }
}
