import { readOverrides } from './bidi-override.js';
import { charTable } from './char-tables.js';
import {
  BELOW_LETTER,
  CYRILLIC_ACCENTED,
  HAS_BELOW_LETTER,
  HAS_CYRILLIC_ACCENTED,
  HAS_LEFTOVER_MARK,
  LEFTOVER_MARK,
  withoutCyrillicAccent,
  withoutMarkBelow,
} from './diacritics.js';
import { INVISIBLE_UNIT, removeInvisibles } from './invisible.js';
import {
  ENCLOSED_LETTER,
  enclosedLetter,
  HAS_ENCLOSED_LETTER,
  HAS_LETTER_VARIANT,
  LETTER_VARIANT,
  letterVariant,
} from './letter-variants.js';
import { fastNfkc, INERT, MAX_NORMALIZED_LENGTH, tooLongWhenNormalized } from './nfkc.js';
import { regionalLetters } from './regional-letters.js';
import { undoStackedMarks } from './stacked-marks.js';
import { codesToString } from './utf16.js';

/**
 * Unicode and language normalization (docs/signatures.md, "Canonical text", steps 2-3). Pure; the output is
 * the "clean text": lower case, one form per letter, line structure kept for sentence splitting.
 */

/**
 * ZWNJ (U+200C): 'join' removes it (and clean.ts joins Persian affixes written apart), 'remove'
 * removes it only, 'space' makes it a space.
 */
export type ZwnjRule = 'join' | 'space' | 'remove';

export interface NormalizeOptions {
  zwnj: ZwnjRule;
}

// A word split across a line end by a hyphen ("пере-\nнос"); the continuation must start in lower
// case so that "Foo-\nBar" compounds and list dashes are left alone. The white space after the
// hyphen must hold a line break; it is consumed whole and atomically (a lookahead captures the
// run, the back reference takes it), because `\s*\n\s*` backtracks quadratically on a long run of
// line breaks. Same matches as `(\p{L})[-\u2010\u2011]\s*\n\s*(?=\p{Ll})`: the lower-case letter
// after the run is not white space, so a match always takes the whole run.
const LINE_END_HYPHEN = /(\p{L})[-\u2010\u2011](?=[^\S\n]*\n)(?=(\s+))\2(?=\p{Ll})/gu;
// A line holding only a page number: "12", "- 12 -", "— 12 —", "стр. 12", "page 12", "12/40".
// Applied to one line at a time, trimmed and with its runs of blanks cut to one space (a blank run
// anywhere matches `[ \t]*` as well as one space does), so it runs on at most PAGE_LINE_MAX
// characters: adjacent `[ \t]*` on a long run of blanks backtracked quadratically.
const PAGE_NUMBER =
  /^(?:(?:page|p\.|стр\.?|страница|сторінка|с\.|صفحه) ?)?[-\u2013\u2014]? ?\d{1,4}(?: ?\/ ?\d{1,4})? ?[-\u2013\u2014]?$/iu;
// "страница - 1234 / 1234 -" is 24 characters; a longer squeezed line is not a page number.
const PAGE_LINE_MAX = 32;
const BLANKS = /[ \t]+/g;
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
const HAS_RARE_LAYOUT = /[\r\f\v\u2028\u2029\u0085]/;
const HAS_LINE_END_HYPHEN = /[-\u2010\u2011][ \t]*\n/;
// A line short enough to be a page number: at most 24 characters between line breaks, with a digit.
const HAS_SHORT_DIGIT_LINE = /(?:^|\n)[^\n\d]{0,20}\d[^\n]{0,23}(?:\n|$)/;

/**
 * Seed 002 clean-up: drop invisible characters (soft hyphens, zero-width and bidi controls, ...:
 * invisible.ts; text stored backwards behind a right-to-left override is first put in reading
 * order: bidi-override.ts), undo Zalgo (a text with marks stacked on letters loses its Latin and Cyrillic
 * letters' marks: stacked-marks.ts), re-join hyphenated words, drop form feeds and page-number lines. Runs before
 * NFKC (a removed combining grapheme joiner or variation selector no longer blocks composition)
 * and before lower-casing (the hyphen rule looks at letter case).
 */
