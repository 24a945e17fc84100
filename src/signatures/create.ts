import { type SignatureConfig, signatureConfigSchema } from '../config/signatures.js';
import { parseConfig } from '../config/validate.js';
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
  const config: SignatureConfig = parseConfig(signatureConfigSchema, options.signatures, 'signatures config');
  return new Signer(config, LexiconSet.defaults(options.lexicons ?? {}));
}
