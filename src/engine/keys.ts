import type { IndexMethod } from '../config/dedup.js';
import type { SignatureConfig } from '../config/signatures.js';
import { combine64, hex64, parseHex64, type U64 } from '../hash/mix.js';
import type { Signatures } from '../signatures/compute.js';
import { minhashBandKeys } from '../signatures/minhash.js';
import { type BlockTablePlan, blockTablePlan, simhashTableKeys } from '../signatures/simhash.js';
import { heaviestTerms } from '../signatures/terms.js';

/**
 * Index (bucket) keys of a message: one per LSH table of every enabled method. A key is a table
 * name and a 64-bit value; stores keep one bucket per (table, value). Table names are short and
 * stable because they are part of the stored layout (docs/redis.md).
 */
export interface IndexKey {
  table: string;
  /** 16 hex digits. */
  value: string;
}

/** Tables of each method: `x` exact; `s<t>` SimHash table t; `i<k>` I-Match lexicon k; `m` mega-shingles; `b<t>` band t; `t` topic terms; `l`, `ls`, `lh` lexical, longest and heaviest sentences. */
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
    default:
      return 'lexical';
  }
}

export class KeyBuilder {
  private readonly plan: BlockTablePlan;

  constructor(
    private readonly config: SignatureConfig,
    private readonly methods: ReadonlySet<IndexMethod>,
    private readonly topicKeys = 5,
  ) {
    this.plan = blockTablePlan(config.simhash);
  }

  keys(s: Signatures): IndexKey[] {
    const keys: IndexKey[] = [{ table: 'x', value: s.exact }];
    const m = this.methods;
    if (m.has('simhash') && s.simhash) {
      const tableKeys = simhashTableKeys(s.simhash, this.plan);
      for (let t = 0; t < tableKeys.length; t++)
        keys.push({ table: `s${t}`, value: hashString(tableKeys[t] as string) });
    }
    if (m.has('imatch')) {
      // 128-bit signatures: the first 64 bits are plenty for bucketing; verification compares all.
      for (const sig of s.imatch) keys.push({ table: `i${sig.lexicon}`, value: sig.hash.slice(0, 16) });
    }
    if (m.has('mega') && s.broder) for (const mega of s.broder.mega) keys.push({ table: 'm', value: mega });
    if (m.has('bands') && s.minhash) {
      minhashBandKeys(s.minhash, this.config.minhash).forEach((key, t) => {
        keys.push({ table: `b${t}`, value: key.slice(key.indexOf(':') + 1) });
      });
    }
    if (m.has('topic') && s.terms) {
      for (const hash of heaviestTerms(s.terms, this.topicKeys))
        keys.push({ table: 't', value: hex64(0, hash) });
    }
    if (m.has('lexical')) {
      if (s.lexical) keys.push({ table: 'l', value: s.lexical });
      if (s.longest) keys.push({ table: 'ls', value: s.longest });
      if (s.heaviest) keys.push({ table: 'lh', value: s.heaviest });
    }
    return keys;
  }
}

/** A short string key (SimHash block values) as 64 bits: FNV-1a then two fmix-style rounds. */
function hashString(text: string): string {
  let a = 0x811c9dc5;
  let b = 0x01000193;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    a = Math.imul(a ^ c, 0x01000193);
    b = Math.imul(b ^ c, 0x5bd1e995);
  }
  const out: U64 = { hi: 0, lo: 0 };
  combine64(a >>> 0, b >>> 0, text.length, 0x6b657973, out); // "keys"
  return hex64(out.hi, out.lo);
}

/** 52 bits of a key value as a JavaScript number (exact in a double), for in-memory maps. */
export function keyNumber(value: string): number {
  const { hi, lo } = parseHex64(value);
  return (hi & 0xfffff) * 0x100000000 + lo;
}
