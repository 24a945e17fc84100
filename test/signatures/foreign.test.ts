import { beforeAll, describe, expect, it } from 'vitest';
import { resolveDedupConfig } from '../../src/config/profiles.js';
import { LexiconSet } from '../../src/lexicon/lexicon.js';
import { PASSAGE_WORDS } from '../../src/signatures/foreign.js';
import type { Signer } from '../../src/signatures/signer.js';
import { type TermVector, termCosine } from '../../src/signatures/terms.js';
import { signText, testEngine } from '../support/engine.js';
import { EN_PROMO, FA_FOOTBALL, FA_VOLLEYBALL } from '../support/mixed-script.js';

const news = resolveDedupConfig('news');
let signer: Signer;
beforeAll(async () => {
  signer = await testEngine(LexiconSet.defaults(), news.signatures);
});

function terms(text: string): TermVector {
  const v = signText(signer, text, 'fa').terms;
  if (!v) throw new Error('no term vector');
  return v;
}

/** The hash of the one term of a text of one word. */
const termOf = (word: string): number => terms(word).hashes[0] as number;

describe('words of another script in the term vector', () => {
  it('reads a row of 8 or more as a passage of their language: its stop words are no terms', () => {
    expect(PASSAGE_WORDS).toBe(8);
    const withPassage = terms(`${FA_FOOTBALL}\n\n${EN_PROMO}`);
    // "the" twice more inside the English paragraph: an English stop word, so the vector is the same.
    const more = terms(`${FA_FOOTBALL}\n\n${EN_PROMO.replace('latest', 'the latest the')}`);
    expect([...more.hashes]).toEqual([...withPassage.hashes]);
    expect([...more.weights]).toEqual([...withPassage.weights]);
    expect([...withPassage.hashes]).not.toContain(termOf('the'));
  });

  it('keeps a short row (a name) as a rare word of the text: the top idf', () => {
    // A made-up Latin name weighs as much as a made-up Persian word: both unknown, seen once.
    const v = terms(`${FA_FOOTBALL} Zqvorax پزنگلوک`);
    const weight = (t: number) => v.weights[v.hashes.indexOf(t)];
    expect(weight(termOf('zqvorax'))).toBeGreaterThan(0);
    expect(weight(termOf('zqvorax'))).toBe(weight(termOf('پزنگلوک')));
    // "football" as a name outweighs the same word in an English paragraph (English idf, capped).
    const football = termOf('football');
    const asName = terms(`${FA_FOOTBALL} Football`);
    const inPassage = terms(`${FA_FOOTBALL}\n\n${EN_PROMO}`);
    const w = (x: TermVector) => x.weights[x.hashes.indexOf(football)] ?? 0;
    expect(w(asName)).toBeGreaterThan(2 * w(inPassage));
  });

  it('gives a shared English paragraph no more than its share of the tokens', () => {
    // Without the rule the paragraph (40 of 191 tokens) held most of both vectors: cosine 0.74,
    // a story link between a football report and a volleyball squad.
    const a = terms(`${FA_FOOTBALL}\n\n${EN_PROMO}`);
    const b = terms(`${FA_VOLLEYBALL}\n\n${EN_PROMO}`);
    expect(termCosine(a, b)).toBeLessThan(news.decision.story.cosine ?? 0);
    // The same report without the paragraph stays close (0.38 without the rule).
    expect(termCosine(a, terms(FA_FOOTBALL))).toBeGreaterThan(0.75);
  });

  it('leaves a text with no passage as it was: the paragraph alone is one script', () => {
    const alone = terms(EN_PROMO);
    const again = terms(EN_PROMO);
    expect(termCosine(alone, again)).toBeCloseTo(1, 6);
    expect(alone.hashes.length).toBeGreaterThan(10);
  });
});
