import type { Evidence, MessageDetail } from './types.js';
import { newEvidence } from './verify.js';

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
 * White space (`\s`) above ASCII and below the surrogates, by code: a regex test needed a
 * one-character string per non-ASCII character (test/engine/detail.test.ts checks it against \s).
 */
export function isWideSpace(code: number): boolean {
  return (
    code === 0xa0 ||
    code === 0x1680 ||
    (code >= 0x2000 && code <= 0x200a) ||
    code === 0x2028 ||
    code === 0x2029 ||
    code === 0x202f ||
    code === 0x205f ||
    code === 0x3000
  );
}

// displaySnippet's output, UTF-16 units: at most the units it scans (a space it writes stands for
// at least one it skipped; lone low surrogates are kept uncounted) and the ellipsis.
const SNIPPET_UNITS = 8 * MAX_SNIPPET_LENGTH + 1;
const snippetBytes = Buffer.alloc(2 * SNIPPET_UNITS);
const snippetUnits = new Uint16Array(snippetBytes.buffer, snippetBytes.byteOffset, SNIPPET_UNITS);
const BIG_ENDIAN_HOST = new Uint8Array(new Uint16Array([1]).buffer)[0] === 0;
const ELLIPSIS = 0x2026;

/** snippetUnits[0, length) as a string, or `text` itself when it holds exactly those units. */
function snippetString(text: string, length: number): string {
  if (length === text.length) {
    let same = true;
    for (let i = 0; i < length && same; i++) same = snippetUnits[i] === text.charCodeAt(i);
    if (same) return text;
  }
  if (BIG_ENDIAN_HOST) return String.fromCharCode(...snippetUnits.subarray(0, length));
  return snippetBytes.toString('utf16le', 0, 2 * length);
}

/**
 * The text's opening as one line: whitespace runs made one space, controls dropped, cut to
 * MAX_SNIPPET_LENGTH characters (whole code points) at a word boundary when one is near, with an
 * ellipsis; undefined when empty. One pass over the opening only, however long the text: this
 * runs for every message (twice: the flow makes it, the engine bounds it to its snippet length).
 */
export function displaySnippet(text: string | undefined, length = MAX_SNIPPET_LENGTH): string | undefined {
  if (text === undefined || length <= 0) return undefined;
  const max = Math.min(length, MAX_SNIPPET_LENGTH);
  // Eight UTF-16 units per kept character covers any run of whitespace a page puts in front.
  const scan = Math.min(text.length, 8 * MAX_SNIPPET_LENGTH);
  // UTF-16 units compared as numbers and copied into one scratch array, made a string once: a
  // regex test or a string per character, then a string per word, cost a tenth of the
  // per-message path's time and some 7 KB of garbage per message here.
  const out = snippetUnits;
  let units = 0;
  let chars = 0;
  let space = false;
  let more = scan < text.length;
  // Where the current word began in `out` (-1 between words): a space is written in front of
  // the word, lone low surrogates it began with included.
  let word = -1;
  for (let i = 0; i < scan; i++) {
    const code = text.charCodeAt(i);
    const isSpace =
      code === 32 || (code >= 9 && code <= 13) || (code > 127 && code < 0xd800 && isWideSpace(code));
    if (isSpace || code < 32 || (code >= 127 && code <= 159)) {
      if (isSpace && units > 0) space = true;
      word = -1;
      continue;
    }
    // A low surrogate ends a character counted at its high surrogate.
    if (code < 0xdc00 || code > 0xdfff) {
      if (chars + (space ? 1 : 0) >= max) {
        more = true;
        break;
      }
      if (space) {
        if (word >= 0) {
          out.copyWithin(word + 1, word, units);
          out[word] = 32;
          units++;
        } else out[units++] = 32;
        chars++;
        space = false;
      }
      chars++;
    }
    if (word < 0) word = units;
    out[units++] = code;
  }
  if (units === 0) return undefined;
  if (!more) return snippetString(text, units);
  // Stopped short of the length (the scan bound, or a space that would not fit): all of it.
  if (chars < max) {
    out[units++] = ELLIPSIS;
    return snippetString(text, units);
  }
  // Room for the ellipsis, at the last space when it is not too far back.
  const last = out[units - 1] as number;
  const cut = units - (last >= 0xdc00 && last <= 0xdfff ? 2 : 1);
  let at = cut - 1;
  while (at >= 0 && out[at] !== 32) at--;
  const kept = at > cut * 0.7 ? at : cut;
  out[kept] = ELLIPSIS;
  return snippetString(text, kept + 1);
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
  const e = newEvidence(f[0] === '1', opt(f[1]), opt(f[2]), f[3] === '1', Number(f[4]), opt(f[5]));
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
