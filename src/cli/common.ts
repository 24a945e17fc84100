import { statSync } from 'node:fs';
import { type ParseArgsConfig, parseArgs } from 'node:util';
import type { DedupConfig } from '../config/dedup.js';
import { defaultDedupConfig, isProfileName } from '../config/defaults.js';
import { readConfigFile } from '../config/file.js';
import { DoppelError } from '../errors.js';
import { initHashing } from '../hash/xxhash.js';
import { LexiconSet } from '../lexicon/lexicon.js';
import { isSupportedLanguage, type Language } from '../text/language.js';
import { closest } from './suggest.js';

export type Options = NonNullable<ParseArgsConfig['options']>;

type ParsedCommand<O extends Options> = ReturnType<
  typeof parseArgs<{ args: string[]; options: O; allowPositionals: true; strict: true }>
>;

/**
 * node:util parseArgs with usage errors turned into DoppelError('USAGE') (exit code 2). Arguments
 * other than flags are an error unless the command takes them (`positionals: true`): a stray
 * `doppel dedup feed.jsonl` must not quietly read standard input instead.
 */
export function parseCommandArgs<O extends Options>(
  argv: string[],
  options: O,
  { positionals = false }: { positionals?: boolean } = {},
): ParsedCommand<O> {
  let parsed: ParsedCommand<O>;
  try {
    parsed = parseArgs({ args: argv, options, allowPositionals: true, strict: true });
  } catch (error) {
    throw new DoppelError('USAGE', withSuggestion(error as Error & { code?: string }, options));
  }
  if (!positionals && parsed.positionals.length > 0) {
    throw new DoppelError('USAGE', `unexpected argument "${parsed.positionals[0]}" (files go after --input)`);
  }
  return parsed;
}

/** parseArgs' message; for an unknown flag a short one, with the flag the user probably meant. */
function withSuggestion(error: Error & { code?: string }, options: Options): string {
  if (error.code !== 'ERR_PARSE_ARGS_UNKNOWN_OPTION') return error.message;
  const typed = /'(-{1,2}[^'=]+)/.exec(error.message)?.[1];
  if (!typed) return error.message;
  const known = Object.keys(options).filter((name) => Object.hasOwn(options, name));
  const guess = typed.startsWith('--') ? closest(typed.slice(2), known) : null;
  return `unknown option ${typed}${guess ? `: did you mean --${guess}?` : ''} (a value starting with "-" goes after "--")`;
}

/** `--lexicon ru=path/to/ru.json` (repeatable) to a map. */
export function parseLexiconFlags(values: string[] | undefined): Partial<Record<Language, string>> {
  const out: Partial<Record<Language, string>> = {};
  for (const value of values ?? []) {
    const eq = value.indexOf('=');
    const lang = value.slice(0, eq);
    if (eq < 1 || !isSupportedLanguage(lang))
      throw new DoppelError('USAGE', `--lexicon takes LANG=FILE with LANG one of ru, uk, en, fa: ${value}`);
    out[lang] = value.slice(eq + 1);
  }
  return out;
}

/** The `signatures` section of a config file, if one is given. */
export function signatureSection(configPath: string | undefined): unknown {
  if (!configPath) return undefined;
  const file = readConfigFile(configPath);
  return file && typeof file === 'object' && Object.hasOwn(file, 'signatures')
    ? (file as { signatures: unknown }).signatures
    : undefined;
}

export const IO_OPTIONS = {
  input: { type: 'string', short: 'i', default: '-' },
  output: { type: 'string', short: 'o', default: '-' },
  config: { type: 'string', short: 'c' },
  lexicon: { type: 'string', multiple: true },
  help: { type: 'boolean', short: 'h' },
} as const satisfies Options;

/**
 * An --input file that cannot be read is reported before anything starts: no store opened, no
 * output file created, no run summary, only the error. The input is read as a stream, so a
 * named pipe or a process substitution (`--input <(zcat feed.gz)`, a /dev/fd path) is as good as
 * a file; only a directory (or nothing at all) is refused.
 */
export function checkInputFile(path: string | undefined): void {
  if (path === undefined || path === '-') return;
  let readable: boolean;
  try {
    // Devices and pipes are readable streams too (/dev/null, /dev/stdin, a shell's <(...)).
    const stat = statSync(path);
    readable = stat.isFile() || stat.isFIFO() || stat.isCharacterDevice() || stat.isSocket();
  } catch (error) {
    throw new DoppelError('IO', `cannot read ${path}: ${(error as Error).message}`, { cause: error });
  }
  if (!readable) throw new DoppelError('IO', `cannot read ${path}: not a file or a pipe`);
}

/**
 * What every engine command starts with: its --input checked, the profile's config with the
 * config file applied and validated, xxHash loaded, and the lexicons (shipped, or --lexicon
 * overrides). A --profile that names no profile is a usage error; a config file's bad `profile`
 * is a config error.
 */
export async function engineSetup(values: {
  profile: string;
  config?: string | undefined;
  lexicon?: string[] | undefined;
  input?: string | undefined;
}): Promise<{ config: DedupConfig; lexicons: LexiconSet }> {
  if (!isProfileName(values.profile)) {
    throw new DoppelError('USAGE', `unknown profile "${values.profile}": --profile takes news or mail`);
  }
  checkInputFile(values.input);
  // The schemas (and zod) are loaded for a config file only: the profile's own config was
  // validated by the build (config/defaults.ts).
  const config =
    (values.config ? null : defaultDedupConfig(values.profile)) ??
    (await import('../config/profiles.js')).resolveDedupConfig(
      values.profile,
      values.config ? readConfigFile(values.config) : {},
      values.config ?? 'profile',
    );
  await initHashing();
  return { config, lexicons: LexiconSet.defaults(parseLexiconFlags(values.lexicon)) };
}
