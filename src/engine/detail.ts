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
 * Whether a UTF-16 unit from 128 up to the surrogates is one /\s/u matches (the no-break and
 * typographic spaces, the line and paragraph separators, the ideographic space): compared as
 * numbers, because a regex test per non-Latin character was ~2.5% of a sign worker's CPU on
 * Cyrillic and Persian text.
 */
function isWideSpace(code: number): boolean {
  return (
    code === 0xa0 ||
    code === 0x1680 ||
    (code >= 0x2000 &&
      (code <= 0x200a ||
        code === 0x2028 ||
        code === 0x2029 ||
        code === 0x202f ||
        code === 0x205f ||
        code === 0x3000))
  );
}

/**
 * The text's opening as one line: whitespace runs made one space, controls dropped, cut to
 * MAX_SNIPPET_LENGTH characters (whole code points) at a word boundary when one is near, with an
 * ellipsis; undefined when empty. One pass over the opening only, however long the text: this
 * runs for every message.
 */
export function displaySnippet(text: string | undefined, length = MAX_SNIPPET_LENGTH): string | undefined {
  if (text === undefined || length <= 0) return undefined;
  const max = Math.min(length, MAX_SNIPPET_LENGTH);
  // Eight UTF-16 units per kept character covers any run of whitespace a page puts in front.
  const scan = Math.min(text.length, 8 * MAX_SNIPPET_LENGTH);
  let out = '';
  let chars = 0;
  let run = -1;
  let space = false;
  let more = scan < text.length;
  let i = 0;
  // UTF-16 units compared as numbers, words copied as slices: a regex test or a string per
  // character cost a tenth of the per-message path's time here.
  for (; i < scan; i++) {
    const code = text.charCodeAt(i);
    const isSpace =
      code === 32 || (code >= 9 && code <= 13) || (code > 127 && code < 0xd800 && isWideSpace(code));
    if (isSpace || code < 32 || (code >= 127 && code <= 159)) {
      if (run >= 0) out += text.slice(run, i);
      run = -1;
      if (isSpace && out.length > 0) space = true;
      continue;
    }
    // A low surrogate ends a character counted at its high surrogate.
    if (code < 0xdc00 || code > 0xdfff) {
      if (chars + (space ? 1 : 0) >= max) {
        more = true;
        break;
      }
      if (space) {
        out += ' ';
        chars++;
        space = false;
      }
      chars++;
    }
    if (run < 0) run = i;
  }
  if (run >= 0) out += text.slice(run, i);
  if (out === '') return undefined;
  if (!more) return out;
  // Stopped short of the length (the scan bound, or a space that would not fit): all of it.
  if (chars < max) return `${out}…`;
  // Room for the ellipsis, at the last space when it is not too far back.
  const last = out.charCodeAt(out.length - 1);
  const cut = out.slice(0, out.length - (last >= 0xdc00 && last <= 0xdfff ? 2 : 1));
  const at = cut.lastIndexOf(' ');
  return `${at > cut.length * 0.7 ? cut.slice(0, at) : cut}…`;
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
    num(e.contained),
    num(e.containedSentences),
    num(e.containedTokens),
  ].join(',');
}

function decodeEvidence(s: string): Evidence | undefined {
  const f = s.split(',');
  // Seven values in details written before sentence containment, ten since.
  if (f.length !== 7 && f.length !== 10) return undefined;
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
  const contained = opt(f[7]);
  if (contained !== null) e.contained = contained;
  const containedSentences = opt(f[8]);
  if (containedSentences !== null) e.containedSentences = containedSentences;
  const containedTokens = opt(f[9]);
  if (containedTokens !== null) e.containedTokens = containedTokens;
  return e;
}

/**
 * The detail as stored: `lang US evidence US url US <via length> US via snippet` (US = \x1f),
 * evidence as ten comma-separated values (exact, hamming, jaccard, imatch, lexical, cosine,
 * containment, contained, containedSentences, containedTokens; empty for none; details stored
 * before sentence containment have the first seven). The via id may hold any character, so it is length-prefixed,
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
