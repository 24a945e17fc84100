import iconv from 'iconv-lite';
import { type Charset, encodeText } from '../../text/decode/charset.js';
import { Random } from '../random.js';
import { HASH_BUSTER_WORDS, type Lang, langOf, PACKS } from './language-packs.js';
import { invisibleCharacters, lookAlikeLetters, tatweel } from './messy.js';
import { leadApplies, leadOnly, reordered, reorderedPart } from './partial.js';
import { SITES, sitePage } from './site-pages.js';
import {
  type Body,
  canonicalWords,
  cloneBody,
  parseBody,
  renderBody,
  renderParagraph,
  type Sentence,
  sentenceSlots,
  unglued,
} from './text.js';
import type { LabeledMessage, SourceDoc, VariantKind } from './types.js';

/**
 * The variant kinds (docs/benchmark-generator.md): one builder per kind, the typographic noise
 * some of them add, and which kinds apply to a source (news or mail).
 */

// ---------------------------------------------------------------------------------------------
// Typographic noise: what copy editors and CMSs change without touching a word (quote style,
// dashes, non-breaking spaces). The canonical text ignores all of it, so it keeps every kind honest.

function typographicNoise(text: string, lang: Lang, r: Random): string {
  let out = text;
  if (r.chance(0.5)) {
    out =
      lang === 'ru' || lang === 'uk'
        ? out.replace(/«/g, '“').replace(/»/g, '”')
        : out.replace(/[“”]/g, '"').replace(/[‘’]/g, "'");
  }
  if (r.chance(0.5)) out = out.replace(/ — /g, ' - ');
  if (r.chance(0.3)) out = out.replace(/(\d) (\p{L})/gu, '$1\u00a0$2');
  return out;
}

// ---------------------------------------------------------------------------------------------
// The kinds.

export interface VariantContext {
  doc: SourceDoc;
  lang: Lang;
  body: Body;
  r: Random;
  /** When the copy appears: datelines and copyright years follow it. */
  date: Date;
  isMail: boolean;
  /** The generator's seed and the copy's number of its kind (site pages: which site). */
  seed: number;
  copy: number;
  /** Headlines of the other sources of the language (site pages' "most read" and related lists). */
  headlines: readonly string[];
}

type Content = Pick<LabeledMessage, 'text' | 'title' | 'html' | 'raw' | 'charset'>;

function withTitle(doc: SourceDoc, content: Content): Content {
  return doc.title === undefined ? content : { title: doc.title, ...content };
}

function syndication(ctx: VariantContext): Content {
  const { r, lang, date } = ctx;
  const pack = PACKS[lang];
  const body = cloneBody(ctx.body);
  const mode = r.weighted([
    ['header', 2],
    ['footer', 1],
    ['both', 2],
  ] as const);
  if (mode !== 'footer') {
    const header = r.pick(pack.datelines)(date, r);
    const first = body.paragraphs[0]?.[0];
    if (first !== undefined && r.chance(0.75)) first.text = header + first.text;
    else body.paragraphs.unshift([{ text: header.replace(/[\s\-—.,،]+$/u, ''), sep: ' ' }]);
  }
  if (mode !== 'header') {
    const count = r.between(1, 2);
    for (const footer of r.shuffle(pack.footers).slice(0, count))
      body.paragraphs.push([{ text: footer(date), sep: ' ' }]);
  }
  return withTitle(ctx.doc, { text: typographicNoise(renderBody(body), lang, r) });
}

function ledeTitle(body: Body): string {
  const first = body.paragraphs[0]?.[0]?.text ?? '';
  const words = first.split(/\s+/).filter((w) => w !== '');
  return words
    .slice(0, 12)
    .join(' ')
    .replace(/[.!?…؟:,;]+$/u, '');
}

