import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { jsonLines, REPO_ROOT, runCli } from '../support/cli.js';

const fixtures = resolve(REPO_ROOT, 'test/fixtures/articles.jsonl');

describe('doppel generate + doppel eval + doppel explain (own fixtures)', () => {
  it('generates a reproducible labelled benchmark and evaluates the engine on it', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'doppel-eval-'));
    const labelled = join(dir, 'labelled.jsonl');
    const first = await runCli([
      'generate',
      '--seed',
      '3',
      '--variants',
      '6',
      '--output',
      labelled,
      fixtures,
    ]);
    expect(first.code).toBe(0);
    const again = await runCli(['generate', '--seed', '3', '--variants', '6', fixtures]);
    const lines = jsonLines(again.stdout);
    expect(lines.length).toBeGreaterThan(20);
    expect(new Set(lines.map((l) => l.cluster)).size).toBeGreaterThanOrEqual(4);

    const result = await runCli(['eval', '--input', labelled, '--json']);
    expect(result.code).toBe(0);
    const report = JSON.parse(result.stdout) as {
      results: Array<{
        name: string;
        duplicates: { precision: number; recall: number };
        clusters: { ari: number };
      }>;
    };
    expect(report.results.map((r) => r.name)).toEqual([
      'combined',
      'minhash-lsh',
      'broder-mega',
      'simhash',
      'i-match',
      'exact',
    ]);
    const combined = report.results[0]!;
    expect(combined.duplicates.precision).toBe(1);
    expect(combined.duplicates.recall).toBeGreaterThan(0.9);
    const exact = report.results.find((r) => r.name === 'exact')!;
    expect(exact.duplicates.recall).toBeLessThan(combined.duplicates.recall);
  });

  it('prints a readable table without --json, and story-pair accuracy with --pairs', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'doppel-eval-'));
    const pairs = join(dir, 'pairs.jsonl');
    const bank =
      'The central bank raised its key interest rate by half a percentage point on Friday, saying inflation was still well above target, and analysts had expected a smaller move.';
    const bank2 =
      'Interest rates went up by half a point on Friday as the central bank fought inflation that stays well above its target; analysts had expected less.';
    const flood =
      'Heavy rain flooded roads across the northern region on Saturday, forcing the closure of two bridges and delaying trains for several hours.';
    writeFileSync(
      pairs,
      [
        JSON.stringify({ a: { text: bank, lang: 'en' }, b: { text: bank2, lang: 'en' }, sameStory: true }),
        JSON.stringify({ a: { text: bank, lang: 'en' }, b: { text: flood, lang: 'en' }, sameStory: false }),
      ].join('\n'),
    );
    const result = await runCli(['eval', '--pairs', pairs]);
    expect(result.code).toBe(0);
    expect(result.stdout).toMatch(/story pairs: 2 judged pairs; accuracy 1\.000/);
    const broken = join(dir, 'broken.jsonl');
    writeFileSync(
      broken,
      `${JSON.stringify({ a: { text: bank }, b: { text: bank2 }, sameStory: true })}\nnot json\n`,
    );
    const bad = await runCli(['eval', '--pairs', broken]);
    expect(bad.code).toBe(1);
    expect(bad.stderr).toContain('INVALID_JSON');
    expect(bad.stderr).toContain('pair 2');
  });

  it('explains why two messages are near-duplicates', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'doppel-explain-'));
    const a = join(dir, 'a.json');
    const b = join(dir, 'b.json');
    const text =
      'Экспорт зерна из России с начала сельскохозяйственного года вырос почти на пятую часть и превысил семнадцать миллионов тонн, сообщило министерство сельского хозяйства.';
    writeFileSync(a, JSON.stringify({ id: 'a', text }));
    writeFileSync(
      b,
      JSON.stringify({ id: 'b', text: `МОСКВА, 20 ноября. ${text} Подписывайтесь на наш канал.` }),
    );
    const result = await runCli(['explain', a, b]);
    expect(result.code).toBe(0);
    const report = JSON.parse(result.stdout) as {
      a: { canonical: string; lang: string };
      similarity: { jaccard: number; jaccardExact: number; hamming: number; cosine: number };
      verdict: { verdict: string; method: string };
    };
    expect(report.a.lang).toBe('ru');
    expect(report.a.canonical.startsWith('экспорт зерна из россии')).toBe(true);
    expect(report.similarity.jaccardExact).toBeGreaterThan(0.5);
    expect(Math.abs(report.similarity.jaccard - report.similarity.jaccardExact)).toBeLessThan(0.25);
    expect(report.verdict.verdict).toBe('near_duplicate');
    expect((report as unknown as { story: { decision: string } }).story.decision).toBe('duplicate');
    expect((await runCli(['explain', a])).code).toBe(2);
  });

  it('explains an HTML page by its article: the page in site chrome is an exact duplicate of the feed text', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'doppel-explain-html-'));
    const a = join(dir, 'a.json');
    const b = join(dir, 'b.json');
    const paragraphs = [
      'The harbour bridge will close to cars next spring after engineers found that two of its steel supports had rusted far more than expected.',
      'Buses, cyclists and people on foot will still be able to cross while a replacement is designed, the council said on Tuesday.',
      'Shop owners on both banks of the river asked the council to run a free shuttle boat across the water during the closure.',
    ];
    const menu = ['World', 'Politics', 'Business', 'Sport', 'Culture']
      .map((m) => `<li><a href="/${m}">${m}</a></li>`)
      .join('');
    const page = `<html><head><title>Harbour bridge to close to cars | Daily Courier</title></head><body>
<header><nav><ul>${menu}</ul></nav></header><main><article><h1>Harbour bridge to close to cars</h1>
${paragraphs.map((p) => `<p>${p}</p>`).join('\n')}</article></main>
<footer><p>© 2026 Daily Courier Media Group. All rights reserved. Registered in England.</p></footer></body></html>`;
    writeFileSync(a, JSON.stringify({ id: 'page', html: page }));
    writeFileSync(
      b,
      // A feed gives the headline apart from the text; on the page it is the <h1>, the title.
      JSON.stringify({ id: 'text', title: 'Harbour bridge to close to cars', text: paragraphs.join('\n\n') }),
    );
    const result = await runCli(['explain', a, b]);
    expect(result.code).toBe(0);
    const report = JSON.parse(result.stdout) as {
      a: { extraction?: string; canonical: string };
      b: { extraction?: string; canonical: string };
      verdict: { verdict: string };
    };
    expect(report.a.extraction).toBe('article');
    expect(report.b.extraction).toBeUndefined();
    expect(report.a.canonical).toBe(report.b.canonical);
    expect(report.verdict.verdict).toBe('duplicate');
  });

  it('explains the story link decision beside the duplicate one: facts (dates) refuse a link', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'doppel-explain-story-'));
    const body = (day: number, rest: string) =>
      `Weather forecast for Saturday, November ${day}: light snow in the north of the region, north-west wind of two to seven metres a second, gusting to fourteen at night. ${rest}`;
    const write = (name: string, day: number, rest: string) => {
      const path = join(dir, name);
      writeFileSync(path, JSON.stringify({ id: name, text: body(day, rest), lang: 'en' }));
      return path;
    };
    const a = write(
      'a',
      8,
      'Temperatures at night from minus sixteen to minus twenty-one, in the valleys down to minus twenty-seven; in the south minus ten to minus fifteen. Roads are icy after yesterday.',
    );
    const b = write(
      'b',
      16,
      'Cloudy with clear spells, daytime frost of eighteen to twenty-three below, locally down to thirty in the mountains. Drivers are asked to keep off the passes and watch for drifting.',
    );
    const c = write(
      'c',
      8,
      'Cloudy with clear spells, daytime frost of eighteen to twenty-three below, locally down to thirty in the mountains. Drivers are asked to keep off the passes and watch for drifting.',
    );
    type Story = { decision: string; link: { reason?: string } | null; facts: { relation: string } };
    const story = async (x: string, y: string) =>
      (JSON.parse((await runCli(['explain', x, y])).stdout) as { story: Story }).story;
    const refused = await story(a, b);
    expect(refused).toMatchObject({ decision: 'refused', facts: { relation: 'conflict' } });
    expect(refused.link?.reason).toBe('facts');
    expect(await story(a, c)).toMatchObject({ decision: 'joined', facts: { relation: 'agree' } });
  });
});
