import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { PassThrough, Readable } from 'node:stream';
import { afterAll, describe, expect, it } from 'vitest';
import { type CommandIo, lexiconCommand } from '../../src/cli/lexicon.js';
import { roundIdf } from '../../src/lexicon/build.js';
import { lexiconFileSchema } from '../../src/lexicon/file-schema.js';
import { Lexicon } from '../../src/lexicon/lexicon.js';
import { SHARED_DATA_DIR, warnIfNoSharedData } from '../support/shared-data.js';

interface Run {
  code: number;
  stdout: string;
  stderr: string;
}

async function run(argv: string[], stdin: string[] = []): Promise<Run> {
  const stdout = new PassThrough();
  const stderr = new PassThrough();
  const out: string[] = [];
  const err: string[] = [];
  stdout.on('data', (chunk: Buffer) => out.push(chunk.toString('utf8')));
  stderr.on('data', (chunk: Buffer) => err.push(chunk.toString('utf8')));
  const io: CommandIo = { stdout, stderr, stdin: Readable.from(stdin) };
  const code = await lexiconCommand(argv, io);
  return { code, stdout: out.join(''), stderr: err.join('') };
}

const dir = mkdtempSync(join(tmpdir(), 'doppel-cli-lexicon-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const CORPUS = [
  { id: '1', lang: 'en', text: 'Apple banana cherry. The apple and the banana!' },
  { id: '2', text: 'apple BANANA date', title: 'Fruit' },
  { id: '3', lang: 'en-US', text: 'apple, elder and fig' },
  { id: '4', lang: 'en', text: 'The apple; banana, cherry grape' },
  { id: '5', lang: 'ru', text: 'яблоко банан вишня' },
  { id: '6', lang: 'en', text: '... !!!' },
];

function writeCorpus(name: string, extraLines: string[] = []): string {
  const path = join(dir, name);
  writeFileSync(path, [...CORPUS.map((d) => JSON.stringify(d)), ...extraLines].join('\n') + '\n');
  return path;
}

describe('doppel lexicon build', () => {
  it('builds a valid lexicon from JSON Lines, skipping and reporting bad lines', async () => {
    const input = writeCorpus('corpus.jsonl', [
      '{"id": "7", "text": ',
      '["not", "an", "object"]',
      '{"id": "8"}',
      '',
      '{"id": "9", "text": "apple", "title": null, "lang": null}',
    ]);
    const out = join(dir, 'en.json');
    const result = await run([
      'build',
      '--input',
      input,
      '--lang',
      'en',
      '--output',
      out,
      '--name',
      'toy',
      '--min-df',
      '1',
    ]);
    expect(result.code).toBe(0);
    expect(result.stderr).toContain(`${input}:7: skipped: not valid JSON`);
    expect(result.stderr).toContain(`${input}:8: skipped: not a JSON object`);
    expect(result.stderr).toContain(`${input}:9: skipped: no "text" string`);
    expect(result.stderr).toMatch(/skipped: 1 of another language, 1 without words, 3 bad lines/);
    const file = lexiconFileSchema.parse(JSON.parse(readFileSync(out, 'utf8')));
    expect(file.documents).toBe(5);
    expect(file.version).toMatch(/^en-toy-[0-9a-f]{8}$/);
    expect(file.words.map(([w]) => w)).toEqual([
      'apple',
      'banana',
      'cherry',
      'date',
      'elder',
      'fig',
      'grape',
    ]);
  });

  it('prunes with the default --min-df 2 and honours explicit bounds', async () => {
    const input = writeCorpus('corpus2.jsonl');
    const out = join(dir, 'bounds.json');
    const result = await run([
      'build',
      '-i',
      input,
      '--lang',
      'en',
      '-o',
      out,
      '--idf-lo',
      '0.1',
      '--idf-hi',
      '0.5',
    ]);
    expect(result.code).toBe(0);
    const file = lexiconFileSchema.parse(JSON.parse(readFileSync(out, 'utf8')));
    expect(file.words.map(([w]) => w)).toEqual(['apple', 'banana', 'cherry']);
    expect(file.primary).toMatchObject({ idfLo: 0.1, idfHi: 0.5 });
    expect(new Lexicon(file).isPrimary('banana')).toBe(true);
  });

  it('reads standard input for "-" and writes standard output for "-"', async () => {
    const lines = CORPUS.map((d) => `${JSON.stringify(d)}\n`);
    const result = await run(['build', '--lang', 'en', '--output', '-', '--min-df', '1'], lines);
    expect(result.code).toBe(0);
    expect(lexiconFileSchema.parse(JSON.parse(result.stdout)).documents).toBe(4);
  });

  it('gives the same file for the same input', async () => {
    const input = writeCorpus('corpus3.jsonl');
    const a = join(dir, 'a.json');
    const b = join(dir, 'b.json');
    expect((await run(['build', '-i', input, '--lang', 'en', '-o', a])).code).toBe(0);
    expect((await run(['build', '-i', input, '--lang', 'en', '-o', b])).code).toBe(0);
    expect(readFileSync(b, 'utf8')).toBe(readFileSync(a, 'utf8'));
  });

  it('fails with exit code 1 when no document is usable or the input is missing', async () => {
    const empty = join(dir, 'empty.jsonl');
    writeFileSync(empty, '{"id": "1", "text": "..."}\n');
    const noDocs = await run(['build', '-i', empty, '--lang', 'en', '-o', join(dir, 'x.json')]);
    expect(noDocs.code).toBe(1);
    expect(noDocs.stderr).toContain('EMPTY_TEXT');
    const missing = await run([
      'build',
      '-i',
      join(dir, 'missing.jsonl'),
      '--lang',
      'en',
      '-o',
      join(dir, 'y.json'),
    ]);
    expect(missing.code).toBe(1);
    expect(missing.stderr).toContain('IO');
  });
});

describe('doppel lexicon import-frequencies', () => {
  it('imports a TSV word list, merging normalized forms and reporting bad lines', async () => {
    const input = join(dir, 'freq.tsv');
    writeFileSync(
      input,
      [
        '# word\tfrequency',
        'город\t1e-3',
        'ёлка\t2e-5',
        'елка\t1e-5',
        'и\t0.03',
        'no tab here',
        'завод\tlots',
        '',
      ].join('\n'),
    );
    const out = join(dir, 'ru.json');
    const result = await run([
      'import-frequencies',
      '--input',
      input,
      '--lang',
      'ru',
      '--output',
      out,
      '--name',
      'test',
    ]);
    expect(result.code).toBe(0);
    expect(result.stderr).toContain(`${input}:6: skipped`);
    expect(result.stderr).toMatch(/1 stop words, 1 merged by normalization, 2 bad lines/);
    const file = lexiconFileSchema.parse(JSON.parse(readFileSync(out, 'utf8')));
    expect(file.words.map(([w]) => w)).toEqual(['город', 'елка']);
    expect(file.version).toMatch(/^ru-test-[0-9a-f]{8}$/);
  });
});

describe('doppel lexicon info', () => {
  it('prints version, language, sizes of L and B and the bounds', async () => {
    const input = writeCorpus('corpus4.jsonl');
    const out = join(dir, 'info.json');
    expect((await run(['build', '-i', input, '--lang', 'en', '-o', out, '--min-df', '1'])).code).toBe(0);
    const text = await run(['info', out]);
    expect(text.code).toBe(0);
    expect(text.stdout).toMatch(/^version\s+en-corpus-[0-9a-f]{8}$/m);
    expect(text.stdout).toMatch(/^lang\s+en$/m);
    expect(text.stdout).toMatch(/^primary \(L\)\s+2 words, idf 0\.2877\.\.0\.6931, length 3\.\.25$/m);
    expect(text.stdout).toMatch(/^secondary \(B\)\s+4 words/m);
    const json = JSON.parse((await run(['info', out, '--json'])).stdout);
    expect(json).toMatchObject({
      lang: 'en',
      words: 7,
      primary: 2,
      secondary: 4,
      idfLo: 0.2877,
      idfHi: roundIdf(Math.LN2),
    });
  });

  it('fails with exit code 1 on an invalid lexicon file', async () => {
    const bad = join(dir, 'bad.json');
    writeFileSync(bad, '{"format": "doppel-lexicon/1"}');
    const result = await run(['info', bad]);
    expect(result.code).toBe(1);
    expect(result.stderr).toContain('INVALID_LEXICON');
  });
});

describe('--output and its deprecated spelling --out', () => {
  const lines = CORPUS.map((d) => `${JSON.stringify(d)}\n`);
  const build = (...flags: string[]) => run(['build', '--lang', 'en', '--min-df', '1', ...flags], lines);

  it('--output, -o and --out write the same lexicon; only --out warns', async () => {
    const written: string[] = [];
    for (const [flag, name] of [
      ['--output', 'long.json'],
      ['-o', 'short.json'],
      ['--out', 'old.json'],
    ] as const) {
      const path = join(dir, name);
      const result = await build(flag, path);
      expect(result.code, flag).toBe(0);
      expect(result.stderr.includes('--out is deprecated, use --output'), flag).toBe(flag === '--out');
      written.push(readFileSync(path, 'utf8'));
    }
    expect(written[0]).toContain('"version"');
    expect(new Set(written).size).toBe(1);
  });

  it('--out and --output naming different files is a usage error; the same file is fine', async () => {
    const a = join(dir, 'alias-a.json');
    const conflict = await build('--output', a, '--out', join(dir, 'alias-b.json'));
    expect(conflict.code).toBe(2);
    expect(conflict.stderr).toContain('use --output');
    expect((await build('--output', a, '--out', a)).code).toBe(0);
  });
});

describe('usage errors', () => {
  const cases: Record<string, string[]> = {
    'no command': [],
    'an unknown command': ['frobnicate'],
    'an unknown flag': ['build', '--lang', 'en', '--output', 'x.json', '--bogus'],
    'a missing --lang': ['build', '--output', 'x.json'],
    'an unsupported --lang': ['build', '--lang', 'de', '--output', 'x.json'],
    'a missing --output': ['import-frequencies', '--lang', 'ru'],
    'a non-integer --min-df': ['build', '--lang', 'en', '--output', 'x.json', '--min-df', '1.5'],
    'a non-numeric --idf-lo': ['build', '--lang', 'en', '--output', 'x.json', '--idf-lo', 'low'],
    '--idf-lo above --idf-hi': [
      'build',
      '--lang',
      'en',
      '--output',
      'x.json',
      '--idf-lo',
      '3',
      '--idf-hi',
      '1',
    ],
    'a --hi-mass above 1': ['import-frequencies', '--lang', 'en', '--output', 'x.json', '--hi-mass', '2'],
    'a stray argument': ['build', 'corpus.jsonl', '--lang', 'en', '--output', 'x.json'],
    'info without a file': ['info'],
  };
  for (const [what, argv] of Object.entries(cases)) {
    it(`exits with 2 and the usage on ${what}`, async () => {
      const result = await run(argv);
      expect(result.code).toBe(2);
      expect(result.stderr).toContain('usage: doppel lexicon');
    });
  }

  it('prints the usage on stdout with exit code 0 for --help', async () => {
    for (const argv of [['--help'], ['help'], ['build', '--help'], ['info', '-h']]) {
      const result = await run(argv);
      expect(result.code).toBe(0);
      expect(result.stdout).toContain('usage: doppel lexicon');
    }
  });
});

describe.skipIf(!warnIfNoSharedData())(
  'doppel lexicon build on real news (evaluation corpus, temp dir only)',
  () => {
    it('builds a Russian lexicon from news-ru.jsonl', async () => {
      const out = join(dir, 'news-ru.json');
      const input = resolve(SHARED_DATA_DIR, 'news-ru.jsonl');
      const result = await run(['build', '-i', input, '--lang', 'ru', '-o', out, '--name', 'news-ru']);
      expect(result.code).toBe(0);
      const info = JSON.parse((await run(['info', out, '--json'])).stdout);
      console.log(`[lexicon] built from news-ru.jsonl: ${JSON.stringify(info)}`);
      expect(info.documents).toBeGreaterThan(100);
      expect(info.primary).toBeGreaterThan(500);
      expect(info.version).toMatch(/^ru-news\.ru-[0-9a-f]{8}$/);
      // 151 documents: every word rarer than L is in one document, and --min-df 2 prunes them all.
      expect(info.secondary).toBe(0);
      expect(result.stderr).toContain('B is empty');
    });
  },
);
