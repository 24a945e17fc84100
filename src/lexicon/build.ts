import { createHash } from 'node:crypto';
import { z } from 'zod';
import { type CanonicalConfig, canonicalSchema } from '../config/signatures.js';
import { DoppelError, isDoppelError } from '../errors.js';
import { canonicalize, stopMask } from '../text/canonical.js';
import { LANGUAGES, languageFromTag } from '../text/language.js';
import { hasLetter } from '../text/tokenize.js';
import { lexiconFileSchema } from './file-schema.js';
import { LEXICON_FORMAT, type LexiconFile } from './lexicon.js';

/**
 * Builds lexicon files (docs/signatures.md, "I-Match with a secondary lexicon"): idf per canonical word plus the I-Match primary
 * bounds, from a document corpus (`buildLexicon`) or from a word frequency list
 * (`lexiconFromFrequencies`, for the shipped defaults: a corpus may not be redistributable, a
 * frequency list may). Both end in `finishLexicon`, so bounds, ordering and versions follow one rule.
 *
 * Primary bounds, default rule. Chowdhury et al. drop the most frequent words; seed 001 keeps a
 * mid-idf range L and puts the rarer words in the secondary lexicon B. The cut points are chosen
 * by *document-frequency mass*: walk the length-eligible words in ascending idf and sum their df.
 * The sum of df over a set of words is the number of (document, word) pairs those words make, so
 * the share of the mass inside [idfLo, idfHi] is the expected share of a document's unique
 * eligible words that fall in L -- the quantity I-Match's `minLexiconShare` threshold is taken
 * against. idfLo is where the most frequent `loMass` of that mass ends; idfHi is where the rarest
 * `1 - hiMass` begins. The defaults (0.15, 0.75) aim at 60% of an average document's eligible
 * words in L (50-60% measured on real news with the shipped lexicons, whose tables miss some rare
 * words): well above the default share threshold 0.3, so the secondary lexicon is needed only for
 * short or unusual documents, while the commonest content words ("year", "time", "россии") stay
 * out of the signature and the rarest quarter (names, typos, rare forms) is left to B.
 * `idfLo` / `idfHi` override the rule; `loMass` / `hiMass` move it.
 */

/** Decimals kept for idf values: ample for ln ratios, keeps files small and hashes stable across engines. */
export const IDF_DECIMALS = 4;

export function roundIdf(value: number): number {
  const scale = 10 ** IDF_DECIMALS;
  // `+ 0` turns -0 into 0 so that JSON and hashes never see "-0".
  return Math.round(value * scale) / scale + 0;
}

/** Chowdhury's long-word filter: longer tokens are glued words, URLs or codes. */
export const DEFAULT_MAX_WORD_LENGTH = 25;

/**
 * Shortest word in L and B. Chowdhury drops words shorter than the corpus's average word length
 * (4-5 characters in English). For Russian, Ukrainian and Persian that removes much of the content: the
 * average Russian news word is about 6 letters, so "закон", "нефть", "банк", "суд" would all go,
 * and Persian content words are mostly 3-4 letters ("نفت", "شهر", "دولت"). Stop words and
 * numbers are already removed, which is what the length filter approximated, so the default keeps
 * every word of at least 3 characters (2 or fewer are mostly initials, particles and fragments).
 */
export const DEFAULT_MIN_WORD_LENGTH = 3;

const sourceNameSchema = z
  .string()
  .min(1)
  .transform((name) =>
    name
      .toLowerCase()
      .replace(/[^a-z0-9.]+/g, '.')
      .replace(/\.{2,}/g, '.')
      .replace(/^\.+|\.+$/g, ''),
  )
  .refine((name) => name !== '', { message: 'name must contain a letter or digit a-z, 0-9' });

/** Options shared by both builders: how the table is cut and how L is bounded. */
const commonOptions = {
  lang: z.enum(LANGUAGES),
  /** Source name in the version (`<lang>-<name>-<hash>`); reduced to [a-z0-9.]. */
  name: sourceNameSchema.default('corpus'),
  /** Free text stored in `createdFrom`; defaults to a description of the source. */
  createdFrom: z.string().optional(),
  /** Must equal the canonical config the signatures use: the words must be the same tokens. */
  canonical: canonicalSchema.default(canonicalSchema.parse({})),
  /** Keep at most this many words (the lowest-idf ones) in the file. */
  maxWords: z.number().int().positive().optional(),
  idfLo: z.number().nonnegative().optional(),
  idfHi: z.number().nonnegative().optional(),
  /** Share of df mass (most frequent words first) that falls below L. */
  loMass: z.number().min(0).max(1).default(0.15),
  /** Share of df mass (most frequent first) at or below the top of L; the rest is B's. */
  hiMass: z.number().min(0).max(1).default(0.75),
  minWordLength: z.number().int().min(1).default(DEFAULT_MIN_WORD_LENGTH),
  maxWordLength: z.number().int().min(1).default(DEFAULT_MAX_WORD_LENGTH),
};

