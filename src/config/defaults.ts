import { readFileSync } from 'node:fs';
import type { DedupConfig, ProfileName } from './dedup.js';
import type { SignatureConfig } from './signatures.js';

/**
 * Each profile's config and the signature config with no file applied, as the schemas make them,
 * validated once by `npm run build` (scripts/build-config-defaults.mjs writes
 * dist/config/defaults.json). A run without a config file takes its config from there and never
 * loads zod or builds the schemas (about 0.05 s of start-up CPU); a config file is validated by
 * the schemas as always (profiles.ts). Code run from src/ (the tests) has no such file and
 * validates every time. test/config/defaults.test.ts checks the file against the schemas.
 */

export interface ConfigDefaults {
  dedup: Record<ProfileName, DedupConfig>;
  signatures: SignatureConfig;
}

export const CONFIG_DEFAULTS_FILE = new URL('./defaults.json', import.meta.url);

export function isProfileName(value: string): value is ProfileName {
  return value === 'news' || value === 'mail';
}

let text: string | null | undefined;

/** A fresh copy of the validated defaults (callers may change theirs), or null when not built. */
export function readConfigDefaults(file: URL = CONFIG_DEFAULTS_FILE): ConfigDefaults | null {
  if (file !== CONFIG_DEFAULTS_FILE) return JSON.parse(readFileSync(file, 'utf8')) as ConfigDefaults;
  if (text === undefined) {
    try {
      text = readFileSync(file, 'utf8');
    } catch {
      text = null;
    }
  }
  return text === null ? null : (JSON.parse(text) as ConfigDefaults);
}

/** The profile's validated config with no file applied; null when the build has not written it. */
export function defaultDedupConfig(profile: ProfileName): DedupConfig | null {
  return readConfigDefaults()?.dedup[profile] ?? null;
}

/** The validated signature config with every default; null when the build has not written it. */
export function defaultSignatureConfig(): SignatureConfig | null {
  return readConfigDefaults()?.signatures ?? null;
}
