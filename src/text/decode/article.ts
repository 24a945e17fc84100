import { type ParsedHtml, renderText, TextOp } from './html.js';

/**
 * The article of a web page: its body text without navigation, sidebars, related-story lists,
 * comments, share bars, cookie banners and footers. A content-scoring method in the manner of
 * Readability: paragraphs score the elements that hold them (by length and commas), an element's
 * score is discounted by the share of its text that is link text, and the best element (with the
 * siblings that score near it) is the article; inside it, link lists, forms and elements whose
 * id or class names boilerplate are left out. Linear in the document: every pass walks the steps
 * or the elements once (the element depth is capped by the parser).
 */

export type Extraction = 'article' | 'page';

export interface ArticleText {
  /** The article body, or the whole page's text when no article was found. */
  text: string;
  /** Which of the two `text` is. */
  extraction: Extraction;
  /** The article's title: og:title, the <h1> the <title> names, or the <title> without the site name. */
  title?: string;
}

/** Elements that hold navigation or page furniture wherever they are. */
const FURNITURE_TAGS = new Set([
  'nav',
  'aside',
  'footer',
  'header',
  'button',
  'menu',
  'dialog',
  'select',
  'figure',
  'figcaption',
]);
/** ARIA landmark roles of page furniture. */
const FURNITURE_ROLES = new Set([
  'navigation',
  'menu',
  'menubar',
  'complementary',
  'banner',
  'contentinfo',
  'search',
  'alert',
  'alertdialog',
  'dialog',
  'toolbar',
]);
/** id/class words of furniture (Readability's unlikely-candidate list, with consent banners). */
const UNLIKELY =
  /-ad-|ai2html|banner|breadcrumb|combx|comment|community|consent|cookie|cover-wrap|disqus|extra|footer|gdpr|header|legends|menu|related|remark|replies|rss|shoutbox|sidebar|skyscraper|social|sponsor|supplemental|ad-break|agegate|pagination|pager|popup|yom-remote|newsletter|sign-?up|subscribe|share|sharing|caption|credit|gallery|slideshow|carousel/;
/**
 * The furniture names no retry trusts less: what a reader writes or is asked for around an
 * article (comments, consent, newsletter sign-up, share bars). A page whose article is a few lines
 * (a video page) otherwise had its comments or sign-up box taken as the article by the retries,
 * and pages of one site share those sentences.
 */
const ALWAYS_FURNITURE =
  /comment|consent|cookie|copyright|disqus|footer|gdpr|newsletter|replies|share|sharing|sign-?up|social|subscribe/;
/** ...unless they also name the content (a "content-header" or "main-column" is kept). */
const MAYBE_CONTENT = /and|article|body|column|content|main|shadow/;
const NEGATIVE =
  /-ad-|hidden|^hid$| hid$| hid |^hid |banner|combx|comment|com-|contact|footer|gdpr|masthead|media|meta|outbrain|promo|related|scroll|share|shoutbox|sidebar|skyscraper|sponsor|shopping|tags|widget/;
const POSITIVE = /article|body|content|entry|hentry|h-entry|main|page|pagination|post|text|blog|story/;

/** Elements that make a paragraph of the text in them (the unit that scores). */
const BLOCK_TAGS = new Set([
  'p',
  'div',
  'section',
  'article',
  'main',
  'td',
  'th',
  'li',
  'pre',
  'blockquote',
  'dd',
  'dt',
  'figcaption',
  'h1',
  'h2',
  'h3',
  'h4',
  'h5',
  'h6',
  'body',
]);
/** Containers that are left out of the article when most of their text is link text. */
const CLEANED_TAGS = new Set(['div', 'section', 'ul', 'ol', 'dl', 'table', 'figure']);

/** Elements kept as candidates for the article, and compared with the best. */
const TOP_CANDIDATES = 5;
/** Paragraphs shorter than this (characters) do not score. */
const MIN_PARAGRAPH = 25;
/** Ancestors a paragraph's score reaches: the parent in full, then 1/2, 1/6, 1/9, 1/12. */
const SCORE_LEVELS = 5;
/** An article shorter than this (characters) makes the extractor try again, trusting names less. */
const MIN_ARTICLE = 250;
/**
 * No attempt finding this much (characters): the whole page is used. Low on purpose: a page whose
 * article is one short paragraph (a video or photo page) signed whole is its site's chrome, which
 * every page of the site shares.
 */
const MIN_FALLBACK_ARTICLE = 60;

function tagWeight(tag: string): number {
  switch (tag) {
    case 'div':
    case 'article':
    case 'main':
      return 5;
    case 'pre':
    case 'td':
    case 'blockquote':
      return 3;
    case 'address':
    case 'ol':
    case 'ul':
    case 'dl':
    case 'dd':
    case 'dt':
    case 'li':
    case 'form':
      return -3;
    case 'h1':
    case 'h2':
    case 'h3':
    case 'h4':
    case 'h5':
    case 'h6':
    case 'th':
      return -5;
    default:
      return 0;
  }
}

function nameWeight(names: string): number {
  if (names === '') return 0;
  let weight = 0;
  if (NEGATIVE.test(names)) weight -= 25;
  if (POSITIVE.test(names)) weight += 25;
  return weight;
}

function isFurniture(doc: ParsedHtml, n: number, byName: boolean): boolean {
  const { tag, names, role, hidden } = doc.nodes;
  const t = tag[n] as string;
  if (hidden[n] || FURNITURE_TAGS.has(t) || FURNITURE_ROLES.has(role[n] as string)) return true;
  if (t === 'body' || t === 'html' || t === 'article' || t === 'main' || t === 'a') return false;
  const name = names[n] as string;
  if (name === '' || MAYBE_CONTENT.test(name)) return false;
  return byName ? UNLIKELY.test(name) : ALWAYS_FURNITURE.test(name);
}

