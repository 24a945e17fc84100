import { defaultSignatureConfig } from '../config/defaults.js';
import type { SignatureConfig } from '../config/signatures.js';
import { initHashing } from '../hash/xxhash.js';
import { LexiconSet } from '../lexicon/lexicon.js';
import type { Language } from '../text/language.js';
import { Signer } from './signer.js';

export interface SignerOptions {
  /** Raw (unvalidated) signature config; defaults apply to everything left out. */
  signatures?: unknown;
  /** Lexicon file per language, overriding the shipped defaults. */
  lexicons?: Partial<Record<Language, string>>;
}

/** Validates config, loads xxHash, and returns a ready engine. The one way entry points build it. */
export async function createSigner(options: SignerOptions = {}): Promise<Signer> {
  await initHashing();
  // The schemas (and zod) are loaded for a given config only: the defaults were validated by the
  // build (config/defaults.ts).
  const config: SignatureConfig =
    (options.signatures === undefined ? defaultSignatureConfig() : null) ??
    (await validateSignatureConfig(options.signatures));
  return new Signer(config, LexiconSet.defaults(options.lexicons ?? {}));
}

async function validateSignatureConfig(raw: unknown): Promise<SignatureConfig> {
  const [{ signatureConfigSchema }, { parseConfig }] = await Promise.all([
    import('../config/signatures.js'),
    import('../config/validate.js'),
  ]);
  return parseConfig(signatureConfigSchema, raw, 'signatures config');
}
