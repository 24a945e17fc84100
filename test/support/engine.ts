import { type SignatureConfig, signatureConfigSchema } from '../../src/config/signatures.js';
import { initHashing } from '../../src/hash/xxhash.js';
import { LexiconSet } from '../../src/lexicon/lexicon.js';
import type { Signatures } from '../../src/signatures/signer.js';
import { Signer } from '../../src/signatures/signer.js';
import { canonicalize } from '../../src/text/canonical.js';

export function defaultSignatureConfig(
  overrides: Partial<Record<keyof SignatureConfig, unknown>> = {},
): SignatureConfig {
  return signatureConfigSchema.parse(overrides);
}

/** An engine with no lexicons (idf = 1, I-Match NULL) unless `lexicons` is given. */
export async function testEngine(
  lexicons: LexiconSet = LexiconSet.fromFiles({}),
  config = defaultSignatureConfig(),
): Promise<Signer> {
  await initHashing();
  return new Signer(config, lexicons);
}

export function signText(engine: Signer, text: string, lang?: string): Signatures {
  return engine.compute(canonicalize({ text, kind: 'text' }, engine.config.canonical, lang));
}

/** Deterministic pseudo-random generator (mulberry32) for synthetic documents. */
import { mulberry32 } from '../../src/eval/random.js';

export { mulberry32 as rng };

/** A synthetic document of `length` words drawn from a vocabulary of made-up words. */
export function syntheticDoc(random: () => number, length: number, vocabulary = 5000): string[] {
  const words: string[] = [];
  for (let i = 0; i < length; i++) words.push(`w${Math.floor(random() * vocabulary).toString(36)}x`);
  return words;
}

/**
 * `n` sentences of 12-20 made-up words each, each ending in a full stop: an article whose sentences
 * share no word sequence. `suffix` ends every word, keeping one suite's words apart from another's.
 */
export function syntheticSentences(seed: number, n: number, suffix: string): string[] {
  const random = mulberry32(seed);
  const out: string[] = [];
  for (let s = 0; s < n; s++) {
    const words: string[] = [];
    const length = 12 + Math.floor(random() * 9);
    for (let i = 0; i < length; i++) words.push(`w${Math.floor(random() * 20_000).toString(36)}${suffix}`);
    out.push(`${words.join(' ')}.`);
  }
  return out;
}

/** Replaces a share of the words with fresh ones. */
export function editWords(random: () => number, words: readonly string[], share: number): string[] {
  return words.map((w) => (random() < share ? `e${Math.floor(random() * 1e9).toString(36)}` : w));
}
