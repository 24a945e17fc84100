// Teasers built other ways than the generator's lead-only kind, and their recall through doppel
// dedup: for checking teaser containment (docs/quality.md). Reads a generated lead-only set
// (doppel generate --kinds lead-only; its originals and teaser timestamps) and writes, per kind,
// the originals and one teaser of that kind each (OUT/<kind>.jsonl), and one set with a kind
// drawn per original (OUT/mixed.jsonl). Half the teasers come before their article, as in the
// lead-only set; a standfirst teaser always does.
//
//   node scripts/teaser-variants.mjs build LEAD_SET.jsonl OUT_DIR
//   node scripts/teaser-variants.mjs score SET.jsonl [--profile news|mail] [--list]
//
// score runs `doppel dedup --threads 1` on the set and scores each duplicateOf against the gold
// cluster as doppel eval does: precision, recall, and recall per kind (the "original" kind is an
// article published after its teaser); --list prints the false links and the missed messages.
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const { parseBody, sentenceSlots } = await import(path.join(root, 'dist/eval/generator/text.js'));
const { Random } = await import(path.join(root, 'dist/eval/random.js'));
const { PACKS } = await import(path.join(root, 'dist/eval/generator/language-packs.js'));

const readJsonl = (file) =>
  fs
    .readFileSync(file, 'utf8')
    .split('\n')
    .filter((l) => l.trim() !== '')
    .map((l) => JSON.parse(l));
const titlesByLang = new Map();

const words = (s) => s.split(/\s+/).filter((w) => w !== '').length;
const sentencesOf = (body) => sentenceSlots(body).map(({ p, s }) => body.paragraphs[p][s]);

/** n sentences from `from` (2-3, more while under 30 words, at most 5), as the generator picks. */
function leadFrom(all, from, r) {
  let n = r.between(2, 3);
  const size = (k) => all.slice(from, from + k).reduce((a, s) => a + words(s.text), 0);
  while (n < 5 && from + n < all.length && size(n) < 30) n++;
  if (from + n >= all.length) n = all.length - from - 1;
  return n >= 1 ? all.slice(from, from + n) : null;
}
/** Sentences rendered as the source has them (glued ones stay glued, paragraph breaks kept). */
function render(sentences, body) {
  // Recover paragraph breaks: a sentence that ends its paragraph is followed by the body's paragraph separator.
  const ends = new Set();
  for (const p of body.paragraphs) ends.add(p[p.length - 1]);
  return sentences
    .map((s, i) =>
      i + 1 < sentences.length
        ? s.text + (ends.has(s) ? body.paragraphSep : s.sep === '' ? '' : s.sep)
        : s.text,
    )
    .join('');
}

const LEAD_IN = {
  en: ['Breaking:', 'UPDATE:', 'Exclusive:', 'WATCH:', 'Just in —', 'Developing story:'],
  ru: ['Срочно:', 'Молния:', 'Эксклюзив:', 'Главное:', 'Новость дня —', 'ОБНОВЛЕНО:'],
  uk: ['Терміново:', 'Блискавка:', 'Ексклюзив:', 'Головне:', 'Новина дня —', 'ОНОВЛЕНО:'],
};
const TAIL = {
  en: ['Read the full story', 'Read the full story »', 'Full story here...', 'Continue reading →'],
  ru: ['Читать полностью', 'Полный текст »', 'Читайте полную версию на сайте...', 'Далее →'],
  uk: ['Читати повністю', 'Повний текст »', 'Читайте повну версію на сайті...', 'Далі →'],
};
const RELATED = { en: 'Related:', ru: 'Читайте также:', uk: 'Читайте також:' };
const DATELINE = {
  en: (r) =>
    `${r.pick(['MOSCOW', 'LONDON', 'WASHINGTON', 'KYIV'])}, Nov ${r.between(1, 28)} (${r.pick(['Reuters', 'AFP', 'AP'])}) - `,
  ru: (r) =>
    `${r.pick(['МОСКВА', 'САНКТ-ПЕТЕРБУРГ', 'КИЕВ'])}, ${r.between(1, 28)} ноя — ${r.pick(['РИА Новости', 'ТАСС', 'Интерфакс'])}. `,
  uk: (r) =>
    `${r.pick(['Київ', 'Львів', 'Харків'])}, ${r.between(1, 28)} листопада. ${r.pick(['УНН', 'Укрінформ', 'УНІАН'])}. `,
};