const COMMA = /[,،，]/g;

/** What every attempt reads: the page's paragraphs and its elements' sizes (computed once). */
interface PageMeasures {
  /** Text length, link text length and commas of every element's subtree. */
  chars: Float64Array;
  linkChars: Float64Array;
  commas: Float64Array;
  /** Furniture by words and structure, whatever the names (consent notices, comment threads). */
  furniture: Uint8Array;
  /** Child elements with text, and those of them whose first line is a link (a headline). */
  textKids: Uint16Array;
  linkKids: Uint16Array;
  /** The nearest block element of every element (itself when it is one; 0, the document, when none). */
  blockOf: Int32Array;
  paragraphs: Paragraph[];
}

/** A run of text between two breaks, long enough to score and mostly not link text. */
interface Paragraph {
  /** The element of its first text. */
  first: number;
  points: number;
}

function measurePage(doc: ParsedHtml): PageMeasures {
  const { chars, linkChars, commas } = measure(doc);
  const { tag, parent } = doc.nodes;
  const count = tag.length;
  const blockOf = new Int32Array(count);
  for (let n = 1; n < count; n++)
    blockOf[n] = BLOCK_TAGS.has(tag[n] as string) ? n : (blockOf[parent[n] as number] as number);
  const furniture = new Uint8Array(count);
  const notices = noticeSteps(doc);
  if (notices.length > 0) {
    markConsentNotices(doc, notices, chars, blockOf, furniture);
    markLegalFooters(doc, notices, chars, blockOf, furniture);
    markDisclosures(doc, notices, chars, blockOf, furniture);
  }
  markCommentThreads(doc, chars, furniture);
  const textKids = new Uint16Array(count);
  const linkKids = new Uint16Array(count);
  // The first text step at or after each step: an element's first text is nextText[opStart]
  // (text steps are never blank outside <pre>: collapsed white space is a Space step).
  const { kind } = doc.ops;
  const nextText = new Int32Array(kind.length + 1);
  nextText[kind.length] = kind.length;
  for (let i = kind.length - 1; i >= 0; i--)
    nextText[i] = kind[i] === TextOp.Text ? i : (nextText[i + 1] as number);
  markTitledFurniture(doc, nextText, furniture);
  const { opStart, opEnd } = doc.nodes;
  for (let n = 1; n < count; n++) {
    if ((chars[n] as number) === 0) continue;
    const p = parent[n] as number;
    if ((textKids[p] as number) < 0xffff) textKids[p] = (textKids[p] as number) + 1;
    if (
      headlineFirst(doc, nextText[opStart[n] as number] as number, opEnd[n] as number) &&
      (linkKids[p] as number) < 0xffff
    )
      linkKids[p] = (linkKids[p] as number) + 1;
  }
  return {
    chars,
    linkChars,
    commas,
    furniture,
    textKids,
    linkKids,
    blockOf,
    paragraphs: findParagraphs(doc),
  };
}

/** Names of a heading that titles a block of furniture: related posts, comments, share or sign-up boxes. */
const FURNITURE_HEADING =
  /related|comment|replies|share|sharing|newsletter|subscribe|sign-?up|sponsor|promo|outbrain|recommend|popular|trending/;
const NEVER_FURNITURE = new Set(['body', 'html', 'main']);
const HEADING = /^h[1-6]$/;

/**
 * A block that opens with such a heading is that furniture, whatever the block's own names
 * ("You may also like" over teaser posts in a box named like the article's): its posts' teasers
 * otherwise outscore a short article, and every page of the site shares them.
 */
function markTitledFurniture(doc: ParsedHtml, nextText: Int32Array, furniture: Uint8Array): void {
  const { tag, names, parent, opStart, opEnd } = doc.nodes;
  for (let n = 1; n < tag.length; n++) {
    if (!HEADING.test(tag[n] as string)) continue;
    const name = names[n] as string;
    if (name === '' || !FURNITURE_HEADING.test(name)) continue;
    const p = parent[n] as number;
    if (p <= 0 || NEVER_FURNITURE.has(tag[p] as string)) continue;
    // The heading holds the block's first text.
    const first = nextText[opStart[p] as number] as number;
    if (first >= (opStart[n] as number) && first < (opEnd[n] as number)) furniture[p] = 1;
  }
}

/** Steps read to see whether an element's first line is all link text. */
const HEADLINE_STEPS = 16;

/**
 * Whether the text from step `first` to the next line break (or `end`) is all link text: a linked
 * headline on a line of its own. A round-up's "<a>Headline</a>. What happened..." is not.
 */
function headlineFirst(doc: ParsedHtml, first: number, end: number): boolean {
  const { kind, link, text } = doc.ops;
  if (first >= end || !link[first]) return false;
  const stop = Math.min(end, first + HEADLINE_STEPS);
  for (let i = first + 1; i < stop; i++) {
    const k = kind[i];
    if (k === TextOp.Space) continue;
    if (k !== TextOp.Text) return true;
    if (!link[i] && (text[i] as string).trim() !== '') return false;
  }
  return stop === end;
}

/**
 * Any word a consent notice or a footer's legal line has (COOKIE_WORD, DATA_WORD, LEGAL_WORDS):
 * one test per text step, the three apart only on the few steps that pass it.
 */
const NOTICE_TRIGGER =
  /cookie|куки|کوکی|gdpr|personal data|персональн|datenschutz|données personnelles|datos personales|حریم خصوصی|©|copyright|rights reserved|registered|company (?:number|registration)|affiliate|commission|share of the sale|авторск|права защищены|зарегистрирован|мнение редакции|права захищені|зареєстрован|حقوق[^.]{0,40}محفوظ|urheberrecht|rechte vorbehalten|droits réservés|derechos reservados/i;

