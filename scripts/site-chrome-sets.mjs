// Site pages built from the chrome of real web pages, for checking story and duplicate precision
// on pages of one site (docs/quality.md, "Site pages built from real site chrome"). Reads the
// evaluation corpus (DOPPEL_SHARED_DATA, else ./eval-data): its news articles, the judged story
// pairs and the article-extraction benchmark pages (pages/). On each page the element that holds
// the marked article body (the nearest element holding every paragraph of it, at most twice the
// body's length) gets the paragraphs of a news article as <p>, and the page's <h1> and <title>
// its headline; the rest of the page stays. Pages where no such element is found are skipped.
// Each message's gold cluster is its article; its story label joins the articles judged one story.
//
//   node scripts/site-chrome-sets.mjs build [--seed N] [--out DIR] [--references]   (DIR: .tmp/site-chrome)
//   node scripts/site-chrome-sets.mjs score [--out DIR] [--list] [--config FILE] [--bin CHECKOUT]
//
// build writes, each also as plain text (`-text.jsonl`: the article's text instead of the page):
// - dup1-3.jsonl: 15 articles per language, each on 3-4 different sites (duplicate recall);
// - site1-4.jsonl: 30 sites, 5-10 different articles on each, no article twice (every link a
//   false one);
// - mix1-2.jsonl: 25 sites, 35 articles per language each on 3-4 of them (doppel eval).
// score runs `doppel dedup --profile news --threads 1` on the dup and site sets and
// `doppel eval --profile news --variants combined` on the mixed ones; --list prints each false link
// (rule, similarity, cosine, Jaccard, containment, and the longest run of words the two
// extracted texts share).
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { gunzipSync } from 'node:zlib';
import { DomUtils, parseDocument } from 'htmlparser2';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const { decodeBytes, decodeHtml } = await import(path.join(root, 'dist/text/decode/index.js'));
const { parseBody, renderParagraph } = await import(path.join(root, 'dist/eval/generator/text.js'));

const args = process.argv.slice(2);
const command = args[0];
const option = (name, fallback) => {
  const at = args.indexOf(name);
  return at >= 0 && at + 1 < args.length ? args[at + 1] : fallback;
};
const out = path.resolve(root, option('--out', '.tmp/site-chrome'));
const references = args.includes('--references');
if (command !== 'build' && command !== 'score') {
  process.stderr.write(
    'usage: node scripts/site-chrome-sets.mjs build|score [--seed N] [--out DIR] [--list]\n',
  );
  process.exit(2);
}