function retitle(ctx: VariantContext): Content {
  const { r, doc, lang } = ctx;
  const pack = PACKS[lang];
  const old = doc.title?.trim();
  const candidates: string[] = [];
  if (old !== undefined && old !== '') {
    candidates.push(r.pick(pack.titlePrefixes) + old, old + r.pick(pack.titleSuffixes));
  }
  const lede = ledeTitle(ctx.body);
  if (lede !== '' && lede !== old) candidates.push(lede);
  let title = candidates.length > 0 ? r.pick(candidates) : '';
  if (title === '' || title === old) title = `${r.pick(pack.titlePrefixes)}${old ?? lede}`;
  return { text: typographicNoise(doc.text, lang, r), title };
}

function truncateLede(ctx: VariantContext): Content {
  const body = cloneBody(ctx.body);
  const first = body.paragraphs.findIndex((p) => p.length > 0);
  body.paragraphs[first]!.shift();
  return withTitle(ctx.doc, { text: renderBody(body) });
}

/** Words of each sentence, in reading order (white-space split: only proportions matter). */
function sentenceWords(body: Body): number[] {
  return sentenceSlots(body).map(({ p, s }) => body.paragraphs[p]![s]!.text.split(/\s+/).length);
}

/**
 * Keeps the first 70-85% of the text's words, up to the first sentence end at or past that share
 * (a share of sentences would cut a text that ends in long sentences far shorter), and always
 * drops at least the last sentence.
 */
function truncateEnd(ctx: VariantContext): Content {
  const { r } = ctx;
  const slots = sentenceSlots(ctx.body);
  const sizes = sentenceWords(ctx.body);
  const target = r.uniform(0.7, 0.85) * sizes.reduce((a, b) => a + b, 0);
  let keep = 0;
  let kept = 0;
  while (keep < slots.length - 1 && kept < target) {
    kept += sizes[keep]!;
    keep++;
  }
  const body = cloneBody(ctx.body);
  const last = slots[keep - 1]!;
  body.paragraphs = body.paragraphs.slice(0, last.p + 1);
  body.paragraphs[last.p] = body.paragraphs[last.p]!.slice(0, last.s + 1);
  return withTitle(ctx.doc, { text: renderBody(body) });
}

function swapParagraphs(ctx: VariantContext): Content {
  const { r } = ctx;
  const body = cloneBody(ctx.body);
  const paragraphs = body.paragraphs;
  if (paragraphs.length >= 2) {
    const [i, j] = r.sample(paragraphs.length, 2) as [number, number];
    const tmp = paragraphs[i]!;
    paragraphs[i] = paragraphs[j]!;
    paragraphs[j] = tmp;
  } else {
    // One paragraph: cut it into 2-4 blocks of consecutive sentences and swap two of them.
    const sentences = paragraphs[0]!;
    const blocks = Math.min(sentences.length, r.between(2, 4));
    const cuts = [0, ...r.sample(sentences.length - 1, blocks - 1).map((c) => c + 1), sentences.length];
    const parts = cuts.slice(1).map((end, k) => sentences.slice(cuts[k], end));
    const [i, j] = r.sample(parts.length, 2) as [number, number];
    const tmp = parts[i]!;
    parts[i] = parts[j]!;
    parts[j] = tmp;
    paragraphs[0] = parts.flatMap((part) => [...part.slice(0, -1), unglued(part[part.length - 1]!)]);
  }
  return withTitle(ctx.doc, { text: renderBody(body) });
}