/** The text steps with a word of a consent notice or a legal line. */
function noticeSteps(doc: ParsedHtml): number[] {
  const { kind, text } = doc.ops;
  const out: number[] = [];
  for (let i = 0; i < kind.length; i++)
    if (kind[i] === TextOp.Text && NOTICE_TRIGGER.test(text[i] as string)) out.push(i);
  return out;
}

/** The word for a cookie in the languages doppel reads. */
const COOKIE_WORD = /cookie|куки|کوکی/i;
/** Data-protection notices that do not say "cookie" (a GDPR consent box). */
const DATA_WORD =
  /gdpr|personal data|персональн|datenschutz|données personnelles|datos personales|حریم خصوصی/i;
/**
 * What a consent notice says besides "cookie": we use them, by continuing you agree, accept all,
 * the privacy policy (en, ru, uk, fa, de, fr, es). An article about cookies rarely says these in
 * one short block; a notice always does.
 */
const CONSENT_WORDS =
  /\b(?:we|site|website) uses?\b|by (?:continuing|clicking|using)|accept|agree|consent|privacy|(?:cookie|your) (?:settings|preferences|policy)|opt[- ]out|используе|продолжая|соглаш|приня|конфиденциальн|використов|продовжуючи|погоджу|прийня|конфіденційн|استفاده|موافق|حریم|verwende|akzeptier|zustimm|einverstanden|datenschutz|utilis|accepte|poursuiv|confidentialit|utiliza|acepta|continúa|privacidad/i;
/**
 * A notice speaks to the reader in the first or second person: "we use cookies", "we have updated
 * our privacy policy, please check the box", "you agree" (en, ru, uk, fa, de, fr, es). A news
 * paragraph on cookies, personal data and consent reports what others did. Asked of a data-
 * protection box, and of a cookie notice that is one paragraph among the article's.
 */
const ASKS_READER =
  /\b(?:we|our|please|you agree|i agree|you accept)\b|мы |наш|вы соглаша|ми |ви погоджу|ما |شما|\bwir\b|\bunser|\bsie stimmen|\bnous\b|\bnotre|\bvous accept|utilizamos|nuestr|usted/i;
/** A consent notice is short: a block of more text than this is not one, whatever it says. */
const MAX_NOTICE = 1200;
/** A notice's container holds the notice and its buttons, little more (characters). */
const NOTICE_EXTRA = 200;

/**
 * Consent notices by their words: a short block that names cookies and asks for consent, with the
 * container that holds little more than it (its buttons), is furniture. Sites name their banners
 * in every way or not at all; the words are what every notice has.
 */
function markConsentNotices(
  doc: ParsedHtml,
  steps: readonly number[],
  chars: Float64Array,
  blockOf: Int32Array,
  furniture: Uint8Array,
): void {
  const { node, text } = doc.ops;
  const { parent, tag } = doc.nodes;
  let checked = -1;
  for (const i of steps) {
    const t = text[i] as string;
    const cookie = COOKIE_WORD.test(t);
    if (!cookie && !DATA_WORD.test(t)) continue;
    let n = blockOf[node[i] as number] as number;
    if (n <= 0 || n === checked || furniture[n] === 1) continue;
    const own = chars[n] as number;
    const block = n;
    for (let p = parent[n] as number; p > 0 && tag[p] !== 'body'; p = parent[p] as number) {
      if ((chars[p] as number) > own + NOTICE_EXTRA) break;
      n = p;
    }
    checked = n;
    if ((chars[n] as number) > MAX_NOTICE) continue;
    // A notice stands apart (its container holds it and its buttons); a block among much more
    // text is a paragraph, perhaps of an article on cookie rules, and must speak to the reader.
    const apart = n !== block || parent[n] === 0 || tag[parent[n] as number] === 'body';
    const notice = renderNode(doc, n);
    if (CONSENT_WORDS.test(notice) && ((cookie && apart) || ASKS_READER.test(notice))) furniture[n] = 1;
  }
}

/**
 * An affiliate disclosure: the site tells the reader it is paid when they buy through its links
 * ("Microsoft may earn an Affiliate Commission if you purchase something through recommended
 * links", "If you buy something through this post, IGN may get a share of the sale"). It names the
 * site, not the story, and stands on every shopping page of it.
 */
const DISCLOSURE_PAID = /affiliate|commission|share of the sale/i;
const DISCLOSURE_READER = /\byou\b|\byour\b/i;
const DISCLOSURE_BUYS = /\b(?:buy|purchase|click|links?)\b/i;
/** A disclosure is one short block (characters); a paragraph on affiliate marketing is longer. */
const MAX_DISCLOSURE = 300;

/** Affiliate disclosures by their words: short blocks that say the site is paid when the reader buys. */
function markDisclosures(
  doc: ParsedHtml,
  steps: readonly number[],
  chars: Float64Array,
  blockOf: Int32Array,
  furniture: Uint8Array,
): void {
  const { node, text } = doc.ops;
  for (const i of steps) {
    if (!DISCLOSURE_PAID.test(text[i] as string)) continue;
    const n = blockOf[node[i] as number] as number;
    if (n <= 0 || furniture[n] === 1 || (chars[n] as number) > MAX_DISCLOSURE) continue;
    const block = renderNode(doc, n);
    if (DISCLOSURE_PAID.test(block) && DISCLOSURE_READER.test(block) && DISCLOSURE_BUYS.test(block))
      furniture[n] = 1;
  }
}

/**
 * The legal lines of a site's footer (en, ru, uk, fa, de, fr, es): copyright, registration,
 * disclaimers. Each names the site, not the story.
 */
