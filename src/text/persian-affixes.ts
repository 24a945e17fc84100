import { endCompaction } from './compaction.js';
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
const MAX_PREFIX = Math.max(...PREFIXES.map((w) => w.length));
const MAX_AFFIX = Math.max(...SUFFIXES.map((w) => w.length), ...AFTER_HEH.map((w) => w.length));
/** 2 where a suffix or clitic starts with this code unit. */
const AFFIX_START = new Uint8Array(0x10000);
for (const w of [...SUFFIXES, ...AFTER_HEH]) AFFIX_START[w[0] as number] = 2;
/** Bit k set when a suffix or clitic is k code units long. */
const AFFIX_LENGTHS = [...SUFFIXES, ...AFTER_HEH].reduce((bits, w) => bits | (1 << w.length), 0);
/** Every prefix ends with this letter (ی). */
const PREFIX_END = 0x06cc;
if (PREFIXES.some((w) => w[w.length - 1] !== PREFIX_END)) throw new Error('a Persian prefix must end in ی');

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

const isWord = (code: number): boolean => WORD_SCRIPT[code] !== 0;

/**
 * Joins, in place, the affixes of codes[0, length) written apart; returns the new length. Each run
 * of spaces and tabs between two words is looked at once, with the words as they were before any
 * joining: it is removed when the word before is a prefix, or the word after is a suffix or
 * (after a final ه) a clitic. One comparison per code unit finds the spaces; only words next to
 * one are read.
 */
export function joinPersianAffixes(codes: Uint16Array, length: number): number {
  let w = 0; // write position once something was removed (codes[0, w) is done)
  let copied = 0; // codes[copied, i) not yet moved to w
  let i = 0;
  while (i < length) {
    const c = codes[i] as number;
    if (c !== 0x20 && c !== 0x09) {
      i++;
      continue;
    }
    const s = i;
    while (i < length && (codes[i] === 0x20 || codes[i] === 0x09)) i++;
    if (s === 0 || i === length || !isWord(codes[s - 1] as number) || !isWord(codes[i] as number)) continue;
    if (!joins(codes, s, i, length)) continue;
    // Remove codes[s, i): move what came before it down to w.
    if (w !== copied) codes.copyWithin(w, copied, s);
    w += s - copied;
    copied = i;
  }
  return endCompaction(codes, w, copied, length);
}

/** Whether the blanks codes[s, e) between two words join them. */
function joins(codes: Uint16Array, s: number, e: number, length: number): boolean {
  const last = codes[s - 1] as number;
  const next = codes[e] as number;
  if (AFFIX_START[next] === 2 && (isArabic(last) || last === HEH)) {
    let end = e;
    while (end < length && end - e <= MAX_AFFIX && isWord(codes[end] as number)) end++;
    if (end - e <= MAX_AFFIX && (AFFIX_LENGTHS >> (end - e)) & 1) {
      if (isArabic(last) && isOneOf(codes, e, end, SUFFIXES)) return true;
      if (last === HEH && isOneOf(codes, e, end, AFTER_HEH)) return true;
    }
  }
  if (isArabic(next) && last === PREFIX_END) {
    let start = s;
    while (start > 0 && s - start <= MAX_PREFIX && isWord(codes[start - 1] as number)) start--;
    if (s - start <= MAX_PREFIX && isOneOf(codes, start, s, PREFIXES)) return true;
  }
  return false;
}
