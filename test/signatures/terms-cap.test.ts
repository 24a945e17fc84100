import { beforeAll, describe, expect, it } from 'vitest';
import { resolveDedupConfig } from '../../src/config/profiles.js';
import { LexiconSet } from '../../src/lexicon/lexicon.js';
import type { Signer } from '../../src/signatures/signer.js';
import { type TermVector, termCosine } from '../../src/signatures/terms.js';
import { signText, testEngine } from '../support/engine.js';

const NEWS = resolveDedupConfig('news').signatures;
const TERM_SHARE_CAP = NEWS.terms.maxTermShare;
let signer: Signer;
let uncapped: Signer;
beforeAll(async () => {
  signer = await testEngine(LexiconSet.defaults(), NEWS);
  uncapped = await testEngine(LexiconSet.defaults(), resolveDedupConfig('mail').signatures);
});

function terms(text: string, by: Signer = signer): TermVector {
  const v = signText(by, text, 'en').terms;
  if (!v) throw new Error('no term vector');
  return v;
}

/** `n` made-up words, distinct within and across prefixes. */
const madeUp = (prefix: string, n: number) =>
  Array.from({ length: n }, (_, i) => `${prefix}q${i.toString(36)}zv`);

const squares = (v: TermVector) => [...v.weights].map((w) => w * w);

describe('news profile: one term holds at most terms.maxTermShare of the term vector', () => {
  it('lowers a word repeated in every mail (a placeholder for links) to the cap', () => {
    const text = [...madeUp('a', 30), ...new Array(12).fill('hyperlink')].join(' ');
    const w2 = squares(terms(text));
    expect(Math.max(...w2)).toBeLessThanOrEqual(TERM_SHARE_CAP + 1e-6);
    expect(Math.max(...w2)).toBeGreaterThan(TERM_SHARE_CAP - 1e-3);
    expect(w2.reduce((a, b) => a + b, 0)).toBeCloseTo(1, 5);
  });

  it('gives two texts that share only that word at most the cap as their cosine', () => {
    const a = terms([...madeUp('b', 30), ...new Array(12).fill('hyperlink')].join(' '));
    const b = terms([...madeUp('c', 30), ...new Array(9).fill('hyperlink')].join(' '));
    const cosine = termCosine(a, b);
    expect(cosine).toBeGreaterThan(0.1);
    expect(cosine).toBeLessThanOrEqual(TERM_SHARE_CAP + 1e-6);
  });

  it('caps several heavy words at one level, and leaves the others as they were', () => {
    const text = [
      ...madeUp('d', 30),
      ...new Array(12).fill('hyperlink'),
      ...new Array(12).fill('unsubscribe'),
    ].join(' ');
    const w2 = squares(terms(text)).sort((x, y) => y - x);
    expect(w2[0]).toBeCloseTo(TERM_SHARE_CAP, 5);
    expect(w2[1]).toBeCloseTo(TERM_SHARE_CAP, 5);
    // The made-up words, each seen once with one idf, keep equal weights below the cap.
    expect(w2[2]).toBeLessThan(TERM_SHARE_CAP);
    expect(new Set(w2.slice(2).map((x) => x.toFixed(6))).size).toBe(1);
  });

  it('leaves a vector of too few terms to meet the cap as it is', () => {
    const w2 = squares(terms(['hyperlink', 'hyperlink', 'hyperlink', ...madeUp('e', 3)].join(' ')));
    expect(w2).toHaveLength(4);
    expect(Math.max(...w2)).toBeGreaterThan(TERM_SHARE_CAP);
  });

  it('is 0.15 in the news profile; the mail profile keeps the whole weight', () => {
    expect(TERM_SHARE_CAP).toBe(0.15);
    const text = [...madeUp('f', 30), ...new Array(12).fill('hyperlink')].join(' ');
    expect(Math.max(...squares(terms(text, uncapped)))).toBeGreaterThan(1.5 * TERM_SHARE_CAP);
  });
});