const LEGAL_WORDS =
  /©|copyright|rights reserved|registered (?:office|in|with)|company (?:number|registration)|affiliate links|авторск|права защищены|зарегистрирован|мнение редакции|права захищені|зареєстрован|حقوق[^.]{0,40}محفوظ|urheberrecht|rechte vorbehalten|droits réservés|derechos reservados/i;
/** A legal line is short, and so is the footer that holds them (characters). */
const MAX_LEGAL_LINE = 400;
const MAX_FOOTER = 2000;
/** Levels above a legal line searched for the footer: half its text or more is legal lines. */
const FOOTER_LEVELS = 3;
const FOOTER_LEGAL_SHARE = 0.5;
/** A footer has two legal lines or more (an article's one copyright line is no footer). */
const MIN_LEGAL_LINES = 2;

/**
 * A site's footer by its words: short blocks with a copyright or registration line are legal
 * lines, and a container (a few levels up, under MAX_FOOTER characters) with two or more of them
 * making half its text or more is the footer, furniture whatever its names or tags. An article's own last
 * line ("© 2019 The Associated Press. All rights reserved.") stays: it is a small part of the
 * article's container, and people marking article bodies keep it.
 */
function markLegalFooters(
  doc: ParsedHtml,
  steps: readonly number[],
  chars: Float64Array,
  blockOf: Int32Array,
  furniture: Uint8Array,
): void {
  const { node, text } = doc.ops;
  const { parent, tag } = doc.nodes;
  const legal = new Float64Array(tag.length);
  const lines: number[] = [];
  for (const i of steps) {
    if (!LEGAL_WORDS.test(text[i] as string)) continue;
    const n = blockOf[node[i] as number] as number;
    if (n <= 0 || legal[n] !== 0 || (chars[n] as number) > MAX_LEGAL_LINE) continue;
    legal[n] = chars[n] as number;
    lines.push(n);
  }
  // Legal text of each container a few levels up; then the containers mostly of it.
  const held = new Uint16Array(tag.length);
  for (const n of lines)
    for (let a = parent[n] as number, up = 0; a > 0 && up < FOOTER_LEVELS; a = parent[a] as number, up++) {
      legal[a] = (legal[a] as number) + (chars[n] as number);
      if ((held[a] as number) < 0xffff) held[a] = (held[a] as number) + 1;
    }
  for (const n of lines)
    for (let a = parent[n] as number, up = 0; a > 0 && up < FOOTER_LEVELS; a = parent[a] as number, up++) {
      const c = chars[a] as number;
      if (tag[a] === 'body' || c > MAX_FOOTER) break;
      if ((held[a] as number) >= MIN_LEGAL_LINES && (legal[a] as number) >= c * FOOTER_LEGAL_SHARE)
        furniture[a] = 1;
    }
}

/** A comment form's text area sits this close under its form, which has at most this much text. */
const FORM_DEPTH = 8;
const MAX_FORM = 1500;
/**
 * A form with input fields and no text area holds at most this much text when it is a search,
 * sign-up or filter form (its labels and button words); a page-wide form holds more.
 */
const MAX_INPUT_FORM = 500;

/**
 * A comment's first line or two name its writer and when: "jmiller 3 hours ago", "Alex on
 * September 17, 2018 at 6:34 am said:", "averagjoe says:", or a name and a <time> element. A
 * live blog's entries start with a bare time and no verb; an article's short lines say "said"
 * without a colon after it, and "ago" without a count of hours or days before it.
 */
const BYLINE =
  /(?:\b(?:says|said|wrote|writes|commented|replied)|пишет|пише|написал|написав|schrieb|a écrit|dijo|escribió|گفت|نوشت)\s*:|\b(?:\d+|an?|one)\s+(?:second|minute|min|hour|hr|day|week|month|year)s?\s+ago\b|\d+\s*\S+\s+(?:назад|тому|پیش)|\bvor\s+\d+\s+(?:Minute|Stunde|Tag|Woche|Monat|Jahr)|\bil y a\s+\d+|\bhace\s+\d+/i;
/** A byline is one short line, within the first steps of its comment. */
const MAX_BYLINE = 150;
const BYLINE_STEPS = 48;
/** A writer's name on a line of its own is this short. */
const MAX_NAME = 40;
/** Siblings that start with a byline, at least, for a thread. */
const MIN_THREAD = 3;

/**
 * Comment threads without reply links (closed threads, plain lists): three or more siblings
 * that each start with a byline line are comments.
 */
function markBylinedThreads(doc: ParsedHtml, chars: Float64Array, furniture: Uint8Array): void {
  const { kind, text, node } = doc.ops;
  const { tag, parent, opStart, opEnd } = doc.nodes;
  const count = tag.length;
  const bylined = new Uint8Array(count);
  const perParent = new Uint16Array(count);
  let any = false;
  for (let n = 1; n < count; n++) {
    const c = chars[n] as number;
    if (c < 40 || c > MAX_COMMENT || !BLOCK_TAGS.has(tag[n] as string)) continue;
    // The first two lines (the writer's name is often a line of its own above the date): text
    // steps up to the second break after some text; a few steps at most, so that nested elements
    // do not each read a long run of breaks (linear in the page).
    let line = '';
    let lines = 0;
    let open = false;
    // A <time> beside a name on the first line ("Anna 3h"); a live blog's bare time is no byline.
    let timed = false;
    let named = false;
    const end = Math.min(opEnd[n] as number, (opStart[n] as number) + BYLINE_STEPS);
    for (let i = opStart[n] as number; i < end && line.length <= MAX_BYLINE; i++) {
      const k = kind[i];
      if (k === TextOp.Text) {
        const t = text[i] as string;
        line += t;
        if (t.trim() !== '') open = true;
        if (lines === 0) {
          if (tag[node[i] as number] === 'time') timed = true;
          else if (t.trim() !== '') named = true;
        }
      } else if (k !== TextOp.Space && open) {
        open = false;
        line += ' ';
        // A second line only below a name-length first one.
        if (++lines === 2 || line.length > MAX_NAME) break;
      }
    }
    if (line.length > MAX_BYLINE || line.length >= c || !((timed && named) || BYLINE.test(line))) continue;
    bylined[n] = 1;
    const p = parent[n] as number;
    if ((perParent[p] as number) < 0xffff) perParent[p] = (perParent[p] as number) + 1;
    any = true;
  }
  if (!any) return;
  for (let n = 1; n < count; n++)
    if (bylined[n] === 1 && (perParent[parent[n] as number] as number) >= MIN_THREAD) furniture[n] = 1;
}