function checkBounds(o: {
  idfLo?: number | undefined;
  idfHi?: number | undefined;
  loMass: number;
  hiMass: number;
  minWordLength: number;
  maxWordLength: number;
}): boolean {
  if (o.idfLo !== undefined && o.idfHi !== undefined && o.idfLo > o.idfHi) return false;
  return o.loMass <= o.hiMass && o.minWordLength <= o.maxWordLength;
}
const BOUNDS_MESSAGE = 'need idfLo <= idfHi, loMass <= hiMass and minWordLength <= maxWordLength';

export const buildLexiconOptionsSchema = z
  .object({
    ...commonOptions,
    /** Words in fewer documents are left out of the table (they get unknownIdf); 1 keeps all. */
    minDf: z.number().int().min(1).default(2),
  })
  .strict()
  .refine(checkBounds, { message: BOUNDS_MESSAGE });

export type BuildLexiconOptions = z.input<typeof buildLexiconOptionsSchema>;

/** Mean document length (tokens, stop words included) of news articles; see `lexiconFromFrequencies`. */
export const DEFAULT_DOCUMENT_TOKENS = 300;
/** Notional collection size for frequency lists: sets the idf ceiling ln(N) and `documents`. */
export const DEFAULT_NOTIONAL_DOCUMENTS = 1_000_000;

export const frequencyLexiconOptionsSchema = z
  .object({
    ...commonOptions,
    name: sourceNameSchema.default('freq'),
    maxWords: z.number().int().positive().default(40_000),
    documentTokens: z.number().positive().default(DEFAULT_DOCUMENT_TOKENS),
    documents: z.number().int().positive().default(DEFAULT_NOTIONAL_DOCUMENTS),
  })
  .strict()
  .refine(checkBounds, { message: BOUNDS_MESSAGE });

export type FrequencyLexiconOptions = z.input<typeof frequencyLexiconOptionsSchema>;

function parseOptions<T extends z.ZodType>(schema: T, options: unknown): z.output<T> {
  const parsed = schema.safeParse(options);
  if (!parsed.success) {
    const first = parsed.error.issues[0];
    const where = first && first.path.length > 0 ? `${first.path.join('.')}: ` : '';
    throw new DoppelError('INVALID_CONFIG', `lexicon options: ${where}${first?.message ?? 'invalid'}`);
  }
  return parsed.data;
}

/** One row of the statistics table before it becomes a file. */
interface WordStat {
  word: string;
  idf: number;
  /** Document frequency (expected df for frequency lists): the weight in the bounds rule. */
  df: number;
}

type ResolvedCommon = z.output<z.ZodObject<typeof commonOptions>>;

interface FinishInput {
  stats: WordStat[];
  documents: number;
  averageWordLength: number;
  /** From the largest (rounded) idf left in the table after pruning and the cap. */
  unknownIdf: (maxKeptIdf: number) => number;
  createdFrom: string;
  /** Rows below this df are dropped from the table after the bounds are set. */
  minDf: number;
}

export interface LexiconSummary {
  /** Rows in `words`. */
  words: number;
  /** |L|: words in the primary lexicon. */
  primary: number;
  /** |B|: words in the secondary lexicon. */
  secondary: number;
}

/** |L| and |B| of a file, by the same rules as the `Lexicon` class. */
export function summarizeLexicon(file: LexiconFile): LexiconSummary {
  const { idfLo, idfHi, minWordLength, maxWordLength } = file.primary;
  let primary = 0;
  let secondary = 0;
  for (const [word, idf] of file.words) {
    if (word.length < minWordLength || word.length > maxWordLength) continue;
    if (idf >= idfLo && idf <= idfHi) primary++;
    else if (idf > idfHi) secondary++;
  }
  return { words: file.words.length, primary, secondary };
}

function byIdfThenWord(a: WordStat, b: WordStat): number {
  if (a.idf !== b.idf) return a.idf - b.idf;
  // Plain code-unit comparison: the order (and so the version hash) must not depend on the locale.
  return a.word < b.word ? -1 : a.word > b.word ? 1 : 0;
}

/**
 * The df-mass rule (see the module comment). `sorted` is in ascending idf; ties share one idf
 * value and are never split, so the bounds are idf values that occur in the table.
 */