export function cleanLayout(text: string): string {
  let out = undoStackedMarks(removeInvisibles(readOverrides(text)));
  if (HAS_PARENTHESIZED.test(out)) out = out.replace(PARENTHESIZED, parenthesizedLetter);
  if (HAS_RARE_LAYOUT.test(out)) out = out.replace(/\r\n?/g, '\n').replace(FORM_FEED_AND_SEPARATORS, '\n');
  if (HAS_LINE_END_HYPHEN.test(out)) out = out.replace(LINE_END_HYPHEN, '$1');
  if (HAS_SHORT_DIGIT_LINE.test(out)) out = dropPageNumberLines(out);
  return out;
}

// Parenthesized small letters (⒜ U+249C .. ⒵ U+24B5): NFKC makes "(a)", which would split the
// word they spell ("⒱⒤⒜⒢⒭⒜") into letters; taken as the letter before NFKC.
const PARENTHESIZED = /[\u249c-\u24b5]/g;
const HAS_PARENTHESIZED = /[\u249c-\u24b5]/;
const parenthesizedLetter = (ch: string): string => String.fromCharCode(0x61 + ch.charCodeAt(0) - 0x249c);

const isBlank = (code: number): boolean => code === 0x20 || code === 0x09;

/** Whether text[start, end) (one line) is only a page number; linear in the line's length. */
function isPageNumberLine(text: string, start: number, end: number): boolean {
  while (start < end && isBlank(text.charCodeAt(start))) start++;
  while (end > start && isBlank(text.charCodeAt(end - 1))) end--;
  if (start === end) return false;
  // Count the squeezed length first: most lines are long and need no copy.
  let squeezed = 0;
  let digit = false;
  for (let i = start; i < end; i++) {
    const code = text.charCodeAt(i);
    if (code >= 0x30 && code <= 0x39) digit = true;
    if (!isBlank(code) || !isBlank(text.charCodeAt(i - 1))) squeezed++;
    if (squeezed > PAGE_LINE_MAX) return false;
  }
  return digit && PAGE_NUMBER.test(text.slice(start, end).replace(BLANKS, ' '));
}

/** Empties the lines that are only a page number (their line breaks stay). */
function dropPageNumberLines(text: string): string {
  const parts: string[] = [];
  let kept = 0; // start of the text not yet copied to parts
  let start = 0;
  while (start <= text.length) {
    let end = text.indexOf('\n', start);
    if (end < 0) end = text.length;
    if (isPageNumberLine(text, start, end)) {
      parts.push(text.slice(kept, start));
      kept = end;
    }
    start = end + 1;
  }
  if (kept === 0) return text;
  parts.push(text.slice(kept));
  return parts.join('');
}

/**
 * The letter rules after NFKC, as plain string operations: lower case, apostrophes, ё, letter
 * variants (small capitals, enclosed capitals: letter-variants.ts), marks that disguise (left-over
 * combining diacritics, stress marks, marks below: diacritics.ts), Persian letter forms, harakat and tatweel,
 * eastern digits, ZWNJ. This is the definition; `foldLetters` applies the same rules in one
 * table-driven pass and is checked against this in tests.
 */
