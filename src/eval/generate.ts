/**
 * Seeded near-duplicate benchmark generator (full documentation: docs/benchmark-generator.md).
 *
 * No public data set labels near-duplicates in Russian, Ukrainian and Persian news or in mail
 * campaigns, so the benchmark is made from real articles and mails by the edits that feeds
 * really apply, each variant labelled with its source's gold cluster:
 *
 * - syndication: an agency dateline ("MOSCOW, Nov 20 (Interfax) - ", "ТАСС, 20 ноября. ",
 *   "به گزارش خبرگزاری فارس، ") and/or 1-2 footer lines (subscribe, copyright, "Ctrl+Enter").
 * - retitle: another title over the same text: an exact duplicate after canonicalization, by
 *   design (the title is not part of the canonical text).
 * - truncate-lede / truncate-end: the first sentence dropped / the first 70-85% of sentences kept.
 * - swap-paragraphs: two paragraphs swapped (two blocks of sentences in a one-paragraph text).
 * - word-edits-5/10/15: that share of the canonical word count replaced, deleted or inserted
 *   (2:1:1), with words of the same document or a short list of common words of the language.
 * - insert-sentence: an editor's note inserted at the middle of the text, by words.
 * - html: a page with head, title, scripts, site menu, headline, the paragraphs in <p>, footer
 *   (a mail becomes an HTML mail: table layout, unsubscribe link, tracking pixel).
 * - legacy-encoding: the text's bytes in base64 `raw`: ru in windows-1251, KOI8-R or cp866 (by
 *   seed), uk in windows-1251, fa in windows-1256 (after ی->ي, ک->ك, Persian digits->ASCII,
 *   which it lacks); en as UTF-8, since English has no legacy code page of interest.
 * - mail-template (mails: SourceDoc.spam defined): the recipient's name in the greeting, tracking
 *   links with a random id, a new order/reference number, 1-3 hash-buster words (spam only).
 * - hash-buster (spam only; only when asked for with `kinds`): a spam copy made to defeat
 *   hashing: the template's greeting, links and reference number, random words inserted (about
 *   10% of the words, made-up or rare), and an unsubscribe line with a per-copy id.
 *
 * Some kinds add typographic noise that canonicalization removes (quote style, dashes, no-break
 * spaces); no kind changes a word beyond what its name says.
 *
 * Reproducibility: the output is a pure function of (inputs, options). Randomness comes only from
 * `Random.from(seed, ...labels)` streams keyed by document id, kind and copy number, so a
 * document's variants do not change when other documents are added or removed; only the feed
 * timeline (when originals appear) depends on the input order. No clock, no locale, no Math.random.
 *
 * Gold labels: a variant's cluster is its source's cluster, and a source's cluster is its own id,
 * unless the sources themselves are near-duplicates (the shared news sets hold wire copies under
 * different ids, containment 0.8-0.98). Such sources share the cluster of the first of them, so
 * that a detector is not charged with false positives for finding real duplicates
 * (`mergeSources`, `DEFAULT_SOURCE_DUPLICATE_RULE`, `sourceClusters`).
 */

import { readFileSync } from 'node:fs';
import iconv from 'iconv-lite';
import { type Charset, encodeText } from '../text/decode/charset.js';
import { languageFromTag, type SupportedLanguage } from '../text/language.js';
import { normalizeText } from '../text/normalize.js';
import { tokenize, tokenWords } from '../text/tokenize.js';
import { hashString, Random } from './random.js';

export interface SourceDoc {
  id: string;
  lang: string;
  text: string;
  title?: string;
  /** Defined for mails (true = spam): mails get mail-template variants instead of news edits. */
  spam?: boolean;
  url?: string;
}

export const VARIANT_KINDS = [
  'original',
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
  'mail-template',
  'hash-buster',
] as const;
export type VariantKind = (typeof VARIANT_KINDS)[number];

export interface LabeledMessage {
  /** `${sourceId}~${kind}~${n}`; the original is `${sourceId}~original~0`. */
  id: string;
  /** Gold label: the source's cluster (its id, or the first id of a group of near-duplicate sources). */
  cluster: string;
  /**
   * Gold story: the cluster, or the first cluster of a group that people judged to report one
   * news story (`GeneratorOptions.sameStory`). Story clustering is scored against this label.
   */
  story: string;
  variant: VariantKind;
  lang: string;
  /** ISO time; a variant comes 2 minutes to 12 hours after its original. */
  ts: string;
  text?: string;
  title?: string;
  html?: string;
  /** Base64 of the text's bytes in a legacy charset (legacy-encoding). */
  raw?: string;
  /** The source document's id (equal to `cluster` unless sources were merged). */
  source: string;
  /** The charset of `raw`, for evaluating charset detection. */
  charset?: Charset;
}

export interface GeneratorOptions {
  seed: number;
  /** Variants per source document, besides its original. */
  variantsPerDoc: number;
  /** Kinds to draw from (default: every kind that applies to the document). */
  kinds?: VariantKind[];
  /** Time of the first original (default 2019-11-20T06:00:00Z: a fixed time keeps output reproducible). */
  startTime?: string;
  /** Extra documents added as originals only, each with its own cluster: different reports of one story. */
  negatives?: SourceDoc[];
  /**
   * Sources that are near-duplicates of each other by this rule share one gold cluster (false:
   * never merge). Default DEFAULT_SOURCE_DUPLICATE_RULE; see `sourceClusters`.
   */
  mergeSources?: Partial<SourceDuplicateRule> | false;
  /**
   * Pairs of document ids judged to report the same story (story-pairs.jsonl "sameStory": true):
   * their clusters share one gold story label.
   */
  sameStory?: ReadonlyArray<readonly [string, string]>;
}

