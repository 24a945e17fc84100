import { LOOKALIKE_PAIRS } from './lookalike-table.js';
import { CYRILLIC, GREEK, LATIN, LOOKALIKE_SCRIPTS, WORD_SCRIPT } from './word-scripts.js';

/**
 * Look-alike letters folded to one script, so that a disguised word signs like the word it
 * imitates, by the Unicode TR39 confusables table (lookalike-table.ts). Two kinds of word are
 * rewritten, letter by letter:
 * - a word whose letters come from more than one of Latin, Cyrillic, Greek and Armenian (English
 *   "bаnk" with a Cyrillic а; Russian "pocт" with Latin p, o, c): to the first script that can
 *   spell all its letters among the text's main script, then the script of most of the word's
 *   letters, then Latin, Cyrillic, Greek;
 * - a word written wholly in another look-alike script than the text's main one, when the main
 *   script can spell all its letters: a disguise that swaps every letter it can turns English "a"
 *   and "copy" into Cyrillic "а" and "сору", Russian "с" and "о" into Latin "c" and "o".
 * The text's main script is the one most of its letters are in: a disguise swaps only the letters
 * that have a look-alike, a minority in every language. Words in the main script are never touched (Ukrainian і and ї in Ukrainian text, Persian letter forms).
 * The text decides before the word because a disguise replaces every letter it can: Russian
 * "рост" disguised as "pocт" has more Latin letters than Cyrillic ones.
 */

const TARGETS: ReadonlyArray<readonly [number, string]> = [
  [LATIN, LOOKALIKE_PAIRS.Latin],
  [CYRILLIC, LOOKALIKE_PAIRS.Cyrillic],
  [GREEK, LOOKALIKE_PAIRS.Greek],
];

/** Per target script bit: code unit of a letter of another script -> its look-alike in the target. */
const TO = new Map<number, Map<number, number>>();
for (const [script, pairs] of TARGETS) {
  const map = new Map<number, number>();
  for (let i = 0; i + 1 < pairs.length; i += 2) map.set(pairs.charCodeAt(i), pairs.charCodeAt(i + 1));
  TO.set(script, map);
}

/** Whether every letter of codes[start, end) outside `target` has a look-alike in it. */
function canSpell(codes: Uint16Array, start: number, end: number, target: number): boolean {
  const map = TO.get(target) as Map<number, number>;
  for (let i = start; i < end; i++) {
    const code = codes[i] as number;
    const script = WORD_SCRIPT[code] as number;
    if (script & LOOKALIKE_SCRIPTS && script !== target && !map.has(code)) return false;
  }
  return true;
}

/** Target script for the mixed word codes[start, end), or 0 when no script can spell it. */
function targetFor(codes: Uint16Array, start: number, end: number, preferred: number): number {
  if (preferred !== 0 && canSpell(codes, start, end, preferred)) return preferred;
  const counts = new Int32Array(3);
  for (let i = start; i < end; i++) {
    const script = WORD_SCRIPT[codes[i] as number];
    const k = script === LATIN ? 0 : script === CYRILLIC ? 1 : script === GREEK ? 2 : -1;
    if (k >= 0) counts[k] = (counts[k] as number) + 1;
  }
  const order = [0, 1, 2].sort((a, b) => (counts[b] as number) - (counts[a] as number) || a - b);
  for (const k of order) {
    const target = (TARGETS[k] as readonly [number, string])[0];
    if (target !== preferred && canSpell(codes, start, end, target)) return target;
  }
  return 0;
}

// Words of a look-alike script (or mixing them) found by the pass: start, end, scripts.
let words = new Int32Array(3 * 256);

/**
 * Folds, in place, the disguised words of codes[0, length): every word that mixes look-alike
 * scripts, and every word written wholly in another look-alike script than the text's main one
 * whose letters all have look-alikes in the main script. Returns the number of words rewritten.
 * Lengths never change (every pair is one code unit to one). One pass over the code units finds
 * the words and counts the letters of each script; only the words outside the main script are
 * read again.
 */
export function foldLookalikes(codes: Uint16Array, length: number): number {
  let latin = 0;
  let cyrillic = 0;
  let greek = 0;
  let found = 0;
  let i = 0;
  while (i < length) {
    let script = WORD_SCRIPT[codes[i] as number] as number;
    if (script === 0) {
      i++;
      continue;
    }
    const start = i;
    let mask = 0;
    do {
      mask |= script;
      i++;
      script = i < length ? (WORD_SCRIPT[codes[i] as number] as number) : 0;
    } while (script !== 0);
    const m = mask & LOOKALIKE_SCRIPTS;
    if (m === 0) continue;
    if (m === LATIN) latin += i - start;
    else if (m === CYRILLIC) cyrillic += i - start;
    else if (m === GREEK) greek += i - start;
    else if ((m & (m - 1)) !== 0) {
      for (let j = start; j < i; j++) {
        const letter = WORD_SCRIPT[codes[j] as number];
        if (letter === LATIN) latin++;
        else if (letter === CYRILLIC) cyrillic++;
        else if (letter === GREEK) greek++;
      }
    }
    if (3 * found + 3 > words.length) {
      const grown = new Int32Array(words.length * 2);
      grown.set(words);
      words = grown;
    }
    words[3 * found] = start;
    words[3 * found + 1] = i;
    words[3 * found + 2] = m;
    found++;
  }
  const top = Math.max(latin, cyrillic, greek);
  const main = top === 0 ? 0 : top === latin ? LATIN : top === cyrillic ? CYRILLIC : GREEK;
  let folded = 0;
  for (let k = 0; k < found; k++) {
    const m = words[3 * k + 2] as number;
    if (m === main) continue;
    const start = words[3 * k] as number;
    const end = words[3 * k + 1] as number;
    let target: number;
    if ((m & (m - 1)) === 0) target = main !== 0 && canSpell(codes, start, end, main) ? main : 0;
    else target = targetFor(codes, start, end, main);
    if (target === 0) continue;
    const map = TO.get(target) as Map<number, number>;
    for (let j = start; j < end; j++) {
      const script = WORD_SCRIPT[codes[j] as number] as number;
      if (script & LOOKALIKE_SCRIPTS && script !== target) codes[j] = map.get(codes[j] as number) as number;
    }
    folded++;
  }
  return folded;
}
