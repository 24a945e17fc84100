import type { KnownWords } from './dictionary-words.js';
import {
  type ClassRun,
  isDigit,
  MAX_LEET_RUN,
  MIN_DICTIONARY_WORD,
  nextClassRun,
} from './dictionary-words.js';
import { isWordChar } from './word-scripts.js';

/**
 * Leetspeak of Cyrillic words: digits and @ for the letters they look like ("3аработок",
 * "6есплатно", "д0ход", "@кция", "4исло"). Russian and Ukrainian spam writes them so; news
 * writes digits beside Cyrillic letters too ("COVID-19", "Су-57", "3-й", "5G"), which is why, as in
 * dictionary-words.ts for Latin leet, a run is rewritten only where its reading is a known word of
 * the language and the run as written is not one. Latin look-alikes inside the same word are
 * already folded to Cyrillic (lookalike.ts) when this runs.
 */

/** 3 is read as з, then as е; the rest have one reading. */
const THREE = 0x33;
const E = 0x435;
const ZE = 0x437;
const ZERO = 0x30;

const LEET = new Uint16Array(0x80);
for (const [from, to] of [
  ['0', 'о'],
  ['3', 'з'],
  ['4', 'ч'],
  ['6', 'б'],
  ['8', 'в'],
  ['@', 'а'],
] as const)
  LEET[from.charCodeAt(0)] = to.charCodeAt(0);

const RUN_LETTER = 1;
const RUN_LEET = 2;
const RUN_OTHER = 4;
/**
 * Per code unit: a Cyrillic letter of Russian or Ukrainian, a leet character, another word
 * character, or 0 (ends a run). Derived from WORD_SCRIPT (a shipped table) at load: ~0.1 ms.
 */
const RUN_CLASS = new Uint8Array(0x10000);
for (let code = 0; code < 0x10000; code++) {
  const cyrillic =
    (code >= 0x430 && code <= 0x44f) ||
    code === 0x451 ||
    code === 0x454 ||
    code === 0x456 ||
    code === 0x457 ||
    code === 0x491;
  RUN_CLASS[code] = cyrillic
    ? RUN_LETTER
    : code < 0x80 && LEET[code] !== 0
      ? RUN_LEET
      : isWordChar(code)
        ? RUN_OTHER
        : 0;
}

/** Most 3s of a word read both ways (з and е): 2^3 readings. */
const MAX_THREES = 3;

/**
 * The known word codes[start, end) spells with its leet characters read as letters, each 3 as з
 * or е (every combination, up to MAX_THREES of them; beyond, all as з or all as е); null if none.
 */
function knownReading(
  codes: Uint16Array,
  start: number,
  end: number,
  known: KnownWords | ReadonlySet<string>,
): string | null {
  let threes = 0;
  for (let i = start; i < end; i++) if (codes[i] === THREE) threes++;
  const combinations = threes <= MAX_THREES ? 1 << threes : 2;
  for (let combination = 0; combination < combinations; combination++) {
    let word = '';
    let three = 0;
    for (let i = start; i < end; i++) {
      const code = codes[i] as number;
      if (code === THREE) {
        const asE = threes <= MAX_THREES ? (combination >> three) & 1 : combination;
        word += String.fromCharCode(asE ? E : ZE);
        three++;
      } else word += String.fromCharCode(RUN_CLASS[code] === RUN_LEET ? (LEET[code] as number) : code);
    }
    if (known.has(word)) return word;
  }
  return null;
}

/**
 * Reads Cyrillic leet words of codes[0, length) (clean text: lower case) as the known word they
 * spell, in place (one character for one). A candidate is a run of Cyrillic letters and leet
 * characters with at least one of each, MIN_DICTIONARY_WORD to MAX_LEET_RUN long, that does not start
 * with two digits ("10го") and whose only leet character is not one digit at its end ("су57":
 * a model or a footnote). Returns the number of words rewritten.
 */