export function letterRules(text: string, options: NormalizeOptions): string {
  let out = text.toLowerCase();
  if (HAS_LETTER_VARIANT.test(out)) out = out.replace(LETTER_VARIANT, letterVariant);
  if (HAS_ENCLOSED_LETTER.test(out)) out = out.replace(ENCLOSED_LETTER, enclosedLetter);
  if (HAS_BELOW_LETTER.test(out)) out = out.replace(BELOW_LETTER, withoutMarkBelow);
  if (HAS_LEFTOVER_MARK.test(out)) out = out.replace(LEFTOVER_MARK, '');
  if (HAS_CYRILLIC_ACCENTED.test(out)) out = out.replace(CYRILLIC_ACCENTED, withoutCyrillicAccent);
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
export function buildFold(): Uint16Array {
  const fold = new Uint16Array(0x10000);
  for (let code = 0; code < 0x10000; code++) {
    if (code >= 0xd800 && code <= 0xdfff) {
      fold[code] = COMPLEX;
      continue;
    }
    const ch = String.fromCharCode(code);
    const out = code === 0x03a3 || code === ZWNJ_CODE ? null : letterRules(ch, { zwnj: 'space' });
    if (out === null || out.length > 1) fold[code] = COMPLEX;
    else if (out.length === 0) fold[code] = DROP;
    else if (out === ch) fold[code] = KEEP;
    else fold[code] = out.charCodeAt(0);
  }
  fold[ZWNJ_CODE] = COMPLEX; // resolved per call from options.zwnj
  return fold;
}
const FOLD = charTable('fold', Uint16Array, buildFold);
const BIG_ENDIAN_HOST = new Uint8Array(new Uint16Array([1]).buffer)[0] === 0;
const UTF16 = new TextDecoder('utf-16le');
// The scratch buffers here hold a 64 K-unit text from the start: one grown inside a compiled
// function throws its compiled code away (a deopt), so starting small cost a recompile at the
// first long text of a stream.
const SCRATCH_UNITS = 1 << 16;
let buffer = new Uint16Array(SCRATCH_UNITS);

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
  if (BIG_ENDIAN_HOST) return codesToString(out, length);
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
  // Regional indicators that stand for letters are letters before the letter rules (regional-letters.ts).
  return normalizeLetters(regionalLetters(cleanLayout(text)), options);
}

// normalizeTextCodes' one-pass table: the FOLD entry of a code unit that NFKC leaves alone;
// EXPAND for a character NFKC replaces by characters it leaves alone (… -> ..., № -> No, no-break
// space -> space), DROP for an Arabic mark the letter rules remove and that composes with nothing;
// SLOW for any other, and for the rare layout characters cleanLayout rewrites.
//
// Why the one-pass result equals NFKC: an EXPAND character is neither a mark nor a Hangul jamo, so
// it never composes with the character before it (only marks and conjoining jamo are second
// members of canonical compositions), and its replacement consists of inert characters, which
// compose with nothing; the droppable marks compose with no character (checked exhaustively in
// test/text/normalize.test.ts) and are removed whatever their canonical order. Anything else
// takes the full path.
const SLOW = 0xfffc;
const EXPAND = 0xfffb;
/**
 * Marks that compose with a letter before them: every mark after the first character of some
 * BMP character's canonical decomposition (Arabic madda and hamza: alef + U+0654 = U+0623; the
 * Latin and Cyrillic accents: e + U+0301 = é, и + U+0306 = й). Canonical composition only ever
 * makes a character whose decomposition it undoes, so a mark in none composes with nothing.
 */
function composingMarks(): Set<number> {
  const marks = new Set<number>();
  const mark = /\p{M}/u;
  for (let code = 0; code < 0x10000; code++) {
    if (code >= 0xd800 && code <= 0xdfff) continue;
    const nfd = String.fromCharCode(code).normalize('NFD');
    for (let i = 1; i < nfd.length; i++) if (mark.test(nfd[i] as string)) marks.add(nfd.charCodeAt(i));
  }
  return marks;
}
// Invisible characters are removed before anything else (cleanLayout), so the one pass skips
// them before the layout tracking: what is left is what the other rules see. Each character
// left is still handled on its own (the argument above), whatever stood between it and the last.
const INVISIBLE = 0xfffa;
/**
 * The narrow and no-break spaces (NFKC: a space) that word-gaps.ts reads inside words: the one
 * pass writes a space and notes that the text has one (spaceVariantsSeen), so that a text without
 * them pays nothing for that rule.
 */
const SPACE_VARIANT = 0xfff9;
export const SPACE_VARIANTS: readonly number[] = [
  0x00a0, 0x2000, 0x2001, 0x2002, 0x2003, 0x2004, 0x2005, 0x2006, 0x2007, 0x2008, 0x2009, 0x200a, 0x202f,
  0x205f, 0x3000,
];

/**
 * FAST_FOLD, and the folded NFKC replacement of each EXPAND character, flat: the character, the
 * replacement's length, the replacement's code units, and so on.
 */
