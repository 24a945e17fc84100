import { type ParseArgsConfig, parseArgs } from 'node:util';
import type { DedupConfig } from '../config/dedup.js';
import { readConfigFile } from '../config/file.js';
import { resolveDedupConfig } from '../config/profiles.js';
import { DoppelError } from '../errors.js';
import { initHashing } from '../hash/xxhash.js';
import { LexiconSet } from '../lexicon/lexicon.js';
import { isSupportedLanguage, type Language } from '../text/language.js';

export type Options = NonNullable<ParseArgsConfig['options']>;

/** node:util parseArgs with usage errors turned into DoppelError('USAGE'). */
type ParsedCommand<O extends Options> = ReturnType<
  typeof parseArgs<{ args: string[]; options: O; allowPositionals: true; strict: true }>
>;

export function parseCommandArgs<O extends Options>(argv: string[], options: O): ParsedCommand<O> {
  try {
    return parseArgs({ args: argv, options, allowPositionals: true, strict: true });
  } catch (error) {
    throw new DoppelError('USAGE', (error as Error).message);
  }
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
  return file && typeof file === 'object' && 'signatures' in file
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
 * What every engine command starts with: the profile's config with the config file applied and
 * validated, xxHash loaded, and the lexicons (shipped, or --lexicon overrides).
 */
export async function engineSetup(values: {
  profile: string;
  config?: string | undefined;
  lexicon?: string[] | undefined;
}): Promise<{ config: DedupConfig; lexicons: LexiconSet }> {
  const config = resolveDedupConfig(
    values.profile,
    values.config ? readConfigFile(values.config) : {},
    values.config ?? 'profile',
  );
  await initHashing();
  return { config, lexicons: LexiconSet.defaults(parseLexiconFlags(values.lexicon)) };
}
