import { createReadStream, readFileSync } from 'node:fs';
import { rename, writeFile } from 'node:fs/promises';
import { createInterface } from 'node:readline';
import type { Readable, Writable } from 'node:stream';
import { parseArgs } from 'node:util';
import { DoppelError, isDoppelError, toDoppelError } from '../errors.js';
import {
  type BuildStats,
  frequencyLexiconOptionsSchema,
  LexiconBuilder,
  lexiconFromFrequenciesWithStats,
  serializeLexicon,
  summarizeLexicon,
} from '../lexicon/build.js';
import { type LexiconFile, parseLexicon } from '../lexicon/lexicon.js';
import { isSupportedLanguage, LANGUAGES, type SupportedLanguage } from '../text/language.js';

/**
 * `doppel lexicon build | import-frequencies | info`: lexicons are data with a version
 * (docs/signatures.md, "I-Match with a secondary lexicon"), made by this command from a corpus or a frequency list.
 */

const USAGE = `usage: doppel lexicon <command> [options]

commands:
  build               lexicon from a JSON Lines corpus {"id", "text", "title"?, "lang"?}
  import-frequencies  lexicon from a word frequency list (TSV: word<TAB>frequency)
  info FILE           version, language, sizes of the primary (L) and secondary (B) lexicons

build / import-frequencies options:
  -i, --input FILE     input file, - for standard input (default -)
  -o, --output FILE    lexicon file to write, - for standard output (required;
                       --out is a deprecated spelling of it)
  --lang LANG          ${LANGUAGES.join(', ')} (required); build skips lines of another "lang"
  --name SOURCE        source name in the version <lang>-<source>-<hash> (default corpus / freq)
  --max-words N        keep at most N words, lowest idf first (import-frequencies: default 40000)
  --idf-lo X           lower idf bound of L (default: by df mass, see --lo-mass)
  --idf-hi Y           upper idf bound of L; rarer words form B (default: by df mass)
  --lo-mass S          share of df mass (most frequent words) below L (default 0.15)
  --hi-mass S          share of df mass at or below the top of L (default 0.75)
  --min-word-length N  shortest word in L and B (default 3)
build only:
  --min-df N           leave out words in fewer than N documents (default 2)
import-frequencies only:
  --doc-tokens N       mean document length in tokens for the df model (default 300)

info options:
  --json               print the summary as JSON

examples:
  doppel lexicon build --input corpus-ru.jsonl --lang ru --output ru.json
  doppel lexicon import-frequencies --input uk-frequencies.tsv --lang uk --output uk.json
  doppel lexicon info ru.json`;

export interface CommandIo {
  stdout: Writable;
  stderr: Writable;
  stdin: Readable;
}

const defaultIo = (): CommandIo => ({ stdout: process.stdout, stderr: process.stderr, stdin: process.stdin });

const SHARED_OPTIONS = {
  input: { type: 'string', short: 'i', default: '-' },
  output: { type: 'string', short: 'o' },
  // The old spelling; every other command says --output. Still accepted, with a warning.
  out: { type: 'string' },
  lang: { type: 'string' },
  name: { type: 'string' },
  'max-words': { type: 'string' },
  'idf-lo': { type: 'string' },
  'idf-hi': { type: 'string' },
  'lo-mass': { type: 'string' },
  'hi-mass': { type: 'string' },
  'min-word-length': { type: 'string' },
  help: { type: 'boolean', short: 'h' },
} as const;

const BUILD_OPTIONS = { ...SHARED_OPTIONS, 'min-df': { type: 'string' } } as const;
const IMPORT_OPTIONS = { ...SHARED_OPTIONS, 'doc-tokens': { type: 'string' } } as const;
const INFO_OPTIONS = { json: { type: 'boolean' }, help: { type: 'boolean', short: 'h' } } as const;

/** Bad input lines listed one by one on stderr before only the count is given. */
const MAX_REPORTED_LINES = 10;

