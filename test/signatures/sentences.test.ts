import { beforeAll, describe, expect, it } from 'vitest';
import { resolveDedupConfig } from '../../src/config/profiles.js';
import { initHashing } from '../../src/hash/xxhash.js';
import { LexiconSet } from '../../src/lexicon/lexicon.js';
import {
  emptySentenceContainment,
  isPassage,
  NO_CUT,
  passageTokens,
  type SentenceContainment,
  sentenceContainment,
} from '../../src/signatures/sentences.js';
import { Signer } from '../../src/signatures/signer.js';
import { canonicalize } from '../../src/text/canonical.js';

const config = resolveDedupConfig('news').signatures;
let signer: Signer;
beforeAll(async () => {
  await initHashing();
  signer = new Signer(config, LexiconSet.defaults());
});

function fingerprints(text: string): Uint32Array {
  const s = signer.compute(canonicalize({ text, kind: 'text' }, config.canonical, 'en')).sentences;
  if (s === null) throw new Error('sentence fingerprints are on in the news profile');
  return s.values;
}
const passages = (text: string) => [...fingerprints(text)].filter(isPassage);
const sentencesOf = (text: string) => [...fingerprints(text)].filter((v) => !isPassage(v));

const SENTENCES = [
  'The harbour authority said on Tuesday that the northern pier would close for repairs until spring.',
  'Ferries to the islands will leave from the southern terminal instead, with two extra crossings a day.',
  'Local traders worried that fewer visitors would walk past their shops during the winter months.',
  'The council promised a shuttle bus between the old town and the new departure point.',
  'Engineers found cracks in the concrete supports after the storms of last November.',
  'Repairs are expected to cost about four million euros, shared by the port and the region.',
];

function containment(a: string, b: string): SentenceContainment {
  const out = emptySentenceContainment();
  const fa = fingerprints(a);
  const fb = fingerprints(b);
  return sentenceContainment(fa, NO_CUT, a.split(' ').length, fb, NO_CUT, b.split(' ').length, out);
}

describe('lead passages', () => {
  it('depend on the words only: punctuation, glued sentences and line breaks cut them alike', () => {
    const plain = SENTENCES.join(' ');
    const glued = SENTENCES.join('');
    const lines = SENTENCES.map((s) => s.replace(/\.$/, '')).join('\n\n');
    expect(passages(plain).length).toBeGreaterThan(5);
    expect(passages(glued)).toEqual(passages(plain));
    expect(passages(lines)).toEqual(passages(plain));
    // The sentence fingerprints do differ: glued, the text is one sentence.
    expect(sentencesOf(glued)).not.toEqual(sentencesOf(plain));
  });

  it('are told from sentence fingerprints by their low byte and weigh 4-15 tokens', () => {
    for (const v of passages(SENTENCES.join(' '))) {
      expect(v & 0xff).toBe(0);
      expect(passageTokens(v)).toBeGreaterThanOrEqual(4);
      expect(passageTokens(v)).toBeLessThanOrEqual(15);
    }
    for (const v of sentencesOf(SENTENCES.join(' '))) expect(v & 0xff).toBeGreaterThan(0);
  });

  it('cover only the first leadTokens tokens', () => {
    const long = [...SENTENCES, ...SENTENCES.map((s) => s.replace('The', 'A'))].join(' ');
    const few = new Signer(
      resolveDedupConfig('news', { signatures: { sentences: { leadTokens: 20 } } }).signatures,
      LexiconSet.defaults(),
    );
    const s = few.compute(canonicalize({ text: long, kind: 'text' }, config.canonical, 'en')).sentences;
    const tokens = [...(s?.values ?? [])].filter(isPassage).reduce((a, v) => a + passageTokens(v), 0);
    expect(tokens).toBeGreaterThan(0);
    expect(tokens).toBeLessThanOrEqual(20);
  });

  it('measure a glued teaser cut at a word limit as contained in its article, sentences do not', () => {
    const article = SENTENCES.join(' ');
    const teaser = `${SENTENCES.join('').split(' ').slice(0, 44).join(' ')}... Read more`;
    const c = containment(teaser, article);
    // The news profile's threshold is 0.6: the "Read more" tail falls in an unshared passage.
    expect(c.leadShare).toBeGreaterThanOrEqual(0.6);
    expect(c.leadTokens).toBeGreaterThanOrEqual(20);
    expect(c.share).toBeLessThan(c.leadShare);
  });

  it('measure a different text with the same first sentence as not contained', () => {
    const other = [
      SENTENCES[0],
      'A spokesperson for the fishing cooperative declined to comment on the closure or its cost.',
      'Boats registered in the harbour will moor along the river quay while the work goes on.',
    ].join(' ');
    const c = containment(other, SENTENCES.join(' '));
    expect(c.leadShare).toBeLessThan(0.6);
  });
});