// ---------------------------------------------------------------- randomness (mulberry32)
const rng = (seed) => {
  let s = seed >>> 0;
  const next = () => {
    s = (s + 0x6d2b79f5) >>> 0;
    let t = s;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  const int = (n) => Math.floor(next() * n);
  const between = (lo, hi) => lo + int(hi - lo + 1);
  const shuffle = (a) => {
    const b = [...a];
    for (let i = b.length - 1; i > 0; i--) {
      const j = int(i + 1);
      [b[i], b[j]] = [b[j], b[i]];
    }
    return b;
  };
  return { next, int, between, shuffle, pick: (a) => a[int(a.length)] };
};

const readJsonl = (file) =>
  fs
    .readFileSync(file, 'utf8')
    .split('\n')
    .filter((l) => l.trim() !== '')
    .map((l) => JSON.parse(l));
const writeJsonl = (file, rows) =>
  fs.writeFileSync(file, rows.map((r) => JSON.stringify(r)).join('\n') + '\n');

// ---------------------------------------------------------------- build
function dataDir() {
  const dir = process.env.DOPPEL_SHARED_DATA || path.join(root, 'eval-data');
  if (!fs.existsSync(path.join(dir, 'pages', 'ground-truth.json'))) {
    process.stderr.write(
      `site-chrome-sets: no evaluation corpus with pages/ at ${dir} (set DOPPEL_SHARED_DATA)\n`,
    );
    process.exit(3);
  }
  return dir;
}

const LANGS = ['en', 'ru', 'uk', 'fa'];

/** Articles of each language, with story labels joined through the judged same-story pairs. */
function readArticles(dir) {
  const parent = new Map();
  const find = (u) => {
    let x = u;
    while (parent.has(x) && parent.get(x) !== x) x = parent.get(x);
    return x;
  };
  for (const p of readJsonl(path.join(dir, 'story-pairs.jsonl'))) {
    if (!p.sameStory) continue;
    const a = find(p.a.url);
    const b = find(p.b.url);
    if (!parent.has(a)) parent.set(a, a);
    if (a !== b) parent.set(b, a);
  }
  const byLang = new Map();
  const storyOf = new Map();
  for (const lang of LANGS) {
    const rows = readJsonl(path.join(dir, `news-${lang}.jsonl`));
    const list = [];
    rows.forEach((a, i) => {
      // Very short items (a headline and a line) are not articles a page would carry.
      if (typeof a.text !== 'string' || a.text.length < 200 || !a.title) return;
      const id = `${lang}-${String(i).padStart(4, '0')}`;
      const key = a.url && parent.has(a.url) ? find(a.url) : id;
      if (!storyOf.has(key)) storyOf.set(key, id);
      list.push({ id, lang, title: a.title, text: a.text, story: storyOf.get(key) });
    });
    byLang.set(lang, list);
  }
  return byLang;
}

const squeeze = (s) => s.replace(/\s+/gu, '');
const INVISIBLE = new Set(['script', 'style', 'noscript', 'template', 'textarea', 'head', 'title']);
/** Inside a script, style or the like: a copy of the body there (JSON state, AMP) is not the page's article. */
const hidden = (el) => {
  for (let e = el; e; e = e.parent) if (INVISIBLE.has(e.name)) return true;
  return false;
};
/** The text a reader sees: scripts, styles and the like left out. */
const visibleText = (node) => {
  if (node.type === 'text') return node.data;
  if (INVISIBLE.has(node.name) || !node.children) return '';
  return node.children.map(visibleText).join('');
};

/**
 * The elements holding every paragraph of the marked body, each the nearest to them (a page may
 * hold its article twice, e.g. a schema.org articleBody copy beside the visible one), at most twice
 * the body's length; empty when none fits.
 */
function bodyElements(doc, marked) {
  const paragraphs = marked
    .split('\n')
    .map(squeeze)
    .filter((p) => p.length > 0);
  const total = paragraphs.reduce((n, p) => n + p.length, 0);
  if (paragraphs.length === 0) return [];
  const holding = [];
  for (const el of DomUtils.getElementsByTagName(() => true, doc, true)) {
    if (el.name === 'html' || el.name === 'body' || hidden(el)) continue;
    const text = squeeze(visibleText(el));
    if (text.length < total || text.length > 2 * total) continue;
    if (paragraphs.every((p) => text.includes(p))) holding.push(el);
  }
  const outer = new Set();
  for (const el of holding) for (let e = el.parent; e; e = e.parent) outer.add(e);
  return holding.filter((el) => !outer.has(el));
}

const esc = (s) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');

/** An article's paragraphs; a text given as one paragraph is cut every 3 sentences, as sites set it. */
function paragraphsOf(article) {
  const body = parseBody(article.text, article.lang);
  if (body.paragraphs.length > 1) return body.paragraphs.map(renderParagraph);
  const sentences = body.paragraphs[0] ?? [];
  const out = [];
  for (let i = 0; i < sentences.length; i += 3) out.push(renderParagraph(sentences.slice(i, i + 3)));
  return out;
}

function setChildren(el, html) {
  for (const child of [...el.children]) DomUtils.removeElement(child);
  for (const node of [...parseDocument(html).children]) DomUtils.appendChild(el, node);
}

/** The site's page with the article in place of its own. */
function pageWith(site, article) {
  const doc = parseDocument(site.html);
  const html = paragraphsOf(article)
    .map((p) => `<p>${esc(p)}</p>`)
    .join('\n');
  for (const target of bodyElements(doc, site.marked)) setChildren(target, html);
  for (const tag of ['h1', 'title']) {
    for (const el of DomUtils.getElementsByTagName(tag, doc, true)) setChildren(el, esc(article.title));
  }
  // Letters as they are, or with --references every non-ASCII letter as a character reference
  // (pages served in ASCII); the default of the serializer is the latter.
  return DomUtils.getOuterHTML(doc, references ? {} : { encodeEntities: 'utf8' });
}

function readSites(dir) {
  const truth = JSON.parse(fs.readFileSync(path.join(dir, 'pages', 'ground-truth.json'), 'utf8'));
  const sites = [];
  for (const key of Object.keys(truth).sort()) {
    const file = path.join(dir, 'pages', 'html', `${key}.html.gz`);
    if (!fs.existsSync(file) || !truth[key].articleBody) continue;
    const html = decodeBytes(gunzipSync(fs.readFileSync(file))).text;
    if (bodyElements(parseDocument(html), truth[key].articleBody).length === 0) continue;
    sites.push({ key: key.slice(0, 8), html, marked: truth[key].articleBody });
  }
  return sites;
}

/** Messages in a random order, one minute apart; the page and its plain-text twin. */
function emit(name, placements, r) {
  const order = r.shuffle(placements);
  const t0 = Date.UTC(2026, 0, 1);
  const pages = [];
  const texts = [];
  order.forEach(({ site, article }, i) => {
    const base = {
      id: `${article.id}@${site.key}`,
      ts: t0 + i * 60_000,
      cluster: article.id,
      story: article.story,
    };
    pages.push({ ...base, html: pageWith(site, article) });
    texts.push({ ...base, text: article.text });
  });
  writeJsonl(path.join(out, `${name}.jsonl`), pages);
  writeJsonl(path.join(out, `${name}-text.jsonl`), texts);
  return pages.length;
}

function build() {
  const dir = dataDir();
  const seed = Number(option('--seed', '11'));
  const articles = readArticles(dir);
  const sites = readSites(dir);
  fs.mkdirSync(out, { recursive: true });
  const summary = [`sites usable: ${sites.length}`];
  for (let draw = 1; draw <= 3; draw++) {
    const r = rng(seed * 1000 + draw);
    const placements = [];
    for (const lang of LANGS) {
      for (const article of r.shuffle(articles.get(lang)).slice(0, 15)) {
        for (const site of r.shuffle(sites).slice(0, r.between(3, 4))) placements.push({ site, article });
      }
    }
    summary.push(`dup${draw}: ${emit(`dup${draw}`, placements, r)} messages`);
  }
  for (let draw = 1; draw <= 4; draw++) {
    const r = rng(seed * 1000 + 10 + draw);
    const pools = new Map(LANGS.map((lang) => [lang, r.shuffle(articles.get(lang))]));
    const placements = [];
    for (const site of r.shuffle(sites).slice(0, 30)) {
      // A site publishes in one language; no article appears twice in a set.
      const pool = pools.get(r.pick(LANGS));
      for (const article of pool.splice(0, r.between(5, 10))) placements.push({ site, article });
    }
    summary.push(`site${draw}: ${emit(`site${draw}`, placements, r)} messages`);
  }
  for (let draw = 1; draw <= 2; draw++) {
    const r = rng(seed * 1000 + 20 + draw);
    const chosen = r.shuffle(sites).slice(0, 25);
    const placements = [];
    for (const lang of LANGS) {
      for (const article of r.shuffle(articles.get(lang)).slice(0, 35)) {
        for (const site of r.shuffle(chosen).slice(0, r.between(3, 4))) placements.push({ site, article });
      }
    }
    summary.push(`mix${draw}: ${emit(`mix${draw}`, placements, r)} messages`);
  }
  process.stdout.write(`${summary.join('\n')}\n(written to ${path.relative(root, out)}/)\n`);
}

// ---------------------------------------------------------------- score
// --bin DIR scores with another built checkout of doppel (an earlier commit, for a before/after).
const bin = path.resolve(option('--bin', root), 'bin/doppel.js');
const doppel = (argv) =>
  execFileSync(process.execPath, [bin, ...argv], {
    encoding: 'utf8',
    maxBuffer: 1 << 30,
  });
const config = option('--config', null);
const configArgs = config ? ['--config', config] : [];

/** Each message's verdict; a join is a duplicateOf, or a story join (its cluster's first message). */
function dedup(file) {
  const verdicts = doppel(['dedup', '--profile', 'news', '--threads', '1', ...configArgs, '--input', file])
    .split('\n')
    .filter((l) => l.trim() !== '')
    .map((l) => JSON.parse(l));
  return verdicts;
}

const wordsOf = (text) => text.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? [];
/** The longest run of words two texts share (at least 4 words), as text. */
function sharedRun(a, b) {
  const wa = wordsOf(a);
  const wb = wordsOf(b);
  const at = new Map();
  for (let j = 0; j + 4 <= wb.length; j++) {
    const k = wb.slice(j, j + 4).join(' ');
    if (!at.has(k)) at.set(k, []);
    at.get(k).push(j);
  }
  let best = [0, 0];
  for (let i = 0; i + 4 <= wa.length; i++) {
    for (const j of at.get(wa.slice(i, i + 4).join(' ')) ?? []) {
      let n = 0;
      while (i + n < wa.length && j + n < wb.length && wa[i + n] === wb[j + n]) n++;
      if (n > best[1]) best = [i, n];
    }
  }
  return best[1] === 0
    ? ''
    : `${best[1]} words: ${wa.slice(best[0], best[0] + Math.min(best[1], 30)).join(' ')}`;
}

function textOf(message) {
  return message.text ?? decodeHtml(message.html).text;
}

function listLink(v, target, byId, lang) {
  const e = v.evidence ?? {};
  const f = (x) => (typeof x === 'number' ? x.toFixed(2) : '-');
  const m = byId.get(v.id);
  const t = byId.get(target);
  const a = textOf(m);
  const b = textOf(t);
  process.stdout.write(
    `  ${v.id} -> ${target} [${lang}] ${v.method} sim ${f(v.similarity)} cos ${f(e.cosine)} jac ${f(e.jaccard)} ` +
      `contained ${f(e.contained)} (${e.containedTokens ?? '-'} tok) tokens ${wordsOf(a).length}/${wordsOf(b).length}\n` +
      `      shared ${sharedRun(a, b)}\n`,
  );
}

function joinsOf(verdicts) {
  const joins = [];
  for (const v of verdicts) {
    if (v.duplicateOf) joins.push({ v, target: v.duplicateOf, story: false });
    else if (typeof v.method === 'string' && v.method.startsWith('story:'))
      joins.push({ v, target: v.clusterId, story: true });
  }
  return joins;
}

function score() {
  const list = args.includes('--list');
  const rows = [];
  for (const kind of ['', '-text']) {
    let expected = 0;
    let found = 0;
    let wrong = 0;
    for (let draw = 1; draw <= 3; draw++) {
      const file = path.join(out, `dup${draw}${kind}.jsonl`);
      const messages = readJsonl(file);
      const byId = new Map(messages.map((m) => [m.id, m]));
      expected += messages.length - new Set(messages.map((m) => m.cluster)).size;
      for (const v of dedup(file)) {
        if (!v.duplicateOf) continue;
        if (byId.get(v.duplicateOf)?.cluster === byId.get(v.id)?.cluster) found++;
        else wrong++;
      }
    }
    rows.push(
      `dup1-3${kind}: dup links found ${found} / ${expected} (${(found / expected).toFixed(3)}), wrong ${wrong}`,
    );
  }
  for (const kind of ['', '-text']) {
    let messages = 0;
    let falseLinks = 0;
    let storyLinks = 0;
    let sameStory = 0;
    for (let draw = 1; draw <= 4; draw++) {
      const file = path.join(out, `site${draw}${kind}.jsonl`);
      const set = readJsonl(file);
      const byId = new Map(set.map((m) => [m.id, m]));
      messages += set.length;
      const verdicts = dedup(file);
      if (list) process.stdout.write(`site${draw}${kind}:\n`);
      for (const { v, target, story } of joinsOf(verdicts)) {
        if (byId.get(target)?.cluster === byId.get(v.id)?.cluster) continue;
        falseLinks++;
        if (byId.get(target)?.story === byId.get(v.id)?.story) {
          sameStory++;
          continue;
        }
        if (story) storyLinks++;
        if (list) listLink(v, target, byId, v.lang);
      }
    }
    rows.push(
      `site1-4${kind}: false links ${falseLinks - sameStory} of ${messages} messages (${storyLinks} story joins, ${falseLinks - sameStory - storyLinks} duplicate links; besides, ${sameStory} links to another article of a judged story)`,
    );
  }
  for (let draw = 1; draw <= 2; draw++) {
    for (const kind of ['', '-text']) {
      const file = path.join(out, `mix${draw}${kind}.jsonl`);
      const report = doppel([
        'eval',
        '--profile',
        'news',
        ...configArgs,
        '--input',
        file,
        '--variants',
        'combined',
      ]);
      const line = report.split('\n').find((l) => l.startsWith('| combined |'));
      const cells = line.split('|').map((c) => c.trim());
      rows.push(
        `mix${draw}${kind} (${readJsonl(file).length} messages): dup P / R ${cells[2]} / ${cells[3]}; story P / R ${cells[5]} / ${cells[6]}`,
      );
      if (list && kind === '') {
        const set = readJsonl(file);
        const byId = new Map(set.map((m) => [m.id, m]));
        process.stdout.write(`mix${draw}:\n`);
        for (const { v, target } of joinsOf(dedup(file))) {
          if (byId.get(target)?.story === byId.get(v.id)?.story) continue;
          listLink(v, target, byId, v.lang);
        }
      }
    }
  }
  process.stdout.write(`${rows.join('\n')}\n`);
}

if (command === 'build') build();
else score();