export async function lexiconCommand(argv: string[], io: CommandIo = defaultIo()): Promise<number> {
  const [sub, ...rest] = argv;
  try {
    if (sub === undefined) throw new DoppelError('USAGE', 'missing command');
    if (sub === 'help' || sub === '--help' || sub === '-h') {
      io.stdout.write(`${USAGE}\n`);
      return 0;
    }
    if (sub === 'build') return await buildCommand(rest, io);
    if (sub === 'import-frequencies') return await importCommand(rest, io);
    if (sub === 'info') return infoCommand(rest, io);
    throw new DoppelError('USAGE', `unknown command "${sub}"`);
  } catch (thrown) {
    // Stream and file-system errors arrive as plain Errors; they end the command with a
    // message and exit code 1 like every other failure, never as a crash with a stack trace.
    const error = toDoppelError(thrown);
    if (error.code === 'USAGE') {
      io.stderr.write(`doppel lexicon: ${error.message}\n\n${USAGE}\n`);
      return 2;
    }
    io.stderr.write(`doppel lexicon: ${error.code}: ${error.message}\n`);
    return 1;
  }
}

function parse<O extends typeof BUILD_OPTIONS | typeof IMPORT_OPTIONS | typeof INFO_OPTIONS>(
  argv: string[],
  options: O,
) {
  try {
    return parseArgs({ args: argv, options, allowPositionals: true, strict: true });
  } catch (error) {
    throw new DoppelError('USAGE', (error as Error).message);
  }
}

function numberFlag(value: string | undefined, flag: string, integer: boolean): number | undefined {
  if (value === undefined) return undefined;
  const n = Number(value);
  if (value.trim() === '' || !Number.isFinite(n) || (integer && !Number.isInteger(n))) {
    throw new DoppelError('USAGE', `--${flag} takes ${integer ? 'an integer' : 'a number'}: ${value}`);
  }
  return n;
}

type SharedValues = {
  [K in keyof typeof SHARED_OPTIONS]?: (typeof SHARED_OPTIONS)[K]['type'] extends 'boolean'
    ? boolean
    : string;
};

interface SharedFlags {
  input: string;
  output: string;
  lang: SupportedLanguage;
  options: {
    lang: SupportedLanguage;
    name?: string;
    maxWords?: number;
    idfLo?: number;
    idfHi?: number;
    loMass?: number;
    hiMass?: number;
    minWordLength?: number;
  };
}

function sharedFlags(values: SharedValues, positionals: string[], io: CommandIo): SharedFlags {
  if (positionals.length > 0) throw new DoppelError('USAGE', `unexpected argument "${positionals[0]}"`);
  const lang = values.lang;
  if (!lang) throw new DoppelError('USAGE', '--lang is required');
  if (!isSupportedLanguage(lang)) {
    throw new DoppelError('USAGE', `--lang must be one of ${LANGUAGES.join(', ')}: ${lang}`);
  }
  if (values.out !== undefined) {
    if (values.output !== undefined && values.output !== values.out) {
      throw new DoppelError('USAGE', '--out (deprecated) and --output name different files; use --output');
    }
    io.stderr.write('doppel lexicon: --out is deprecated, use --output\n');
  }
  const output = values.output ?? values.out;
  if (!output) throw new DoppelError('USAGE', '--output is required');
  const options: SharedFlags['options'] = { lang };
  // Only flags that were given are passed on, so the builders' documented defaults apply.
  const set = <K extends keyof SharedFlags['options']>(
    key: K,
    value: SharedFlags['options'][K] | undefined,
  ) => {
    if (value !== undefined) options[key] = value;
  };
  set('name', values.name);
  set('maxWords', numberFlag(values['max-words'], 'max-words', true));
  set('idfLo', numberFlag(values['idf-lo'], 'idf-lo', false));
  set('idfHi', numberFlag(values['idf-hi'], 'idf-hi', false));
  set('loMass', numberFlag(values['lo-mass'], 'lo-mass', false));
  set('hiMass', numberFlag(values['hi-mass'], 'hi-mass', false));
  set('minWordLength', numberFlag(values['min-word-length'], 'min-word-length', true));
  return { input: values.input ?? '-', output, lang, options };
}

/** Builder option errors (a bad --max-words, --idf-lo above --idf-hi) are usage errors here. */
function asUsage(error: unknown): never {
  if (isDoppelError(error) && error.code === 'INVALID_CONFIG') throw new DoppelError('USAGE', error.message);
  throw error;
}

async function* readLines(path: string, stdin: Readable): AsyncGenerator<string> {
  const input = path === '-' ? stdin : createReadStream(path);
  if (path !== '-') {
    await new Promise<void>((resolve, reject) => {
      input.once('open', () => resolve());
      input.once('error', (error: Error) =>
        reject(new DoppelError('IO', `cannot read ${path}: ${error.message}`, { cause: error })),
      );
    });
  }
  const lines = createInterface({ input, crlfDelay: Number.POSITIVE_INFINITY });
  for await (const line of lines) yield line;
}

