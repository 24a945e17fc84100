import { Parser } from 'htmlparser2';
import { ConcealedNames, concealedSelectors, isNearWhite, layoutConceals } from './concealed-css.js';

/**
 * HTML to plain text on the ingest hot path: htmlparser2's callback parser, no DOM. Only the text a
 * reader sees survives; block boundaries become line breaks so that later stages (hyphen re-join,
 * sentence signatures) see the document's structure.
 */

export interface HtmlText {
  text: string;
  title?: string;
}

/**
 * Content a reader never sees. <head> is not listed: its only text is <title> (returned apart),
 * its scripts and styles are dropped on their own, and text misplaced in it is shown by browsers,
 * which close <head> implicitly at the first body element.
 */
const HIDDEN = new Set([
  'script',
  'style',
  'noscript',
  'template',
  'svg',
  'math',
  'iframe',
  'object',
  'canvas',
  'select',
  'datalist',
  'audio',
  'video',
]);

/** Elements that start and end a paragraph: a blank line around them. */
const PARAGRAPH = new Set([
  'p',
  'h1',
  'h2',
  'h3',
  'h4',
  'h5',
  'h6',
  'blockquote',
  'pre',
  'section',
  'article',
  'header',
  'footer',
  'aside',
  'nav',
  'main',
  'address',
  'figure',
  'table',
  'ul',
  'ol',
  'dl',
  'hr',
  'center',
  'hgroup',
  'menu',
  'dialog',
  'fieldset',
  'form',
  'details',
]);

/** Elements that are lines of their own. */
const LINE = new Set([
  'br',
  'div',
  'li',
  'tr',
  'dt',
  'dd',
  'option',
  'figcaption',
  'caption',
  'summary',
  'legend',
  'thead',
  'tbody',
  'tfoot',
  'body',
]);

/** Table cells: a space, so that a row stays one line and cells do not glue together. */
const CELL = new Set(['td', 'th']);

/** Void elements that break lines: their implied close must not add a second break. */
const VOID_BREAK = new Set(['br', 'hr']);

const HTML_SPACE = /[ \t\n\r\f]+/g;

/**
 * Open elements kept at most; deeper ones are treated as void (opened and closed at once), as
 * browsers cap the tree depth (Blink: 512). htmlparser2 keeps its open-element stacks with
 * unshift/shift/indexOf, O(depth) per tag, so 300 KB of unclosed "<b>" took seconds and 4 MiB
 * hours. Text is unaffected; only the block breaks of elements nested deeper than this change.
 */
export const MAX_HTML_DEPTH = 512;

interface ParserStacks {
  stack: unknown;
  foreignContext: unknown;
  tagname: unknown;
}

/**
 * htmlparser2's Parser with the element depth capped through its documented hook, isVoidElement.
 * The stack sizes are read from the parser's own (internal) arrays; should a later version rename
 * them, the cap is off and html.test.ts's nesting test fails, rather than text changing.
 */
class DepthCappedParser extends Parser {
  protected override isVoidElement(name: string): boolean {
    if (super.isVoidElement(name)) return true;
    const self = this as unknown as ParserStacks;
    // Called for the tag being opened (and again at its end) with `tagname` set to it; for a
    // closing tag `tagname` is empty, and a closing tag must still pop the stack.
    if (self.tagname !== name) return false;
    const { stack, foreignContext } = self;
    return (
      (Array.isArray(stack) && stack.length >= MAX_HTML_DEPTH) ||
      // foreignContext grows with every <svg>/<math>/<title>... and shrinks only on their explicit
      // close tags, so "<div><svg></div>" repeated grows it without growing the stack.
      (Array.isArray(foreignContext) && foreignContext.length >= MAX_HTML_DEPTH)
    );
  }
}

/**
 * What one step of the text stream does; renderText() turns a stream into text. Text: text
 * (collapsed, or verbatim inside <pre>); Space: between table cells or collapsed white space,
 * dropped at a line start; Line: a line break (elements of LINE); Paragraph: a blank line
 * (elements of PARAGRAPH); Br: a line break, two in a row a blank line.
 */
export const TextOp = { Text: 0, Space: 1, Line: 2, Paragraph: 3, Br: 4 } as const;
export type TextOp = (typeof TextOp)[keyof typeof TextOp];

/**
 * An HTML document as the article extractor sees it: the visible text as a stream of steps, each
 * tagged with the element it happened in, and the element tree with attributes reduced to what
 * the extractor weighs. Elements are numbered in document order; element 0 is the document.
 */
