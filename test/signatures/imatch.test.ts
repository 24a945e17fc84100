import { beforeAll, describe, expect, it } from 'vitest';
import { imatchSchema } from '../../src/config/signatures.js';
import { initHashing } from '../../src/hash/xxhash.js';
import { LEXICON_FORMAT, type Lexicon, parseLexicon } from '../../src/lexicon/lexicon.js';
import { imatchSignatures, lexiconVersionSeed } from '../../src/signatures/imatch.js';
import { Vocabulary } from '../../src/signatures/vocabulary.js';

// Toy lexicon: "mid*" words are in the primary range [2, 5]; "rare*" words are secondary (idf > 5),
// ranked rare1 < rare2 < ... by ascending idf; "common" is below the range.
function toyLexicon(version = 'en-toy-00000001'): Lexicon {
  const words: [string, number][] = [['common', 0.5]];
  for (let i = 0; i < 10; i++) words.push([`mid${i}`, 2 + i * 0.3]);
  for (let i = 1; i <= 5; i++) words.push([`rare${i}`, 5 + i]);
  return parseLexicon(
    {
      format: LEXICON_FORMAT,
      lang: 'en',
      version,
      createdFrom: 'test',
      documents: 1000,
      averageWordLength: 4,
      unknownIdf: 7,
      primary: { idfLo: 2, idfHi: 5, minWordLength: 3, maxWordLength: 25 },
      words,
    },
    'toy',
  );
}

const words = (list: string[]) => list;

/** Runs I-Match the way the engine does: vocabulary slots of the document's content words. */
function sign(list: string[], lexicon: Lexicon, config: ReturnType<typeof imatchSchema.parse>) {
  const vocab = new Vocabulary(lexicon, new Set());
  const slots = new Int32Array(list.length);
  vocab.lookup(list, slots);
  return imatchSignatures(vocab, slots, config, lexiconVersionSeed(lexicon.version));
}

describe('I-Match with a secondary lexicon', () => {
  beforeAll(initHashing);
  const config = imatchSchema.parse({ minLexiconShare: 0.5, minWords: 2, randomizedLexicons: 0 });

  it('hashes the document words that are in the primary lexicon, in any order', () => {
    const lex = toyLexicon();
    const a = sign(words(['mid1', 'mid2', 'mid3', 'common']), lex, config);
    const b = sign(words(['common', 'mid3', 'mid1', 'mid2']), lex, config);
    expect(a).toHaveLength(1);
    expect(a[0]!.hash).toMatch(/^[0-9a-f]{32}$/);
    expect(a[0]!.borrowed).toBe(0);
    expect(a).toEqual(b);
  });

  it('extends with the fewest secondary words in ascending-idf order', () => {
    const lex = toyLexicon();
    // 6 eligible words, 2 primary, need ceil(0.5 * 6) = 3: borrow one, the lowest-idf one (rare1).
    const sig = sign(['mid1', 'mid2', 'rare4', 'rare1', 'unknownword', 'common'], lex, config);
    expect(sig).toHaveLength(1);
    expect(sig[0]!.borrowed).toBe(1);
    expect(sig[0]!.words).toBe(3);
    const same = sign(words(['mid1', 'mid2', 'rare1', 'rare5', 'other', 'common']), lex, config);
    expect(same[0]!.hash).toBe(sig[0]!.hash);
  });

  it('is NULL when the secondary lexicon cannot fill the gap', () => {
    const lex = toyLexicon();
    expect(sign(words(['mid1', 'aaa1', 'aaa2', 'aaa3', 'aaa4', 'rare2']), lex, config)).toEqual([]);
  });

  it('is NULL below minWords', () => {
    const lex = toyLexicon();
    expect(sign(words(['mid1']), lex, config)).toEqual([]);
  });

  it('puts the lexicon version into the signature', () => {
    const doc = ['mid1', 'mid2', 'mid3'];
    const a = sign(doc, toyLexicon('en-toy-00000001'), config);
    const b = sign(doc, toyLexicon('en-toy-00000002'), config);
    expect(a[0]!.hash).not.toBe(b[0]!.hash);
  });

  it('adds K randomized-lexicon signatures that survive an edit the primary one does not', () => {
    const lex = toyLexicon();
    const k = imatchSchema.parse({
      minLexiconShare: 0.1,
      minWords: 2,
      randomizedLexicons: 4,
      randomizedDrop: 0.4,
    });
    const all = ['mid0', 'mid1', 'mid2', 'mid3', 'mid4', 'mid5', 'mid6', 'mid7', 'mid8', 'mid9'];
    const base = sign(words(all), lex, k);
    expect(base.length).toBe(5);
    expect(new Set(base.map((s) => s.hash)).size).toBe(5);
    // Remove each word in turn: the primary signature always changes; some randomized lexicon
    // that had dropped that word keeps its signature.
    let survived = 0;
    for (const removed of all) {
      const edited = sign(
        all.filter((w) => w !== removed),
        lex,
        k,
      );
      const hashes = new Set(edited.map((s) => s.hash));
      expect(hashes.has(base[0]!.hash)).toBe(false);
      if (base.slice(1).some((s) => hashes.has(s.hash))) survived++;
    }
    expect(survived).toBeGreaterThan(5);
  });
});