class BadLines {
  count = 0;
  constructor(
    private readonly stderr: Writable,
    private readonly path: string,
  ) {}

  report(lineNumber: number, why: string): void {
    this.count++;
    if (this.count <= MAX_REPORTED_LINES) {
      this.stderr.write(`doppel lexicon: ${this.path}:${lineNumber}: skipped: ${why}\n`);
    }
  }
}

/** One parsed corpus line, or the reason it is not usable. */
function corpusLine(line: string): { text: string; title?: string; lang?: string } | string {
  let value: unknown;
  try {
    value = JSON.parse(line);
  } catch {
    return 'not valid JSON';
  }
  if (value === null || typeof value !== 'object' || Array.isArray(value)) return 'not a JSON object';
  const record = value as Record<string, unknown>;
  if (typeof record.text !== 'string') return 'no "text" string';
  // null is as good as absent: exporters write missing titles as null.
  if (record.title != null && typeof record.title !== 'string') return '"title" is not a string';
  if (record.lang != null && typeof record.lang !== 'string') return '"lang" is not a string';
  const doc: { text: string; title?: string; lang?: string } = { text: record.text };
  if (typeof record.title === 'string') doc.title = record.title;
  if (typeof record.lang === 'string') doc.lang = record.lang;
  return doc;
}

async function buildCommand(argv: string[], io: CommandIo): Promise<number> {
  const { values, positionals } = parse(argv, BUILD_OPTIONS);
  if (values.help) {
    io.stdout.write(`${USAGE}\n`);
    return 0;
  }
  const flags = sharedFlags(values, positionals, io);
  const minDf = numberFlag(values['min-df'], 'min-df', true);
  let builder: LexiconBuilder;
  try {
    builder = new LexiconBuilder(minDf === undefined ? flags.options : { ...flags.options, minDf });
  } catch (error) {
    asUsage(error);
  }
  const bad = new BadLines(io.stderr, flags.input);
  let lineNumber = 0;
  for await (const line of readLines(flags.input, io.stdin)) {
    lineNumber++;
    if (line.trim() === '') continue;
    const doc = corpusLine(line);
    if (typeof doc === 'string') {
      bad.report(lineNumber, doc);
      continue;
    }
    // The builder skips (and counts) documents whose declared lang is not --lang.
    builder.add(doc);
  }
  const { file, stats } = builder.finish();
  await writeLexicon(file, flags.output, io);
  io.stderr.write(buildReport(file, stats, bad.count));
  return 0;
}

function buildReport(file: LexiconFile, stats: BuildStats, badLines: number): string {
  const lines = [
    `doppel lexicon: ${file.version}: ${stats.documents} documents, ${stats.vocabulary} distinct words, ${stats.summary.words} kept`,
    `  L ${stats.summary.primary} words (idf ${file.primary.idfLo}..${file.primary.idfHi}), B ${stats.summary.secondary} words`,
  ];
  const skipped = [
    stats.otherLanguage > 0 ? `${stats.otherLanguage} of another language` : '',
    stats.emptyDocuments > 0 ? `${stats.emptyDocuments} without words` : '',
    badLines > 0 ? `${badLines} bad lines` : '',
  ].filter((s) => s !== '');
  if (skipped.length > 0) lines.push(`  skipped: ${skipped.join(', ')}`);
  if (stats.summary.secondary === 0) {
    // Small corpora: the words rarer than L are mostly in one document each, and --min-df prunes them.
    lines.push(
      '  warning: B is empty, so documents with few words in L get no I-Match signature; try --min-df 1',
    );
  }
  return `${lines.join('\n')}\n`;
}