function massBounds(
  sorted: WordStat[],
  isEligible: (word: string) => boolean,
  loMass: number,
  hiMass: number,
) {
  const groups: { idf: number; mass: number }[] = [];
  let total = 0;
  for (const s of sorted) {
    if (!isEligible(s.word)) continue;
    const last = groups[groups.length - 1];
    if (last && last.idf === s.idf) last.mass += s.df;
    else groups.push({ idf: s.idf, mass: s.df });
    total += s.df;
  }
  if (groups.length === 0) return { idfLo: 0, idfHi: 0 };
  // idfLo: the first idf value with at least loMass of the mass strictly below it.
  // idfHi: the last idf value with at most hiMass of the mass at or below it.
  let below = 0;
  let idfLo: number | undefined;
  let idfHi: number | undefined;
  for (const g of groups) {
    if (idfLo === undefined && below >= loMass * total) idfLo = g.idf;
    below += g.mass;
    if (below <= hiMass * total) idfHi = g.idf;
  }
  const lastIdf = (groups[groups.length - 1] as { idf: number }).idf;
  const lo = idfLo ?? lastIdf;
  // When one tie group holds more than the whole L band, L is that group alone rather than empty.
  const hi = Math.max(idfHi ?? lo, lo);
  return { idfLo: lo, idfHi: hi };
}

/** `<lang>-<name>-<first 8 hex of sha256 over what changes signatures>`. */
function lexiconVersion(
  lang: string,
  name: string,
  content: Pick<LexiconFile, 'primary' | 'unknownIdf' | 'words'>,
): string {
  const hash = createHash('sha256');
  // JSON of numbers and strings is deterministic in JS; key order is fixed by this literal.
  hash.update(JSON.stringify({ primary: content.primary, unknownIdf: content.unknownIdf }));
  for (const [word, idf] of content.words) hash.update(`\n${word}\t${idf}`);
  return `${lang}-${name}-${hash.digest('hex').slice(0, 8)}`;
}

function finishLexicon(options: ResolvedCommon, input: FinishInput): LexiconFile {
  const stats = input.stats.map((s) => ({ ...s, idf: roundIdf(s.idf) }));
  stats.sort(byIdfThenWord);
  const { minWordLength, maxWordLength } = options;
  const isEligible = (word: string) => word.length >= minWordLength && word.length <= maxWordLength;
  // Bounds come from the whole vocabulary, before pruning: pruned rare words are still real
  // occurrences in documents, and the share rule is about documents.
  const auto = massBounds(stats, isEligible, options.loMass, options.hiMass);
  const idfLo = roundIdf(options.idfLo ?? auto.idfLo);
  const idfHi = roundIdf(Math.max(options.idfHi ?? auto.idfHi, idfLo));
  let kept = stats.filter((s) => s.df >= input.minDf);
  if (options.maxWords !== undefined && kept.length > options.maxWords) {
    kept = kept.slice(0, options.maxWords);
  }
  const primary = { idfLo, idfHi, minWordLength, maxWordLength };
  const maxKeptIdf = kept.length > 0 ? (kept[kept.length - 1] as WordStat).idf : 0;
  // Positive by the schema: an idf that rounds to 0 would make unknown words weightless.
  const unknownIdf = Math.max(roundIdf(input.unknownIdf(maxKeptIdf)), 10 ** -IDF_DECIMALS);
  const words = kept.map((s): [string, number] => [s.word, s.idf]);
  const file: LexiconFile = {
    format: LEXICON_FORMAT,
    lang: options.lang,
    version: lexiconVersion(options.lang, options.name, { primary, unknownIdf, words }),
    createdFrom: options.createdFrom ?? input.createdFrom,
    documents: input.documents,
    averageWordLength: Math.round(input.averageWordLength * 1000) / 1000,
    unknownIdf,
    primary,
    words,
  };
  // A builder bug must not produce a file that every reader then rejects.
  const checked = lexiconFileSchema.safeParse(file);
  if (!checked.success) {
    throw new DoppelError(
      'INTERNAL',
      `built lexicon fails its schema: ${checked.error.issues[0]?.message ?? ''}`,
    );
  }
  return file;
}

export interface LexiconDoc {
  text: string;
  title?: string;
  lang?: string;
}

export interface BuildStats {
  /** Documents that contributed. */
  documents: number;
  /** Documents with no words after canonicalization (EMPTY_TEXT). */
  emptyDocuments: number;
  /** Documents whose declared `lang` is not the lexicon's. */
  otherLanguage: number;
  /** Distinct candidate words seen, before `minDf` and `maxWords`. */
  vocabulary: number;
  summary: LexiconSummary;
}