/** A reader's comment is shorter than this (characters); an article beside a thread is not. */
const MAX_COMMENT = 2000;

/** The reply link under a reader's comment (en, ru, uk, fa, de, fr, es, it, pl; or its arrow alone). */
const REPLY =
  /^[↩⤶↵]$|^(?:↩\s*)?(?:reply|reply to \S.*|antworten|répondre|responder|rispondi|odpowiedz|ответить|відповісти|پاسخ)\s*[↩↓»]?$/i;

/**
 * Comment threads by structure: where reply links sit in several children of one element, each of
 * those children is a comment; a form with a text area is a comment (or contact) form. Both are
 * furniture whatever their names, so a long thread cannot outscore a short article.
 */
function markCommentThreads(doc: ParsedHtml, chars: Float64Array, furniture: Uint8Array): void {
  const { kind, node, text, link } = doc.ops;
  const { tag, parent } = doc.nodes;
  const count = tag.length;
  const replies = new Float64Array(count);
  let any = false;
  for (let i = 0; i < kind.length; i++) {
    if (kind[i] !== TextOp.Text || !link[i]) continue;
    const t = (text[i] as string).trim();
    if (t.length > 40 || !REPLY.test(t)) continue;
    const n = node[i] as number;
    replies[n] = (replies[n] as number) + 1;
    any = true;
  }
  // A page-wide <form> (some CMSs wrap the whole page in one) is not a comment form.
  // A search or option form's labels ("Search in title", "Exact matches only") are the site's
  // words on every page, and weigh as much as a short article.
  for (let n = 1; n < count; n++) {
    const t = tag[n];
    if (t !== 'textarea' && t !== 'input') continue;
    const limit = t === 'textarea' ? MAX_FORM : MAX_INPUT_FORM;
    for (let a = parent[n] as number, up = 0; a > 0 && up < FORM_DEPTH; a = parent[a] as number, up++)
      if (tag[a] === 'form') {
        if ((chars[a] as number) <= limit) furniture[a] = 1;
        break;
      }
  }
  markBylinedThreads(doc, chars, furniture);
  if (!any) return;
  // Subtree sums, and how many of each element's children hold a reply link.
  const holders = new Float64Array(count);
  for (let n = count - 1; n > 0; n--) {
    const p = parent[n] as number;
    if ((replies[n] as number) > 0) {
      replies[p] = (replies[p] as number) + (replies[n] as number);
      holders[p] = (holders[p] as number) + 1;
    }
  }
  // A child with one reply link is one comment; one with more holds a thread of its own (or
  // the article and its thread, when another reply link is elsewhere), and its children decide.
  for (let n = 1; n < count; n++) {
    const p = parent[n] as number;
    if ((replies[n] as number) === 1 && (holders[p] as number) >= 2 && (chars[n] as number) <= MAX_COMMENT)
      furniture[n] = 1;
  }
}

/** Paragraphs score by length and commas (commas mark sentences of prose, not lists of links). */
function findParagraphs(doc: ParsedHtml): Paragraph[] {
  const out: Paragraph[] = [];
  const { kind, node, text, link } = doc.ops;
  let length = 0;
  let linkLength = 0;
  let commaCount = 0;
  let first = -1;
  const flush = (): void => {
    if (first >= 0 && length >= MIN_PARAGRAPH && linkLength / length <= 0.5)
      out.push({ first, points: 1 + commaCount + Math.min(Math.floor(length / 100), 3) });
    length = 0;
    linkLength = 0;
    commaCount = 0;
    first = -1;
  };
  for (let i = 0; i < kind.length; i++) {
    const k = kind[i];
    if (k === TextOp.Text) {
      const t = text[i] as string;
      const l = t.trim().length;
      if (l === 0) continue;
      if (first < 0) first = node[i] as number;
      length += l;
      if (link[i]) linkLength += l;
      commaCount += t.match(COMMA)?.length ?? 0;
    } else if (k !== TextOp.Space) {
      flush();
    }
  }
  flush();
  return out;
}

function measure(doc: ParsedHtml): { chars: Float64Array; linkChars: Float64Array; commas: Float64Array } {
  const count = doc.nodes.tag.length;
  const chars = new Float64Array(count);
  const linkChars = new Float64Array(count);
  const commas = new Float64Array(count);
  const { kind, node, text, link } = doc.ops;
  for (let i = 0; i < kind.length; i++) {
    if (kind[i] !== TextOp.Text) continue;
    const n = node[i] as number;
    const t = text[i] as string;
    const length = t.trim().length;
    chars[n] = (chars[n] as number) + length;
    if (link[i]) linkChars[n] = (linkChars[n] as number) + length;
    commas[n] = (commas[n] as number) + (t.match(COMMA)?.length ?? 0);
  }
  // Children are numbered after their parents: one descending pass sums every subtree.
  const { parent } = doc.nodes;
  for (let n = count - 1; n > 0; n--) {
    const p = parent[n] as number;
    chars[p] = (chars[p] as number) + (chars[n] as number);
    linkChars[p] = (linkChars[p] as number) + (linkChars[n] as number);
    commas[p] = (commas[p] as number) + (commas[n] as number);
  }
  return { chars, linkChars, commas };
}

