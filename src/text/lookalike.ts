import { LOOKALIKE_PAIRS } from './lookalike-table.js';
import { CYRILLIC, GREEK, LATIN, LOOKALIKE_SCRIPTS, WORD_SCRIPT } from './word-scripts.js';

/**
 * Look-alike letters folded to one script. A word whose letters come from more than one of Latin,
 * Cyrillic, Greek and Armenian (English "bаnk" with a Cyrillic а; Russian "pocт" with Latin p, o,
 * c) is rewritten in one script, letter by letter, by the Unicode TR39 confusables table
 * (lookalike-table.ts), so that it signs like the word it imitates. Words written in one script
 * are never touched: Ukrainian і and ї, Greek, Persian letter forms stay as they are.
 *
 * The target script is the first of these that can spell the whole word (every letter of another
 * script has a look-alike in it): the script most letters of the whole text are written in; then
 * the script of most of the word's letters; then Latin, Cyrillic, Greek in that order. The text
 * decides first because a disguise replaces every letter it can: Russian "рост" disguised as
 * "pocт" has more Latin letters than Cyrillic ones.
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

/** The target script that most letters of codes[0, length) are written in (0: none). */
function textScript(codes: Uint16Array, length: number): number {
  let latin = 0;
  let cyrillic = 0;
  let greek = 0;
  for (let i = 0; i < length; i++) {
    const script = WORD_SCRIPT[codes[i] as number];
    if (script === LATIN) latin++;
    else if (script === CYRILLIC) cyrillic++;
    else if (script === GREEK) greek++;
  }
  const top = Math.max(latin, cyrillic, greek);
  if (top === 0) return 0;
  return top === latin ? LATIN : top === cyrillic ? CYRILLIC : GREEK;
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

/**
 * Folds, in place, every word of codes[0, length) that mixes look-alike scripts. Returns the
 * number of words rewritten. Lengths never change (every pair is one code unit to one).
 */
export function foldLookalikes(codes: Uint16Array, length: number): number {
  const preferred = textScript(codes, length);
  let folded = 0;
  let i = 0;
  while (i < length) {
    if (WORD_SCRIPT[codes[i] as number] === 0) {
      i++;
      continue;
    }
    const start = i;
    let scripts = 0;
    while (i < length && WORD_SCRIPT[codes[i] as number] !== 0)
      scripts |= WORD_SCRIPT[codes[i++] as number] as number;
    const m = scripts & LOOKALIKE_SCRIPTS;
    if ((m & (m - 1)) === 0) continue;
    const target = targetFor(codes, start, i, preferred);
    if (target === 0) continue;
    const map = TO.get(target) as Map<number, number>;
    for (let j = start; j < i; j++) {
      const script = WORD_SCRIPT[codes[j] as number] as number;
      if (script & LOOKALIKE_SCRIPTS && script !== target) codes[j] = map.get(codes[j] as number) as number;
    }
    folded++;
  }
  return folded;
}
