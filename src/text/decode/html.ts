import { Parser } from 'htmlparser2';

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
 * Converts HTML to text. Inline elements add nothing, so "<b>wo</b>rd" stays "word"; entities are
 * decoded; runs of HTML white space collapse to one space (inside <pre>, line breaks are kept).
 */
export function htmlToText(html: string): HtmlText {
  const out: string[] = [];
  const titleParts: string[] = [];
  let hidden = 0;
  let pre = 0;
  let foreign = 0; // inside svg/math, where <title> is a tooltip, not the document's title
  let inTitle = false;
  let titleDone = false; // only the first <title> names the document
  // Breaks are held until text follows, so that "</li><li>" is one line break, not two, and the
  // white space between block tags does not turn into stray spaces.
  let pendingBreak: 0 | 1 | 2 = 0;

  const requestBreak = (name: string): void => {
    if (PARAGRAPH.has(name)) pendingBreak = 2;
    else if (name === 'br')
      pendingBreak = pendingBreak === 0 ? 1 : 2; // <br><br> is a blank line
    else if (LINE.has(name) && pendingBreak === 0) pendingBreak = 1;
  };
  const emit = (text: string): void => {
    if (pendingBreak !== 0) {
      if (out.length > 0) out.push(pendingBreak === 2 ? '\n\n' : '\n');
      pendingBreak = 0;
    }
    out.push(text);
  };
  const space = (): void => {
    if (pendingBreak === 0) out.push(' ');
  };

  const parser = new DepthCappedParser(
    {
      onopentagname(name) {
        if (HIDDEN.has(name)) {
          hidden++;
          if (name === 'svg' || name === 'math') foreign++;
        } else if (name === 'title' && foreign === 0) {
          inTitle = true;
        } else if (hidden === 0) {
          if (CELL.has(name)) space();
          else requestBreak(name);
          if (name === 'pre') pre++;
        }
      },
      onclosetag(name, isImplied) {
        if (HIDDEN.has(name)) {
          hidden--;
          if (name === 'svg' || name === 'math') foreign--;
        } else if (name === 'title' && inTitle) {
          inTitle = false;
          titleDone = titleParts.length > 0;
        } else if (hidden === 0 && !(isImplied && VOID_BREAK.has(name))) {
          if (name === 'pre' && pre > 0) pre--;
          if (CELL.has(name)) space();
          else requestBreak(name);
        }
      },
      ontext(data) {
        if (inTitle) {
          if (!titleDone) titleParts.push(data);
        } else if (hidden === 0) {
          if (pre > 0) {
            emit(data.replace(/\r\n?/g, '\n'));
          } else {
            const collapsed = data.replace(HTML_SPACE, ' ');
            if (collapsed === ' ') space();
            else if (collapsed !== '') emit(collapsed);
          }
        }
      },
    },
    { decodeEntities: true },
  );
  parser.end(html);

  const text = tidy(out.join(''));
  const title = titleParts.join('').replace(HTML_SPACE, ' ').trim();
  return title === '' ? { text } : { text, title };
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