/** The whole page's text (every visible element) and the article's title: extraction off. */
export function wholePage(doc: ParsedHtml): ArticleText {
  const out: ArticleText = { text: renderText(doc.ops), extraction: 'page' };
  const title = articleTitle(doc);
  if (title !== undefined) out.title = title;
  return out;
}

/** Finds the article of a parsed page; the whole page's text when there is none. */
export function extractArticle(doc: ParsedHtml): ArticleText {
  const title = articleTitle(doc);
  // Names are a strong hint but a noisy one ("pagebuilder-pagerow" holds "pager", a headline's
  // "content-wrapper" outweighs a body of many links): when an attempt finds no article of
  // MIN_ARTICLE characters, the next trusts names less; the longest attempt is kept.
  const page = measurePage(doc);
  let body: string | undefined;
  // No paragraph anywhere: no attempt can find an article.
  for (const attempt of page.paragraphs.length === 0 ? [] : ATTEMPTS) {
    const found = articleBody(doc, page, attempt, title);
    if (found !== undefined && (body === undefined || found.length > body.length)) body = found;
    if (body !== undefined && body.length >= MIN_ARTICLE) break;
  }
  if (body !== undefined && body.length < MIN_FALLBACK_ARTICLE) body = undefined;
  if (body === undefined && title !== undefined) body = stubArticle(doc, title);
  const text = body ?? renderText(doc.ops);
  const out: ArticleText = { text, extraction: body === undefined ? 'page' : 'article' };
  if (title !== undefined) out.title = title;
  return out;
}

interface Attempt {
  /** Elements whose id or class names furniture are left out. */
  furnitureByName: boolean;
  /** Names of content raise an element's score, names of furniture lower it. */
  weighNames: boolean;
  /** Link-heavy containers inside the article are left out. */
  clean: boolean;
}

const ATTEMPTS: Attempt[] = [
  { furnitureByName: true, weighNames: true, clean: true },
  { furnitureByName: false, weighNames: true, clean: true },
  { furnitureByName: false, weighNames: false, clean: true },
  { furnitureByName: false, weighNames: false, clean: false },
];