export function buildFastFold(): { fastFold: Uint16Array; expansions: Uint16Array } {
  const fastFold = FOLD.slice();
  const expansions: number[] = [];
  const mark = /\p{M}/u;
  const composing = composingMarks();
  for (let code = 0; code < 0x10000; code++) {
    if (INERT[code]) continue;
    fastFold[code] = SLOW;
    if (code >= 0xd800 && code <= 0xdfff) continue;
    if ((code >= 0x1100 && code <= 0x11ff) || (code >= 0x3130 && code <= 0x318f)) continue;
    const ch = String.fromCharCode(code);
    if (mark.test(ch)) {
      // U+0300-036F take the full path even when they compose with nothing: cleanLayout reads
      // such a mark as Zalgo evidence (stacked-marks.ts).
      if (code >= 0x0300 && code <= 0x036f) continue;
      if (FOLD[code] === DROP && !composing.has(code) && ch.normalize('NFKC') === ch) fastFold[code] = DROP;
      continue;
    }
    const replacement = ch.normalize('NFKC');
    const folded: number[] = [];
    let ok = true;
    for (let i = 0; i < replacement.length && ok; i++) {
      const unit = replacement.charCodeAt(i);
      const mapped = FOLD[unit] as number;
      if (!INERT[unit] || mapped === COMPLEX) ok = false;
      else if (mapped === KEEP) folded.push(unit);
      else if (mapped !== DROP) folded.push(mapped);
    }
    if (!ok) continue;
    expansions.push(code, folded.length, ...folded);
    fastFold[code] = EXPAND;
  }
  for (const ch of '\r\f\v\u2028\u2029\u0085') fastFold[ch.charCodeAt(0)] = SLOW;
  for (let code = 0x249c; code <= 0x24b5; code++) fastFold[code] = SLOW; // cleanLayout's parenthesized letters
  fastFold[ZWNJ_CODE] = COMPLEX;
  for (let code = 0; code < 0x10000; code++) if (INVISIBLE_UNIT[code]) fastFold[code] = INVISIBLE;
  fastFold[0x202e] = SLOW; // a right-to-left override: cleanLayout reads its span (bidi-override.ts)
  fastFold[0x202d] = SLOW; // a left-to-right override, the same
  for (const code of SPACE_VARIANTS) fastFold[code] = SPACE_VARIANT;
  return { fastFold, expansions: Uint16Array.from(expansions) };
}

let builtFastFold: ReturnType<typeof buildFastFold> | undefined;
const fastFoldTables = (): ReturnType<typeof buildFastFold> => {
  builtFastFold ??= buildFastFold();
  return builtFastFold;
};
const FAST_FOLD = charTable('fast-fold', Uint16Array, () => fastFoldTables().fastFold);
/** Folded NFKC replacement of each EXPAND character. */
const EXPANSIONS = new Map<number, Uint16Array>();
{
  const flat = charTable('fast-fold-expansions', Uint16Array, () => fastFoldTables().expansions);
  for (let k = 0; k < flat.length; k += 2 + (flat[k + 1] as number))
    EXPANSIONS.set(flat[k] as number, flat.slice(k + 2, k + 2 + (flat[k + 1] as number)));
  builtFastFold = undefined;
}
// The characters cleanLayout's other two pre-checks look at (a hyphen at a line end; a short line
// with a digit): tracked during the pass so that most texts need no regex at all.
const LAYOUT_NEWLINE = 1;
const LAYOUT_DIGIT = 2;
const LAYOUT_HYPHEN = 3;
const LAYOUT_BLANK = 4;
const LAYOUT = new Uint8Array(0x10000);
LAYOUT[10] = LAYOUT_NEWLINE;
for (let code = 48; code <= 57; code++) LAYOUT[code] = LAYOUT_DIGIT;
for (const code of [0x2d, 0x2010, 0x2011]) LAYOUT[code] = LAYOUT_HYPHEN;
LAYOUT[0x20] = LAYOUT_BLANK;
LAYOUT[0x09] = LAYOUT_BLANK;

let textBytes = Buffer.alloc(2 * SCRATCH_UNITS);
let textCodes = new Uint16Array(textBytes.buffer, textBytes.byteOffset, SCRATCH_UNITS);
let foldCodes = new Uint16Array(2 * SCRATCH_UNITS + 64);