export interface ParsedHtml {
  ops: {
    kind: TextOp[];
    /** The innermost open element of each step. */
    node: number[];
    /** The text of each Text step ('' for the others). */
    text: string[];
    /** Whether a Text step is inside a link. */
    link: boolean[];
  };
  nodes: {
    tag: string[];
    parent: number[];
    /** Lower-cased `id` and `class`, space-separated ('' when neither). */
    names: string[];
    /** The `role` attribute, lower case. */
    role: string[];
    /** `hidden`, `aria-hidden="true"` or an inline `display:none`: not shown, though in the text. */
    hidden: boolean[];
    /** First step index inside the element, and one past the last (opEnd set at its close). */
    opStart: number[];
    opEnd: number[];
  };
  title?: string;
  /** <meta property="og:title"> (or name="twitter:title"), when present. */
  metaTitle?: string;
  /** <meta property="og:site_name">, when present. */
  siteName?: string;
}

const DISPLAY_NONE = /display\s*:\s*none|visibility\s*:\s*hidden/i;
/**
 * Inline styles that keep an element's text from a reader: not displayed, zero-sized type, fully
 * transparent, Outlook's mso-hide; and white type (`color:`, or <font color>), unreadable on the
 * default white page unless the element or one around it sets a background. Spam hides words in
 * these (inside and between the words a reader sees) to change its fingerprint, so their text is
 * left out like a <script>'s. One scan of the style reads the properties that matter.
 */
