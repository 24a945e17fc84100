import {
  type ClassRun,
  isDigit,
  type KnownWords,
  MAX_LEET_RUN,
  nextClassRun,
  RUN_CLASS,
  RUN_LEET,
  RUN_LETTER,
  readLeet,
} from './dictionary-words.js';
import { STOP_COST, UNKNOWN_COST, wordCost } from './word-cost.js';

/**
 * A text written in leetspeak throughout ("7h3 qu1ck br0wn f0x"): when many of its words mix
 * letters with leet digits and symbols, every such word is read back by the leet table, short ones
 * too ("0n", "7h3", "1s"), which the word-by-word rule (dictionary-words.ts, undoLeet) leaves since
 * a short word is too often a known word by chance. A text qualifies when at least LEET_TEXT_SHARE
 * of its words, and MIN_LEET_WORDS or more, are such mixes (ordinary text has a few: mp3, h1n1,
 * "4g", a model name; 7.3% of the words at most in the evaluation corpus), and a third of those
 * read as known words (a list of identifiers reads as none). Each reading of a `1` as i or l is
 * priced by the language's word costs (word-cost.ts) and the cheapest is written when it costs
 * less than the run as written ("mp3" stays, "b3" is `be`), or when both are unknown and the run
 * has two letters or more (a name). Runs with another digit ("a320", "2nd", "2020") are numbers
 * and stay; so do runs of leet characters only unless they read as a stop word ("50" so, "4" a)
 * or, three long or more, a known word ("537" set), and runs starting with two digits or of one
 * letter among leet characters ("15th", "4x4") unless they read as a known word ("541d" said).
 */

/** Share of a text's words that are letter-leet mixes from which the whole text is read as leet. */
export const LEET_TEXT_SHARE = 0.15;
/** Fewest mixed words that make a leet text (a short text with one "mp3" is not one). */
export const MIN_LEET_WORDS = 3;
/** A run with more `1`s than this is read with the first ones as l, i by cost only for the last ones. */
const MAX_ONES = 6;
const ONE = 0x31;
const APOSTROPHE = 0x27;
/** What follows the apostrophe of an English contraction (it's, can't, we'll, you're, we've, he'd, i'm). */
const CONTRACTION_ENDINGS = new Set(['s', 't', 'll', 're', 've', 'd', 'm']);
const L = 0x6c;
const I = 0x69;

/** Whether a text with `mixed` letter-leet runs among `words` words is written in leet. */
export const isLeetText = (mixed: number, words: number): boolean =>
  mixed >= MIN_LEET_WORDS && mixed >= LEET_TEXT_SHARE * words;

/** Whether codes[start, end) is digits, then letters only ("10th", "4k"). */
function numberWithUnit(codes: Uint16Array, start: number, end: number): boolean {
  let i = start;
  while (i < end && isDigit(codes[i] as number)) i++;
  if (i === start) return false;
  for (; i < end; i++) if (RUN_CLASS[codes[i] as number] !== RUN_LETTER) return false;
  return true;
}

/**
 * Reads every letter-leet run of codes[0, length) (clean text: lower case) as its cheapest
 * reading, in place (one character for one), when at least a third of those runs that the
 * reading changes read as known words (a spam mail's leet words among its random strings). Call only for a text with many such runs (isLeetText). Returns
 * the number of runs rewritten.
 */
export function undoLeetText(
  codes: Uint16Array,
  length: number,
  known: KnownWords,
  stops: ReadonlySet<string>,
  /** Fewest mixed runs, numbers with units not counted, that make the text leet. */
  minRuns = 0,
): number {
  const runs = leetRuns(codes, length, known, stops);
  // Identifiers and codes ("qb1x", "a3f5e0", tracking numbers) mix letters and digits too, but
  // read as no word: the text is leet only when a third or more of its mixed runs read as known words.
  // A number with its unit or ordinal ("10th", "10am", "4k", "256gb") is ordinary text, and
  // reads as a word by chance ("loth", "loam"): it is no evidence of leet.
  let mixed = 0;
  let read = 0;
  for (const run of runs) {
    if (!run.lettersToo || numberWithUnit(codes, run.start, run.end)) continue;
    mixed++;
    if (run.cost < UNKNOWN_COST) read++;
  }
  if (mixed < minRuns || 3 * read < mixed) return 0;
  let rewritten = 0;
  for (const { start, end, lettersToo, reading, cost } of runs) {
    // The ending of a contraction ("it'5", "you'r3", "we'11"): read whatever it spells.
    if (ending(codes, start) && end - start <= 2) {
      const asL = readLeet(codes, start, end, L);
      write(codes, start, CONTRACTION_ENDINGS.has(asL) ? asL : reading);
      rewritten++;
      continue;
    }
    // Leet characters only: a number unless it reads as a stop word ("50" so, "70" to, "4" a) or,
    // three long or more, as a known word ("537" set, "71713" title).
    if (!lettersToo && (end - start <= 2 ? cost > STOP_COST : cost >= UNKNOWN_COST)) continue;
    // A reading of no known word is written for a run of two letters or more ("c10ck3nf14p", a
    // name): two digits first ("15th", "10am") or one letter among leet characters ("4x4", "3d")
    // is a number or a unit, unless it reads as a known word ("541d" said, "7h3" the).
    if (
      cost >= UNKNOWN_COST &&
      ((isDigit(codes[start] as number) && isDigit(codes[start + 1] as number)) ||
        end - start - leetCount(codes, start, end) <= 1)
    )
      continue;
    write(codes, start, reading);
    rewritten++;
  }
  return rewritten;
}