/**
 * Streaming corpus builder: `add` documents one at a time (a CLI reading a large file never holds
 * the corpus), then `finish`. Memory is one counter per distinct word.
 */
export class LexiconBuilder {
  private readonly options: z.output<typeof buildLexiconOptionsSchema>;
  private readonly canonical: CanonicalConfig;
  private readonly df = new Map<string, number>();
  private documents = 0;
  private emptyDocuments = 0;
  private otherLanguage = 0;
  private letterTokens = 0;
  private letterChars = 0;

  constructor(options: BuildLexiconOptions) {
    this.options = parseOptions(buildLexiconOptionsSchema, options);
    // Document frequencies are of the bodies (titles only with canonical.includeTitle): the
    // title that a stub body is signed with tells stub items apart and says nothing of which
    // words are common.
    this.canonical = { ...this.options.canonical, stubBodyTokens: 0 };
  }

  /** Adds one document; returns false when it was skipped (empty, or another language). */
  add(doc: LexiconDoc): boolean {
    const lang = this.options.lang;
    if (doc.lang !== undefined && languageFromTag(doc.lang) !== lang) {
      this.otherLanguage++;
      return false;
    }
    let canonical: ReturnType<typeof canonicalize>;
    try {
      const source =
        doc.title === undefined
          ? { text: doc.text, kind: 'text' as const }
          : { text: doc.text, kind: 'text' as const, title: doc.title };
      canonical = canonicalize(source, this.canonical, lang);
    } catch (error) {
      if (isDoppelError(error) && error.code === 'EMPTY_TEXT') {
        this.emptyDocuments++;
        return false;
      }
      throw error;
    }
    const seen = new Set<string>();
    const { words } = canonical;
    const isStop = stopMask(canonical);
    for (let i = 0; i < words.length; i++) {
      const word = words[i] as string;
      if (!hasLetter(word)) continue;
      // Average word length counts every word occurrence, stop words too, as Chowdhury's does.
      this.letterTokens++;
      this.letterChars += word.length;
      if (isStop[i] === 1 || seen.has(word)) continue;
      seen.add(word);
      this.df.set(word, (this.df.get(word) ?? 0) + 1);
    }
    this.documents++;
    return true;
  }

  finish(): { file: LexiconFile; stats: BuildStats } {
    const n = this.documents;
    if (n === 0) {
      throw new DoppelError(
        'EMPTY_TEXT',
        'no usable documents: a lexicon needs at least one document with words',
      );
    }
    const stats: WordStat[] = [];
    for (const [word, df] of this.df) stats.push({ word, df, idf: Math.log(n / df) });
    const file = finishLexicon(this.options, {
      stats,
      documents: n,
      averageWordLength: this.letterTokens > 0 ? this.letterChars / this.letterTokens : 1,
      // Add-one smoothing for an unseen word, df = 0: ln((N + 1) / (0 + 1)). Above every idf in
      // the table (at most ln N), so an unknown word counts as the rarest kind.
      unknownIdf: () => Math.log(n + 1),
      createdFrom: `${this.options.name}: ${n} documents`,
      minDf: this.options.minDf,
    });
    return {
      file,
      stats: {
        documents: n,
        emptyDocuments: this.emptyDocuments,
        otherLanguage: this.otherLanguage,
        vocabulary: this.df.size,
        summary: summarizeLexicon(file),
      },
    };
  }
}

/** Lexicon from a document corpus; see the module comment for the rules. */
export function buildLexicon(docs: Iterable<LexiconDoc>, options: BuildLexiconOptions): LexiconFile {
  return buildLexiconWithStats(docs, options).file;
}

export function buildLexiconWithStats(
  docs: Iterable<LexiconDoc>,
  options: BuildLexiconOptions,
): { file: LexiconFile; stats: BuildStats } {
  const builder = new LexiconBuilder(options);
  for (const doc of docs) builder.add(doc);
  return builder.finish();
}

export interface FrequencyStats {
  /** Entries read. */
  entries: number;
  /** Entries that are not exactly one token with a letter after canonicalization, or have no positive frequency. */
  notOneWord: number;
  /** Entries that are stop words. */
  stopWords: number;
  /** Entries merged into another one by normalization (ё/е, Arabic yeh/kaf, case). */
  merged: number;
  summary: LexiconSummary;
}

