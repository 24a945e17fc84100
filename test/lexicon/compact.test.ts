import { copyFileSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { decodeCompact, encodeCompact, sourceDigest } from '../../src/lexicon/compact.js';
import {
  defaultLexiconPath,
  LEXICON_FORMAT,
  Lexicon,
  type LexiconFile,
  loadLexiconFile,
  loadShippedLexicon,
} from '../../src/lexicon/lexicon.js';
import { WordTable } from '../../src/lexicon/word-table.js';

const dir = mkdtempSync(join(tmpdir(), 'doppel-compact-lexicon-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** What the signer asks of a lexicon, for every word of `words` and a few it does not hold. */
function answers(lexicon: Lexicon, words: readonly string[]) {
  return [...words, 'not-a-word-here', 'ё', ''].map((w) => [w, lexicon.describe(w), lexicon.idf(w)]);
}

function compactOf(jsonPath: string): { bin: string; json: Buffer } {
  const json = readFileSync(jsonPath);
  const lexicon = loadLexiconFile(jsonPath);
  const bin = join(dir, `${lexicon.lang}-${Math.random().toString(36).slice(2)}.bin`);
  writeFileSync(bin, encodeCompact({ ...lexicon.meta, source: sourceDigest(json) }, lexicon.words));
  return { bin, json };
}

describe('compact lexicons', () => {
  it('answer every word of a shipped lexicon as its JSON does, with the same metadata', () => {
    const path = defaultLexiconPath('uk');
    const parsed = JSON.parse(readFileSync(path, 'utf8')) as LexiconFile;
    const fromJson = loadLexiconFile(path);
    const { bin } = compactOf(path);
    const compact = loadShippedLexicon(path, bin);
    const words = parsed.words.map(([w]) => w);
    expect(compact.size).toBe(fromJson.size);
    expect(compact.meta).toEqual(fromJson.meta);
    expect(compact.version).toBe(fromJson.version);
    expect(answers(compact, words)).toEqual(answers(fromJson, words));
  });

  it('are deterministic: the same JSON gives the same bytes', () => {
    const path = defaultLexiconPath('fa');
    expect(readFileSync(compactOf(path).bin)).toEqual(readFileSync(compactOf(path).bin));
  });

  it('are not used once their JSON has changed, nor when damaged: the JSON is read', () => {
    const source = defaultLexiconPath('en');
    const json = join(dir, 'en.json');
    copyFileSync(source, json);
    const { bin } = compactOf(json);
    const edited = JSON.parse(readFileSync(json, 'utf8')) as LexiconFile;
    const [word] = edited.words[0] as [string, number];
    edited.words[0] = [word, 0.123];
    writeFileSync(json, JSON.stringify(edited));
    expect(loadShippedLexicon(json, bin).idf(word)).toBe(0.123);

    const damaged = join(dir, 'damaged.bin');
    writeFileSync(damaged, readFileSync(bin).subarray(0, 1000));
    expect(decodeCompact(readFileSync(damaged))).toBeNull();
    expect(loadShippedLexicon(json, damaged).idf(word)).toBe(0.123);
    expect(loadShippedLexicon(json, join(dir, 'missing.bin')).idf(word)).toBe(0.123);
  });
});

describe('WordTable', () => {
  it('ranks secondary words in list order and keeps a repeated word in its first place', () => {
    const table = WordTable.fromWords(
      [
        ['common', 0.5],
        ['rare', 4],
        ['rarer', 5],
        ['rare', 4.5],
      ],
      { idfHi: 3, minWordLength: 3, maxWordLength: 10 },
    );
    expect(table.size).toBe(3);
    expect(table.find('rare')).toBe(1);
    expect(table.idf[1]).toBe(4.5);
    // As a Map's set would: the repeat takes the count of B words so far.
    expect([...table.rank]).toEqual([-1, 2, 1]);
    expect(table.find('rar')).toBe(-1);
  });

  it('is what a Lexicon built from a file answers with', () => {
    const file: LexiconFile = {
      format: LEXICON_FORMAT,
      lang: 'en',
      version: 'en-test-0123abcd',
      createdFrom: 'hand-made',
      documents: 10,
      averageWordLength: 5,
      unknownIdf: 4,
      primary: { idfLo: 1, idfHi: 3, minWordLength: 3, maxWordLength: 10 },
      words: [
        ['market', 1],
        ['zinc', 3.2],
        ['yuan', 3.5],
      ],
    };
    const lexicon = new Lexicon(file);
    expect(lexicon.secondaryRankOf('zinc')).toBe(0);
    expect(lexicon.secondaryRankOf('yuan')).toBe(1);
    expect(lexicon.isPrimary('market')).toBe(true);
    expect(lexicon.idf('absent')).toBe(4);
  });
});