/** A word of the sentence (not the first) replaced by a common word of the language. */
function editOneWord(text, lang, r) {
  const parts = text.split(/(\s+)/);
  const idx = [];
  for (let i = 2; i < parts.length; i += 2) if (/\p{L}{4,}/u.test(parts[i])) idx.push(i);
  if (idx.length === 0) return text;
  const i = r.pick(idx);
  const m = /^(\P{L}*)(\p{L}[\p{L}\-']*)(\P{L}*)$/u.exec(parts[i]);
  const word = r.pick(PACKS[lang].commonWords);
  parts[i] = m ? m[1] + word + m[3] : word;
  return parts.join('');
}

/** The first sentence reworded: its two halves swapped and a word in four replaced. */
function reword(text, lang, r) {
  const ws = text
    .trim()
    .replace(/[.!?…]+$/u, '')
    .split(/\s+/);
  const mid = Math.max(1, Math.floor(ws.length / 2));
  const swapped = [...ws.slice(mid), ...ws.slice(0, mid)].map((w, i) =>
    i % 4 === 1 ? r.pick(PACKS[lang].commonWords) : w,
  );
  const s = swapped.join(' ');
  return `${s.charAt(0).toUpperCase()}${s.slice(1)}.`;
}

const KINDS = {
  'changed-first': (o, body, all, r) => {
    const lead = leadFrom(all, 0, r);
    if (!lead || lead.length < 2) return null;
    return `${reword(lead[0].text, o.lang, r)} ${render(lead.slice(1), body)}`;
  },
  'headline-first': (o, body, all, r) => {
    const lead = leadFrom(all, 0, r);
    if (!lead || lead.length < 2 || !o.title) return null;
    return `${o.title.replace(/[.!?]*$/u, '.')} ${render(lead.slice(1), body)}`;
  },
  'lead-in': (o, body, all, r) => {
    const lead = leadFrom(all, 0, r);
    return lead && `${r.pick(LEAD_IN[o.lang])} ${render(lead, body)}`;
  },
  'run-together-tail': (o, _body, all, r) => {
    const lead = leadFrom(all, 0, r);
    return lead && `${lead.map((s) => s.text.trim()).join(' ')} ${r.pick(TAIL[o.lang])}`;
  },
  'word-cut': (_o, body, all, r) => {
    const ws = render(all, body)
      .split(/\s+/)
      .filter((w) => w !== '');
    const n = r.between(35, 70);
    if (ws.length < n * 1.6) return null;
    return `${ws
      .slice(0, n)
      .join(' ')
      .replace(/[,.;:]$/u, '')}…`;
  },
  headline: (o, body, all, r) => {
    const lead = leadFrom(all, 0, r);
    return lead && o.title && `${o.title}\n${render(lead, body)}`;
  },
  dateline: (o, body, all, r) => {
    const lead = leadFrom(all, 0, r);
    return lead && `${DATELINE[o.lang](r)}${render(lead, body)}`;
  },
  'second-to-fourth': (_o, body, all, r) => {
    const lead = all.length >= 5 ? all.slice(1, 1 + r.between(2, 3)) : null;
    if (!lead || lead.reduce((a, s) => a + words(s.text), 0) < 30) return null;
    return render(lead, body);
  },
  edited: (o, body, all, r) => {
    const lead = leadFrom(all, 0, r);
    return (
      lead &&
      render(
        lead.map((s) => ({ ...s, text: editOneWord(s.text, o.lang, r) })),
        body,
      )
    );
  },
  related: (o, body, all, r) => {
    const lead = leadFrom(all, 0, r);
    const others = (titlesByLang.get(o.lang) ?? []).filter((t) => t !== o.title);
    const links = [r.pick(others), r.pick(others), r.pick(others)];
    return lead && `${render(lead, body)}\n\n${RELATED[o.lang]}\n${links.map((t) => `- ${t}`).join('\n')}`;
  },
  standfirst: (_o, body, all, r) => {
    const lead = leadFrom(all, 0, r);
    return lead && render(lead, body);
  },
};

function build(leadSet, outDir) {
  fs.mkdirSync(outDir, { recursive: true });
  const rows = readJsonl(leadSet);
  const originals = new Map(rows.filter((r) => r.variant === 'original').map((r) => [r.source, r]));
  for (const o of originals.values()) {
    if (!o.title) continue;
    const l = titlesByLang.get(o.lang) ?? [];
    l.push(o.title);
    titlesByLang.set(o.lang, l);
  }
  const teasers = rows.filter((r) => r.variant === 'lead-only');
  const teaserOf = (kind, t) => {
    const o = originals.get(t.source);
    const body = parseBody(o.text, o.lang);
    const all = sentencesOf(body);
    const r = Random.from(21, 'teaser-variants', kind, t.source);
    const text = KINDS[kind](o, body, all, r);
    if (!text) return null;
    const teaser = { ...t, id: `${t.source}~${kind}~0`, variant: kind, text };
    if (kind !== 'standfirst') return { teaser };
    // The teaser first, then the article with the teaser as its standfirst.
    const to = Date.parse(o.ts);
    const tt = Date.parse(t.ts);
    const teaserTs = new Date(Math.min(tt, to - 60_000)).toISOString();
    const articleTs = new Date(Math.max(to, tt + 60_000)).toISOString();
    return {
      teaser: { ...teaser, ts: teaserTs },
      original: { ...o, ts: articleTs, text: `${text}\n\n${o.text}`, variant: 'standfirst-article' },
    };
  };
  const write = (name, pick) => {
    const out = [];
    const replaced = new Map();
    for (const t of teasers) {
      const kind = pick(t);
      const b = teaserOf(kind, t);
      if (!b) continue;
      out.push(b.teaser);
      if (b.original) replaced.set(t.source, b.original);
    }
    for (const o of originals.values()) out.push(replaced.get(o.source) ?? o);
    out.sort((a, b) => Date.parse(a.ts) - Date.parse(b.ts) || (a.id < b.id ? -1 : 1));
    fs.writeFileSync(path.join(outDir, `${name}.jsonl`), out.map((m) => JSON.stringify(m)).join('\n') + '\n');
    return out.length;
  };
  const names = Object.keys(KINDS);
  for (const k of names)
    console.log(
      k,
      write(k, () => k),
    );
  console.log(
    'mixed',
    write('mixed', (t) => Random.from(21, 'teaser-variants-kind', t.source).pick(names)),
  );
}

function score(set, profile, list) {
  const rows = readJsonl(set);
  const out = execFileSync(
    process.execPath,
    [path.join(root, 'bin/doppel.js'), 'dedup', '--profile', profile, '--threads', '1', '--input', set],
    { encoding: 'utf8', maxBuffer: 1 << 28, stdio: ['ignore', 'pipe', 'ignore'] },
  );
  const verdicts = new Map(
    out
      .split('\n')
      .filter((l) => l !== '')
      .map((l) => JSON.parse(l))
      .map((v) => [v.id, v]),
  );
  const gold = new Map(rows.map((r) => [r.id, r.cluster]));
  const seen = new Set();
  let tp = 0;
  let fp = 0;
  let fn = 0;
  const byKind = {};
  const lines = [];
  for (const r of rows) {
    const v = verdicts.get(r.id);
    const had = seen.has(r.cluster);
    byKind[r.variant] ??= { n: 0, found: 0 };
    const k = byKind[r.variant];
    const right = v?.duplicateOf !== undefined && gold.get(v.duplicateOf) === r.cluster;
    if (v?.duplicateOf !== undefined) {
      if (right) tp++;
      else {
        fp++;
        lines.push(`  false link ${r.id} -> ${v.duplicateOf} (${v.method} ${v.similarity})`);
      }
    } else if (had) {
      fn++;
      lines.push(`  missed ${r.id}`);
    }
    if (had) {
      k.n++;
      if (right) k.found++;
    }
    seen.add(r.cluster);
  }
  const kinds = Object.entries(byKind)
    .filter(([, k]) => k.n > 0)
    .map(([name, k]) => `${name} ${(k.found / k.n).toFixed(3)} (${k.found}/${k.n})`)
    .join(', ');
  const precision = tp + fp === 0 ? 1 : tp / (tp + fp);
  const recall = tp + fn === 0 ? 1 : tp / (tp + fn);
  console.log(`${path.basename(set)}: dup P ${precision.toFixed(3)} R ${recall.toFixed(3)}; ${kinds}`);
  if (list) for (const l of lines) console.log(l);
}

const [command, ...args] = process.argv.slice(2);
if (command === 'build' && args.length === 2) build(args[0], args[1]);
else if (command === 'score' && args.length >= 1) {
  const at = args.indexOf('--profile');
  score(args[0], at >= 0 ? args[at + 1] : 'news', args.includes('--list'));
} else {
  process.stderr.write(
    'usage: node scripts/teaser-variants.mjs build LEAD_SET.jsonl OUT_DIR\n' +
      '       node scripts/teaser-variants.mjs score SET.jsonl [--profile news|mail] [--list]\n',
  );
  process.exitCode = 2;
}