interface LeetRun {
  start: number;
  end: number;
  /** Letters and leet characters (false: leet characters only). */
  lettersToo: boolean;
  reading: string;
  cost: number;
}

/** The runs of codes[0, length) of leet characters, with or without letters, that a reading would change. */
function leetRuns(
  codes: Uint16Array,
  length: number,
  known: KnownWords,
  stops: ReadonlySet<string>,
): LeetRun[] {
  const runs: LeetRun[] = [];
  const run: ClassRun = { start: 0, end: 0, mask: 0 };
  for (let at = 0; nextClassRun(codes, at, length, RUN_CLASS, run); at = run.end) {
    const { start, end, mask } = run;
    if (mask !== (RUN_LETTER | RUN_LEET) && mask !== RUN_LEET) continue;
    // A longer run is no disguised word (and would cost 2^MAX_ONES readings of its length).
    if (end - start > MAX_LEET_RUN) continue;
    const found = cheapestReading(codes, start, end, known, stops);
    if (found === null) continue;
    runs.push({ start, end, lettersToo: mask !== RUN_LEET, reading: found[0], cost: found[1] });
  }
  return runs;
}

/** Whether codes[start] follows an apostrophe inside a word (a contraction's ending). */
function ending(codes: Uint16Array, start: number): boolean {
  return start >= 2 && codes[start - 1] === APOSTROPHE && RUN_CLASS[codes[start - 2] as number] !== 0;
}

function write(codes: Uint16Array, start: number, reading: string): void {
  for (let j = 0; j < reading.length; j++) codes[start + j] = reading.charCodeAt(j);
}

/** How many of codes[start, end) are leet characters. */
function leetCount(codes: Uint16Array, start: number, end: number): number {
  let count = 0;
  for (let j = start; j < end; j++) if (RUN_CLASS[codes[j] as number] === RUN_LEET) count++;
  return count;
}

/**
 * The cheapest reading of codes[start, end) and its cost; null when the run as written costs no
 * more ("mp3", "h1n1": known words, while "b3", vitamin B3 to the lexicon, is the stop word `be`).
 */
function cheapestReading(
  codes: Uint16Array,
  start: number,
  end: number,
  known: KnownWords,
  stops: ReadonlySet<string>,
): [string, number] | null {
  const asWritten = String.fromCharCode(...codes.subarray(start, end));
  const ones: number[] = [];
  for (let j = start; j < end; j++) if (codes[j] === ONE) ones.push(j);
  // Ones beyond the last MAX_ONES are read as i without trying both (bounded work per run).
  const tried = ones.slice(-MAX_ONES);
  let best = readLeet(codes, start, end, I);
  let bestCost = wordCost(best, known, stops);
  const scratch = codes.slice(start, end);
  for (let choice = 1; choice < 1 << tried.length; choice++) {
    for (let k = 0; k < tried.length; k++) scratch[(tried[k] as number) - start] = choice & (1 << k) ? L : I;
    for (const j of ones.slice(0, -MAX_ONES)) scratch[j - start] = I;
    const reading = readLeet(scratch, 0, scratch.length, I);
    const cost = wordCost(reading, known, stops);
    if (cost < bestCost) {
      best = reading;
      bestCost = cost;
    }
  }
  // Unknown as written and as read (a name, "c10ck3nf14p"): the reading, for the caller's rules.
  const writtenCost = wordCost(asWritten, known, stops);
  return bestCost < writtenCost || writtenCost >= UNKNOWN_COST ? [best, bestCost] : null;
}
