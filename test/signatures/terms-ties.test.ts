import { beforeAll, describe, expect, it } from 'vitest';
import { Random } from '../../src/eval/random.js';
import { parseMessageObject } from '../../src/input/message.js';
import { signMessage } from '../../src/pipeline/sign.js';
import { createSigner } from '../../src/signatures/create.js';
import type { Signer } from '../../src/signatures/signer.js';
import { expectCpuUnder } from '../support/cpu-budget.js';

let engine: Signer;
beforeAll(async () => {
  engine = await createSigner();
});

/** `n` distinct made-up words, each once: every term ties at the cut of the term vector. */
function distinctWords(n: number): string[] {
  return Array.from({ length: n }, (_, i) => `zq${i.toString(36)}vb`);
}

async function terms(words: string[]): Promise<number[]> {
  const signed = await signMessage(
    parseMessageObject({ id: 't', lang: 'en', text: words.join(' ') }),
    engine,
  );
  return [...(signed.signatures.terms?.hashes ?? [])];
}

describe('term vector of a text whose terms all tie (regression: quadratic tie sort)', () => {
  it('takes the lowest hashes whatever the word order, sorted, and in linear time', async () => {
    const words = distinctWords(5_000);
    const shuffled = [...words];
    const r = Random.from(7, 'ties');
    for (let i = shuffled.length - 1; i > 0; i--) {
      const j = r.int(i + 1);
      [shuffled[i], shuffled[j]] = [shuffled[j] as string, shuffled[i] as string];
    }
    const a = await terms(words);
    expect(a).toHaveLength(32);
    expect([...a].sort((x, y) => x - y)).toEqual(a);
    expect(await terms(shuffled)).toEqual(a);
    // A prefix of the words can only have higher or equal lowest hashes than the whole text.
    const prefix = await terms(words.slice(0, 1_000));
    expect((prefix[0] as number) >= (a[0] as number)).toBe(true);
  });

  it('signs a 1 MB body of 150,000 distinct words in seconds, not tens of seconds', async () => {
    const words = distinctWords(150_000);
    let t: number[] = [];
    // Was ~12 s of CPU (an insertion sort over every tied term); now well under a second.
    await expectCpuUnder(4_000, async () => {
      t = await terms(words);
    });
    expect(t).toHaveLength(32);
  });
});
