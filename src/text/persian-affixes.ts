import { ARABIC, WORD_SCRIPT } from './word-scripts.js';

/**
 * Persian affixes written apart joined to their word, so that the three spellings of one word
 * (with ZWNJ "می‌شود", without it "میشود", with a space "می شود") give one token. ZWNJ itself is
 * removed by the letter rules (canonical.zwnj "join"); this joins the space spelling.
 *
 * Joined across spaces and tabs only (never across a line break or punctuation):
 * - the verb prefixes می and نمی to the Arabic-script word after them;
 * - the plural and comparative suffixes (ها، های، هایی and its possessive forms، تر، ترین) to the
 *   Arabic-script word before them;
 * - the clitics that Persian writes apart only after a final ه (ای، ام، ات، اش، ایم، اید، اند، ی:
 *   "نامه ای"، "رفته اند") to a word ending in ه. Elsewhere ای is the vocative and stays apart.
 * The standalone words these could also be (می "wine", تر "wet") are rare in news and mail.
 */

const codesOf = (words: readonly string[]): Uint16Array[] =>
  words.map((w) => Uint16Array.from(w, (ch) => ch.charCodeAt(0)));

// Written with the Persian yeh (U+06CC), the form the letter rules give every yeh.
const PREFIXES = codesOf(['\u0645\u06cc', '\u0646\u0645\u06cc']);
const HA = '\u0647\u0627';
const HAY = `${HA}\u06cc`;
const TAR = '\u062a\u0631';
const SUFFIXES = codesOf([
  HA,
  HAY,
  `${HAY}\u06cc`,
  `${HAY}\u0645`,
  `${HAY}\u062a`,
  `${HAY}\u0634`,
  `${HAY}\u0645\u0627\u0646`,
  `${HAY}\u062a\u0627\u0646`,
  `${HAY}\u0634\u0627\u0646`,
  TAR,
  `${TAR}\u06cc\u0646`,
]);
const AFTER_HEH = codesOf([
  '\u0627\u06cc',
  '\u0627\u0645',
  '\u0627\u062a',
  '\u0627\u0634',
  '\u0627\u06cc\u0645',
  '\u0627\u06cc\u062f',
  '\u0627\u0646\u062f',
  '\u06cc',
]);
const HEH = 0x0647;

/** The affixes, as strings (for the stop-word list: a stop word with an affix is a stop word). */
export const PERSIAN_PREFIXES: readonly string[] = PREFIXES.map((c) => String.fromCharCode(...c));
export const PERSIAN_SUFFIXES: readonly string[] = SUFFIXES.map((c) => String.fromCharCode(...c));
export const PERSIAN_CLITICS_AFTER_HEH: readonly string[] = AFTER_HEH.map((c) => String.fromCharCode(...c));

function isOneOf(codes: Uint16Array, start: number, end: number, words: readonly Uint16Array[]): boolean {
  for (const word of words) {
    if (word.length !== end - start) continue;
    let k = 0;
    while (k < word.length && word[k] === codes[start + k]) k++;
    if (k === word.length) return true;
  }
  return false;
}

const isArabic = (code: number): boolean => WORD_SCRIPT[code] === ARABIC;

/** Joins, in place, the affixes of codes[0, length) written apart; returns the new length. */
export function joinPersianAffixes(codes: Uint16Array, length: number): number {
  let w = 0; // write position: codes[0, w) is done
  let prevStart = -1; // the previous word, in the written part
  let prevEnd = -1;
  let blankGap = false; // only spaces and tabs since the previous word
  let r = 0;
  while (r < length) {
    const code = codes[r] as number;
    if (WORD_SCRIPT[code] === 0) {
      codes[w++] = code;
      if (code !== 0x20 && code !== 0x09) blankGap = false;
      r++;
      continue;
    }
    const start = r;
    while (r < length && WORD_SCRIPT[codes[r] as number] !== 0) r++;
    let join = false;
    if (blankGap && prevStart >= 0) {
      const last = codes[prevEnd - 1] as number;
      join =
        (isArabic(code) && isOneOf(codes, prevStart, prevEnd, PREFIXES)) ||
        (isArabic(last) && isOneOf(codes, start, r, SUFFIXES)) ||
        (last === HEH && isOneOf(codes, start, r, AFTER_HEH));
    }
    if (join) w = prevEnd;
    else prevStart = w;
    for (let k = start; k < r; k++) codes[w++] = codes[k] as number;
    prevEnd = w;
    blankGap = true;
  }
  return w;
}
