import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { afterAll, describe, expect, it } from 'vitest';
import { jsonLines, runNodeScript } from '../support/cli.js';

// scripts/site-chrome-sets.mjs on a small corpus of its own: three pages (one holding its article
// twice and once more in a script, one plain, one whose marked body is not on the page) and a few
// articles per language.
const SCRIPT = 'scripts/site-chrome-sets.mjs';
const root = mkdtempSync(join(tmpdir(), 'doppel-site-chrome-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));

const sentence = (lang: string, k: number, s: number) => {
  const words: Record<string, string[]> = {
    en: ['harbour', 'council', 'budget', 'river', 'station', 'winter'],
    ru: ['гавань', 'совет', 'бюджет', 'река', 'станция', 'зима'],
    uk: ['гавань', 'рада', 'бюджет', 'річка', 'станція', 'зима'],
    fa: ['بندر', 'شورا', 'بودجه', 'رودخانه', 'ایستگاه', 'زمستان'],
  };
  const w = words[lang] as string[];
  // Capitalised, so that the sentences split as a news text's do.
  const head = w[k % 6] as string;
  return `${head.charAt(0).toUpperCase()}${head.slice(1)} ${w[(k + s) % 6]} ${lang}${k}x${s} ${w[(k + 2 * s) % 6]} ${w[(s + 3) % 6]} ${lang}${k}y${s} ${w[(k * s + 1) % 6]} ${w[(k + 4) % 6]}.`;
};
const article = (lang: string, k: number) => ({
  url: `https://news.example/${lang}/${k}`,
  lang,
  title: `${lang} headline number ${k}`,
  text: Array.from({ length: 7 }, (_, s) => sentence(lang, k, s)).join(' '),
});

function writeCorpus(dir: string): void {
  mkdirSync(join(dir, 'pages', 'html'), { recursive: true });
  for (const lang of ['en', 'ru', 'uk', 'fa']) {
    const rows = Array.from({ length: 4 }, (_, k) => JSON.stringify(article(lang, k)));
    writeFileSync(join(dir, `news-${lang}.jsonl`), `${rows.join('\n')}\n`);
  }
  const pair = { a: article('en', 0), b: article('en', 1), sameStory: true };
  const other = { a: article('en', 2), b: article('en', 3), sameStory: false };
  writeFileSync(join(dir, 'story-pairs.jsonl'), `${JSON.stringify(pair)}\n${JSON.stringify(other)}\n`);
  const body = 'The original first paragraph of the page.\nThe original second paragraph, a bit longer.';
  const paragraphs = body
    .split('\n')
    .map((p) => `<p>${p}</p>`)
    .join('');
  const pages: Record<string, string> = {
    aaaa1111: `<html><head><title>Old title</title><script>window.state={"body":"${body.replace('\n', ' ')}"}</script></head><body><nav>Home News Sport</nav><h1>Old headline</h1><div class="story">${paragraphs}</div><div itemprop="articleBody" style="display:none">${paragraphs}</div><footer>Site footer text</footer></body></html>`,
    bbbb2222: `<html><head><title>Second site</title></head><body><header>Menu</header><h1>Its headline</h1><article>${paragraphs}</article><aside>Most read elsewhere</aside></body></html>`,
    cccc3333: '<html><head><title>No body</title></head><body><p>Something else entirely.</p></body></html>',
  };
  const truth: Record<string, { url: string; articleBody: string }> = {};
  for (const [key, html] of Object.entries(pages)) {
    writeFileSync(join(dir, 'pages', 'html', `${key}.html.gz`), gzipSync(Buffer.from(html)));
    truth[key] = { url: `https://${key}.example/`, articleBody: body };
  }
  writeFileSync(join(dir, 'pages', 'ground-truth.json'), JSON.stringify(truth));
}

const data = join(root, 'data');
writeCorpus(data);
const build = (out: string, seed: number) =>
  runNodeScript(SCRIPT, ['build', '--seed', String(seed), '--out', out], '', { DOPPEL_SHARED_DATA: data });

describe('scripts/site-chrome-sets.mjs build', () => {
  it('puts the article in every copy of the body, leaves scripts and the rest of the page, skips pages without the body', async () => {
    const out = join(root, 'a');
    const result = await build(out, 3);
    expect(result.code, result.stderr).toBe(0);
    expect(result.stdout).toContain('sites usable: 2');
    const pages = jsonLines(readFileSync(join(out, 'dup1.jsonl'), 'utf8'));
    expect(pages.length).toBeGreaterThanOrEqual(4 * 2);
    for (const page of pages) {
      const html = page.html as string;
      const [lang, k] = (page.cluster as string).split('-') as [string, string];
      const source = article(lang, Number(k));
      expect(html).toContain(`<title>${source.title}</title>`);
      expect(html).toContain(`<h1>${source.title}</h1>`);
      expect(html).not.toContain('Old headline');
      expect(html).not.toContain('<p>The original first paragraph');
      const first = sentence(lang, Number(k), 0);
      const copies = html.split(first).length - 1;
      if ((page.id as string).endsWith('@aaaa1111')) {
        // The visible body and the hidden schema.org copy; the script's copy is left as it was.
        expect(copies).toBe(2);
        expect(html).toContain('window.state={"body":"The original first paragraph');
        expect(html).toContain('Site footer text');
      } else {
        expect(copies).toBe(1);
        expect(html).toContain('Most read elsewhere');
      }
    }
  });

  it('writes plain-text twins, joins judged story pairs, never repeats an article on a one-site set', async () => {
    const out = join(root, 'b');
    expect((await build(out, 3)).code).toBe(0);
    const pages = jsonLines(readFileSync(join(out, 'mix1.jsonl'), 'utf8'));
    const texts = jsonLines(readFileSync(join(out, 'mix1-text.jsonl'), 'utf8'));
    expect(texts.map((t) => [t.id, t.cluster, t.story])).toEqual(
      pages.map((p) => [p.id, p.cluster, p.story]),
    );
    for (const t of texts) {
      const [lang, k] = (t.cluster as string).split('-') as [string, string];
      expect(t.text).toBe(article(lang, Number(k)).text);
    }
    const storyOf = new Map(texts.map((t) => [t.cluster, t.story]));
    expect(storyOf.get('en-0001')).toBe(storyOf.get('en-0000'));
    expect(storyOf.get('en-0003')).not.toBe(storyOf.get('en-0002'));
    for (let draw = 1; draw <= 4; draw++) {
      const set = jsonLines(readFileSync(join(out, `site${draw}.jsonl`), 'utf8'));
      expect(set.length).toBeGreaterThan(0);
      expect(new Set(set.map((m) => m.cluster)).size).toBe(set.length);
    }
  });

  it('is deterministic for a seed and draws otherwise for another', async () => {
    const one = join(root, 'c1');
    const two = join(root, 'c2');
    const other = join(root, 'c3');
    for (const [dir, seed] of [
      [one, 5],
      [two, 5],
      [other, 6],
    ] as const) {
      expect((await build(dir, seed)).code).toBe(0);
    }
    const files = readdirSync(one).sort();
    expect(files).toHaveLength(18);
    for (const f of files)
      expect(readFileSync(join(two, f), 'utf8')).toBe(readFileSync(join(one, f), 'utf8'));
    const differs = files.some(
      (f) => readFileSync(join(other, f), 'utf8') !== readFileSync(join(one, f), 'utf8'),
    );
    expect(differs).toBe(true);
  });

  it('stops with a reason when the corpus is absent', async () => {
    const result = await runNodeScript(SCRIPT, ['build', '--out', join(root, 'd')], '', {
      DOPPEL_SHARED_DATA: join(root, 'nowhere'),
    });
    expect(result.code).toBe(3);
    expect(result.stderr).toContain('no evaluation corpus');
  });
});