function articleBody(
  doc: ParsedHtml,
  page: PageMeasures,
  attempt: Attempt,
  title: string | undefined,
): string | undefined {
  const byName = attempt.furnitureByName;
  const { tag, parent, names } = doc.nodes;
  const { chars, linkChars, commas, blockOf } = page;
  const weigh = (n: number): number => (attempt.weighNames ? nameWeight(names[n] as string) : 0);
  const count = tag.length;
  // Furniture, inherited: everything inside a <nav> or a "sidebar" is furniture too.
  const furniture = new Uint8Array(count);
  for (let n = 1; n < count; n++)
    furniture[n] =
      furniture[parent[n] as number] === 1 || page.furniture[n] === 1 || isFurniture(doc, n, byName) ? 1 : 0;
  const linkDensity = (n: number): number => {
    const c = chars[n] as number;
    return c === 0 ? 0 : (linkChars[n] as number) / c;
  };

  // Each paragraph outside furniture scores the ancestors of its block element.
  const score = new Float64Array(count);
  const scored = new Uint8Array(count);
  for (const { first, points } of page.paragraphs) {
    if (furniture[first] === 1) continue;
    let a = parent[blockOf[first] as number] as number;
    for (let level = 0; level < SCORE_LEVELS && a > 0; level++) {
      if (scored[a] === 0) {
        scored[a] = 1;
        score[a] = tagWeight(tag[a] as string) + weigh(a);
      }
      score[a] =
        (score[a] as number) + (level === 0 ? points : level === 1 ? points / 2 : points / (level * 3));
      a = parent[a] as number;
    }
  }

  // The best elements, best first.
  const best: number[] = [];
  for (let n = 1; n < count; n++) {
    if (scored[n] === 0) continue;
    const s = (score[n] as number) * (1 - linkDensity(n));
    score[n] = s;
    if (
      s <= 0 ||
      (best.length === TOP_CANDIDATES && s <= (score[best[TOP_CANDIDATES - 1] as number] as number))
    )
      continue;
    let at = best.length;
    while (at > 0 && s > (score[best[at - 1] as number] as number)) at--;
    best.splice(at, 0, n);
    if (best.length > TOP_CANDIDATES) best.pop();
  }
  let top = best[0];
  if (top === undefined) return undefined;
  top = longerProse(doc, page, best, score, top);
  // The element the paragraphs chose; the steps below may widen the article around it.
  const core = top;
  const topScore = score[top] as number;

  // Paragraphs each wrapped in a card of their own make near-equal candidates: when three or
  // more score near the best, their nearest common ancestor with it holds the article.
  const near = best.slice(1).filter((n) => (score[n] as number) >= topScore * 0.75);
  if (near.length >= 3) {
    const holds = new Map<number, number>();
    for (const n of near)
      for (let a = parent[n] as number; a > 0; a = parent[a] as number) holds.set(a, (holds.get(a) ?? 0) + 1);
    for (let a = parent[top] as number; a > 0 && tag[a] !== 'body'; a = parent[a] as number) {
      if ((holds.get(a) ?? 0) >= 3) {
        top = a;
        break;
      }
    }
  }

  // A parent that scores more than its best child holds the article with it (paragraphs split
  // over several wrappers); climb while the score grows.
  let last = score[top] as number;
  for (let p = parent[top] as number; p > 0 && scored[p] === 1; p = parent[p] as number) {
    const s = score[p] as number;
    if (s < last / 3) break;
    if (s > last) {
      top = p;
      break;
    }
    last = s;
  }

  // Siblings that score near the best element belong to the article (a lead outside the body
  // wrapper, the continuation after an inline advert).
  const selected: number[] = [top];
  const p = parent[top] as number;
  if (p >= 0) {
    const threshold = Math.max(10, (score[top] as number) * 0.2);
    for (let n = top + 1; n < count; n++) {
      const q = parent[n] as number;
      if (q !== p) continue;
      if (furniture[n] === 1) continue;
      const ld = linkDensity(n);
      const c = chars[n] as number;
      if (
        (scored[n] === 1 && (score[n] as number) >= threshold) ||
        (tag[n] === 'p' &&
          ((c > 80 && ld < 0.25) || (c > 0 && ld === 0 && /\.( |$)/.test(renderNode(doc, n)))))
      )
        selected.push(n);
    }
    for (let n = top - 1; n > p; n--) {
      if (parent[n] !== p || furniture[n] === 1) continue;
      if (scored[n] === 1 && (score[n] as number) >= threshold) selected.push(n);
    }
  }

  // A body split into several containers of one class (between them figures, quotes, adverts):
  // the others of the best element's class and tag join it.
  const topNames = names[top] as string;
  if (topNames !== '') {
    const end = doc.nodes.opEnd[top] as number;
    for (let n = 1; n < count; n++) {
      if (n === top || names[n] !== topNames || tag[n] !== tag[top] || furniture[n] === 1) continue;
      if (
        (doc.nodes.opStart[n] as number) >= (doc.nodes.opStart[top] as number) &&
        (doc.nodes.opStart[n] as number) < end
      )
        continue;
      if (linkDensity(n) < 0.25 && (chars[n] as number) > 0) selected.push(n);
    }
  }

  // Inside the article: furniture and link-heavy containers go, but not the ones that hold the
  // element the paragraphs chose (a wrapper that also holds a share bar has link text enough).
  const holdsCore = new Uint8Array(count);
  for (let a = core; a > 0; a = parent[a] as number) holdsCore[a] = 1;
  const dropped = new Uint8Array(count);
  const inside = new Uint8Array(count);
  for (const n of selected) inside[n] = 1;
  const titleKey = title === undefined ? undefined : sameTextKey(title);
  let headlines = 0;
  for (let n = 1; n < count; n++) {
    const q = parent[n] as number;
    if (inside[n] === 1) continue;
    if (inside[q] !== 1) continue;
    inside[n] = 1;
    if (dropped[q] === 1 || furniture[n] === 1) {
      dropped[n] = 1;
      continue;
    }
    const t = tag[n] as string;
    // The headline is the message's title, apart from the body (as a feed gives them): so the
    // page and the feed's text of one article are the same text.
    if (t === 'h1' && titleKey !== undefined && headlines++ < MAX_HEADLINES) {
      if (sameTextKey(renderNode(doc, n)) === titleKey) {
        dropped[n] = 1;
        continue;
      }
    }
    const ld = linkDensity(n);
    if (!attempt.clean || holdsCore[n] === 1) continue;
    if (CLEANED_TAGS.has(t) && (commas[n] as number) < 10) {
      const weight = weigh(n);
      if ((ld > 0.2 && weight < 25) || ld > 0.5 || weight + (score[n] as number) < 0) dropped[n] = 1;
    } else if (CLEANED_TAGS.has(t) && isLinkList(page, n, ld)) {
      // A list of headlines with a teaser each has commas enough to pass for prose.
      dropped[n] = 1;
    } else if (/^h[1-6]$/.test(t) && (weigh(n) < 0 || ld > 0.33)) {
      dropped[n] = 1;
    }
  }
  const { node } = doc.ops;
  const { opStart, opEnd } = doc.nodes;
  let from = doc.ops.kind.length;
  let to = 0;
  for (const n of selected) {
    from = Math.min(from, opStart[n] as number);
    to = Math.max(to, opEnd[n] as number);
  }
  const body = renderText(
    doc.ops,
    (i) => {
      const n = node[i] as number;
      return inside[n] === 1 && dropped[n] === 0;
    },
    from,
    to,
  );
  return body === '' ? undefined : body;
}

/** A best element of less text than this (characters outside links) may be a caption... */
const SHORT_BLOCK = 600;
/** ...and a runner-up within this share of its score... */
const RUNNER_UP_SCORE = 0.5;
/** ...with this many times its text outside links, apart from it, is the article. */
const RUNNER_UP_PROSE = 2;
/** ...and little link text (a list of headlines with teasers has much text and many links). */
const RUNNER_UP_LINKS = 0.15;

/**
 * The best element, or when it is a short block, a runner-up that scores nearly as well with much
 * more text outside links elsewhere on the page: commas make a photo caption or a short quote box
 * outscore a body of plain sentences, and a short block is rarely the article beside a long one.
 */
function longerProse(
  doc: ParsedHtml,
  page: PageMeasures,
  best: readonly number[],
  score: Float64Array,
  top: number,
): number {
  const { opStart, opEnd } = doc.nodes;
  const prose = (n: number): number => (page.chars[n] as number) - (page.linkChars[n] as number);
  const topScore = score[top] as number;
  // A long best element is an article: comment threads are often longer still.
  if (prose(top) > SHORT_BLOCK) return top;
  let chosen = top;
  for (const n of best) {
    if (n === top || (score[n] as number) < topScore * RUNNER_UP_SCORE) continue;
    const nested =
      ((opStart[n] as number) <= (opStart[top] as number) &&
        (opEnd[top] as number) <= (opEnd[n] as number)) ||
      ((opStart[top] as number) <= (opStart[n] as number) && (opEnd[n] as number) <= (opEnd[top] as number));
    const c = page.chars[n] as number;
    const ld = c === 0 ? 0 : (page.linkChars[n] as number) / c;
    if (nested || ld > RUNNER_UP_LINKS || isLinkList(page, n, ld)) continue;
    if (prose(n) >= prose(chosen) * RUNNER_UP_PROSE) chosen = n;
  }
  return chosen;
}

