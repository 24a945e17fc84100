// Sites whose articles each carry the site's English paragraph (40-80 words, the opening words of
// an English article of the corpus, as a promotion or share bar text would be): for checking that
// a paragraph in another script does not join different articles (docs/quality.md). Each site
// has 6 articles; 2 of each site's articles also appear on another site, under that site's
// paragraph (a copy that must join its article). Odd sites put the paragraph first. Gold: the
// article (cluster); story labels join the Russian articles judged one story (story-pairs.jsonl).
//
//   node scripts/mixed-script-sets.mjs DATA_DIR fa|ru SEED > SET.jsonl
//   doppel eval --profile news --input SET.jsonl --variants combined
//
// fa: 40 sites of Persian articles of 300-1,500 characters (where a paragraph weighs the most);
// ru: 20 sites of Russian articles.
import fs from 'node:fs';

const [data, lang, seedArg] = process.argv.slice(2);
if (!data || (lang !== 'fa' && lang !== 'ru')) {
  process.stderr.write('usage: node scripts/mixed-script-sets.mjs DATA_DIR fa|ru SEED\n');
  process.exit(2);
}
let seed = Number(seedArg ?? 5) >>> 0;
/** mulberry32 */
const random = () => {
  seed = (seed + 0x6d2b79f5) >>> 0;
  let t = seed;
  t = Math.imul(t ^ (t >>> 15), t | 1);
  t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
  return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
};
const shuffle = (a) => {
  for (let i = a.length - 1; i > 0; i--) {
    const j = Math.floor(random() * (i + 1));
    [a[i], a[j]] = [a[j], a[i]];
  }
  return a;
};
const read = (file) =>
  fs
    .readFileSync(`${data}/${file}`, 'utf8')
    .trim()
    .split('\n')
    .map((l) => JSON.parse(l));

const paragraphs = shuffle(read('news-en.jsonl'))
  .map((a) => {
    const words = a.text.split(/\s+/).filter(Boolean);
    return words.slice(0, 40 + Math.floor(random() * 41)).join(' ');
  })
  .filter((p) => p.split(' ').length >= 40);

let articles;
if (lang === 'fa') {
  articles = read('news-fa.jsonl')
    .map((a, i) => ({ id: `fa-${i}`, title: a.title, text: a.text, lang: 'fa' }))
    .filter((a) => a.text.length >= 300 && a.text.length <= 1500);
} else {
  const parent = new Map();
  const find = (u) => {
    while (parent.has(u) && parent.get(u) !== u) u = parent.get(u);
    return u;
  };
  for (const p of read('story-pairs.jsonl')) {
    if (!p.sameStory) continue;
    const a = find(p.a.url);
    const b = find(p.b.url);
    parent.set(a, a);
    parent.set(b, a);
  }
  articles = read('news-ru.jsonl').map((a, i) => ({
    id: `ru-${i}`,
    url: a.url,
    title: a.title,
    text: a.text,
    lang: 'ru',
  }));
  const first = new Map();
  for (const a of articles) {
    const root = parent.has(a.url) ? find(a.url) : a.url;
    if (!first.has(root)) first.set(root, a.id);
    a.story = first.get(root);
  }
}
shuffle(articles);

const sites = lang === 'fa' ? 40 : 20;
const perSite = 6;
const out = [];
let t = Date.parse('2026-11-20T08:00:00Z');
const emit = (a, site, variant) => {
  const paragraph = paragraphs[site % paragraphs.length];
  const text = site % 2 === 1 ? `${paragraph}\n\n${a.text}` : `${a.text}\n\n${paragraph}`;
  t += 60_000;
  const story = a.story ?? a.id;
  out.push({
    id: `${a.id}@site${site}`,
    cluster: a.id,
    story,
    lang: a.lang,
    variant,
    ts: new Date(t).toISOString(),
    title: a.title,
    text,
  });
};
let k = 0;
const copies = [];
for (let s = 0; s < sites; s++) {
  for (let j = 0; j < perSite && k < articles.length; j++, k++) {
    const a = articles[k];
    emit(a, s, 'site-article');
    if (j < 2) copies.push([a, (s + 1 + Math.floor(random() * (sites - 1))) % sites]);
  }
}
for (const [a, s] of copies) emit(a, s, 'copy-other-site');
for (const m of out) process.stdout.write(`${JSON.stringify(m)}\n`);
