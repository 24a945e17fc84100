import { readFileSync, statSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { canonicalSchema, imatchSchema } from '../../src/config/signatures.js';
import { summarizeLexicon } from '../../src/lexicon/build.js';
import { lexiconFileSchema } from '../../src/lexicon/file-schema.js';
import { defaultLexiconPath, Lexicon, type LexiconFile, LexiconSet } from '../../src/lexicon/lexicon.js';
import { canonicalize, stopMask } from '../../src/text/canonical.js';
import { LANGUAGES, type SupportedLanguage } from '../../src/text/language.js';
import { stopWords } from '../../src/text/stopwords.js';
import { hasLetter } from '../../src/text/tokenize.js';
import { readSharedJsonl, warnIfNoSharedData } from '../support/shared-data.js';

/** The shipped lexicons (data/lexicons/README.md): wordfreq 3.1.1, at most 40,000 words each. */
const MAX_FILE_BYTES = 1.5 * 1024 * 1024;

function shipped(lang: SupportedLanguage): LexiconFile {
  return lexiconFileSchema.parse(JSON.parse(readFileSync(defaultLexiconPath(lang), 'utf8')));
}

describe.each(LANGUAGES)('shipped lexicon %s', (lang) => {
  const file = shipped(lang);
  const summary = summarizeLexicon(file);

  it('passes the schema, is built from wordfreq and stays small', () => {
    expect(file.lang).toBe(lang);
    expect(file.version).toMatch(new RegExp(`^${lang}-wordfreq\\.3\\.1\\.1-[0-9a-f]{8}$`));
    expect(statSync(defaultLexiconPath(lang)).size).toBeLessThan(MAX_FILE_BYTES);
    expect(file.words.length).toBeLessThanOrEqual(40_000);
  });

  it('has a primary lexicon L and a secondary lexicon B of sensible size', () => {
    expect(summary.primary).toBeGreaterThan(2_000);
    expect(summary.primary).toBeLessThan(20_000);
    expect(summary.secondary).toBeGreaterThan(10_000);
    expect(file.primary.idfLo).toBeGreaterThan(1);
    expect(file.primary.idfLo).toBeLessThan(file.primary.idfHi);
    expect(file.primary.minWordLength).toBe(3);
    // Unseen words count as rarer than any word in the table.
    expect(file.unknownIdf).toBeGreaterThan(file.words[file.words.length - 1]?.[1] ?? 0);
  });

  it('is sorted by idf, then word, without duplicates or stop words', () => {
    const stops = stopWords(lang);
    const seen = new Set<string>();
    const problems: string[] = [];
    let previous: [string, number] | undefined;
    // One expect at the end: 40,000 expect calls per file would dominate the suite's time.
    for (const row of file.words) {
      const [word, idf] = row;
      if (previous && !(previous[1] < idf || (previous[1] === idf && previous[0] < word))) {
        problems.push(`out of order: ${previous[0]} before ${word}`);
      }
      if (seen.has(word)) problems.push(`duplicate: ${word}`);
      if (stops.has(word)) problems.push(`stop word: ${word}`);
      if (!hasLetter(word)) problems.push(`no letter: ${word}`);
      seen.add(word);
      previous = row;
    }
    expect(problems.slice(0, 10)).toEqual([]);
  });

  it('is what LexiconSet.defaults() loads', () => {
    expect(LexiconSet.defaults().get(lang)?.version).toBe(file.version);
  });
});

describe('shipped lexicons place everyday news words sensibly', () => {
  const cases: Record<SupportedLanguage, { inL: string[]; belowL: string[] }> = {
    ru: { inL: ['правительство', 'министр', 'нефть', 'закон', 'суд'], belowL: ['россии', 'год'] },
    uk: { inL: ['уряд', 'міністр', 'закон'], belowL: ['україни'] },
    en: { inL: ['government', 'minister', 'oil', 'court'], belowL: ['year', 'people'] },
    fa: { inL: ['وزیر', 'نفت', 'دادگاه', 'مجلس'], belowL: ['ایران'] },
  };
  for (const lang of LANGUAGES) {
    it(lang, () => {
      const lexicon = new Lexicon(shipped(lang));
      for (const word of cases[lang].inL) expect([word, lexicon.isPrimary(word)]).toEqual([word, true]);
      for (const word of cases[lang].belowL) {
        expect([word, lexicon.idf(word) < lexicon.primary.idfLo]).toEqual([word, true]);
      }
    });
  }
});

interface Coverage {
  documents: number;
  /** Per document: share of its unique eligible content words that are in L. */
  shares: number[];
  /** Share of eligible (document, word) pairs not in the table at all. */
  unknown: number;
  /** Documents that would get no I-Match signature even with B (seed 001 rule, default config). */
  nullRate: number;
}

function coverage(lang: SupportedLanguage, texts: string[]): Coverage {
  const lexicon = new Lexicon(shipped(lang));
  const config = canonicalSchema.parse({});
  const imatch = imatchSchema.parse({});
  const shares: number[] = [];
  let pairs = 0;
  let unknown = 0;
  let nulls = 0;
  for (const text of texts) {
    const doc = canonicalize({ text, kind: 'text' }, config, lang);
    const mask = stopMask(doc);
    const words = new Set<string>();
    doc.words.forEach((word, i) => {
      if (mask[i] === 0 && hasLetter(word) && lexicon.isEligible(word)) words.add(word);
    });
    if (words.size === 0) continue;
    let primary = 0;
    let secondary = 0;
    for (const word of words) {
      if (lexicon.isPrimary(word)) primary++;
      else if (lexicon.secondaryRankOf(word) >= 0) secondary++;
      if (lexicon.idf(word) === lexicon.unknownIdf) unknown++;
      pairs++;
    }
    shares.push(primary / words.size);
    const required = Math.ceil(imatch.minLexiconShare * words.size);
    if (primary + secondary < required || Math.max(primary, required) < imatch.minWords) nulls++;
  }
  shares.sort((a, b) => a - b);
  return { documents: shares.length, shares, unknown: unknown / pairs, nullRate: nulls / shares.length };
}

const quantile = (sorted: number[], q: number) => sorted[Math.floor(q * (sorted.length - 1))] ?? 0;

describe.skipIf(!warnIfNoSharedData())('shipped lexicons on real articles (evaluation corpus)', () => {
  const sets: [SupportedLanguage, string][] = [
    ['ru', 'news-ru.jsonl'],
    ['en', 'news-en.jsonl'],
    ['fa', 'news-fa.jsonl'],
  ];
  for (const [lang, dataFile] of sets) {
    it(`${lang}: most articles have a good share of their words in L`, () => {
      const texts = readSharedJsonl(dataFile).map((a) => a.text);
      const c = coverage(lang, texts);
      const below = c.shares.filter((s) => s < imatchSchema.parse({}).minLexiconShare).length;
      console.log(
        `[lexicon ${lang}] ${dataFile}: ${c.documents} docs, L share p10 ${quantile(c.shares, 0.1).toFixed(2)}` +
          ` p50 ${quantile(c.shares, 0.5).toFixed(2)} p90 ${quantile(c.shares, 0.9).toFixed(2)},` +
          ` ${below} below the I-Match threshold, ${(c.unknown * 100).toFixed(1)}% unknown words,` +
          ` I-Match NULL even with B ${(c.nullRate * 100).toFixed(1)}%`,
      );
      expect(c.documents).toBeGreaterThan(100);
      expect(quantile(c.shares, 0.5)).toBeGreaterThan(0.4);
      expect(quantile(c.shares, 0.5)).toBeLessThan(0.8);
      expect(below / c.documents).toBeLessThan(0.05);
      expect(c.unknown).toBeLessThan(0.25);
      expect(c.nullRate).toBeLessThan(0.05);
    });
  }
});
