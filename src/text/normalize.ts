import { fastNfkc } from './nfkc.js';

/**
 * Unicode and language normalization (ALGORITHMS.md section 1, steps 3-4). Pure; the output is
 * the "clean text": lower case, one form per letter, line structure kept for sentence splitting.
 */

export type ZwnjRule = 'space' | 'remove';

export interface NormalizeOptions {
  zwnj: ZwnjRule;
}

// A word split across a line end by a hyphen ("пере-\nнос"); the continuation must start in lower
// case so that "Foo-\nBar" compounds and list dashes are left alone.
const LINE_END_HYPHEN = /(\p{L})[-\u2010\u2011]\s*\n\s*(?=\p{Ll})/gu;
// A line holding only a page number: "12", "- 12 -", "— 12 —", "стр. 12", "page 12", "12/40".
const PAGE_NUMBER_LINE =
  /^[ \t]*(?:(?:page|p\.|стр\.?|страница|сторінка|с\.|صفحه)[ \t]*)?[-\u2013\u2014]?[ \t]*\d{1,4}(?:[ \t]*\/[ \t]*\d{1,4})?[ \t]*[-\u2013\u2014]?[ \t]*$/gimu;
// Alternation, not a class: a class holding ZWJ reads as a joined sequence to linters and people.
const SOFT_HYPHEN_AND_INVISIBLES = /\u00ad|\u200b|\u200d|\u2060|\ufeff/g;
const FORM_FEED_AND_SEPARATORS = /[\f\v\u2028\u2029\u0085]/g;
const APOSTROPHES = /[\u2019\u02bc\u2018\u02b9\u0060\u00b4\u2032]/g;
const HAS_APOSTROPHE = /[\u2019\u02bc\u2018\u02b9\u0060\u00b4\u2032]/;
// Arabic harakat, superscript alef and Quranic marks: vocalization that most news text omits.
const ARABIC_MARKS = /[\u064b-\u065f\u0670\u06d6-\u06dc\u06df-\u06e8\u06ea-\u06ed]/g;
const TATWEEL = /\u0640/g;
const ZWNJ = /\u200c/g;

// Arabic letter forms that Persian writes differently (Fars News, 2008, uses the Arabic ones),
// hamza carriers, and ё. Chained native replaceAll calls: far faster than one regex with a callback.
const ARABIC_LETTER_MAP: ReadonlyArray<readonly [string, string]> = [
  ['ي', 'ی'],
  ['ى', 'ی'],
  ['ك', 'ک'],
  ['ۀ', 'ه'],
  ['ة', 'ه'],
  ['أ', 'ا'],
  ['إ', 'ا'],
  ['ٱ', 'ا'],
  ['ؤ', 'و'],
];

// Persian (U+06F0..) and Arabic-Indic (U+0660..) digits become ASCII digits.
const EASTERN_DIGITS = /[\u06f0-\u06f9\u0660-\u0669]/g;
const HAS_EASTERN_DIGIT = /[\u06f0-\u06f9\u0660-\u0669]/;
function easternDigit(ch: string): string {
  const code = ch.charCodeAt(0);
  return String.fromCharCode(48 + (code >= 0x06f0 ? code - 0x06f0 : code - 0x0660));
}

// Checked before each regex pass so that plain Latin/Cyrillic text skips the Arabic-script work.
const ARABIC_SCRIPT = /[\u0600-\u06ff\ufb50-\ufdff\ufe70-\ufeff]/;

// Cheap pre-checks: most texts have none of these, and skipping a regex pass is the biggest
// saving on the 10,000 documents per second path.
const HAS_RARE_LAYOUT = /[\r\f\v\u2028\u2029\u0085\u00ad\u200b\u2060\ufeff]|\u200d/;
const HAS_LINE_END_HYPHEN = /[-\u2010\u2011][ \t]*\n/;
// A line short enough to be a page number: at most 24 characters between line breaks, with a digit.
const HAS_SHORT_DIGIT_LINE = /(?:^|\n)[^\n\d]{0,20}\d[^\n]{0,23}(?:\n|$)/;

/**
 * Seed 002 clean-up: re-join hyphenated words, drop soft hyphens, form feeds and page-number
 * lines. Runs before lower-casing (the hyphen rule looks at letter case).
 */
export function cleanLayout(text: string): string {
  let out = text;
  if (HAS_RARE_LAYOUT.test(out)) {
    out = out
      .replace(/\r\n?/g, '\n')
      .replace(FORM_FEED_AND_SEPARATORS, '\n')
      .replace(SOFT_HYPHEN_AND_INVISIBLES, '');
  }
  if (HAS_LINE_END_HYPHEN.test(out)) out = out.replace(LINE_END_HYPHEN, '$1');
  if (HAS_SHORT_DIGIT_LINE.test(out)) out = out.replace(PAGE_NUMBER_LINE, '');
  return out;
}

