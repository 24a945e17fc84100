import { beforeAll, describe, expect, it } from 'vitest';
import { parseMessageObject } from '../../src/input/message.js';
import { signMessage } from '../../src/pipeline/sign.js';
import { createSigner } from '../../src/signatures/create.js';
import type { Signer } from '../../src/signatures/signer.js';
import type { TermVector } from '../../src/signatures/terms.js';

let engine: Signer;
beforeAll(async () => {
  engine = await createSigner();
});

async function termsOf(lang: string, text: string): Promise<TermVector | null> {
  const signed = await signMessage(parseMessageObject({ id: `terms-short-${lang}`, lang, text }), engine);
  return signed.signatures.terms;
}

describe('term vector of a text with fewer terms than the vector holds', () => {
  it('keeps every term once, sorted by hash, with unit length', async () => {
    const terms = await termsOf('en', 'zqalpha zqbeta zqgamma zqalpha zqdelta zqbeta zqalpha');
    expect(terms).not.toBeNull();
    const hashes = [...(terms?.hashes ?? [])];
    expect(hashes).toHaveLength(4);
    expect([...hashes].sort((a, b) => a - b)).toEqual(hashes);
    const norm = Math.hypot(...(terms?.weights ?? []));
    expect(norm).toBeCloseTo(1, 5);
  });
  it('merges Russian words of one stem into one term, weighted by their summed counts', async () => {
    const merged = await termsOf('ru', 'правительство правительства правительству заявило');
    const apart = await termsOf('ru', 'правительство заявило');
    expect(merged?.hashes.length).toBe(2);
    expect([...(merged?.hashes ?? [])]).toEqual([...(apart?.hashes ?? [])]);
    // Three words of the stem against one: the stem's term weighs more, the other term less.
    const before = [...(apart?.weights ?? [])];
    const grew = [...(merged?.weights ?? [])].map((w, k) => w > (before[k] as number));
    expect(grew.filter(Boolean)).toHaveLength(1);
  });
  it('gives no vector to a text of nothing but stop words, and one to the same text with a word', async () => {
    expect(await termsOf('ru', 'и в на но')).toBeNull();
    expect((await termsOf('ru', 'и в на но правительство'))?.hashes.length).toBe(1);
  });
});