/**
 * Lexicon from a word frequency list, `[word, p]` with p the word's share of all tokens.
 *
 * idf model: a word of probability p in a document of Ld tokens is absent with probability
 * exp(-p * Ld) if occurrences were independent (Poisson), so df / N = 1 - exp(-p * Ld) and
 * idf = ln(N / df) = -ln(1 - exp(-p * Ld)), capped at ln(N) for a notional collection of N
 * documents (N itself cancels out otherwise). Real words are bursty: a topical word that occurs
 * once in an article tends to occur several times, so it is in fewer documents than the model
 * says; the model overestimates df and underestimates idf for topical words, most for
 * mid-frequency names and terms, while function-like words are modelled well. The bounds rule
 * works on ranks of mass, so a uniform bias mostly cancels; absolute idf values, used as SimHash
 * and lexical-signature weights, come out compressed compared with a corpus-built lexicon.
 *
 * Entries are canonicalized like document text; entries that normalize to the same token are
 * merged by summing p. An entry that is several tokens (a phrase, or a Persian word with ZWNJ
 * under the 'space' rule) or none is dropped, as are stop words and tokens without a letter.
 */
export function lexiconFromFrequencies(
  entries: Iterable<readonly [word: string, frequency: number]>,
  options: FrequencyLexiconOptions,
): LexiconFile {
  return lexiconFromFrequenciesWithStats(entries, options).file;
}

export function lexiconFromFrequenciesWithStats(
  entries: Iterable<readonly [word: string, frequency: number]>,
  options: FrequencyLexiconOptions,
): { file: LexiconFile; stats: FrequencyStats } {
  const o = parseOptions(frequencyLexiconOptionsSchema, options);
  const byToken = new Map<string, number>();
  let count = 0;
  let notOneWord = 0;
  let stopWords = 0;
  let merged = 0;
  let lengthMass = 0;
  let letterMass = 0;
  for (const [word, p] of entries) {
    count++;
    if (!(p > 0) || !Number.isFinite(p)) {
      notOneWord++;
      continue;
    }
    let doc: ReturnType<typeof canonicalize>;
    try {
      doc = canonicalize({ text: word, kind: 'text' }, o.canonical, o.lang);
    } catch (error) {
      if (isDoppelError(error) && error.code === 'EMPTY_TEXT') {
        notOneWord++;
        continue;
      }
      throw error;
    }
    const token = doc.words[0] as string;
    if (doc.words.length !== 1 || !hasLetter(token)) {
      notOneWord++;
      continue;
    }
    // Frequency-weighted mean length over word tokens, stop words included: the list's
    // equivalent of a corpus's average word length.
    lengthMass += p * token.length;
    letterMass += p;
    if (stopMask(doc)[0] === 1) {
      stopWords++;
      continue;
    }
    const previous = byToken.get(token);
    if (previous !== undefined) merged++;
    byToken.set(token, (previous ?? 0) + p);
  }
  if (byToken.size === 0) throw new DoppelError('EMPTY_TEXT', 'no usable words in the frequency list');

  const n = o.documents;
  const maxIdf = Math.log(n);
  // -ln(1 - exp(-x)) with expm1 for precision when x = p * Ld is tiny.
  const idfOf = (p: number) => Math.min(maxIdf, -Math.log(-Math.expm1(-p * o.documentTokens)));
  const stats: WordStat[] = [];
  for (const [word, p] of byToken) {
    stats.push({ word, idf: idfOf(p), df: -Math.expm1(-p * o.documentTokens) * n });
  }
  const file = finishLexicon(o, {
    stats,
    documents: n,
    averageWordLength: letterMass > 0 ? lengthMass / letterMass : 1,
    // A word missing from the table is rarer than every word in it: give it the idf of half the
    // smallest kept frequency, which for small p * Ld is the largest kept idf + ln 2. Not ln N:
    // a list's tail is long, and most unlisted tokens are rare inflected forms and names, whose
    // SimHash and lexical-signature weight should not dwarf every listed word's.
    unknownIdf: (maxKeptIdf) => Math.min(maxIdf, maxKeptIdf + Math.LN2),
    createdFrom: `${o.name}: ${count} frequency entries, df = N(1 - exp(-p * ${o.documentTokens})), N = ${n}`,
    minDf: 0,
  });
  return {
    file,
    stats: { entries: count, notOneWord, stopWords, merged, summary: summarizeLexicon(file) },
  };
}

/**
 * One word per line: the file stays diffable in review (a rebuilt lexicon shows which words
 * moved) at little cost in size.
 */
export function serializeLexicon(file: LexiconFile): string {
  const { words, ...header } = file;
  const head = JSON.stringify(header, null, 2);
  const rows = words.map((row) => `  ${JSON.stringify(row)}`).join(',\n');
  return `${head.slice(0, -2)},\n  "words": [\n${rows}\n  ]\n}\n`;
}
