import { beforeAll, describe, expect, it } from 'vitest';
import { LEXICON_FORMAT, LexiconSet, parseLexicon } from '../../src/lexicon/lexicon.js';
import type { Signer } from '../../src/signatures/signer.js';
import { signText, testEngine } from '../support/engine.js';

// idf 5 for "rare*" words, 1 for the rest: the top tf*idf words are the rare ones.
function lexicons(): LexiconSet {
  const words: [string, number][] = [];
  for (const w of ['common', 'filler', 'here', 'other', 'text', 'words']) words.push([w, 1]);
  for (const w of ['rareone', 'raretwo', 'rarethree', 'rarefour', 'rarefive', 'raresix']) words.push([w, 5]);
  words.sort((a, b) => a[1] - b[1] || (a[0] < b[0] ? -1 : 1));
  const set = LexiconSet.fromFiles({});
  set.set(
    'en',
    parseLexicon(
      {
        format: LEXICON_FORMAT,
        lang: 'en',
        version: 'en-toy-00000001',
        createdFrom: 'test',
        documents: 100,
        averageWordLength: 5,
        unknownIdf: 1,
        primary: { idfLo: 0.5, idfHi: 3, minWordLength: 3, maxWordLength: 25 },
        words,
      },
      'toy',
    ),
  );
  return set;
}

let engine: Signer;
beforeAll(async () => {
  engine = await testEngine(lexicons());
});

describe('seed 002 signatures', () => {
  it('lexical signature depends on the top words only, not their order', () => {
    const a = signText(engine, 'alpha beta gamma delta epsilon zeta eta theta alpha beta', 'en');
    const b = signText(engine, 'beta alpha theta eta zeta epsilon delta gamma beta alpha', 'en');
    expect(a.lexical).toMatch(/^[0-9a-f]{16}$/);
    expect(a.lexical).toBe(b.lexical);
    const c = signText(engine, 'alpha beta gamma delta epsilon zeta eta theta omega', 'en');
    expect(c.lexical).not.toBe(a.lexical);
  });

  it('prefers high tf*idf words', () => {
    const base = 'rareone raretwo rarethree rarefour rarefive raresix common words here';
    const a = signText(engine, base, 'en');
    const b = signText(engine, base.replace('common words here', 'other filler text'), 'en');
    expect(a.lexical).toBe(b.lexical);
    const c = signText(engine, base.replace('raresix', 'rareseven'), 'en');
    expect(c.lexical).not.toBe(a.lexical);
  });

  it('is null for fewer than three distinct words', () => {
    expect(signText(engine, 'rareone raretwo rareone', 'en').lexical).toBeNull();
  });

  it('sentence signatures survive an added short header and a footer of short lines', () => {
    const body =
      'The central bank raised the key interest rate by half a point on Friday. ' +
      'Analysts had expected a smaller move after inflation slowed in October. ' +
      'The decision surprised markets.';
    const a = signText(engine, body, 'en');
    const b = signText(engine, `MOSCOW, Nov 1.\n${body}\nRead more.\nShare`, 'en');
    expect(a.longest).toMatch(/^[0-9a-f]{16}$/);
    expect(a.heaviest).toMatch(/^[0-9a-f]{16}$/);
    expect([b.longest, b.heaviest]).toEqual([a.longest, a.heaviest]);
    const c = signText(engine, body.replace('half a point', 'a full point'), 'en');
    expect(c.longest).not.toBe(a.longest);
  });

  it('longest sentences do not depend on which of the two comes first', () => {
    const s1 = 'The first long sentence has quite a few words in it today.';
    const s2 = 'The second long sentence also has many words in it for testing.';
    expect(signText(engine, `${s1} ${s2}`, 'en').longest).toBe(signText(engine, `${s2} ${s1}`, 'en').longest);
  });
});