/** HAS_SHORT_DIGIT_LINE for the line [start, end) whose first ASCII digit is at `digit` (-1: none). */
const shortDigitLine = (start: number, digit: number, end: number): boolean =>
  digit >= 0 && digit - start <= 20 && end - digit - 1 <= 23;

/**
 * normalizeText as UTF-16 code units: codes[0, length) of a scratch buffer that the next call
 * reuses. Text that cleanLayout leaves alone and in which NFKC only replaces characters one by
 * one (most news text) takes one pass over its code units, with no regex and no intermediate
 * string; any other text goes through normalizeText itself. Equal to normalizeText (test/text/normalize.test.ts).
 */
/**
 * Whether the text of the last normalizeTextCodes call may hold a narrow or no-break space
 * (SPACE_VARIANTS): it did, or it took the full path, which does not track them.
 */
let spaceVariants = false;
export const spaceVariantsSeen = (): boolean => spaceVariants;

export function normalizeTextCodes(
  text: string,
  options: NormalizeOptions,
): { codes: Uint16Array; length: number } {
  const n = text.length;
  if (textCodes.length < n) {
    textBytes = Buffer.alloc(4 * n);
    textCodes = new Uint16Array(textBytes.buffer, textBytes.byteOffset, 2 * n);
  }
  if (foldCodes.length < 2 * n + 64) foldCodes = new Uint16Array(4 * n + 64);
  const out = foldCodes;
  if (!BIG_ENDIAN_HOST) {
    textBytes.write(text, 0, 'utf16le');
    spaceVariants = false;
    const length = foldOnePass(textCodes, n, out, options.zwnj === 'space' ? 0x20 : DROP);
    if (length >= 0) return { codes: out, length };
  }
  spaceVariants = true;
  const clean = normalizeText(text, options);
  if (out.length < clean.length) foldCodes = new Uint16Array(2 * clean.length);
  for (let i = 0; i < clean.length; i++) foldCodes[i] = clean.charCodeAt(i);
  return { codes: foldCodes, length: clean.length };
}

/** The fast path of normalizeTextCodes: folds codes[0, n) into out; -1 when the text needs the full path. */
function foldOnePass(codes: Uint16Array, n: number, out: Uint16Array, zwnj: number): number {
  let length = 0;
  let hyphen = false; // a hyphen followed so far only by spaces and tabs
  // Line positions count the characters left after invisible ones are removed (i - removed),
  // as the page-number rule sees them.
  let removed = 0;
  let lineStart = 0;
  let digit = -1;
  for (let i = 0; i < n; i++) {
    const code = codes[i] as number;
    const mapped = FAST_FOLD[code] as number;
    if (mapped === KEEP) out[length++] = code;
    else if (mapped === SPACE_VARIANT) {
      out[length++] = 0x20;
      spaceVariants = true;
    } else if (mapped === INVISIBLE) {
      removed++;
      continue;
    } else if (mapped === SLOW) return -1;
    else if (mapped === EXPAND) {
      const replacement = EXPANSIONS.get(code) as Uint16Array;
      if (length + replacement.length > MAX_NORMALIZED_LENGTH) throw tooLongWhenNormalized();
      if (length + replacement.length + (n - i) > out.length) return -1;
      for (let j = 0; j < replacement.length; j++) out[length++] = replacement[j] as number;
    } else if (mapped === COMPLEX) {
      if (code !== ZWNJ_CODE) return -1;
      if (zwnj !== DROP) out[length++] = zwnj;
    } else if (mapped !== DROP) out[length++] = mapped;
    const layout = LAYOUT[code] as number;
    if (layout === 0) hyphen = false;
    else if (layout === LAYOUT_NEWLINE) {
      if (hyphen || shortDigitLine(lineStart, digit, i - removed)) return -1;
      lineStart = i - removed + 1;
      digit = -1;
    } else if (layout === LAYOUT_DIGIT) {
      hyphen = false;
      if (digit < 0) digit = i - removed;
    } else if (layout === LAYOUT_HYPHEN) hyphen = true;
  }
  return shortDigitLine(lineStart, digit, n - removed) ? -1 : length;
}
