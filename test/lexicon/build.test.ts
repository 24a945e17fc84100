import { describe, expect, it } from 'vitest';
import { canonicalSchema } from '../../src/config/signatures.js';
import { DoppelError } from '../../src/errors.js';
import {
  buildLexicon,
  buildLexiconWithStats,
  LexiconBuilder,
  lexiconFromFrequencies,
  lexiconFromFrequenciesWithStats,
  roundIdf,
  serializeLexicon,
  summarizeLexicon,
} from '../../src/lexicon/build.js';
import { lexiconFileSchema } from '../../src/lexicon/file-schema.js';
import { Lexicon } from '../../src/lexicon/lexicon.js';

// df over N = 4 documents: apple 4, banana 3, cherry 2, date/elder/fig/grape 1. Stop words
// ("the", "and"), numbers and repeats within a document must not count.
const TOY = [
  { text: 'Apple banana cherry. The apple and the banana!' },
  { text: 'apple BANANA date 2024' },
  { text: 'apple, elder and fig' },
  { text: 'The apple; banana — cherry grape 42' },
];

const idf = (n: number, df: number) => roundIdf(Math.log(n / df));

describe('buildLexicon', () => {
  it('computes df, N and idf = ln(N / df) over unique non-stop words with a letter', () => {
    const file = buildLexicon(TOY, { lang: 'en', name: 'toy', minDf: 1 });
    expect(file.documents).toBe(4);
    expect(file.words).toEqual([
      ['apple', 0],
      ['banana', idf(4, 3)],
      ['cherry', idf(4, 2)],
      ['date', idf(4, 1)],
      ['elder', idf(4, 1)],
      ['fig', idf(4, 1)],
      ['grape', idf(4, 1)],
    ]);
    expect(file.words.find(([w]) => w === 'the' || w === 'and' || w === '2024')).toBeUndefined();
    // Add-one smoothing for an unseen word: ln((N + 1) / 1).
    expect(file.unknownIdf).toBe(roundIdf(Math.log(5)));
    expect(lexiconFileSchema.safeParse(file).success).toBe(true);
  });

  it('averages the length of every word token, stop words included', () => {
    const file = buildLexicon([{ text: 'the cat sat and 123 slept' }], { lang: 'en', minDf: 1 });
    // the(3) cat(3) sat(3) and(3) slept(5); "123" has no letter.
    expect(file.averageWordLength).toBe(3.4);
  });

  it('chooses the bounds by df mass: the frequent 15% below L, the rare 25% above', () => {
    // Eligible mass 13: apple 4 | banana 3, cherry 2 | four hapax words 4.
    const file = buildLexicon(TOY, { lang: 'en', minDf: 1 });
    expect(file.primary).toEqual({ idfLo: idf(4, 3), idfHi: idf(4, 2), minWordLength: 3, maxWordLength: 25 });
    expect(summarizeLexicon(file)).toEqual({ words: 7, primary: 2, secondary: 4 });
    const lexicon = new Lexicon(file);
    expect(['apple', 'banana', 'cherry', 'date'].map((w) => lexicon.isPrimary(w))).toEqual([
      false,
      true,
      true,
      false,
    ]);
  });

  it('sets the bounds before pruning by minDf, so pruned rare words still count as documents', () => {
    const pruned = buildLexicon(TOY, { lang: 'en' });
    expect(pruned.words.map(([w]) => w)).toEqual(['apple', 'banana', 'cherry']);
    expect(pruned.primary).toEqual(buildLexicon(TOY, { lang: 'en', minDf: 1 }).primary);
    expect(summarizeLexicon(pruned)).toEqual({ words: 3, primary: 2, secondary: 0 });
  });

  it('takes explicit bounds, mass shares and word lengths', () => {
    const file = buildLexicon(TOY, {
      lang: 'en',
      minDf: 1,
      idfLo: 0,
      idfHi: 1,
      minWordLength: 4,
      maxWordLength: 5,
    });
    expect(file.primary).toEqual({ idfLo: 0, idfHi: 1, minWordLength: 4, maxWordLength: 5 });
    // Eligible by length: apple, date, elder, grape (banana and cherry are 6 letters, fig 3).
    expect(summarizeLexicon(file)).toEqual({ words: 7, primary: 1, secondary: 3 });
    const wide = buildLexicon(TOY, { lang: 'en', minDf: 1, loMass: 0, hiMass: 1 });
    expect(wide.primary.idfLo).toBe(0);
    expect(wide.primary.idfHi).toBe(idf(4, 1));
  });

  it('caps the table at maxWords, keeping the lowest idf', () => {
    const file = buildLexicon(TOY, { lang: 'en', minDf: 1, maxWords: 2 });
    expect(file.words.map(([w]) => w)).toEqual(['apple', 'banana']);
  });

  it('orders by idf, then by plain code-unit order (not the locale)', () => {
    const file = buildLexicon([{ text: 'zeta Alpha émile beta' }, { text: 'zeta' }], {
      lang: 'en',
      minDf: 1,
    });
    expect(file.words.map(([w]) => w)).toEqual(['zeta', 'alpha', 'beta', 'émile']);
  });

  it('is deterministic: the same input gives the same file and version', () => {
    const a = buildLexicon(TOY, { lang: 'en', name: 'toy', minDf: 1 });
    const b = buildLexicon(
      TOY.map((d) => ({ ...d })),
      { lang: 'en', name: 'toy', minDf: 1 },
    );
    expect(serializeLexicon(b)).toBe(serializeLexicon(a));
    expect(a.version).toMatch(/^en-toy-[0-9a-f]{8}$/);
  });

  it('gives another version when words, idfs or bounds change, but not for document order', () => {
    const base = buildLexicon(TOY, { lang: 'en', name: 'toy', minDf: 1 }).version;
    const reordered = buildLexicon([...TOY].reverse(), { lang: 'en', name: 'toy', minDf: 1 }).version;
    expect(reordered).toBe(base);
    const moreDocs = buildLexicon([...TOY, { text: 'cherry' }], {
      lang: 'en',
      name: 'toy',
      minDf: 1,
    }).version;
    const otherBounds = buildLexicon(TOY, { lang: 'en', name: 'toy', minDf: 1, idfHi: 2 }).version;
    const otherLength = buildLexicon(TOY, { lang: 'en', name: 'toy', minDf: 1, minWordLength: 4 }).version;
    expect(new Set([base, moreDocs, otherBounds, otherLength]).size).toBe(4);
  });

  it('reduces the source name to the version alphabet', () => {
    const file = buildLexicon(TOY, { lang: 'en', name: 'My Feed_2024/v2', minDf: 1 });
    expect(file.version).toMatch(/^en-my\.feed\.2024\.v2-[0-9a-f]{8}$/);
    expect(() => buildLexicon(TOY, { lang: 'en', name: '---' })).toThrow(/name/);
  });

  it('skips and counts documents without words and documents of another language', () => {
    const { file, stats } = buildLexiconWithStats(
      [
        ...TOY,
        { text: '' },
        { text: '!!! --- ...' },
        { text: 'яблоко', lang: 'ru' },
        { text: 'apple', lang: 'en-GB' },
      ],
      { lang: 'en', minDf: 1 },
    );
    expect(stats).toMatchObject({ documents: 5, emptyDocuments: 2, otherLanguage: 1, vocabulary: 7 });
    expect(file.documents).toBe(5);
  });

  it('adds the title only when the canonical config includes it', () => {
    const docs = [{ text: 'apple', title: 'Orchard news' }, { text: 'apple' }];
    expect(buildLexicon(docs, { lang: 'en', minDf: 1 }).words.map(([w]) => w)).toEqual(['apple']);
    const canonical = canonicalSchema.parse({ includeTitle: true });
    const titled = buildLexicon(docs, { lang: 'en', minDf: 1, canonical });
    expect(titled.words.map(([w]) => w)).toEqual(['apple', 'news', 'orchard']);
  });

  it('streams through LexiconBuilder with the same result', () => {
    const builder = new LexiconBuilder({ lang: 'en', name: 'toy', minDf: 1 });
    for (const doc of TOY) builder.add(doc);
    expect(builder.finish().file).toEqual(buildLexicon(TOY, { lang: 'en', name: 'toy', minDf: 1 }));
  });

  it('rejects an empty corpus and inconsistent options', () => {
    expect(() => buildLexicon([{ text: '...' }], { lang: 'en' })).toThrow(DoppelError);
    expect(() => buildLexicon(TOY, { lang: 'en', idfLo: 3, idfHi: 1 })).toThrow(/idfLo <= idfHi/);
    expect(() => buildLexicon(TOY, { lang: 'de' as 'en' })).toThrow(/lang/);
  });

  it('serializes one word per line as valid JSON that round-trips', () => {
    const file = buildLexicon(TOY, { lang: 'en', minDf: 1 });
    const text = serializeLexicon(file);
    expect(JSON.parse(text)).toEqual(file);
    expect(text).toContain('\n  ["banana",');
  });
});

