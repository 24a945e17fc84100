import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { DoppelError } from '../../src/errors.js';
import {
  LEXICON_FORMAT,
  Lexicon,
  type LexiconFile,
  LexiconSet,
  loadLexiconFile,
  parseLexicon,
} from '../../src/lexicon/lexicon.js';

function file(overrides: Partial<LexiconFile> = {}): LexiconFile {
  return {
    format: LEXICON_FORMAT,
    lang: 'en',
    version: 'en-test-0123abcd',
    createdFrom: 'hand-made',
    documents: 100,
    averageWordLength: 5,
    unknownIdf: 4.6151,
    primary: { idfLo: 1, idfHi: 3, minWordLength: 3, maxWordLength: 10 },
    words: [
      ['said', 0.2],
      ['market', 1],
      ['ox', 2],
      ['price', 2],
      ['tariff', 3],
      ['zinc', 3.2],
      ['yuan', 3.5],
      ['ab', 3.6],
      ['kazakhstanis', 3.7],
      ['aardvark', 4],
    ],
    ...overrides,
  };
}

function invalidLexiconCode(fn: () => unknown): string | undefined {
  try {
    fn();
  } catch (error) {
    return error instanceof DoppelError ? error.code : 'not a DoppelError';
  }
  return undefined;
}

describe('Lexicon', () => {
  const lexicon = new Lexicon(file());

  it('puts words with idf in [idfLo, idfHi] and an eligible length in L', () => {
    expect(lexicon.isPrimary('market')).toBe(true); // idf = idfLo
    expect(lexicon.isPrimary('price')).toBe(true);
    expect(lexicon.isPrimary('tariff')).toBe(true); // idf = idfHi
    expect(lexicon.isPrimary('said')).toBe(false); // too frequent
    expect(lexicon.isPrimary('zinc')).toBe(false); // rarer than L: in B
    expect(lexicon.isPrimary('ox')).toBe(false); // shorter than minWordLength
    expect(lexicon.isPrimary('unseen')).toBe(false);
  });

  it('ranks the secondary lexicon B by ascending idf, closest to L first', () => {
    expect(lexicon.secondaryRankOf('zinc')).toBe(0);
    expect(lexicon.secondaryRankOf('yuan')).toBe(1);
    expect(lexicon.secondaryRankOf('aardvark')).toBe(2);
    // Too short / too long for the lexicon, in L, below L, unknown: not in B.
    for (const word of ['ab', 'kazakhstanis', 'price', 'said', 'unseen'])
      expect(lexicon.secondaryRankOf(word)).toBe(-1);
  });

  it('gives unknown words unknownIdf and known words their own idf', () => {
    expect(lexicon.idf('price')).toBe(2);
    expect(lexicon.idf('said')).toBe(0.2);
    expect(lexicon.idf('never-seen')).toBe(4.6151);
    expect(lexicon.unknownIdf).toBe(4.6151);
    expect(lexicon.size).toBe(10);
  });

  it('knows exactly the words it holds', () => {
    expect(lexicon.has('tariff')).toBe(true);
    expect(lexicon.has('ab')).toBe(true);
    expect(lexicon.has('t4riff')).toBe(false);
    expect(lexicon.has('tariffs')).toBe(false);
  });

  it('takes the I-Match ratio over words of eligible length only', () => {
    expect(lexicon.isEligible('ox')).toBe(false);
    expect(lexicon.isEligible('ore')).toBe(true);
    expect(lexicon.isEligible('kazakhstanis')).toBe(false);
  });

  it('keeps version, language and document count', () => {
    expect([lexicon.version, lexicon.lang, lexicon.documents]).toEqual(['en-test-0123abcd', 'en', 100]);
  });
});

describe('parseLexicon', () => {
  it('accepts a valid file', () => {
    expect(parseLexicon(file(), 'ok.json').version).toBe('en-test-0123abcd');
  });

  const broken: Record<string, unknown> = {
    'another format': { ...file(), format: 'doppel-lexicon/2' },
    'a version without the hash': { ...file(), version: 'en-test' },
    'an upper-case version': { ...file(), version: 'EN-test-0123abcd' },
    'a missing field': (({ unknownIdf: _, ...rest }) => rest)(file()),
    'an unknown field': { ...file(), extra: 1 },
    'a negative idf': file({ words: [['price', -1]] }),
    'an empty word': file({ words: [['', 1]] }),
    'a non-positive unknownIdf': file({ unknownIdf: 0 }),
    'zero documents': file({ documents: 0 }),
    'an extra primary field': { ...file(), primary: { ...file().primary, seed: 1 } },
    'not an object': 'lexicon',
    null: null,
  };
  for (const [what, json] of Object.entries(broken)) {
    it(`rejects ${what} with INVALID_LEXICON`, () => {
      expect(invalidLexiconCode(() => parseLexicon(json, 'bad.json'))).toBe('INVALID_LEXICON');
    });
  }

  it('names the source and the failing field', () => {
    expect(() => parseLexicon({ ...file(), version: 'x' }, 'my.json')).toThrow(/my\.json: version/);
  });
});

describe('loadLexiconFile and LexiconSet', () => {
  const dir = mkdtempSync(join(tmpdir(), 'doppel-lexicon-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('loads a file and reports unreadable or malformed files as INVALID_LEXICON', () => {
    const good = join(dir, 'en.json');
    writeFileSync(good, JSON.stringify(file()));
    expect(loadLexiconFile(good).version).toBe('en-test-0123abcd');
    const malformed = join(dir, 'bad.json');
    writeFileSync(malformed, '{"format": ');
    expect(invalidLexiconCode(() => loadLexiconFile(malformed))).toBe('INVALID_LEXICON');
    expect(invalidLexiconCode(() => loadLexiconFile(join(dir, 'missing.json')))).toBe('INVALID_LEXICON');
  });

  it('loads each language once and has no lexicon for languages without a file', () => {
    const path = join(dir, 'en-set.json');
    writeFileSync(path, JSON.stringify(file()));
    const set = LexiconSet.fromFiles({ en: path });
    const first = set.get('en');
    expect(first?.version).toBe('en-test-0123abcd');
    expect(set.get('en')).toBe(first);
    expect(set.get('ru')).toBeNull();
    expect(set.get('und')).toBeNull();
  });
});
