import { beforeAll, describe, expect, it } from 'vitest';
import {
  exactJaccard,
  jaccardEstimate,
  minhashBandKeys,
  minhashValues,
  minhashValuesScalar,
  shingleHashes,
} from '../../src/signatures/minhash.js';
import type { Signer } from '../../src/signatures/signer.js';
import { INFO_LO, INFO_STRIDE, Vocabulary } from '../../src/signatures/vocabulary.js';
import { editWords, rng, signText, syntheticDoc, testEngine } from '../support/engine.js';

let engine: Signer;
const vocab = new Vocabulary(null, new Set());
beforeAll(async () => {
  engine = await testEngine();
});

function shingles(words: string[], w = 4): Uint32Array {
  const slots = new Int32Array(words.length);
  vocab.lookup(words, slots);
  const lo = Uint32Array.from(slots, (s) => vocab.info[s * INFO_STRIDE + INFO_LO]!);
  return shingleHashes(lo, words.length, w);
}

describe('shingles', () => {
  it('has n - w + 1 shingles, and one for texts shorter than w', () => {
    expect(shingles(['a', 'b', 'c', 'd', 'e'])).toHaveLength(2);
    expect(shingles(['a', 'b'])).toHaveLength(1);
    expect(shingles([])).toHaveLength(0);
  });
  it('depends on word order', () => {
    expect(shingles(['a', 'b', 'c', 'd'])[0]).not.toBe(shingles(['b', 'a', 'c', 'd'])[0]);
  });
});

describe('MinHash Jaccard estimate', () => {
  it('stays within tolerance of the exact Jaccard on sampled pairs', () => {
    const random = rng(7);
    let absError = 0;
    let scaledAbsError = 0;
    const pairs = 300;
    for (let i = 0; i < pairs; i++) {
      const a = syntheticDoc(random, 200 + Math.floor(random() * 200));
      const b = editWords(random, a, random() * 0.3);
      const sa = shingles(a);
      const sb = shingles(b);
      const exact = exactJaccard(sa, sb);
      const estimate = jaccardEstimate(minhashValues(sa, 84), minhashValues(sb, 84));
      const sigma = Math.sqrt((exact * (1 - exact)) / 84);
      expect(Math.abs(estimate - exact)).toBeLessThanOrEqual(4 * sigma + 0.02);
      absError += Math.abs(estimate - exact);
      if (sigma > 0) scaledAbsError += Math.abs(estimate - exact) / sigma;
    }
    // With independent min-wise permutations the error is binomial: mean |error| ~ 0.8 sigma.
    // Correlated permutations would inflate it; a biased family would too.
    expect(absError / pairs).toBeLessThan(0.05);
    expect(scaledAbsError / pairs).toBeLessThan(1.0);
  });
});

describe('super- and mega-shingles', () => {
  it('gives 6 super-shingles and 15 mega-shingles of 16 hex digits', () => {
    const s = signText(engine, syntheticDoc(rng(1), 100).join(' '));
    expect(s.broder!.super).toHaveLength(6);
    expect(s.broder!.mega).toHaveLength(15);
    for (const v of [...s.broder!.super, ...s.broder!.mega]) expect(v).toMatch(/^[0-9a-f]{16}$/);
    expect(new Set(s.broder!.mega).size).toBe(15);
  });

  it('matches near-identical texts (J ~ 0.97) and never unrelated ones', () => {
    const random = rng(11);
    let nearHits = 0;
    let farHits = 0;
    const trials = 100;
    for (let i = 0; i < trials; i++) {
      const doc = syntheticDoc(random, 400);
      const near = [...doc];
      near[Math.floor(random() * 400)] = 'changed';
      const mega = new Set(signText(engine, doc.join(' ')).broder!.mega);
      if (signText(engine, near.join(' ')).broder!.mega.some((m) => mega.has(m))) nearHits++;
      if (signText(engine, syntheticDoc(random, 400).join(' ')).broder!.mega.some((m) => mega.has(m)))
        farHits++;
    }
    // One changed word of 400 with w = 4: J = 396/404 ~ 0.98, P(>= 2 of 6 super-shingles) ~ 0.96.
    expect(nearHits).toBeGreaterThan(85);
    expect(farHits).toBe(0);
  });
});

describe('b x r bands', () => {
  it('gives b keys and shares a band for similar texts only', () => {
    const random = rng(3);
    const doc = syntheticDoc(random, 300);
    const a = signText(engine, doc.join(' ')).minhash!;
    const b = signText(engine, editWords(random, doc, 0.05).join(' ')).minhash!;
    const c = signText(engine, syntheticDoc(random, 300).join(' ')).minhash!;
    const ka = minhashBandKeys(a, { bands: 20, rows: 4 });
    expect(ka).toHaveLength(20);
    const kb = new Set(minhashBandKeys(b, { bands: 20, rows: 4 }));
    const kc = new Set(minhashBandKeys(c, { bands: 20, rows: 4 }));
    expect(ka.some((k) => kb.has(k))).toBe(true);
    expect(ka.some((k) => kc.has(k))).toBe(false);
  });
});

describe('min-hash values (WebAssembly SIMD)', () => {
  it('equal the scalar computation bit for bit', () => {
    const random = rng(7);
    const word = () => Math.floor(random() * 0x100000000) >>> 0;
    const inputs = [new Uint32Array(0), Uint32Array.from([0, 1, 0x7fffffff, 0x80000000, 0xffffffff])];
    for (let i = 0; i < 300; i++)
      inputs.push(Uint32Array.from({ length: 1 + Math.floor(random() * 500) }, word));
    inputs.push(Uint32Array.from({ length: 40000 }, word)); // past the first memory page
    for (const numHashes of [84, 1, 6, 255, 256, 257, 1024])
      for (const input of inputs)
        expect(minhashValues(input, numHashes)).toEqual(minhashValuesScalar(input, numHashes));
  });
});