describe('lexiconFromFrequencies', () => {
  const poissonIdf = (p: number, tokens = 300) => roundIdf(-Math.log(1 - Math.exp(-p * tokens)));

  it('turns a token probability into idf = -ln(1 - exp(-p * Ld))', () => {
    const file = lexiconFromFrequencies(
      [
        ['город', 1e-3],
        ['завод', 1e-4],
        ['трактор', 1e-5],
      ],
      { lang: 'ru', name: 'test' },
    );
    expect(file.words).toEqual([
      ['город', poissonIdf(1e-3)],
      ['завод', poissonIdf(1e-4)],
      ['трактор', poissonIdf(1e-5)],
    ]);
    expect(file.documents).toBe(1_000_000);
    // Unlisted words: the largest listed idf + ln 2 (half the smallest frequency).
    expect(file.unknownIdf).toBeCloseTo(poissonIdf(1e-5) + Math.LN2, 3);
    expect(lexiconFileSchema.safeParse(file).success).toBe(true);
    const longer = lexiconFromFrequencies([['завод', 1e-4]], { lang: 'ru', documentTokens: 1000 });
    expect(longer.words[0]?.[1]).toBe(poissonIdf(1e-4, 1000));
  });

  it('caps idf at ln N for the notional collection', () => {
    const file = lexiconFromFrequencies([['редкость', 1e-12]], { lang: 'ru', documents: 1000 });
    expect(file.words[0]?.[1]).toBe(roundIdf(Math.log(1000)));
  });

  it('merges entries that normalize to one token: ё/е and case', () => {
    const { file, stats } = lexiconFromFrequenciesWithStats(
      [
        ['ёлка', 2e-5],
        ['елка', 1e-5],
        ['Ёлка', 1e-5],
      ],
      { lang: 'ru' },
    );
    expect(file.words).toEqual([['елка', poissonIdf(4e-5)]]);
    expect(stats.merged).toBe(2);
  });

  it('merges Persian and Arabic forms of yeh and kaf', () => {
    const file = lexiconFromFrequencies(
      [
        ['كتاب', 1e-4],
        ['کتاب', 2e-4],
        ['زندگي', 1e-5],
        ['زندگی', 1e-5],
      ],
      { lang: 'fa' },
    );
    expect(file.words).toEqual([
      ['کتاب', poissonIdf(3e-4)],
      ['زندگی', poissonIdf(2e-5)],
    ]);
  });

  it('drops stop words, phrases, tokens without a letter and unusable frequencies', () => {
    const { file, stats } = lexiconFromFrequenciesWithStats(
      [
        ['и', 0.03],
        ['new york', 1e-5],
        ['2024', 1e-4],
        ['...', 1e-4],
        ['ноль', 0],
        ['завод', 1e-4],
      ],
      { lang: 'ru' },
    );
    expect(file.words.map(([w]) => w)).toEqual(['завод']);
    expect(stats).toMatchObject({ entries: 6, stopWords: 1, notOneWord: 4, merged: 0 });
  });

  it('is deterministic and versioned by content', () => {
    const entries: [string, number][] = [
      ['город', 1e-3],
      ['завод', 1e-4],
    ];
    const a = lexiconFromFrequencies(entries, { lang: 'ru', name: 'wordfreq-3.1.1' });
    const b = lexiconFromFrequencies([...entries].reverse(), { lang: 'ru', name: 'wordfreq-3.1.1' });
    expect(serializeLexicon(b)).toBe(serializeLexicon(a));
    expect(a.version).toMatch(/^ru-wordfreq\.3\.1\.1-[0-9a-f]{8}$/);
    const c = lexiconFromFrequencies([...entries, ['трактор', 1e-5]], { lang: 'ru', name: 'wordfreq-3.1.1' });
    expect(c.version).not.toBe(a.version);
  });
});
