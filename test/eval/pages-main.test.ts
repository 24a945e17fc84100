import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runNodeScript } from '../support/cli.js';

// The two command-line entries of `npm run eval:pages` on the built dist/ (npm test builds it),
// with a benchmark directory of made-up pages in the benchmark's layout.

const BODY = [
  'The city council voted on Tuesday to rebuild the old river bridge before the spring floods arrive.',
  'Engineers told the council that the piers had lost a third of their strength since the last survey.',
  'Work starts in March, and the bridge stays closed to lorries until the new deck is laid in June.',
];

function page(title: string, body: readonly string[]): string {
  const menu = ['Home', 'World', 'Business', 'Sport', 'Weather', 'Contact us']
    .map((m) => `<li><a href="/${m}">${m}</a></li>`)
    .join('');
  const most = ['Storm closes schools', 'Prices rise again', 'Team wins cup']
    .map((m) => `<li><a href="/x">${m}</a></li>`)
    .join('');
  return `<!doctype html><html><head><title>${title}</title></head><body>
<nav class="menu"><ul>${menu}</ul></nav>
<main><article class="story"><h1>${title}</h1>${body.map((p) => `<p>${p}</p>`).join('')}</article></main>
<aside class="most-read"><h2>Most read</h2><ul>${most}</ul></aside>
<footer>© 2026 Example News Ltd. All rights reserved. Registered in England, company number 123.</footer>
</body></html>`;
}

let dir = '';

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'doppel-pages-'));
  mkdirSync(join(dir, 'html'));
  const truth: Record<string, { url: string; articleBody: string }> = {};
  for (const [key, title] of [
    ['a', 'Council votes to rebuild the bridge'],
    ['b', 'Bridge work to start in March'],
  ] as const) {
    writeFileSync(join(dir, 'html', `${key}.html.gz`), gzipSync(Buffer.from(page(title, BODY))));
    truth[key] = { url: `https://news.example/${key}`, articleBody: BODY.join('\n') };
  }
  writeFileSync(join(dir, 'ground-truth.json'), JSON.stringify(truth));
});

afterAll(() => {
  if (dir !== '') rmSync(dir, { recursive: true, force: true });
});

/** P, R and F1 of a printed row whose label starts with `label`. */
function scores(stdout: string, label: string): number[] {
  const line = stdout.split('\n').find((l) => l.startsWith(`| ${label}`));
  expect(line, `a row "${label}" in:\n${stdout}`).toBeDefined();
  const cells = (line as string).split('|').map((c) => c.replace(/\*/g, '').trim());
  return cells.slice(2, 5).map(Number);
}

describe('eval:pages (dist/eval/pages-main.js)', () => {
  it('scores the article against the whole page on a benchmark directory', async () => {
    const run = await runNodeScript('dist/eval/pages-main.js', ['--dir', dir]);
    expect(run.code, run.stderr).toBe(0);
    expect(run.stdout).toContain(`2 pages from ${dir};`);
    const [p, r, f1] = scores(run.stdout, 'article');
    const [wholeP, , wholeF1] = scores(run.stdout, 'whole page');
    expect(r).toBeGreaterThan(0.9);
    expect(p).toBeGreaterThan(wholeP as number);
    expect(f1).toBeGreaterThan(wholeF1 as number);
  });

  it('names the changes it made to the pages', async () => {
    const run = await runNodeScript('dist/eval/pages-main.js', ['--dir', dir, '--strip-names', '--divs']);
    expect(run.code, run.stderr).toBe(0);
    expect(run.stdout).toContain('(changed: stripNames, divs)');
    const [, r] = scores(run.stdout, 'article');
    expect(r).toBeGreaterThan(0.9);
  });

  it('exits 2 and says what it needs when the directory holds no benchmark', async () => {
    const empty = mkdtempSync(join(tmpdir(), 'doppel-nopages-'));
    try {
      const run = await runNodeScript('dist/eval/pages-main.js', ['--dir', empty]);
      expect(run.code).toBe(2);
      expect(run.stderr).toContain('no benchmark pages in');
      expect(run.stderr).toContain('DOPPEL_SHARED_DATA');
    } finally {
      rmSync(empty, { recursive: true, force: true });
    }
  });
});

describe('dist/eval/pages-perturb-main.js', () => {
  it("changes every line's html field and passes other lines on as they are", async () => {
    const lines = [
      JSON.stringify({ id: 'p1', html: page('One', BODY), cluster: 'c1' }),
      JSON.stringify({ id: 'p2', text: 'plain text stays' }),
      'not json',
    ];
    const run = await runNodeScript(
      'dist/eval/pages-perturb-main.js',
      ['--strip-names', '--divs'],
      `${lines.join('\n')}\n`,
    );
    expect(run.code, run.stderr).toBe(0);
    const out = run.stdout.trimEnd().split('\n');
    expect(out).toHaveLength(3);
    const first = JSON.parse(out[0] as string) as { id: string; html: string; cluster: string };
    expect(first.id).toBe('p1');
    expect(first.cluster).toBe('c1');
    expect(first.html).not.toMatch(/class=/);
    expect(first.html).not.toMatch(/<(article|main|nav|aside|footer)\b/);
    expect(first.html).toContain(BODY[0]);
    expect(out[1]).toBe(lines[1]);
    expect(out[2]).toBe('not json');
  });
});