async function importCommand(argv: string[], io: CommandIo): Promise<number> {
  const { values, positionals } = parse(argv, IMPORT_OPTIONS);
  if (values.help) {
    io.stdout.write(`${USAGE}\n`);
    return 0;
  }
  const flags = sharedFlags(values, positionals, io);
  const docTokens = numberFlag(values['doc-tokens'], 'doc-tokens', false);
  const options = docTokens === undefined ? flags.options : { ...flags.options, documentTokens: docTokens };
  // Checked before reading: a usage error should not wait for a large input to be read.
  const checked = frequencyLexiconOptionsSchema.safeParse(options);
  if (!checked.success) {
    const issue = checked.error.issues[0];
    throw new DoppelError(
      'USAGE',
      `lexicon options: ${issue ? `${issue.path.join('.')}: ${issue.message}` : 'invalid'}`,
    );
  }
  const bad = new BadLines(io.stderr, flags.input);
  const entries: [string, number][] = [];
  let lineNumber = 0;
  for await (const line of readLines(flags.input, io.stdin)) {
    lineNumber++;
    if (line.trim() === '' || line.startsWith('#')) continue;
    const tab = line.indexOf('\t');
    const frequency = tab > 0 ? Number(line.slice(tab + 1).trim()) : Number.NaN;
    if (tab <= 0 || !(frequency > 0) || !Number.isFinite(frequency)) {
      bad.report(lineNumber, 'not word<TAB>positive frequency');
      continue;
    }
    entries.push([line.slice(0, tab), frequency]);
  }
  const { file, stats } = lexiconFromFrequenciesWithStats(entries, options);
  await writeLexicon(file, flags.output, io);
  const dropped = [
    stats.notOneWord > 0 ? `${stats.notOneWord} not one word` : '',
    stats.stopWords > 0 ? `${stats.stopWords} stop words` : '',
    stats.merged > 0 ? `${stats.merged} merged by normalization` : '',
    bad.count > 0 ? `${bad.count} bad lines` : '',
  ].filter((s) => s !== '');
  io.stderr.write(
    `doppel lexicon: ${file.version}: ${stats.entries} entries, ${stats.summary.words} words kept\n` +
      `  L ${stats.summary.primary} words (idf ${file.primary.idfLo}..${file.primary.idfHi}), B ${stats.summary.secondary} words\n` +
      (dropped.length > 0 ? `  dropped: ${dropped.join(', ')}\n` : ''),
  );
  return 0;
}

function infoCommand(argv: string[], io: CommandIo): number {
  const { values, positionals } = parse(argv, INFO_OPTIONS);
  if (values.help) {
    io.stdout.write(`${USAGE}\n`);
    return 0;
  }
  if (positionals.length !== 1) throw new DoppelError('USAGE', 'info takes one lexicon FILE');
  const path = positionals[0] as string;
  const file = readLexiconFile(path);
  const summary = summarizeLexicon(file);
  const info = {
    file: path,
    version: file.version,
    lang: file.lang,
    createdFrom: file.createdFrom,
    documents: file.documents,
    words: summary.words,
    primary: summary.primary,
    secondary: summary.secondary,
    idfLo: file.primary.idfLo,
    idfHi: file.primary.idfHi,
    minWordLength: file.primary.minWordLength,
    maxWordLength: file.primary.maxWordLength,
    averageWordLength: file.averageWordLength,
    unknownIdf: file.unknownIdf,
  };
  if (values.json) {
    io.stdout.write(`${JSON.stringify(info)}\n`);
    return 0;
  }
  io.stdout.write(
    [
      `version          ${info.version}`,
      `lang             ${info.lang}`,
      `created from     ${info.createdFrom}`,
      `documents        ${info.documents}`,
      `words            ${info.words}`,
      `primary (L)      ${info.primary} words, idf ${info.idfLo}..${info.idfHi}, length ${info.minWordLength}..${info.maxWordLength}`,
      `secondary (B)    ${info.secondary} words, idf above ${info.idfHi}`,
      `unknown idf      ${info.unknownIdf}`,
      `avg word length  ${info.averageWordLength}`,
    ].join('\n') + '\n',
  );
  return 0;
}

/** The validated file itself (the Lexicon class keeps only what signatures need). */
function readLexiconFile(path: string): LexiconFile {
  let json: unknown;
  try {
    json = JSON.parse(readFileSync(path, 'utf8'));
  } catch (error) {
    throw new DoppelError('INVALID_LEXICON', `${path}: ${(error as Error).message}`, { cause: error });
  }
  parseLexicon(json, path);
  // parseLexicon has just checked it against lexiconFileSchema.
  return json as LexiconFile;
}

async function writeLexicon(file: LexiconFile, out: string, io: CommandIo): Promise<void> {
  const text = serializeLexicon(file);
  if (out === '-') {
    io.stdout.write(text);
    return;
  }
  const tmp = `${out}.tmp-${process.pid}`;
  try {
    await writeFile(tmp, text, 'utf8');
    await rename(tmp, out);
  } catch (error) {
    throw new DoppelError('IO', `cannot write ${out}: ${(error as Error).message}`, { cause: error });
  }
}