export const DEFAULT_START_TIME = '2019-11-20T06:00:00.000Z';

// ---------------------------------------------------------------------------------------------
// Per-language material. Small hand-written lists: enough variety that copies differ the way
// real ones do, few enough that a reviewer can check every string.

type Lang = SupportedLanguage;

interface LanguagePack {
  datelines: ((date: Date, r: Random) => string)[];
  footers: ((date: Date) => string)[];
  titlePrefixes: string[];
  titleSuffixes: string[];
  /** Replacement words for word edits: frequent, topic-neutral words of news text. */
  commonWords: string[];
  /** Words editors insert: adverbs and particles that fit almost anywhere. */
  insertWords: string[];
  editorNotes: string[];
  nav: string[];
  siteNames: string[];
  copyright: (year: number, site: string) => string;
  greetings: ((name: string) => string)[];
  names: string[];
  trackLabels: string[];
  referenceLabels: string[];
  unsubscribe: string;
  /** Lower-case words after which a full stop is not a sentence end. */
  abbreviations: ReadonlySet<string>;
}

/** Space-separated words: long word lists stay readable and reviewable. */
const list = (words: string): string[] => words.split(' ');

const EN_MONTHS = list('Jan Feb March April May June July Aug Sept Oct Nov Dec');
const RU_MONTHS = list('января февраля марта апреля мая июня июля августа сентября октября ноября декабря');
const UK_MONTHS = list(
  'січня лютого березня квітня травня червня липня серпня вересня жовтня листопада грудня',
);

const day = (d: Date) => d.getUTCDate();
const month = (names: string[], d: Date) => names[d.getUTCMonth()] as string;

