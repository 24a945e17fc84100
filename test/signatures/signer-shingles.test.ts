import { beforeAll, describe, expect, it } from 'vitest';
import { parseMessageObject } from '../../src/input/message.js';
import { signMessage } from '../../src/pipeline/sign.js';
import { createSigner } from '../../src/signatures/create.js';
import type { Signatures, Signer } from '../../src/signatures/signer.js';
import { SCRATCH_TOKENS } from '../../src/signatures/vocabulary.js';

let signer: Signer;
beforeAll(async () => {
  signer = await createSigner();
});

/** `n` distinct made-up words (no stop word among them). */
function words(n: number, tag: string): string[] {
  return Array.from({ length: n }, (_, i) => `q${tag}${i.toString(36)}x`);
}

async function sign(id: string, text: string): Promise<Signatures> {
  return (await signMessage(parseMessageObject({ id, lang: 'en', text }), signer)).signatures;
}

describe('Signatures.shingles: distinct shingles the min-hashes were taken over', () => {
  it('counts each distinct shingle once, however often it repeats', async () => {
    const w = signer.config.minhash.shingleSize;
    expect(w).toBeGreaterThan(1);
    // A sequence of 300 distinct words: 300 - w + 1 shingles, all different.
    const once = words(300, 'a');
    expect((await sign('shingles-once', once.join(' '))).shingles).toBe(300 - w + 1);
    // The same words 20 times over: a period of 300 words has exactly 300 distinct windows.
    const repeated = Array.from({ length: 20 }, () => once.join(' ')).join(' ');
    const s = await sign('shingles-repeated', repeated);
    expect(s.contentTokens).toBe(6_000);
    expect(s.shingles).toBe(300);
  });

  it('counts a text longer than the scratch arrays, and the next text as if signed first', async () => {
    const period = words(700, 'b');
    const copies = Math.ceil((SCRATCH_TOKENS + 1) / period.length);
    const long = Array.from({ length: copies }, () => period.join(' ')).join(' ');
    const s = await sign('shingles-long', long);
    expect(s.contentTokens).toBeGreaterThan(SCRATCH_TOKENS);
    expect(s.shingles).toBe(700);
    // Scratch and set are reused: a short text after the long one gets its own signatures.
    const short = words(40, 'c').join(' ');
    const after = await sign('shingles-after', short);
    const fresh = (
      await signMessage(parseMessageObject({ id: 'f', lang: 'en', text: short }), await createSigner())
    ).signatures;
    expect(after.shingles).toBe(40 - signer.config.minhash.shingleSize + 1);
    expect(after.shingles).toBe(fresh.shingles);
    expect(after.exact).toBe(fresh.exact);
    expect(after.simhash).toEqual(fresh.simhash);
    expect([...(after.minhash ?? [])]).toEqual([...(fresh.minhash ?? [])]);
  });
});
