import type { Evidence, MessageDetail } from './types.js';

/**
 * A message's detail (types.ts MessageDetail) in the form stores keep: one short string
 * (`encodeDetail`), which both stores hold as it is. Every message has one: the Redis store pays
 * per byte, and the memory store holds one string instead of an object of seven fields.
 */

/** Snippets are cut to at most this many characters (whole code points; index.snippetLength may cut them shorter). */
export const MAX_SNIPPET_LENGTH = 200;
/** Longer URLs are not kept (browsers and servers commonly refuse more). */
export const MAX_URL_LENGTH = 2048;

const SEP = '\x1f';
// C0 and C1 controls: the separator must not occur inside a field, and none is worth showing.
const CONTROLS = /\p{Cc}/gu;
const HAS_CONTROL = /\p{Cc}/u;

/**
 * The text's opening as one line: whitespace runs made one space, cut to MAX_SNIPPET_LENGTH
 * characters at a word boundary when one is near, with an ellipsis; undefined when empty. Reads
 * only the first few KB of the text whatever its length.
 */
export function displaySnippet(text: string | undefined, length = MAX_SNIPPET_LENGTH): string | undefined {
  if (text === undefined || length <= 0) return undefined;
  if (length < MAX_SNIPPET_LENGTH) {
    // A shorter cut of a snippet (index.snippetLength): the same rule at that length.
    const chars = Array.from(displaySnippet(text) ?? '');
    if (chars.length <= length) return chars.length > 0 ? chars.join('') : undefined;
    const cut = chars.slice(0, length - 1).join('');
    const space = cut.lastIndexOf(' ');
    return `${space > cut.length * 0.7 ? cut.slice(0, space) : cut}…`;
  }
  // Eight UTF-16 units per kept character covers any run of whitespace a page puts in front.
  const flat = text
    .slice(0, 8 * MAX_SNIPPET_LENGTH)
    .replace(/\s+/g, ' ')
    .replace(CONTROLS, '')
    .trim();
  if (flat === '') return undefined;
  const chars = Array.from(flat);
  // Short after collapsing whitespace, but the text went on past the part read.
  if (chars.length < MAX_SNIPPET_LENGTH) return text.length > 8 * MAX_SNIPPET_LENGTH ? `${flat}…` : flat;
  if (chars.length === MAX_SNIPPET_LENGTH && text.length <= 8 * MAX_SNIPPET_LENGTH) return flat;
  const cut = chars.slice(0, MAX_SNIPPET_LENGTH - 1).join('');
  const space = cut.lastIndexOf(' ');
  return `${space > cut.length * 0.7 ? cut.slice(0, space) : cut}…`;
}

/** An absolute http(s) URL as given (trimmed), else undefined: the desk links it. */
export function displayUrl(url: unknown): string | undefined {
  if (typeof url !== 'string') return undefined;
  const trimmed = url.trim();
  if (trimmed.length === 0 || trimmed.length > MAX_URL_LENGTH || HAS_CONTROL.test(trimmed)) return undefined;
  if (!URL.canParse(trimmed)) return undefined;
  const protocol = new URL(trimmed).protocol;
  return protocol === 'http:' || protocol === 'https:' ? trimmed : undefined;
}

const num = (n: number | null | undefined) => (n === null || n === undefined ? '' : String(n));

function encodeEvidence(e: Evidence): string {
  return [
    e.exact ? 1 : 0,
    num(e.hamming),
    num(e.jaccard),
    e.imatch ? 1 : 0,
    e.lexical,
    num(e.cosine),
    num(e.containment),
  ].join(',');
}

function decodeEvidence(s: string): Evidence | undefined {
  const f = s.split(',');
  if (f.length !== 7) return undefined;
  const opt = (x: string | undefined) => (x === undefined || x === '' ? null : Number(x));
  const e: Evidence = {
    exact: f[0] === '1',
    hamming: opt(f[1]),
    jaccard: opt(f[2]),
    imatch: f[3] === '1',
    lexical: Number(f[4]),
    cosine: opt(f[5]),
  };
  const containment = opt(f[6]);
  if (containment !== null) e.containment = containment;
  return e;
}

/**
 * The detail as stored: `lang US evidence US url US <via length> US via snippet` (US = \x1f),
 * evidence as seven comma-separated values (exact, hamming, jaccard, imatch, lexical, cosine,
 * containment; empty for none). The via id may hold any character, so it is length-prefixed,
 * and the snippet, coming last, needs no end mark. '' when there is nothing to keep.
 */
export function encodeDetail(d: { [K in keyof MessageDetail]?: MessageDetail[K] | undefined }): string {
  const clean = (s: string | undefined) => (s === undefined ? '' : s.replace(CONTROLS, ''));
  const via = d.via ?? '';
  const encoded = [
    clean(d.lang),
    d.evidence ? encodeEvidence(d.evidence) : '',
    clean(d.url),
    via.length === 0 ? '' : String(via.length),
    `${via}${clean(d.snippet)}`,
  ].join(SEP);
  return encoded === SEP.repeat(4) ? '' : encoded;
}

export function decodeDetail(s: string | undefined | null): MessageDetail {
  const out: MessageDetail = {};
  if (!s) return out;
  const parts = s.split(SEP);
  if (parts.length < 5) return out;
  const [lang, evidence, url, viaLength] = parts as [string, string, string, string];
  // The via id may itself hold the separator: the rest is rejoined before it is split by length.
  const tail = parts.slice(4).join(SEP);
  const n = viaLength === '' ? 0 : Number(viaLength);
  if (lang !== '') out.lang = lang;
  if (evidence !== '') {
    const e = decodeEvidence(evidence);
    if (e) out.evidence = e;
  }
  if (url !== '') out.url = url;
  if (n > 0) out.via = tail.slice(0, n);
  const snippet = tail.slice(n);
  if (snippet !== '') out.snippet = snippet;
  return out;
}

/** `target` with the detail's fields set (those present). */
export function withDetail<T extends object>(
  target: T,
  encoded: string | undefined | null,
): T & MessageDetail {
  return Object.assign(target, decodeDetail(encoded));
}