const WORD = /[\p{L}\p{M}\p{N}]+(?:['’ʼ][\p{L}\p{M}\p{N}]+)*/gu;
const ZWNJ = '\u200c';
/** Links and addresses: no editor rewrites a word inside them, and a broken URL is not a word edit. */
const UNEDITABLE = /\b(?:https?:\/\/|www\.)[^\s<>"']+|[\w.+-]+@[\w-]+(?:\.[\w-]+)+/gu;

/** Substitutions are the commonest edit in rewritten copy; deletions and insertions split the rest. */
const EDIT_OPERATIONS = [
  ['replace', 2],
  ['delete', 1],
  ['insert', 1],
] as const;

/** The same case shape as `model`: "Word" -> "Replacement", "WORD" -> "REPLACEMENT". */
function matchCase(word: string, model: string): string {
  const first = model[0] ?? '';
  if (model.length > 1 && model === model.toUpperCase() && model !== model.toLowerCase())
    return word.toUpperCase();
  if (first !== first.toLowerCase() && word[0] === word[0]?.toLowerCase())
    return (word[0] ?? '').toUpperCase() + word.slice(1);
  return word;
}

function fold(word: string): string {
  return canonicalWords(word).join(' ');
}

/**
 * Replaces, deletes or inserts words, `percent` of the text's canonical word count in all
 * (1 at least). Edits touch only letter words outside Persian ZWNJ compounds, because numbers
 * and half-words are not what editors change. Replacements come from the document itself (60%)
 * or the language's list of common words, never a word equal to the one it replaces.
 */
function wordEdits(ctx: VariantContext, percent: number): Content {
  const { r, doc, lang } = ctx;
  const pack = PACKS[lang];
  const text = doc.text;
  const words = [...text.matchAll(WORD)].map((m) => ({ start: m.index, word: m[0] }));
  const protectedSpans = [...text.matchAll(UNEDITABLE)].map((m) => [m.index, m.index + m[0].length] as const);
  const editable = words
    .map((w, i) => ({ ...w, i }))
    .filter(
      (w) =>
        /\p{L}/u.test(w.word) &&
        !protectedSpans.some(([from, to]) => w.start >= from && w.start < to) &&
        text[w.start - 1] !== ZWNJ &&
        text[w.start + w.word.length] !== ZWNJ &&
        fold(w.word) !== '',
    );
  const vocabulary = [...new Set(editable.map((w) => w.word).filter((w) => w.length >= 3))];
  const total = canonicalWords(text).length;
  const edits = Math.min(editable.length, Math.max(1, Math.round((total * percent) / 100)));
  const chosen = r.sample(editable.length, edits).map((k) => editable[k]!);

  const replacement = (target: string): string => {
    const folded = fold(target);
    for (let attempt = 0; attempt < 20; attempt++) {
      const fromDoc = vocabulary.length > 1 && r.chance(0.6);
      const word = fromDoc ? r.pick(vocabulary) : r.pick(pack.commonWords);
      if (fold(word) !== folded) return matchCase(word, target);
    }
    return matchCase(pack.commonWords.find((w) => fold(w) !== folded) ?? 'x', target);
  };

  // Segments alternate: gap before word 0, word 0, gap, word 1, ..., gap after the last word.
  const segments: string[] = [];
  let pos = 0;
  for (const w of words) {
    segments.push(text.slice(pos, w.start), w.word);
    pos = w.start + w.word.length;
  }
  segments.push(text.slice(pos));
  for (const w of chosen) {
    const k = 2 * w.i + 1;
    const op = r.weighted(EDIT_OPERATIONS);
    if (op === 'replace') segments[k] = replacement(w.word);
    else if (op === 'insert')
      segments[k] =
        `${w.word} ${r.chance(0.5) ? r.pick(pack.insertWords) : replacement(w.word).toLowerCase()}`;
    else {
      segments[k] = '';
      const before = segments[k - 1]!;
      const after = segments[k + 1]!;
      // One space goes with the word: "a b, c" -> "a, c"; at a line start the next gap loses its space.
      if (before === '' || before.endsWith('\n')) segments[k + 1] = after.replace(/^[ \t]+/, '');
      else if (/^[ \t]|^[,.;:!?)»”]/.test(after) || after === '')
        segments[k - 1] = before.replace(/[ \t]+$/, '');
    }
  }
  return withTitle(doc, { text: segments.join('') });
}

function insertSentence(ctx: VariantContext): Content {
  const { r, lang } = ctx;
  const body = cloneBody(ctx.body);
  const slots = sentenceSlots(body);
  const note: Sentence = { text: r.pick(PACKS[lang].editorNotes), sep: ' ' };
  // The middle by words, not by sentences: a list of short items at the end ("1. Flu 2. Tec")
  // would pull a sentence-count middle towards the end.
  const sizes = sentenceWords(body);
  const half = sizes.reduce((a, b) => a + b, 0) / 2;
  let index = 0;
  for (let before = 0; index < slots.length - 1 && before + sizes[index]! <= half; index++)
    before += sizes[index]!;
  const at = slots[index];
  if (at === undefined) body.paragraphs.push([note]);
  else if (body.paragraphs.length >= 3 && at.s === 0 && r.chance(0.5))
    body.paragraphs.splice(at.p, 0, [note]);
  else {
    const paragraph = body.paragraphs[at.p]!;
    if (at.s > 0) paragraph[at.s - 1] = unglued(paragraph[at.s - 1]!);
    paragraph.splice(at.s, 0, note);
  }
  return withTitle(ctx.doc, { text: renderBody(body) });
}

function escapeHtml(s: string): string {
  return s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');
}

function html(ctx: VariantContext): Content {
  const { r, lang, doc, date, isMail } = ctx;
  const pack = PACKS[lang];
  const dir = lang === 'fa' ? ' dir="rtl"' : '';
  const paragraphs = ctx.body.paragraphs.map((p) => `<p>${escapeHtml(renderParagraph(p))}</p>`).join('\n');
  if (isMail) {
    return {
      html: [
        `<!DOCTYPE html><html lang="${lang}"${dir}><head><meta charset="utf-8">`,
        `<title>${escapeHtml(doc.title ?? '')}</title>`,
        '<style>body{font-family:Arial,sans-serif}td{padding:12px}.small{font-size:11px;color:#888}</style></head>',
        `<body><table width="600" cellpadding="0" cellspacing="0" align="center"><tr><td>`,
        paragraphs,
        `</td></tr></table><p class="small"><a href="http://mail.example.com/u/${r.hex(12)}">${escapeHtml(pack.unsubscribe)}</a></p>`,
        `<img src="http://track.example.com/o/${r.hex(16)}.gif" width="1" height="1" alt=""></body></html>`,
      ].join('\n'),
    };
  }
  const site = r.pick(pack.siteNames);
  const title = doc.title ?? ledeTitle(ctx.body);
  const nav = pack.nav.map((item, k) => `<li><a href="/section/${k}">${escapeHtml(item)}</a></li>`).join('');
  const headline = doc.title !== undefined && r.chance(0.7) ? `<h1>${escapeHtml(doc.title)}</h1>\n` : '';
  return {
    html: [
      '<!DOCTYPE html>',
      `<html lang="${lang}"${dir}><head><meta charset="utf-8">`,
      `<title>${escapeHtml(title)} | ${escapeHtml(site)}</title>`,
      '<meta name="viewport" content="width=device-width, initial-scale=1">',
      `<link rel="stylesheet" href="/static/css/main.${r.hex(8)}.css">`,
      `<script>window.dataLayer=window.dataLayer||[];function gtag(){dataLayer.push(arguments)}gtag('config','UA-${r.digits(8)}-1');</script>`,
      '</head><body>',
      `<header class="site-header"><a class="logo" href="/">${escapeHtml(site)}</a><nav><ul>${nav}</ul></nav></header>`,
      `<main><article>\n${headline}${paragraphs}\n</article></main>`,
      `<footer><p>${escapeHtml(pack.copyright(date.getUTCFullYear(), site))}</p></footer>`,
      `<script src="/static/js/app.${r.hex(8)}.js" async></script>`,
      '</body></html>',
    ].join('\n'),
  };
}

/**
 * The text as a legacy charset holds it: what a converter writes for characters the code page
 * lacks. cp1256 has only the Arabic yeh and kaf and no Eastern digits; KOI8-R and cp866 have no
 * typographic quotes or dashes. Anything still unrepresentable becomes "?" as iconv writes it.
 */
export function legacyForm(text: string, charset: Charset): string {
  let out = text;
  if (charset === 'windows-1256') {
    out = out
      .replaceAll('ی', 'ي')
      .replaceAll('ک', 'ك')
      .replaceAll('ۀ', 'ه')
      .replace(/[\u06f0-\u06f9]/g, (d) => String.fromCharCode(d.charCodeAt(0) - 0x06f0 + 48))
      .replace(/[\u0660-\u0669]/g, (d) => String.fromCharCode(d.charCodeAt(0) - 0x0660 + 48));
  } else if (charset === 'koi8-r' || charset === 'ibm866') {
    out = out
      .replace(/[«»„“”]/g, '"')
      .replace(/[‘’]/g, "'")
      .replace(/[—–]/g, '-')
      .replace(/…/g, '...');
    if (charset === 'koi8-r') out = out.replace(/№/g, 'N');
  }
  if (charset === 'utf-8') return out;
  return iconv.decode(Buffer.from(encodeText(out, charset)), charset);
}

function legacyCharset(lang: Lang, r: Random): Charset {
  switch (lang) {
    case 'ru':
      return r.pick(['windows-1251', 'koi8-r', 'ibm866'] as const);
    case 'uk':
      return 'windows-1251';
    case 'fa':
      return 'windows-1256';
    default:
      // English has no legacy charset here; UTF-8 bytes still exercise the raw-bytes path.
      return 'utf-8';
  }
}

function legacyEncoding(ctx: VariantContext): Content {
  const charset = legacyCharset(ctx.lang, ctx.r);
  const bytes = encodeText(legacyForm(ctx.doc.text, charset), charset);
  return withTitle(ctx.doc, { raw: Buffer.from(bytes).toString('base64'), charset });
}

const GREETING =
  /^[ \t]*(?:dear|hi|hello|hey|здравствуйте|добрый день|привет|вітаємо|добрий день|привіт|سلام)(?=[\s,!،])(?:[ \t]+[^\s,!،]+){0,3}?[ \t]*[,!،]/iu;
const LINK = /\b(?:https?:\/\/|www\.)[^\s<>"')\]]+|\bURL\b/gu;
const REFERENCE = /\b\d{3,}(?:-\d{3,})+\b|\b\d{6,}\b/g;

export function hashBuster(r: Random): string {
  if (r.chance(0.5)) return r.pick(HASH_BUSTER_WORDS);
  const consonants = 'bcdfghjklmnprstvwxz';
  const vowels = 'aeiou';
  let word = '';
  const syllables = r.between(2, 4);
  for (let i = 0; i < syllables; i++) word += r.pick([...consonants]) + r.pick([...vowels]);
  return word + r.pick([...consonants]);
}

/**
 * One copy of a campaign: the recipient's name in the greeting, tracking links with a
 * per-recipient id, a fresh order/reference number, and 1-3 "hash-buster" words at the end.
 * Links and numbers already in the mail are replaced (the mail corpus writes them as URL and
 * NUMBER placeholders; NUMBER is left alone, URL becomes a link). Spam gets a link, a number
 * and hash-busters even where the mail had none; a legitimate mail (spam: false) is a
 * newsletter or notification, whose copies differ only in what the template fills in.
 */
function mailTemplate(ctx: VariantContext): Content {
  const { r, lang, doc } = ctx;
  const pack = PACKS[lang];
  const sep = ctx.body.paragraphSep === '\n' && !doc.text.includes('\n') ? '\n\n' : ctx.body.paragraphSep;
  const greeting = r.pick(pack.greetings)(r.pick(pack.names));
  const copyId = r.hex(16);
  // Numbers first: the tracking ids put in next must keep their digits.
  let references = 0;
  let text = doc.text.replace(REFERENCE, (m) => {
    references++;
    return m.replace(/\d/g, () => String(r.int(10)));
  });
  let links = 0;
  text = text.replace(LINK, () => `http://track.example.com/c/${copyId}/${links++}`);
  text = GREETING.test(text) ? text.replace(GREETING, greeting) : `${greeting}${sep}${text.trimStart()}`;
  const tail: string[] = [];
  if (doc.spam !== false) {
    if (links === 0) tail.push(`${r.pick(pack.trackLabels)}http://track.example.com/c/${copyId}/0`);
    if (references === 0)
      tail.push(`${r.pick(pack.referenceLabels)}${r.digits(4)}-${r.digits(4)}-${r.digits(4)}`);
    tail.push(Array.from({ length: r.between(1, 3) }, () => hashBuster(r)).join(' '));
  }
  return withTitle(doc, { text: [text.trimEnd(), ...tail].join(sep) });
}

/**
 * A spam copy against hash-based filters: the template copy (greeting with a name, tracking
 * links, a reference number) with about 10% of the word count inserted as random words at random
 * places, and an unsubscribe line carrying a per-copy id.
 */
function hashBusterCopy(ctx: VariantContext): Content {
  const { r, lang } = ctx;
  const templated = mailTemplate(ctx).text ?? ctx.doc.text;
  const parts = templated.split(/( +)/);
  const wordAt = parts.map((p, i) => (i % 2 === 0 && /\p{L}/u.test(p) ? i : -1)).filter((i) => i >= 0);
  const inserts = Math.max(1, Math.round(wordAt.length * r.uniform(0.08, 0.12)));
  for (const k of r.sample(wordAt.length, Math.min(inserts, wordAt.length))) {
    const at = wordAt[k] as number;
    parts[at] = `${parts[at]} ${hashBuster(r)}`;
  }
  const id = r.chance(0.5) ? r.hex(10) : `${r.digits(3)}-${r.hex(6)}`;
  const unsubscribe = r.chance(0.5)
    ? `${PACKS[lang].unsubscribe} http://mail.example.com/unsubscribe?id=${id}`
    : `Unsubscribe id: ${id}`;
  return withTitle(ctx.doc, { text: `${parts.join('')}\n\n${unsubscribe}` });
}

/** The source's home site (site pages): fixed per seed and document. */
export function homeSite(seed: number, docId: string): number {
  return Random.from(seed, 'home-site', docId).int(SITES);
}

/** The page title: the source's title, else the lede's first words. */
export function pageTitle(doc: SourceDoc, body: Body): string {
  return doc.title ?? ledeTitle(body);
}

/** A copy on another site than the source's home: the n-th copy on the n-th next site. */
function sitePageCopy(ctx: VariantContext): Content {
  const { doc, seed, copy } = ctx;
  const site = (homeSite(seed, doc.id) + 1 + (copy % (SITES - 1))) % SITES;
  const html = sitePage({
    seed,
    lang: ctx.lang,
    site,
    title: pageTitle(doc, ctx.body),
    body: ctx.body,
    headlines: ctx.headlines,
    date: ctx.date,
    r: ctx.r,
  });
  return { html };
}

/** Kinds that return null do not apply to the text; chooseVariantKinds leaves them out first. */
function required(text: string | null, kind: string): string {
  if (text === null) throw new Error(`variant kind ${kind} does not apply to this text`);
  return text;
}

export const BUILDERS: Record<Exclude<VariantKind, 'original'>, (ctx: VariantContext) => Content> = {
  syndication,
  retitle,
  'truncate-lede': truncateLede,
  'truncate-end': truncateEnd,
  'swap-paragraphs': swapParagraphs,
  'word-edits-5': (ctx) => wordEdits(ctx, 5),
  'word-edits-10': (ctx) => wordEdits(ctx, 10),
  'word-edits-15': (ctx) => wordEdits(ctx, 15),
  'insert-sentence': insertSentence,
  html,
  'legacy-encoding': legacyEncoding,
  'mail-template': mailTemplate,
  'hash-buster': hashBusterCopy,
  invisible: (ctx) => withTitle(ctx.doc, { text: invisibleCharacters(ctx.doc.text, ctx.r) }),
  lookalike: (ctx) => withTitle(ctx.doc, { text: lookAlikeLetters(ctx.doc.text, ctx.lang, ctx.r) }),
  tatweel: (ctx) => withTitle(ctx.doc, { text: tatweel(ctx.doc.text, ctx.r) }),
  'lead-only': (ctx) =>
    withTitle(ctx.doc, { text: required(leadOnly(ctx.body, ctx.lang, ctx.r), 'lead-only') }),
  reordered: (ctx) => withTitle(ctx.doc, { text: required(reordered(ctx.body, ctx.r), 'reordered') }),
  'reordered-part': (ctx) =>
    withTitle(ctx.doc, { text: required(reorderedPart(ctx.body, ctx.r), 'reordered-part') }),
  'site-page': sitePageCopy,
};

/**
 * Kinds made only when asked for (`kinds`): spam weapons and messy input. The default benchmarks
 * stay what they were.
 */
export const OPT_IN_KINDS: ReadonlySet<VariantKind> = new Set<VariantKind>([
  'hash-buster',
  'invisible',
  'lookalike',
  'tatweel',
  'lead-only',
  'reordered',
  'reordered-part',
  'site-page',
]);

// ---------------------------------------------------------------------------------------------
// Which kinds apply.

export function isMail(doc: Pick<SourceDoc, 'spam'>): boolean {
  return doc.spam !== undefined;
}

const NEWS_KINDS: readonly VariantKind[] = [
  'syndication',
  'retitle',
  'truncate-lede',
  'truncate-end',
  'swap-paragraphs',
  'word-edits-5',
  'word-edits-10',
  'word-edits-15',
  'insert-sentence',
  'html',
  'legacy-encoding',
];
const MAIL_KINDS: readonly VariantKind[] = [
  'mail-template',
  'word-edits-5',
  'word-edits-10',
  'truncate-end',
  'html',
  'legacy-encoding',
];
/**
 * The kinds that make an honest variant of this document: mails get mail-template and the edits
 * a mail relay or template engine makes; news gets the rest. Kinds that drop or move sentences
 * need enough of them to stay near-duplicates: dropping one of two sentences halves a text, so
 * truncation needs three, and the sentence dropped first (the lede, or the last one) must be at
 * most a third of the words.
 */
export function chooseVariantKinds(
  doc: SourceDoc,
  options: { hashBuster?: boolean; optIn?: ReadonlySet<VariantKind> } = {},
): VariantKind[] {
  const lang = langOf(doc);
  const body = parseBody(doc.text, lang);
  const sizes = sentenceWords(body);
  const total = sizes.reduce((a, b) => a + b, 0);
  const base = isMail(doc) ? MAIL_KINDS : NEWS_KINDS;
  const kinds = base.filter((k) => {
    if (k === 'swap-paragraphs') return sizes.length >= 2;
    if (k === 'truncate-end') return sizes.length >= 3 && sizes[sizes.length - 1]! <= total / 3;
    if (k === 'truncate-lede') return sizes.length >= 3 && sizes[0]! <= total / 3;
    return true;
  });
  // Hash-buster copies are a campaign's weapon: spam only, and only when asked for (`kinds`), so
  // that the default benchmarks stay what they were.
  const optIn = options.optIn ?? new Set<VariantKind>(options.hashBuster === true ? ['hash-buster'] : []);
  if (doc.spam === true && optIn.has('hash-buster')) kinds.push('hash-buster');
  // Messy input: obfuscation applies to every text of its languages; the sentence-level kinds and
  // site pages to news long enough for them (a probe with a fixed stream: applicability must not
  // depend on the seed).
  const probe = Random.from(0, 'applies', doc.id);
  if (optIn.has('invisible')) kinds.push('invisible');
  if (optIn.has('lookalike') && (lang === 'en' || lang === 'ru' || lang === 'uk')) kinds.push('lookalike');
  if (optIn.has('tatweel') && lang === 'fa') kinds.push('tatweel');
  if (!isMail(doc)) {
    if (optIn.has('lead-only') && leadApplies(body)) kinds.push('lead-only');
    if (optIn.has('reordered') && reordered(body, probe) !== null) kinds.push('reordered');
    if (optIn.has('reordered-part') && reorderedPart(body, probe) !== null) kinds.push('reordered-part');
    if (optIn.has('site-page')) kinds.push('site-page');
  }
  return kinds;
}