const STYLE_PROPERTY =
  /(?:^|[;\s"'])(display|visibility|font-size|opacity|mso-hide|color|background[\w-]*)\s*:\s*([^;!]*)/gi;
const ZERO_SIZE = /^0(?:\.0+)?(?:px|pt|em|rem|%)?$/;
const ZERO = /^0(?:\.0+)?$/;
const CONCEALS = 1;
const WHITE_TYPE = 2;
const SETS_BACKGROUND = 4;

/** What an inline style does to its element's text (CONCEALS, WHITE_TYPE, SETS_BACKGROUND bits). */
function styleFlags(style: string): number {
  let flags = 0;
  STYLE_PROPERTY.lastIndex = 0;
  for (let m = STYLE_PROPERTY.exec(style); m !== null; m = STYLE_PROPERTY.exec(style)) {
    const property = (m[1] as string).toLowerCase();
    const value = (m[2] as string).trim().toLowerCase();
    if (property === 'color') {
      if (isNearWhite(value)) flags |= WHITE_TYPE;
    } else if (property.startsWith('background')) {
      // A white background is the page's own: white type on it is as unreadable as on none.
      if (!isNearWhite(value)) flags |= SETS_BACKGROUND;
    } else if (
      (property === 'display' && value.startsWith('none')) ||
      (property === 'visibility' && value.startsWith('hidden')) ||
      (property === 'font-size' && ZERO_SIZE.test(value)) ||
      (property === 'opacity' && ZERO.test(value)) ||
      (property === 'mso-hide' && value.startsWith('all'))
    )
      flags |= CONCEALS;
  }
  if (layoutConceals(style)) flags |= CONCEALS;
  return flags;
}

/** Whether a `<style>` rule's declarations hide its elements' text (concealed-css.ts). */
const ruleConceals = (declarations: string): boolean => (styleFlags(declarations) & CONCEALS) !== 0;

/**
 * Parses HTML into the text stream and element tree. Inline elements add nothing, so
 * "<b>wo</b>rd" stays "word"; entities are decoded; runs of HTML white space collapse to one space
 * (inside <pre>, line breaks are kept). One pass, with the element depth capped: linear in the
 * input.
 */
export function parseHtml(html: string): ParsedHtml {
  const ops: ParsedHtml['ops'] = { kind: [], node: [], text: [], link: [] };
  const nodes: ParsedHtml['nodes'] = {
    tag: ['#document'],
    parent: [-1],
    names: [''],
    role: [''],
    hidden: [false],
    opStart: [0],
    opEnd: [0],
  };
  const open: number[] = [0];
  const titleParts: string[] = [];
  let metaTitle: string | undefined;
  let siteName: string | undefined;
  let hidden = 0;
  // Elements whose attributes hide their text (conceals), and elements that set a background
  // (white type on them is readable): the ids of the open ones.
  const concealing: number[] = [];
  const backgrounds: number[] = [];
  // Class and id names that <style> rules hide, and the text of the <style> element being read.
  const concealedNames = new ConcealedNames();
  let styleText: string[] | undefined;
  let pre = 0;
  let links = 0;
  let foreign = 0; // inside svg/math, where <title> is a tooltip, not the document's title
  let inTitle = false;
  let titleDone = false; // only the first <title> names the document

  // Text that arrives in several chunks with no tag between ("<<<<" is one chunk per "<") is one
  // step: the steps stay as many as the tags, not the characters.
  let textStep = -1;
  const pushText = (text: string): void => {
    if (textStep >= 0) ops.text[textStep] += text;
    else {
      push(TextOp.Text, text);
      textStep = ops.kind.length - 1;
    }
  };
  const push = (kind: TextOp, text = ''): void => {
    textStep = -1;
    ops.kind.push(kind);
    ops.node.push(open[open.length - 1] as number);
    ops.text.push(text);
    ops.link.push(links > 0);
  };
  const blockStep = (name: string): void => {
    if (PARAGRAPH.has(name)) push(TextOp.Paragraph);
    else if (name === 'br') push(TextOp.Br);
    else if (LINE.has(name)) push(TextOp.Line);
  };

  const parser = new DepthCappedParser(
    {
      onopentag(name, attribs) {
        textStep = -1;
        const id = nodes.tag.length;
        nodes.tag.push(name);
        nodes.parent.push(open[open.length - 1] as number);
        const names = `${attribs.id ?? ''} ${attribs.class ?? ''}`.trim().toLowerCase();
        nodes.names.push(names);
        nodes.role.push((attribs.role ?? '').toLowerCase());
        nodes.hidden.push(
          attribs.hidden !== undefined ||
            attribs['aria-hidden'] === 'true' ||
            (attribs.style !== undefined && DISPLAY_NONE.test(attribs.style)),
        );
        nodes.opStart.push(ops.kind.length);
        nodes.opEnd.push(ops.kind.length);
        open.push(id);
        if (name === 'meta') {
          const property = (attribs.property ?? attribs.name ?? '').toLowerCase();
          const content = attribs.content?.replace(HTML_SPACE, ' ').trim();
          if (content) {
            if (metaTitle === undefined && (property === 'og:title' || property === 'twitter:title'))
              metaTitle = content;
            else if (siteName === undefined && property === 'og:site_name') siteName = content;
          }
        }
        const style = attribs.style === undefined ? 0 : styleFlags(attribs.style);
        if (
          (attribs.bgcolor !== undefined && !isNearWhite(attribs.bgcolor.trim().toLowerCase())) ||
          style & SETS_BACKGROUND
        )
          backgrounds.push(id);
        const concealedByRule = concealedNames.size > 0 && concealedNames.matches(attribs.id, attribs.class);
        // White type conceals only where no background is set (its own one counts, above).
        const white =
          backgrounds.length === 0 &&
          (style & WHITE_TYPE ||
            (name === 'font' &&
              attribs.color !== undefined &&
              isNearWhite(attribs.color.trim().toLowerCase())));
        if (HIDDEN.has(name)) {
          hidden++;
          if (name === 'svg' || name === 'math') foreign++;
          if (name === 'style' && foreign === 0) styleText = [];
        } else if (
          name !== 'title' &&
          (attribs.hidden !== undefined || style & CONCEALS || white || concealedByRule)
        ) {
          concealing.push(id);
          hidden++;
        } else if (name === 'title' && foreign === 0) {
          inTitle = true;
        } else if (hidden === 0) {
          if (CELL.has(name)) push(TextOp.Space);
          else blockStep(name);
          if (name === 'pre') pre++;
          if (name === 'a') links++;
        }
      },
      onclosetag(name, isImplied) {
        textStep = -1;
        if (open.length <= 1) return;
        const closing = open[open.length - 1] as number;
        if (backgrounds[backgrounds.length - 1] === closing) backgrounds.pop();
        if (HIDDEN.has(name)) {
          hidden--;
          if (name === 'svg' || name === 'math') foreign--;
          if (name === 'style' && styleText !== undefined) {
            for (const selector of concealedSelectors(styleText.join(''), ruleConceals))
              concealedNames.add(selector);
            styleText = undefined;
          }
        } else if (concealing[concealing.length - 1] === closing) {
          concealing.pop();
          hidden--;
        } else if (name === 'title' && inTitle) {
          inTitle = false;
          titleDone = titleParts.length > 0;
        } else if (hidden === 0 && !(isImplied && VOID_BREAK.has(name))) {
          if (name === 'pre' && pre > 0) pre--;
          if (name === 'a' && links > 0) links--;
          if (CELL.has(name)) push(TextOp.Space);
          else blockStep(name);
        }
        const id = open.pop() as number;
        nodes.opEnd[id] = ops.kind.length;
      },
      ontext(data) {
        if (styleText !== undefined) styleText.push(data);
        if (inTitle) {
          if (!titleDone) titleParts.push(data);
        } else if (hidden === 0) {
          if (pre > 0) {
            pushText(data.replace(/\r\n?/g, '\n'));
          } else {
            const collapsed = data.replace(HTML_SPACE, ' ');
            // A lone space inside a run of text (between two character references: "&#x430; &#x431;",
            // which the parser hands over one reference at a time) stays in the run, as it does when
            // the same letters are written as themselves.
            if (collapsed === ' ' && textStep >= 0) pushText(' ');
            else if (collapsed === ' ') push(TextOp.Space);
            else if (collapsed !== '') pushText(collapsed);
          }
        }
      },
    },
    { decodeEntities: true },
  );
  parser.end(html);
  nodes.opEnd[0] = ops.kind.length;

  const parsed: ParsedHtml = { ops, nodes };
  const title = titleParts.join('').replace(HTML_SPACE, ' ').trim();
  if (title !== '') parsed.title = title;
  if (metaTitle !== undefined) parsed.metaTitle = metaTitle;
  if (siteName !== undefined) parsed.siteName = siteName;
  return parsed;
}

/**
 * The text of a parsed document, or of the steps in [start, end) that `keep` accepts. Breaks are held until text
 * follows, so that "</li><li>" is one line break, not two, and the white space between block tags
 * does not turn into stray spaces.
 */
export function renderText(
  ops: ParsedHtml['ops'],
  keep?: (step: number) => boolean,
  start = 0,
  end = ops.kind.length,
): string {
  const out: string[] = [];
  let pendingBreak: 0 | 1 | 2 = 0;
  const { kind, text } = ops;
  for (let i = start; i < end; i++) {
    if (keep !== undefined && !keep(i)) continue;
    switch (kind[i]) {
      case TextOp.Text:
        if (pendingBreak !== 0) {
          if (out.length > 0) out.push(pendingBreak === 2 ? '\n\n' : '\n');
          pendingBreak = 0;
        }
        out.push(text[i] as string);
        break;
      case TextOp.Space:
        if (pendingBreak === 0) out.push(' ');
        break;
      case TextOp.Paragraph:
        pendingBreak = 2;
        break;
      case TextOp.Br:
        pendingBreak = pendingBreak === 0 ? 1 : 2; // <br><br> is a blank line
        break;
      case TextOp.Line:
        if (pendingBreak === 0) pendingBreak = 1;
        break;
    }
  }
  return tidy(out.join(''));
}

/** Converts a whole HTML document to text (every visible element), and its <title>. */
export function htmlToText(html: string): HtmlText {
  const parsed = parseHtml(html);
  const text = renderText(parsed.ops);
  return parsed.title === undefined ? { text } : { text, title: parsed.title };
}

/**
 * Spaces at line edges go, blank lines collapse to one, spaces from adjacent chunks merge. The
 * blanks before a line break are matched only from the start of their run (the lookbehind), so a
 * long run of blanks that ends in no line break costs its length once, not its length squared as
 * `[ \t]*\n` tried from every position in it did.
 */
export function tidy(text: string): string {
  return text
    .replace(/\n[ \t]+/g, '\n')
    .replace(/(?<![ \t])[ \t]+\n/g, '\n')
    .replace(/\n{3,}/g, '\n\n')
    .replace(/ {2,}/g, ' ')
    .trim();
}

const START_SNIFF = 2048;
// Leading comments, then the doctype. One optional comment, not `(?:comment\s*)*`: a run of
// comments is itself "<!--", anything, "-->" (the lazy body may span "-->"), so the two accept the
// same texts, but the starred form tried every way to split "<!---->"-runs (exponential).
export const DOCUMENT_TAG = /^\s*(?:<!--[\s\S]*?-->\s*)?<!doctype\s+html|<(?:html|head|body)[\s>]/i;
const COMMON_TAG =
  /<\/?(?:p|div|br|span|a|b|i|u|em|strong|table|tr|td|th|li|ul|ol|h[1-6]|img|font|meta|title|center|blockquote|pre|hr|link|style|script)\b[^<>]{0,300}>/gi;

/**
 * Whether decoded text is HTML: a doctype or <html>/<head>/<body> near the start, or several
 * common tags there (three, or two when one is a closing tag: plain text almost never has "</p>").
 */
export function looksLikeHtml(text: string): boolean {
  const start = text.slice(0, START_SNIFF);
  if (DOCUMENT_TAG.test(start)) return true;
  let tags = 0;
  let closing = 0;
  for (const match of start.matchAll(COMMON_TAG)) {
    tags++;
    if (match[0].charCodeAt(1) === 0x2f) closing++;
    if (tags >= 3 || (tags >= 2 && closing >= 1)) return true;
  }
  return false;
}
