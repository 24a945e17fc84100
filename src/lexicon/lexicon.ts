import { readFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { z } from 'zod';
import { DoppelError } from '../errors.js';
import type { Language, SupportedLanguage } from '../text/language.js';

/**
 * A lexicon file: collection statistics (idf per canonical word) plus the I-Match primary
 * lexicon bounds. It is data with a version; the version is part of every I-Match key so that
 * signatures made with different lexicons never meet in the index.
 */
export const LEXICON_FORMAT = 'doppel-lexicon/1';

export const lexiconFileSchema = z
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

export type LexiconFile = z.infer<typeof lexiconFileSchema>;

export class Lexicon {
  readonly lang: string;
  readonly version: string;
  readonly documents: number;
  readonly unknownIdf: number;
  readonly primary: LexiconFile['primary'];
  private readonly idfByWord: Map<string, number>;
  /** Rank of each secondary-lexicon word in ascending-idf order (seed 001: closest to L first). */
  private readonly secondaryRank: Map<string, number>;

  constructor(file: LexiconFile) {
    this.lang = file.lang;
    this.version = file.version;
    this.documents = file.documents;
    this.unknownIdf = file.unknownIdf;
    this.primary = file.primary;
    this.idfByWord = new Map();
    this.secondaryRank = new Map();
    const { idfHi, minWordLength, maxWordLength } = file.primary;
    // `words` is sorted by idf then word, so ranks follow seed 001's ascending-idf order.
    for (const [word, idf] of file.words) {
      this.idfByWord.set(word, idf);
      if (idf > idfHi && word.length >= minWordLength && word.length <= maxWordLength) {
        this.secondaryRank.set(word, this.secondaryRank.size);
      }
    }
  }

  get size(): number {
    return this.idfByWord.size;
  }

  idf(word: string): number {
    return this.idfByWord.get(word) ?? this.unknownIdf;
  }

  /** In the primary lexicon L: idf within [idfLo, idfHi] and length within bounds. */
  isPrimary(word: string): boolean {
    const idf = this.idfByWord.get(word);
    if (idf === undefined) return false;
    const p = this.primary;
    return (
      idf >= p.idfLo && idf <= p.idfHi && word.length >= p.minWordLength && word.length <= p.maxWordLength
    );
  }

  /** Position in the secondary lexicon B, or -1 when the word is not in B. */
  secondaryRankOf(word: string): number {
    return this.secondaryRank.get(word) ?? -1;
  }

  /** Words the I-Match ratio is taken over: lexicon-eligible by length. */
  /**
   * Everything the signature engine needs about a word, from one map lookup: idf (unknownIdf when
   * absent), primary-lexicon membership and secondary rank (-1 when not in B).
   */
  describe(word: string): { idf: number; primary: boolean; secondaryRank: number } {
    const idf = this.idfByWord.get(word);
    if (idf === undefined) return { idf: this.unknownIdf, primary: false, secondaryRank: -1 };
    const p = this.primary;
    const inLength = word.length >= p.minWordLength && word.length <= p.maxWordLength;
    return {
      idf,
      primary: inLength && idf >= p.idfLo && idf <= p.idfHi,
      secondaryRank: inLength && idf > p.idfHi ? (this.secondaryRank.get(word) ?? -1) : -1,
    };
  }

  isEligible(word: string): boolean {
    return word.length >= this.primary.minWordLength && word.length <= this.primary.maxWordLength;
  }
}

export function parseLexicon(json: unknown, source: string): Lexicon {
  const parsed = lexiconFileSchema.safeParse(json);
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

const here = dirname(fileURLToPath(import.meta.url));
/** Shipped default lexicons: data/lexicons/<lang>.json at the package root (see data/lexicons/README.md). */
export const DEFAULT_LEXICON_DIR = resolve(here, '../../data/lexicons');

export function defaultLexiconPath(lang: SupportedLanguage): string {
  return resolve(DEFAULT_LEXICON_DIR, `${lang}.json`);
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
      lexicon = path ? loadLexiconFile(path) : null;
      this.byLang.set(lang, lexicon);
    }
    return lexicon;
  }

  /** Use an already-built lexicon (tests, `doppel eval` with a corpus-built lexicon). */
  set(lang: Language, lexicon: Lexicon | null): void {
    this.byLang.set(lang, lexicon);
  }
}