/**
 * Items at least, nearly all of them with a link, 15% of the text or more in links: six linked
 * headlines with 300-character teasers and a Read More link each are 17%.
 */
const LINK_LIST_MIN = 5;
const LINK_LIST_ITEMS = 0.8;
const LINK_LIST_DENSITY = 0.15;

/**
 * A list of links, each with a line or two of its own (related stories with teasers, "read
 * more"): repeated items nearly every one of which starts with a linked headline on a line of its
 * own. Prose with links in it is items most of which start with words; a round-up of the day's
 * news ("<a>Headline</a>. What happened") is items that start with a link inside a sentence.
 */
function isLinkList(page: PageMeasures, n: number, linkDensity: number): boolean {
  const items = page.linkKids[n] as number;
  return (
    items >= LINK_LIST_MIN &&
    items >= (page.textKids[n] as number) * LINK_LIST_ITEMS &&
    linkDensity >= LINK_LIST_DENSITY
  );
}

/**
 * On a page where no article was found (no paragraph, or too little text around them), the text of
 * its one `<article>` element, without furniture inside it and without a headline equal to the
 * title: on such a page, a few words (a stub: an agency's dateline under the headline). Signed whole, such a page would be its site's chrome, which every
 * stub page of the site shares; its few words are signed with the title instead (a stub body,
 * docs/signatures.md). Undefined when the page has no `<article>` or more than one.
 */
function stubArticle(doc: ParsedHtml, title: string): string | undefined {
  const { tag, parent, opStart, opEnd } = doc.nodes;
  let article = -1;
  for (let n = 1; n < tag.length; n++) {
    if (tag[n] !== 'article') continue;
    if (article >= 0) return undefined;
    article = n;
  }
  if (article < 0) return undefined;
  const titleKey = sameTextKey(title);
  const skip = new Uint8Array(tag.length);
  let headlines = 0;
  for (let n = article + 1; n < tag.length && (opStart[n] as number) < (opEnd[article] as number); n++) {
    const p = parent[n] as number;
    if (skip[p] === 1 || isFurniture(doc, n, true)) skip[n] = 1;
    else if (tag[n] === 'h1' && headlines++ < MAX_HEADLINES && sameTextKey(renderNode(doc, n)) === titleKey)
      skip[n] = 1;
  }
  const { node } = doc.ops;
  const text = renderText(
    doc.ops,
    (i) => skip[node[i] as number] !== 1,
    opStart[article] as number,
    opEnd[article] as number,
  );
  return text.trim() === '' ? undefined : text;
}

/** Headlines compared with the title, at most (a page has one; a hostile one may have millions). */
const MAX_HEADLINES = 3;

const sameTextKey = (s: string): string => s.replace(/\s+/g, ' ').trim().toLowerCase();

function renderNode(doc: ParsedHtml, n: number): string {
  const start = doc.nodes.opStart[n] as number;
  const end = doc.nodes.opEnd[n] as number;
  return renderText(doc.ops, undefined, start, end);
}

/** A headline and the site name after it (last separator), or before it (first separator). */
const SITE_AFTER = /^(.+)\s+[|\-–—·•»«/\\]\s+([^|\-–—·•»«/\\]+)$/;
const SITE_BEFORE = /^([^|\-–—·•»«/\\]+?)\s+([|\-–—·•»«/\\])\s+(.+)$/;
/** Site names are short: an edge part of more words is part of the headline. */
const MAX_SITE_WORDS = 4;

const wordCount = (s: string): number => s.split(/\s+/).filter((w) => w !== '').length;

/**
 * A <title> without the site name: the og:site_name where it stands at either edge, else a short
 * last part ("Headline - WSJ", "Headline | The Site"), else a short first part before a pipe
 * ("WSJ | Headline").
 */
function withoutSiteName(title: string, siteName: string | undefined): string {
  const after = SITE_AFTER.exec(title);
  const before = SITE_BEFORE.exec(title);
  const site = siteName?.trim().toLowerCase();
  if (site !== undefined) {
    if (after?.[2]?.trim().toLowerCase() === site) return (after[1] as string).trim();
    if (before?.[1]?.trim().toLowerCase() === site) return (before[3] as string).trim();
  }
  if (after && wordCount(after[2] as string) <= MAX_SITE_WORDS && wordCount(after[1] as string) >= 2)
    return (after[1] as string).trim();
  // A short first part before a dash is as often the headline's own topic ("Brexit - ..."): only
  // a pipe marks it as the site's.
  if (
    before?.[2] === '|' &&
    wordCount(before[1] as string) <= MAX_SITE_WORDS &&
    wordCount(before[3] as string) >= 3
  )
    return (before[3] as string).trim();
  return title;
}

/**
 * The article's title: og:title (or twitter:title), else an <h1> that the <title> contains, else
 * the <title>; without the site name.
 */
function articleTitle(doc: ParsedHtml): string | undefined {
  if (doc.metaTitle !== undefined) return withoutSiteName(doc.metaTitle, doc.siteName);
  if (doc.title === undefined) return undefined;
  const { tag } = doc.nodes;
  const lowerTitle = doc.title.toLowerCase();
  let seen = 0;
  for (let n = 1; n < tag.length && seen < 3; n++) {
    if (tag[n] !== 'h1') continue;
    seen++;
    const h1 = renderNode(doc, n).replace(/\s+/g, ' ').trim();
    if (wordCount(h1) >= 2 && lowerTitle.includes(h1.toLowerCase())) return h1;
  }
  return withoutSiteName(doc.title, doc.siteName);
}
