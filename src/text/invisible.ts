/**
 * Invisible characters: removed from the text before anything else looks at it, so that an
 * invisible character inside a word (spam uses left-to-right marks, tag characters, variation
 * selectors and the like to slip past fingerprints) cannot split it or change its hash.
 *
 * The set: every character of Unicode category Cf (bidi controls and isolates, joiners,
 * zero-width space, word joiner, invisible operators, BOM, tag characters, Arabic number signs,
 * interlinear annotation controls) except ZWNJ (U+200C), whose Persian meaning the letter rules
 * handle; variation selectors (U+FE00-FE0F, U+E0100-E01EF); the combining grapheme joiner
 * (U+034F); Hangul fillers (U+115F, U+1160, U+3164, U+FFA0); the Mongolian vowel separator
 * (U+180E); the Khmer inherent vowels (U+17B4, U+17B5, invisible by definition); and the C0 and C1
 * control characters that are not white space (NUL..U+0008, U+000E..U+001F, U+007F..U+009F but
 * NEL U+0085, which is a line break). HTML entities for these (`&lrm;`, `&zwnj;`, `&#8203;`) are
 * resolved to the characters by the HTML decoder first.
 */

import { charTable } from './char-tables.js';

const ZWNJ = 0x200c;
const FORMAT = /\p{Cf}/u;

const EXTRA_RANGES: ReadonlyArray<readonly [number, number]> = [
  [0x0000, 0x0008],
  [0x000e, 0x001f],
  [0x007f, 0x0084],
  [0x0086, 0x009f],
  [0x034f, 0x034f],
  [0x115f, 0x1160],
  [0x17b4, 0x17b5],
  [0x180e, 0x180e],
  [0x3164, 0x3164],
  [0xfe00, 0xfe0f],
  [0xffa0, 0xffa0],
  [0xe0100, 0xe01ef],
];

function computeIsInvisible(code: number): boolean {
  if (code === ZWNJ) return false;
  for (const [lo, hi] of EXTRA_RANGES) if (code >= lo && code <= hi) return true;
  return FORMAT.test(String.fromCodePoint(code));
}

/** 1 where a BMP code unit is an invisible character (surrogates: 0, see isInvisibleCodePoint). */
export function buildInvisibleUnit(): Uint8Array {
  const table = new Uint8Array(0x10000);
  for (let code = 0; code < 0x10000; code++)
    if ((code < 0xd800 || code > 0xdfff) && computeIsInvisible(code)) table[code] = 1;
  return table;
}

// Astral invisibles are few (tag characters, variation selectors supplement, a handful of Cf):
// a sorted list of ranges, first and last code point of each, searched only for astral characters.
export function buildInvisibleAstral(): Uint32Array {
  const ranges: number[] = [];
  let start = -1;
  for (let code = 0x10000; code <= 0x110000; code++) {
    const hit = code < 0x110000 && computeIsInvisible(code);
    if (hit && start < 0) start = code;
    if (!hit && start >= 0) {
      ranges.push(start, code - 1);
      start = -1;
    }
  }
  return Uint32Array.from(ranges);
}

export const INVISIBLE_UNIT = charTable('invisible-unit', Uint8Array, buildInvisibleUnit);
const ASTRAL = charTable('invisible-astral', Uint32Array, buildInvisibleAstral);

export function isInvisibleCodePoint(code: number): boolean {
  if (code < 0x10000) return INVISIBLE_UNIT[code] === 1;
  for (let k = 0; k < ASTRAL.length; k += 2)
    if (code >= (ASTRAL[k] as number) && code <= (ASTRAL[k + 1] as number)) return true;
  return false;
}

/** The text without its invisible characters; the same string when it has none. */
export function removeInvisibles(text: string): string {
  const n = text.length;
  let i = 0;
  while (i < n && !isInvisibleAt(text, i)) i++;
  if (i === n) return text;
  const parts: string[] = [];
  let kept = 0;
  while (i < n) {
    const code = text.codePointAt(i) as number;
    const width = code > 0xffff ? 2 : 1;
    if (isInvisibleCodePoint(code)) {
      if (i > kept) parts.push(text.slice(kept, i));
      kept = i + width;
    }
    i += width;
  }
  parts.push(text.slice(kept));
  return parts.join('');
}

function isInvisibleAt(text: string, i: number): boolean {
  const unit = text.charCodeAt(i);
  if (unit >= 0xd800 && unit <= 0xdbff) return isInvisibleCodePoint(text.codePointAt(i) as number);
  return INVISIBLE_UNIT[unit] === 1;
}