const PACKS: Record<Lang, LanguagePack> = {
  en: {
    datelines: [
      (d, r) =>
        `${r.pick(['MOSCOW', 'LONDON', 'WASHINGTON', 'KYIV', 'TEHRAN', 'BRUSSELS'])}, ${month(EN_MONTHS, d)} ${day(d)} (${r.pick(['Reuters', 'Interfax', 'AFP'])}) - `,
      (_d, r) => `${r.pick(['NEW YORK', 'PARIS', 'BERLIN', 'ISTANBUL'])} (${r.pick(['AP', 'Reuters'])}) — `,
    ],
    footers: [
      () => 'Read more on worldnews.example.com.',
      () => '(Reporting by Anna Petrova; Editing by Mark Heinrich)',
      (d) => `© ${d.getUTCFullYear()} Example Wire. All rights reserved.`,
      () => 'Follow us on Twitter and Facebook for the latest news.',
    ],
    titlePrefixes: ['UPDATE 1-', 'BREAKING: ', 'Video: '],
    titleSuffixes: [' - report', ' | World News', ' (updated)'],
    commonWords: list(
      'also new said year people government company week official first last more report city country state president time today former local public major early',
    ),
    insertWords: ['also', 'now', 'reportedly', 'still', 'already', 'officially', 'again'],
    editorNotes: [
      "Editor's note: this story has been updated with additional details.",
      'The company did not immediately respond to a request for comment.',
      'This article was first published on our website earlier today.',
    ],
    nav: ['Home', 'World', 'Business', 'Sport', 'Opinion', 'Contact'],
    siteNames: ['World News Daily', 'The Morning Post', 'Metro Herald'],
    copyright: (year, site) => `© ${year} ${site}. All rights reserved.`,
    greetings: [(n) => `Dear ${n},`, (n) => `Hi ${n},`, (n) => `Hello ${n},`, (n) => `Hey ${n},`],
    names: list('John Maria David Susan Michael Linda James Emma Robert Olga Ahmed'),
    trackLabels: ['Click here: ', 'View the offer: ', 'Details: '],
    referenceLabels: ['Order reference: ', 'Reference number: ', 'Ref. no. '],
    unsubscribe: 'If you no longer wish to receive these emails, unsubscribe here.',
    abbreviations: new Set(
      list(
        'mr mrs ms dr prof st jr sr vs etc inc ltd co corp gov gen col lt sgt rep sen jan feb mar apr jun jul aug sep sept oct nov dec no fig approx est',
      ),
    ),
  },
  ru: {
    datelines: [
      (d, r) =>
        `${r.pick(['МОСКВА', 'САНКТ-ПЕТЕРБУРГ', 'ВАШИНГТОН', 'ЛОНДОН'])}, ${day(d)} ${month(RU_MONTHS, d)} — РИА Новости. `,
      (d) => `ТАСС, ${day(d)} ${month(RU_MONTHS, d)}. `,
      (d) => `Москва. ${day(d)} ${month(RU_MONTHS, d)}. INTERFAX.RU - `,
      (d, r) =>
        `${r.pick(['Москва', 'Казань', 'Новосибирск'])}, ${day(d)} ${month(RU_MONTHS, d)} — ${r.pick(['ПРАЙМ', 'РБК', 'Интерфакс'])}. `,
    ],
    footers: [
      () => 'Подписывайтесь на наш канал в Telegram.',
      () => 'Читайте также: главные новости дня на нашем сайте.',
      (d) => `© ${d.getUTCFullYear()} ТАСС. При перепечатке ссылка обязательна.`,
      () => 'Если вы нашли ошибку, выделите фрагмент текста и нажмите Ctrl+Enter.',
    ],
    titlePrefixes: ['Срочно: ', 'Видео: ', 'Главное: '],
    titleSuffixes: [' — СМИ', ' | Новости дня', ' (обновлено)'],
    commonWords: list(
      'также новый год время страна решение заявил сообщил правительство компания город область человек ранее сегодня вопрос работа проект несколько первый данные президент глава',
    ),
    insertWords: ['также', 'уже', 'ещё', 'официально', 'вновь', 'ранее', 'якобы'],
    editorNotes: [
      'Редакция обратилась за комментарием, но ответа пока не получила.',
      'Ранее эту информацию подтвердили несколько источников.',
      'Материал дополнен новыми подробностями.',
    ],
    nav: ['Главная', 'Новости', 'Политика', 'Экономика', 'Спорт', 'Контакты'],
    siteNames: ['Новости дня', 'Вести Регион', 'Городской портал'],
    copyright: (year, site) => `© ${year} ${site}. Все права защищены.`,
    greetings: [(n) => `Здравствуйте, ${n}!`, (n) => `Добрый день, ${n}!`, (n) => `${n}, добрый день!`],
    names: ['Иван', 'Мария', 'Алексей', 'Ольга', 'Сергей', 'Елена', 'Дмитрий', 'Анна'],
    trackLabels: ['Подробнее: ', 'Перейти к предложению: '],
    referenceLabels: ['Номер заказа: ', 'Номер обращения: '],
    unsubscribe: 'Чтобы отписаться от рассылки, перейдите по ссылке.',
    abbreviations: new Set(
      list('г гг т е д др пр им ул тыс млн млрд руб коп ст проф см рис стр англ лат долл'),
    ),
  },
  uk: {
    datelines: [
      (d) => `КИЇВ, ${day(d)} ${month(UK_MONTHS, d)}. /УНІАН/. `,
      (d, r) =>
        `${r.pick(['Київ', 'Львів', 'Одеса', 'Харків'])}, ${day(d)} ${month(UK_MONTHS, d)} — Укрінформ. `,
      (d) => `Інтерфакс-Україна, ${day(d)} ${month(UK_MONTHS, d)}. `,
    ],
    footers: [
      () => 'Підписуйтесь на наш канал у Telegram.',
      (d) => `© ${d.getUTCFullYear()} УНІАН. Усі права захищено.`,
      () => 'Читайте також: головні новини дня.',
      () => 'Якщо ви помітили помилку, виділіть її та натисніть Ctrl+Enter.',
    ],
    titlePrefixes: ['Терміново: ', 'Відео: ', 'Головне: '],
    titleSuffixes: [' — ЗМІ', ' | Новини дня', ' (оновлено)'],
    commonWords: list(
      'також новий рік час країна рішення заявив повідомив уряд компанія місто область людина раніше сьогодні питання робота проєкт кілька перший дані президент голова',
    ),
    insertWords: ['також', 'вже', 'ще', 'офіційно', 'знову', 'раніше'],
    editorNotes: [
      'Редакція звернулася по коментар, але відповіді поки не отримала.',
      'Раніше цю інформацію підтвердили кілька джерел.',
      'Матеріал доповнено новими подробицями.',
    ],
    nav: ['Головна', 'Новини', 'Політика', 'Економіка', 'Спорт', 'Контакти'],
    siteNames: ['Новини дня', 'Регіональний вісник', 'Міський портал'],
    copyright: (year, site) => `© ${year} ${site}. Усі права захищено.`,
    greetings: [(n) => `Вітаємо, ${n}!`, (n) => `Добрий день, ${n}!`, (n) => `Привіт, ${n}!`],
    names: ['Олена', 'Андрій', 'Тарас', 'Ірина', 'Оксана', 'Микола'],
    trackLabels: ['Детальніше: ', 'Перейти до пропозиції: '],
    referenceLabels: ['Номер замовлення: ', 'Номер звернення: '],
    unsubscribe: 'Щоб відписатися від розсилки, перейдіть за посиланням.',
    abbreviations: new Set(list('р рр т д тис млн млрд грн ст проф див рис вул ім англ')),
  },
  fa: {
    datelines: [
      (_d, r) => `به گزارش خبرگزاری ${r.pick(['فارس', 'ایرنا', 'ایسنا', 'مهر', 'تسنیم'])}، `,
      (_d, r) => `${r.pick(['تهران', 'مشهد', 'اصفهان'])} - ${r.pick(['ایرنا', 'ایسنا'])} - `,
    ],
    footers: [
      () => 'انتهای پیام/',
      () => 'کپی برداری از این خبر با ذکر منبع مجاز است.',
      () => 'اخبار بیشتر را در کانال تلگرام ما دنبال کنید.',
    ],
    titlePrefixes: ['فوری: ', 'ویدئو: '],
    titleSuffixes: [' + فیلم', ' - گزارش'],
    commonWords: list(
      'همچنین جدید سال زمان کشور تصمیم گفت دولت شرکت شهر استان ایران مردم امروز کار طرح اول رئیس مسئولان بخش اعلام برنامه',
    ),
    insertWords: ['همچنین', 'هنوز', 'دوباره', 'رسما', 'اکنون'],
    editorNotes: [
      'این خبر تکمیل می‌شود.',
      'خبرنگار ما برای دریافت توضیحات بیشتر با این نهاد تماس گرفت اما پاسخی دریافت نکرد.',
      'جزئیات بیشتر این خبر متعاقبا اعلام خواهد شد.',
    ],
    nav: ['صفحه اصلی', 'سیاسی', 'اقتصادی', 'ورزشی', 'تماس با ما'],
    siteNames: ['پایگاه خبری امروز', 'خبرنامه شهر'],
    copyright: () => 'کلیه حقوق این سایت محفوظ است.',
    greetings: [(n) => `سلام ${n} عزیز،`, (n) => `${n} گرامی،`],
    names: ['علی', 'مریم', 'رضا', 'زهرا', 'حسین', 'سارا'],
    trackLabels: ['اطلاعات بیشتر: '],
    referenceLabels: ['شماره سفارش: ', 'کد پیگیری: '],
    unsubscribe: 'برای لغو اشتراک اینجا کلیک کنید.',
    abbreviations: new Set<string>(),
  },
};

