import { existsSync, readFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { z } from 'zod';
import { DoppelError } from '../errors.js';
import { lazySchema, type Zod } from '../lazy-schema.js';
import type { Language, SupportedLanguage } from '../text/language.js';
import { countLetterPairs } from '../text/random-words.js';
import { wordHashFilter } from '../text/space-split-words.js';
import { decodeCompact, sourceDigest } from './compact.js';
import { WordTable } from './word-table.js';

/**
 * A lexicon file: collection statistics (idf per canonical word) plus the I-Match primary
 * lexicon bounds. It is data with a version; the version is part of every I-Match key so that
 * signatures made with different lexicons never meet in the index.
 */
export const LEXICON_FORMAT = 'doppel-lexicon/1';

/**
 * The lexicon file's schema, built with the zod it is given: `lexiconFileSchema` (file-schema.ts)
 * for the builder and its users, and the copy parseLexicon loads when it first reads a JSON file
 * (lexiconFileSchemaNow).
 */
export function defineLexiconFileSchema(z: Zod) {
  return z
    .object({
      format: z.literal(LEXICON_FORMAT),
      lang: z.string().min(2),
      /** `<lang>-<source>-<8 hex of the content hash>`; equal content gives an equal version. */
      version: z.string().regex(/^[a-z]{2,3}-[a-z0-9.]+-[0-9a-f]{8}$/),
      /** Where the statistics came from, for people. */
      createdFrom: z.string(),
      /** Documents the idf values were computed over (or the equivalent for frequency-list sources). */
      documents: z.number().int().positive(),
      /** Mean length (characters) of word tokens in the source; Chowdhury's short-word filter. */
      averageWordLength: z.number().positive(),
      /** idf used for words not in `words` (unseen in the corpus: rare names, typos). */
      unknownIdf: z.number().positive(),
      primary: z
        .object({
          idfLo: z.number(),
          idfHi: z.number(),
          minWordLength: z.number().int().min(1),
          maxWordLength: z.number().int().min(1),
        })
        .strict(),
      /** [word, idf], sorted by idf ascending, then word. Words are canonical tokens. */
      words: z.array(z.tuple([z.string().min(1), z.number().nonnegative()])),
    })
    .strict();
}

type LexiconFileSchema = ReturnType<typeof defineLexiconFileSchema>;

/**
 * The schema, built when a lexicon is first read from JSON (a --lexicon file; the shipped ones are
 * read in their compact form).
 */
const lexiconFileSchemaNow = lazySchema(defineLexiconFileSchema);

export type LexiconFile = z.infer<LexiconFileSchema>;

/** A lexicon file's fields other than its words. */
export type LexiconMeta = Omit<LexiconFile, 'words'>;

export class Lexicon {
  readonly lang: string;
  readonly version: string;
  readonly documents: number;
  readonly unknownIdf: number;
  readonly primary: LexiconFile['primary'];
  /** The fields of the file it was read from, but its words (the compact form's header). */
  readonly meta: LexiconMeta;
  /** idf and secondary rank by word (ranks follow seed 001's ascending-idf order). */
  private readonly table: WordTable;

  /** From a lexicon file's content; `table`, when given, holds its words (the compact form). */
  constructor(file: LexiconFile | LexiconMeta, table?: WordTable) {
    const { words: _words, ...meta } = file as LexiconFile;
    this.meta = meta;
    this.lang = file.lang;
    this.version = file.version;
    this.documents = file.documents;
    this.unknownIdf = file.unknownIdf;
    this.primary = file.primary;
    // `words` is sorted by idf then word, so ranks follow seed 001's ascending-idf order.
    this.table = table ?? WordTable.fromWords((file as LexiconFile).words ?? [], file.primary);
  }

  /** The words in flat arrays (the compact form writes them as they are). */
  get words(): WordTable {
    return this.table;
  }

  get size(): number {
    return this.table.size;
  }

  private pairs: Uint32Array | undefined;

  /** How many words hold each letter pair (text/random-words.ts); counted on first use. */
  get letterPairs(): Uint32Array {
    this.pairs ??= countLetterPairs(this.wordList());
    return this.pairs;
  }

  private filter: Uint32Array | undefined;

  /** Every word's hash as a filter (text/space-split-words.ts); made on first use. */
  get wordFilter(): Uint32Array {
    this.filter ??= wordHashFilter(this.table.chars, this.table.starts);
    return this.filter;
  }

  private *wordList(): Generator<string> {
    const { starts, chars } = this.table;
    for (let i = 0; i < this.table.size; i++)
      yield String.fromCharCode(...chars.subarray(starts[i] as number, starts[i + 1] as number));
  }

  /** Whether the lexicon holds the word (canonical form): a known word of its language. */
  has(word: string): boolean {
    return this.table.find(word) >= 0;
  }

  /** has() of the word codes[start, end) (UTF-16 units), without making a string. */
  hasCodes(codes: Uint16Array, start: number, end: number): boolean {
    return this.table.findCodes(codes, start, end) >= 0;
  }

  idf(word: string): number {
    const i = this.table.find(word);
    return i < 0 ? this.unknownIdf : (this.table.idf[i] as number);
  }

  /** In the primary lexicon L: idf within [idfLo, idfHi] and length within bounds. */
  isPrimary(word: string): boolean {
    const i = this.table.find(word);
    if (i < 0) return false;
    const idf = this.table.idf[i] as number;
    const p = this.primary;
    return (
      idf >= p.idfLo && idf <= p.idfHi && word.length >= p.minWordLength && word.length <= p.maxWordLength
    );
  }

  /** Position in the secondary lexicon B, or -1 when the word is not in B. */
  secondaryRankOf(word: string): number {
    const i = this.table.find(word);
    return i < 0 ? -1 : (this.table.rank[i] as number);
  }

  /**
   * Everything the signature engine needs about a word, from one table lookup: idf (unknownIdf
   * when absent), primary-lexicon membership and secondary rank (-1 when not in B).
   */
  describe(word: string): { idf: number; primary: boolean; secondaryRank: number } {
    const i = this.table.find(word);
    if (i < 0) return { idf: this.unknownIdf, primary: false, secondaryRank: -1 };
    const idf = this.table.idf[i] as number;
    const p = this.primary;
    const inLength = word.length >= p.minWordLength && word.length <= p.maxWordLength;
    return {
      idf,
      primary: inLength && idf >= p.idfLo && idf <= p.idfHi,
      secondaryRank: inLength && idf > p.idfHi ? (this.table.rank[i] as number) : -1,
    };
  }

  /** Words the I-Match ratio is taken over: lexicon-eligible by length. */
  isEligible(word: string): boolean {
    return word.length >= this.primary.minWordLength && word.length <= this.primary.maxWordLength;
  }
}

export function parseLexicon(json: unknown, source: string): Lexicon {
  const parsed = lexiconFileSchemaNow().safeParse(json);
  if (!parsed.success) {
    const first = parsed.error.issues[0];
    throw new DoppelError(
      'INVALID_LEXICON',
      `${source}: ${first ? `${first.path.join('.')}: ${first.message}` : 'invalid lexicon'}`,
    );
  }
  return new Lexicon(parsed.data);
}

export function loadLexiconFile(path: string): Lexicon {
  let json: unknown;
  try {
    json = JSON.parse(readFileSync(path, 'utf8'));
  } catch (error) {
    throw new DoppelError('INVALID_LEXICON', `${path}: ${(error as Error).message}`, { cause: error });
  }
  return parseLexicon(json, path);
}

/**
 * A shipped lexicon: its compact form (`compactPath`, written by the build) when that was made
 * from the JSON at `path` as it is now (same SHA-256), else the JSON itself. The check reads and
 * hashes the JSON's bytes (~3 ms), far less than parsing and validating it.
 */
export function loadShippedLexicon(path: string, compactPath: string): Lexicon {
  let compact: Buffer;
  let source: Buffer;
  try {
    compact = readFileSync(compactPath);
    source = readFileSync(path);
  } catch {
    return loadLexiconFile(path);
  }
  const decoded = decodeCompact(compact);
  const digest = sourceDigest(source);
  if (
    decoded === null ||
    decoded.meta.source.sha256 !== digest.sha256 ||
    decoded.meta.source.bytes !== digest.bytes
  )
    return loadLexiconFile(path);
  const { source: _source, ...meta } = decoded.meta;
  return new Lexicon(meta as LexiconMeta, decoded.table);
}

const here = dirname(fileURLToPath(import.meta.url));
/** Shipped default lexicons: data/lexicons/<lang>.json at the package root (see data/lexicons/README.md). */
export const DEFAULT_LEXICON_DIR = resolve(here, '../../data/lexicons');

export function defaultLexiconPath(lang: SupportedLanguage): string {
  return resolve(DEFAULT_LEXICON_DIR, `${lang}.json`);
}

/**
 * Compact forms of the shipped lexicons: dist/lexicons/<lang>.bin, written by `npm run build`
 * (beside the compiled code; code run from src/, as the tests are, reads the build's).
 */
export const COMPACT_LEXICON_DIR = existsSync(resolve(here, '../lexicons'))
  ? resolve(here, '../lexicons')
  : resolve(here, '../../dist/lexicons');

export function compactLexiconPath(lang: SupportedLanguage): string {
  return resolve(COMPACT_LEXICON_DIR, `${lang}.bin`);
}

/** Lexicons by language, loaded once. Languages without a lexicon get none (I-Match is NULL). */
export class LexiconSet {
  private readonly byLang = new Map<string, Lexicon | null>();

  constructor(private readonly resolvePath: (lang: Language) => string | undefined) {}

  static fromFiles(files: Partial<Record<Language, string>>): LexiconSet {
    return new LexiconSet((lang) => files[lang]);
  }

  static defaults(overrides: Partial<Record<Language, string>> = {}): LexiconSet {
    return new LexiconSet(
      (lang) => overrides[lang] ?? (lang === 'und' ? undefined : defaultLexiconPath(lang)),
    );
  }

  get(lang: Language): Lexicon | null {
    let lexicon = this.byLang.get(lang);
    if (lexicon === undefined) {
      const path = this.resolvePath(lang);
      // A shipped lexicon is read in its compact form (loadShippedLexicon); any other file as JSON.
      const shipped = lang !== 'und' && path === defaultLexiconPath(lang);
      lexicon = !path
        ? null
        : shipped
          ? loadShippedLexicon(path, compactLexiconPath(lang))
          : loadLexiconFile(path);
      this.byLang.set(lang, lexicon);
    }
    return lexicon;
  }

  /** Use an already-built lexicon (tests, `doppel eval` with a corpus-built lexicon). */
  set(lang: Language, lexicon: Lexicon | null): void {
    this.byLang.set(lang, lexicon);
  }
}