export function undoCyrillicLeet(
  codes: Uint16Array,
  length: number,
  known: KnownWords,
  seen?: { mixed: number },
): number {
  let rewritten = 0;
  let i = 0;
  while (i < length) {
    // Most texts have no leet character but in numbers: look for one, then at the run around it.
    if (RUN_CLASS[codes[i] as number] !== RUN_LEET) {
      i++;
      continue;
    }
    let start = i;
    while (start > 0 && RUN_CLASS[codes[start - 1] as number] !== 0) start--;
    let mask = 0;
    let leet = 0;
    i = start;
    while (i < length) {
      const cls = RUN_CLASS[codes[i] as number] as number;
      if (cls === 0) break;
      mask |= cls;
      if (cls === RUN_LEET) leet++;
      i++;
    }
    if (mask !== (RUN_LETTER | RUN_LEET)) continue;
    if (seen) seen.mixed++;
    const size = i - start;
    if (size < MIN_DICTIONARY_WORD || size > MAX_LEET_RUN) continue;
    if (isDigit(codes[start] as number) && isDigit(codes[start + 1] as number)) continue;
    // One digit at the end of a word is a model or a footnote ("су57", "гл2"), but for a 0: о ends
    // Russian words more often than any letter (его, что, тело).
    if (leet === 1 && isDigit(codes[i - 1] as number) && codes[i - 1] !== ZERO) continue;
    const asWritten = String.fromCharCode(...codes.subarray(start, i));
    if (known.has(asWritten)) continue;
    const read = knownReading(codes, start, i, known);
    if (read === null) continue;
    for (let j = 0; j < read.length; j++) codes[start + j] = read.charCodeAt(j);
    rewritten++;
  }
  return rewritten;
}

/**
 * A text written in Cyrillic leet throughout (isLeetText of leet-text.ts, on the mixed runs
 * undoCyrillicLeet counted): every mixed run of Cyrillic letters and leet characters is read back,
 * short ones ("н@" на, "п0" по, "4т0" что, "3@" за) and word forms the lexicon lacks too, which
 * the word-by-word rule leaves. A run that is a stop word as written stays; a run is written as
 * the stop word or known word it spells (3 as з or е), or else with 3 read as з at the start of
 * the run and as е elsewhere (е is the commoner letter inside Russian and Ukrainian words).
 * Returns the number of runs rewritten.
 */
export function undoCyrillicLeetText(
  codes: Uint16Array,
  length: number,
  known: KnownWords,
  stops: ReadonlySet<string>,
): number {
  let rewritten = 0;
  const run: ClassRun = { start: 0, end: 0, mask: 0 };
  for (let at = 0; nextClassRun(codes, at, length, RUN_CLASS, run); at = run.end) {
    const { start, end, mask } = run;
    if (end - start > MAX_LEET_RUN) continue;
    // Leet characters only are a number, unless an @ among them spells a word ("3@" за).
    const lettersToo = mask === (RUN_LETTER | RUN_LEET);
    if (!lettersToo && (mask !== RUN_LEET || !hasAt(codes, start, end))) continue;
    const asWritten = String.fromCharCode(...codes.subarray(start, end));
    if (stops.has(asWritten) || known.has(asWritten)) continue;
    const read =
      knownReading(codes, start, end, stops) ??
      knownReading(codes, start, end, known) ??
      (lettersToo ? guessedReading(codes, start, end) : null);
    if (read === null) continue;
    for (let j = 0; j < read.length; j++) codes[start + j] = read.charCodeAt(j);
    rewritten++;
  }
  return rewritten;
}

const AT = 0x40;
function hasAt(codes: Uint16Array, start: number, end: number): boolean {
  for (let i = start; i < end; i++) if (codes[i] === AT) return true;
  return false;
}

/** codes[start, end) with its leet characters read as letters, 3 as з first and as е elsewhere. */
function guessedReading(codes: Uint16Array, start: number, end: number): string {
  let word = '';
  for (let i = start; i < end; i++) {
    const code = codes[i] as number;
    word += String.fromCharCode(
      code === THREE ? (i === start ? ZE : E) : RUN_CLASS[code] === RUN_LEET ? (LEET[code] as number) : code,
    );
  }
  return word;
}