/** Unknown languages borrow English boilerplate: the benchmark is about the body, not the wrapper. */
function langOf(doc: Pick<SourceDoc, 'lang'>): Lang {
  return languageFromTag(doc.lang) ?? 'en';
}

const HASH_BUSTER_WORDS = list('hyacinth ostrich marmalade quibble lantern zephyr gossamer tundra');

// ---------------------------------------------------------------------------------------------
// Canonical words: the project's own normalization and tokenizer, so that "changed 10% of the
// words" and source similarity are measured on what the signatures see.

export function canonicalWords(text: string): string[] {
  return tokenWords(tokenize(normalizeText(text, { zwnj: 'space' }), 1000));
}

// ---------------------------------------------------------------------------------------------
// Text structure: paragraphs of sentences, each remembering the white space that followed it,
// so that re-rendering an unedited part reproduces it (a glued "inflation.The" stays glued).

interface Sentence {
  text: string;
  /** White space before the next sentence: '' only where the source glued two sentences. */
  sep: string;
}
interface Body {
  paragraphs: Sentence[][];
  paragraphSep: string;
}

const BOUNDARY = /([.!?…؟]+)(["»”’')\]]*)(\s*)/gu;
/** News sentences run to 40 words and more, but an unpunctuated run that long is not one sentence. */
const LONG_SENTENCE_WORDS = 40;

function splitSentences(paragraph: string, abbreviations: ReadonlySet<string>): Sentence[] {
  const out: Sentence[] = [];
  let start = 0;
  for (const m of paragraph.matchAll(BOUNDARY)) {
    const at = m.index;
    const end = at + (m[1] as string).length + (m[2] as string).length;
    const ws = m[3] as string;
    const next = paragraph[end + ws.length];
    if (next === undefined) break;
    const before = paragraph.slice(start, at);
    if (ws === '') {
      // Scraped text glues sentences ("inflation.The protests"); "U.S.A" and "3.5" must stay whole.
      if (!(/\p{Ll}\p{Ll}$/u.test(before) && /\p{Lu}/u.test(next))) continue;
    } else {
      if (/\p{Ll}/u.test(next)) continue; // "17 млн. тонн", "т. е. так"
      if (m[1] === '.') {
        const word = /(\p{L}+)$/u.exec(before)?.[1];
        if (word !== undefined && (word.length === 1 || abbreviations.has(word.toLowerCase()))) continue;
      }
    }
    const text = paragraph.slice(start, end);
    if (text.trim() !== '') out.push({ text, sep: ws });
    start = end + ws.length;
  }
  const rest = paragraph.slice(start);
  if (rest.trim() !== '') out.push({ text: rest, sep: ' ' });
  return out;
}

/**
 * Splits a run of more than `longer` words that does not end like a sentence (or of more than
 * twice that, which no real sentence is) into chunks of about `size` words: the mail corpus has
 * no punctuation at all, and sentence-level kinds need boundaries.
 */
function chunkSentence(sentence: Sentence, longer: number, size: number): Sentence[] {
  const words = sentence.text.split(/\s+/).filter((w) => w !== '');
  const punctuated = /[.!?…؟]["»”’')\]]*$/u.test(sentence.text.trimEnd());
  if (words.length <= (punctuated ? 2 * longer : longer)) return [sentence];
  const pieces = Math.ceil(words.length / size);
  const per = Math.ceil(words.length / pieces);
  const out: Sentence[] = [];
  for (let i = 0; i < words.length; i += per) out.push({ text: words.slice(i, i + per).join(' '), sep: ' ' });
  out[out.length - 1]!.sep = sentence.sep;
  return out;
}

const HAS_WORD = /[\p{L}\p{N}]/u;

/**
 * A "sentence" without a word (a lone "." or "***" line) is punctuation of its neighbour: as a
 * sentence of its own, dropping it would make a truncation that changes no word.
 */
function mergeWordless(paragraphs: Sentence[][], paragraphSep: string): Sentence[][] {
  const out: Sentence[][] = [];
  let pending = ''; // wordless text waiting for the next sentence
  for (const para of paragraphs) {
    const merged: Sentence[] = [];
    for (const s of para) {
      if (HAS_WORD.test(s.text)) {
        merged.push(pending === '' ? s : { ...s, text: pending + s.text });
        pending = '';
        continue;
      }
      const prev = merged[merged.length - 1];
      if (prev !== undefined) {
        prev.text += prev.sep + s.text;
        prev.sep = s.sep;
      } else if (out.length > 0 && merged.length === 0 && pending === '') {
        const last = out[out.length - 1]!;
        const lastSentence = last[last.length - 1]!;
        lastSentence.text += paragraphSep + s.text;
      } else pending += s.text + s.sep;
    }
    if (merged.length > 0) out.push(merged);
  }
  if (pending !== '') {
    if (out.length === 0) out.push([{ text: pending.trimEnd(), sep: ' ' }]);
    else {
      const last = out[out.length - 1]!;
      last[last.length - 1]!.text += paragraphSep + pending.trimEnd();
    }
  }
  return out;
}

function parseBody(text: string, lang: Lang): Body {
  const blank = /\n[ \t]*\n/.test(text);
  const rawParagraphs = blank ? text.split(/\n(?:[ \t]*\n)+/) : text.split('\n');
  const abbreviations = PACKS[lang].abbreviations;
  let paragraphs = rawParagraphs
    .map((p) => p.trim())
    .filter((p) => p !== '')
    .map((p) => splitSentences(p, abbreviations).flatMap((s) => chunkSentence(s, LONG_SENTENCE_WORDS, 20)));
  paragraphs = mergeWordless(paragraphs, blank ? '\n\n' : '\n');
  const count = paragraphs.reduce((n, p) => n + p.length, 0);
  // Sentence-level kinds need a few boundaries; a short text in one or two sentences gets word chunks.
  if (count < 3) paragraphs = paragraphs.map((p) => p.flatMap((s) => chunkSentence(s, 16, 8)));
  return { paragraphs, paragraphSep: blank ? '\n\n' : '\n' };
}

function renderParagraph(sentences: readonly Sentence[]): string {
  return sentences.map((s, i) => (i + 1 < sentences.length ? s.text + s.sep : s.text)).join('');
}

/** A sentence moved away from its neighbour must not stay glued to its new one. */
function unglued(s: Sentence): Sentence {
  return s.sep === '' ? { ...s, sep: ' ' } : s;
}

function renderBody(body: Body): string {
  return body.paragraphs
    .filter((p) => p.length > 0)
    .map(renderParagraph)
    .join(body.paragraphSep);
}

function cloneBody(body: Body): Body {
  return {
    paragraphs: body.paragraphs.map((p) => p.map((s) => ({ ...s }))),
    paragraphSep: body.paragraphSep,
  };
}

/** Locations of sentences in reading order. */
function sentenceSlots(body: Body): { p: number; s: number }[] {
  const slots: { p: number; s: number }[] = [];
  body.paragraphs.forEach((para, p) => {
    para.forEach((_s, s) => {
      slots.push({ p, s });
    });
  });
  return slots;
}

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

interface VariantContext {
  doc: SourceDoc;
  lang: Lang;
  body: Body;
  r: Random;
  /** When the copy appears: datelines and copyright years follow it. */
  date: Date;
  isMail: boolean;
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

function hashBuster(r: Random): string {
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

const BUILDERS: Record<Exclude<VariantKind, 'original'>, (ctx: VariantContext) => Content> = {
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
};

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
export function chooseVariantKinds(doc: SourceDoc, options: { hashBuster?: boolean } = {}): VariantKind[] {
  const sizes = sentenceWords(parseBody(doc.text, langOf(doc)));
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
  if (doc.spam === true && options.hashBuster === true) kinds.push('hash-buster');
  return kinds;
}

// ---------------------------------------------------------------------------------------------
// Source similarity and gold clusters.

function shingles(text: string): Set<string> {
  const words = canonicalWords(text);
  const out = new Set<string>();
  if (words.length < 3) {
    if (words.length > 0) out.add(words.join(' '));
    return out;
  }
  for (let i = 0; i + 3 <= words.length; i++) out.add(`${words[i]} ${words[i + 1]} ${words[i + 2]}`);
  return out;
}

export interface SourceSimilarity {
  a: string;
  b: string;
  /** Word 3-shingle Jaccard resemblance. */
  jaccard: number;
  /** Shared 3-shingles over the smaller document's: high when one is a (truncated) copy of the other. */
  containment: number;
  /** Number of distinct 3-shingles of a and of b. */
  sizes: [number, number];
}

/**
 * When two source documents count as near-duplicates of each other: Jaccard >= `jaccard`, or
 * containment >= `containment` where the smaller has at least `minShingles` shingles and
 * `minRatio` of the larger's. The size conditions keep out what containment alone would merge:
 * one-line mails "contained" in longer ones through shared boilerplate, replies quoting a whole
 * mail, and a 300-word excerpt of a 2,000-word article (ru-00083/84). The generator's own
 * truncations keep 70% of a text and more.
 */
export interface SourceDuplicateRule {
  jaccard: number;
  containment: number;
  minShingles: number;
  minRatio: number;
}

/**
 * Calibrated on ../shared/data: wire and truncated copies in the news sets score containment
 * 0.79-0.98 (Jaccard 0.46-0.95); rewrites of one story (AP and BBC on one event) at most 0.56.
 */
export const DEFAULT_SOURCE_DUPLICATE_RULE: SourceDuplicateRule = {
  jaccard: 0.5,
  containment: 0.75,
  minShingles: 20,
  minRatio: 0.5,
};

/**
 * Pairs of documents sharing at least `minContainment` of the smaller one's 3-shingles, through
 * an inverted index (no all-pairs loop: only documents that share a shingle are compared).
 */
export function findSimilarSources(docs: readonly SourceDoc[], minContainment = 0.3): SourceSimilarity[] {
  const sets = docs.map((d) => shingles(d.text));
  const index = new Map<string, number[]>();
  sets.forEach((set, i) => {
    for (const sh of set) {
      const list = index.get(sh);
      if (list === undefined) index.set(sh, [i]);
      else list.push(i);
    }
  });
  const out: SourceSimilarity[] = [];
  sets.forEach((set, i) => {
    const shared = new Map<number, number>();
    for (const sh of set) for (const j of index.get(sh)!) if (j > i) shared.set(j, (shared.get(j) ?? 0) + 1);
    for (const [j, inter] of [...shared].sort((x, y) => x[0] - y[0])) {
      const sim = similarity(docs[i]!.id, docs[j]!.id, set, sets[j]!, inter);
      if (sim.containment >= minContainment) out.push(sim);
    }
  });
  return out;
}

function similarity(
  a: string,
  b: string,
  sa: Set<string>,
  sb: Set<string>,
  shared?: number,
): SourceSimilarity {
  let inter = shared ?? 0;
  if (shared === undefined) for (const sh of sa) if (sb.has(sh)) inter++;
  const union = sa.size + sb.size - inter;
  const smaller = Math.min(sa.size, sb.size);
  return {
    a,
    b,
    jaccard: union === 0 ? 0 : inter / union,
    containment: smaller === 0 ? 0 : inter / smaller,
    sizes: [sa.size, sb.size],
  };
}

/** True when two sources are near-duplicates by `rule`. */
export function isSourceDuplicate(
  sim: SourceSimilarity,
  rule: SourceDuplicateRule = DEFAULT_SOURCE_DUPLICATE_RULE,
): boolean {
  if (sim.jaccard >= rule.jaccard) return true;
  const smaller = Math.min(...sim.sizes);
  const larger = Math.max(...sim.sizes);
  return (
    sim.containment >= rule.containment && smaller >= rule.minShingles && smaller >= rule.minRatio * larger
  );
}

/**
 * Gold cluster of every source: its own id, or the id of the first document (input order) of a
 * group of near-duplicate sources (connected by pairs that `rule` calls near-duplicates; false:
 * every source is its own cluster).
 */
export function sourceClusters(
  docs: readonly SourceDoc[],
  rule: Partial<SourceDuplicateRule> | false = DEFAULT_SOURCE_DUPLICATE_RULE,
): Map<string, string> {
  const parent = docs.map((_d, i) => i);
  const find = (i: number): number => {
    let x = i;
    while (parent[x] !== x) {
      parent[x] = parent[parent[x]!]!;
      x = parent[x]!;
    }
    return x;
  };
  if (rule !== false) {
    const full = { ...DEFAULT_SOURCE_DUPLICATE_RULE, ...rule };
    const position = new Map(docs.map((d, i) => [d.id, i]));
    // Jaccard >= j implies containment >= j: one scan finds the pairs of either condition.
    for (const sim of findSimilarSources(docs, Math.min(full.containment, full.jaccard))) {
      if (!isSourceDuplicate(sim, full)) continue;
      const ri = find(position.get(sim.a)!);
      const rj = find(position.get(sim.b)!);
      // The root is always the earliest document, so the label is the first id of the group.
      if (ri !== rj) parent[Math.max(ri, rj)] = Math.min(ri, rj);
    }
  }
  return new Map(docs.map((d, i) => [d.id, docs[find(i)]!.id]));
}

// ---------------------------------------------------------------------------------------------
// The generator.

export function messageId(sourceId: string, kind: VariantKind, n: number): string {
  return `${sourceId}~${kind}~${n}`;
}

/** Between originals: 1 to 20 minutes, a busy feed. */
const ORIGINAL_GAP_S: readonly [number, number] = [60, 1200];
/** A copy follows its original after 2 minutes to 12 hours, log-uniform: most copies come soon. */
const VARIANT_DELAY_S: readonly [number, number] = [120, 12 * 3600];

function delaySeconds(r: Random): number {
  const [lo, hi] = VARIANT_DELAY_S;
  return Math.round(Math.exp(r.uniform(Math.log(lo), Math.log(hi))));
}

/**
 * Sources and negatives interleaved as a riffle: each list keeps its order, so negatives given as
 * consecutive pairs (two reports of one story) appear minutes apart, as such reports do.
 */
function riffle<T>(a: readonly T[], b: readonly T[], r: Random): T[] {
  const out: T[] = [];
  let i = 0;
  let j = 0;
  while (i < a.length || j < b.length) {
    const fromA = j >= b.length || (i < a.length && r.next() * (a.length - i + b.length - j) < a.length - i);
    out.push(fromA ? a[i++]! : b[j++]!);
  }
  return out;
}

function validateDocs(docs: readonly SourceDoc[]): void {
  const ids = new Set<string>();
  for (const d of docs) {
    if (typeof d.id !== 'string' || d.id === '')
      throw new Error('every source document needs a non-empty id');
    if (ids.has(d.id)) throw new Error(`duplicate source id: ${d.id}`);
    if (d.text.trim() === '') throw new Error(`source ${d.id} has no text`);
    ids.add(d.id);
  }
}

/**
 * Originals (sources and negatives) and `variantsPerDoc` variants of each source, ordered by ts
 * (then id). Negatives equal to a source (same id and text) are the same document and are not
 * added twice; a different document under a source's id is an error.
 */
export function generateVariants(docs: SourceDoc[], options: GeneratorOptions): LabeledMessage[] {
  const { seed, variantsPerDoc } = options;
  if (!Number.isSafeInteger(seed)) throw new RangeError(`seed must be a safe integer, got ${seed}`);
  if (!Number.isInteger(variantsPerDoc) || variantsPerDoc < 0)
    throw new RangeError(`variantsPerDoc must be a non-negative integer, got ${variantsPerDoc}`);
  const start = Date.parse(options.startTime ?? DEFAULT_START_TIME);
  if (!Number.isFinite(start)) throw new RangeError(`startTime is not an ISO time: ${options.startTime}`);
  validateDocs(docs);
  const byId = new Map(docs.map((d) => [d.id, d]));
  const negatives: SourceDoc[] = [];
  for (const n of options.negatives ?? []) {
    const same = byId.get(n.id);
    if (same !== undefined) {
      // The same article may come from two exports that differ in spacing (a no-break space).
      if (canonicalWords(same.text).join(' ') !== canonicalWords(n.text).join(' '))
        throw new Error(`negative ${n.id} has the id of a different source document`);
      continue;
    }
    byId.set(n.id, n);
    negatives.push(n);
  }
  validateDocs([...docs, ...negatives]);

  const clusters = sourceClusters(
    [...docs, ...negatives],
    options.mergeSources ?? DEFAULT_SOURCE_DUPLICATE_RULE,
  );
  const stories = storyLabels([...docs, ...negatives], clusters, options.sameStory ?? []);
  const allowed = options.kinds === undefined ? undefined : new Set(options.kinds);
  const feed = Random.from(seed, 'feed');
  const timeline = riffle(
    docs.map((d) => ({ doc: d, variants: true })),
    negatives.map((d) => ({ doc: d, variants: false })),
    feed,
  );

  const out: { ms: number; message: LabeledMessage }[] = [];
  let clock = start;
  timeline.forEach(({ doc, variants }, k) => {
    if (k > 0) clock += 1000 * feed.between(ORIGINAL_GAP_S[0], ORIGINAL_GAP_S[1]);
    const cluster = clusters.get(doc.id)!;
    const lang = langOf(doc);
    const base = { cluster, story: stories.get(doc.id)!, lang: doc.lang };
    const original: LabeledMessage = {
      id: messageId(doc.id, 'original', 0),
      ...base,
      variant: 'original',
      ts: new Date(clock).toISOString(),
      ...(doc.title === undefined ? {} : { title: doc.title }),
      text: doc.text,
      source: doc.id,
    };
    out.push({ ms: clock, message: original });
    if (!variants || variantsPerDoc === 0) return;

    const applicable = chooseVariantKinds(doc, { hashBuster: allowed?.has('hash-buster') === true }).filter(
      (kind) => allowed === undefined || allowed.has(kind),
    );
    if (applicable.length === 0) return;
    const order = Random.from(seed, 'kinds', doc.id);
    // A campaign is what mail near-duplicates are: a mail's first variant is always a template copy.
    const kinds = applicable.includes('mail-template')
      ? ['mail-template' as const, ...order.shuffle(applicable.filter((kind) => kind !== 'mail-template'))]
      : order.shuffle(applicable);
    const body = parseBody(doc.text, lang);
    const counts = new Map<VariantKind, number>();
    for (let v = 0; v < variantsPerDoc; v++) {
      const kind = kinds[v % kinds.length] as Exclude<VariantKind, 'original'>;
      const n = counts.get(kind) ?? 0;
      counts.set(kind, n + 1);
      const ms = clock + 1000 * delaySeconds(Random.from(seed, 'delay', doc.id, kind, String(n)));
      const r = Random.from(seed, 'variant', doc.id, kind, String(n));
      const content = BUILDERS[kind]({ doc, lang, body, r, date: new Date(ms), isMail: isMail(doc) });
      const message: LabeledMessage = {
        id: messageId(doc.id, kind, n),
        ...base,
        variant: kind,
        ts: new Date(ms).toISOString(),
        ...content,
        source: doc.id,
      };
      out.push({ ms, message });
    }
  });
  out.sort((x, y) => x.ms - y.ms || (x.message.id < y.message.id ? -1 : x.message.id > y.message.id ? 1 : 0));
  return out.map((o) => o.message);
}

/**
 * Story label of every document: its cluster, with clusters joined by same-story judgements
 * (transitively); a group's label is its earliest document's cluster (input order).
 */
function storyLabels(
  docs: readonly SourceDoc[],
  clusters: ReadonlyMap<string, string>,
  sameStory: ReadonlyArray<readonly [string, string]>,
): Map<string, string> {
  const position = new Map(docs.map((d, i) => [d.id, i]));
  const parent = docs.map((_d, i) => i);
  const find = (i: number): number => {
    let x = i;
    while (parent[x] !== x) x = parent[x]!;
    return x;
  };
  const union = (a: number, b: number) => {
    const ra = find(a);
    const rb = find(b);
    if (ra !== rb) parent[Math.max(ra, rb)] = Math.min(ra, rb);
  };
  // Documents of one gold cluster are one story.
  const firstOfCluster = new Map<string, number>();
  docs.forEach((d, i) => {
    const c = clusters.get(d.id)!;
    const first = firstOfCluster.get(c);
    if (first === undefined) firstOfCluster.set(c, i);
    else union(first, i);
  });
  for (const [a, b] of sameStory) {
    const ia = position.get(a);
    const ib = position.get(b);
    if (ia !== undefined && ib !== undefined) union(ia, ib);
  }
  return new Map(docs.map((d, i) => [d.id, clusters.get(docs[find(i)]!.id)!]));
}

/** id -> gold cluster of generated messages: the `gold` argument of the metrics. */
export function goldClusters(
  messages: readonly Pick<LabeledMessage, 'id' | 'cluster'>[],
): Map<string, string> {
  return new Map(messages.map((m) => [m.id, m.cluster]));
}

// ---------------------------------------------------------------------------------------------
// Story pairs: different reports of one story (or of different stories), judged by people.

export interface StoryPair {
  a: SourceDoc;
  b: SourceDoc;
  /** People judged both to report the same news story (which does not make them near-duplicates). */
  sameStory: boolean;
}

interface StoryPairRow {
  a: { url?: string; lang: string; title?: string; text: string };
  b: { url?: string; lang: string; title?: string; text: string };
  sameStory: boolean;
}

/**
 * Reads ../shared/data/story-pairs.jsonl. Its articles carry no id: an article is given the id
 * of the known document with the same URL or text (the shared news sets hold all of them), else
 * a stable id from its URL, so that one article in several pairs is one document.
 */
export function readStoryPairs(
  path: string,
  options: { knownDocs?: readonly SourceDoc[] } = {},
): StoryPair[] {
  const byUrl = new Map<string, string>();
  const byText = new Map<string, string>();
  for (const d of options.knownDocs ?? []) {
    if (d.url !== undefined) byUrl.set(d.url, d.id);
    byText.set(d.text, d.id);
  }
  const toDoc = (row: StoryPairRow['a']): SourceDoc => {
    const key = row.url ?? row.text;
    const id =
      (row.url === undefined ? undefined : byUrl.get(row.url)) ??
      byText.get(row.text) ??
      `story-${hashString(key).toString(16).padStart(8, '0')}${hashString(key, 0x2545f491).toString(16).padStart(8, '0')}`;
    const doc: SourceDoc = { id, lang: row.lang, text: row.text };
    if (row.title !== undefined) doc.title = row.title;
    if (row.url !== undefined) doc.url = row.url;
    return doc;
  };
  return readFileSync(path, 'utf8')
    .split('\n')
    .filter((line) => line.trim() !== '')
    .map((line, k) => {
      const row = JSON.parse(line) as StoryPairRow;
      if (
        typeof row.a?.text !== 'string' ||
        typeof row.b?.text !== 'string' ||
        typeof row.sameStory !== 'boolean'
      )
        throw new Error(`${path}:${k + 1}: not a story pair {a, b, sameStory}`);
      return { a: toDoc(row.a), b: toDoc(row.b), sameStory: row.sameStory };
    });
}

/** The distinct documents of story pairs, in order of first appearance: pass them as `negatives`. */
export function storyPairDocs(pairs: readonly StoryPair[]): SourceDoc[] {
  const seen = new Map<string, SourceDoc>();
  for (const p of pairs) for (const d of [p.a, p.b]) if (!seen.has(d.id)) seen.set(d.id, d);
  return [...seen.values()];
}

export interface HardNegative extends SourceSimilarity {
  sameStory: boolean;
}

/**
 * Pairs that a detector must NOT call near-duplicates: two reports of one story (the hard case)
 * or of different stories. Story pairs whose texts may themselves be near-duplicates are left
 * out: the shared set holds wire copies and excerpts judged "same story" (containment up to
 * 0.98). The bar is lower than for merging gold clusters (Jaccard or containment alone, without
 * the size conditions): a pair that is merely ambiguous is neither merged nor a negative.
 */
export function hardNegativePairs(
  pairs: readonly StoryPair[],
  rule: Pick<SourceDuplicateRule, 'jaccard' | 'containment'> = DEFAULT_SOURCE_DUPLICATE_RULE,
): HardNegative[] {
  const out: HardNegative[] = [];
  for (const p of pairs) {
    if (p.a.id === p.b.id) continue;
    const sim = similarity(p.a.id, p.b.id, shingles(p.a.text), shingles(p.b.text));
    if (sim.jaccard >= rule.jaccard || sim.containment >= rule.containment) continue;
    out.push({ ...sim, sameStory: p.sameStory });
  }
  return out;
}

/** Source documents from a JSON Lines file ({id, text, lang?, title?, spam?, url?} per line). */
export function readSourceDocs(path: string): SourceDoc[] {
  return readFileSync(path, 'utf8')
    .split('\n')
    .filter((line) => line.trim() !== '')
    .map((line) => {
      const row = JSON.parse(line) as Partial<SourceDoc> & { id?: string | number };
      if (row.id === undefined || typeof row.text !== 'string')
        throw new Error(`${path}: every line needs an id and a text`);
      const doc: SourceDoc = { id: String(row.id), lang: row.lang ?? 'und', text: row.text };
      if (row.title !== undefined) doc.title = row.title;
      if (row.spam !== undefined) doc.spam = row.spam;
      if (row.url !== undefined) doc.url = row.url;
      return doc;
    });
}

/** A seeded sample of `count` documents (a benchmark stays small without favouring the first lines). */
export function sampleDocs(docs: SourceDoc[], count: number, seed: number, label: string): SourceDoc[] {
  const r = Random.from(seed, 'sample', label);
  return r.sample(docs.length, count).map((i) => docs[i]!);
}