/**
 * The letter rules after NFKC, as plain string operations: lower case, apostrophes, ё, Persian
 * letter forms, harakat and tatweel, eastern digits, ZWNJ. This is the definition; `foldLetters`
 * applies the same rules in one table-driven pass and is checked against this in tests.
 */
export function letterRules(text: string, options: NormalizeOptions): string {
  let out = text.toLowerCase();
  if (HAS_APOSTROPHE.test(out)) out = out.replace(APOSTROPHES, "'");
  if (out.includes('ё')) out = out.replaceAll('ё', 'е');
  if (ARABIC_SCRIPT.test(out)) {
    for (const [from, to] of ARABIC_LETTER_MAP) if (out.includes(from)) out = out.replaceAll(from, to);
    out = out.replace(ARABIC_MARKS, '').replace(TATWEEL, '');
    if (HAS_EASTERN_DIGIT.test(out)) out = out.replace(EASTERN_DIGITS, easternDigit);
  }
  if (out.includes('\u200c')) out = out.replace(ZWNJ, options.zwnj === 'space' ? ' ' : '');
  return out;
}

/** Unicode NFKC, lower case, one form per letter (ё/е, apostrophes, Persian/Arabic letters and digits). */
export function normalizeLetters(text: string, options: NormalizeOptions): string {
  return foldLetters(fastNfkc(text), options);
}

/** Reference implementation of normalizeLetters (string operations only), for tests. */
export function normalizeLettersReference(text: string, options: NormalizeOptions): string {
  return letterRules(text.normalize('NFKC'), options);
}

// foldLetters: one pass over the text with a per-code-unit table built from letterRules itself,
// so the two cannot disagree on any single character. letterRules is character-local except for
// toLowerCase's final-sigma rule and characters whose lower case is longer than one code unit:
// those (and ZWNJ, whose rule is an option) are marked and handled apart.
const KEEP = 0xffff;
const DROP = 0xfffe;
const COMPLEX = 0xfffd;
const ZWNJ_CODE = 0x200c;
const FOLD = new Uint16Array(0x10000);
{
  for (let code = 0; code < 0x10000; code++) {
    if (code >= 0xd800 && code <= 0xdfff) {
      FOLD[code] = COMPLEX;
      continue;
    }
    const ch = String.fromCharCode(code);
    const out = code === 0x03a3 || code === ZWNJ_CODE ? null : letterRules(ch, { zwnj: 'space' });
    if (out === null || out.length > 1) FOLD[code] = COMPLEX;
    else if (out.length === 0) FOLD[code] = DROP;
    else if (out === ch) FOLD[code] = KEEP;
    else FOLD[code] = out.charCodeAt(0);
  }
  FOLD[ZWNJ_CODE] = COMPLEX; // resolved per call from options.zwnj
}
const BIG_ENDIAN_HOST = new Uint8Array(new Uint16Array([1]).buffer)[0] === 0;
const UTF16 = new TextDecoder('utf-16le');
let buffer = new Uint16Array(4096);

export function foldLetters(text: string, options: NormalizeOptions): string {
  const n = text.length;
  if (buffer.length < n) buffer = new Uint16Array(n * 2);
  const out = buffer;
  const zwnj = options.zwnj === 'space' ? 0x20 : DROP;
  let length = 0;
  let changed = false;
  for (let i = 0; i < n; i++) {
    const code = text.charCodeAt(i);
    let mapped = FOLD[code] as number;
    if (mapped === KEEP) {
      out[length++] = code;
      continue;
    }
    if (mapped === COMPLEX) {
      if (code !== ZWNJ_CODE) return letterRules(text, options); // final sigma, astral, multi-unit lower case
      mapped = zwnj;
    }
    changed = true;
    if (mapped !== DROP) out[length++] = mapped;
  }
  if (!changed) return text;
  if (BIG_ENDIAN_HOST) return String.fromCharCode(...out.subarray(0, length));
  return UTF16.decode(out.subarray(0, length));
}

/** Collapses runs of spaces and blank lines; keeps single line breaks (they end headlines and list items). */
export function collapseWhitespace(text: string): string {
  return text
    .replace(/[ \t\u00a0\u2000-\u200a\u202f\u205f\u3000]+/g, ' ')
    .replace(/ ?\n[\s]*/g, '\n')
    .trim();
}

/** Layout clean-up and letter normalization; white space is left as is (the tokenizer does not need it collapsed). */
export function normalizeText(text: string, options: NormalizeOptions): string {
  return normalizeLetters(cleanLayout(text), options);
}
