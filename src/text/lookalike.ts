import { type KnownWordsOf, MIN_DICTIONARY_WORD } from './dictionary-words.js';
import type { Language } from './language.js';
import { LOOKALIKE_PAIRS } from './lookalike-table.js';
import { stopWords } from './stopwords.js';
import { codesToString } from './utf16.js';
import {
  ARMENIAN,
  CHEROKEE,
  CYRILLIC,
  GREEK,
  LATIN,
  LOOKALIKE_SCRIPTS,
  WORD_SCRIPT,
} from './word-scripts.js';

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
 *   With the lexicons at hand (ownScriptWords), a Latin or Cyrillic word stays as written when it
 *   is a known word of its script's languages (English; Russian or Ukrainian) and reads as real
 *   text: it has MIN_DICTIONARY_WORD letters or more and folded it is no known word of the main
 *   script's languages, or the word before or after it, in the same script, is such a word or
 *   one the main script cannot spell. A disguise makes only words the main script can spell and
 *   whose fold is a word (the one disguised), while a Russian sentence quoted in English text
 *   ("он сказал, что много моментов...") is made of words that fold into none. Known words of
 *   one to three letters ("он", "а", "era") and words of both languages (Russian "него" written
 *   in Latin letters is English "hero") go by their neighbours, and a one-letter word is known
 *   only as a stop word (lexicons hold single letters): a swapped "а" among English words still
 *   folds, and so does a Latin "b" or "c" for Russian "в", "с" anywhere.
 *   Greek words have no lexicon and fold as before.
 * The text's main script is the one most of its letters are in (of Latin, Cyrillic, Greek, Armenian
 * and Cherokee): a disguise swaps only the letters that have a look-alike, a minority in every
 * language. Words in the main script are never touched (Ukrainian і and ї in Ukrainian text,
 * Persian letter forms, a Greek or Armenian text with a few English words in it).
 * Armenian and Cherokee are sources only: a text written in them keeps its words, and only a word
 * that mixes scripts is folded, to Latin, Cyrillic or Greek.
 * The text decides before the word because a disguise replaces every letter it can: Russian
 * "рост" disguised as "pocт" has more Latin letters than Cyrillic ones.
 */

const TARGETS: ReadonlyArray<readonly [number, string]> = [
  [LATIN, LOOKALIKE_PAIRS.Latin],
  [CYRILLIC, LOOKALIKE_PAIRS.Cyrillic],
  [GREEK, LOOKALIKE_PAIRS.Greek],
];

/**
 * Pairs TR39 does not list but disguises use: Cyrillic п for Latin n. Canonical text is lower case,
 * and TR39 pairs Greek η with Latin h through their capitals (Η, H), while the small η imitates n:
 * inside a word (not its first letter, where a capital stands) η is read as n.
 */
const EXTRA_LATIN = '\u043fn';
const ETA = 0x03b7;
const N = 0x6e;

/** Per target script bit: code unit of a letter of another script -> its look-alike in the target. */
const TO = new Map<number, Map<number, number>>();
for (const [script, pairs] of TARGETS) {
  const map = new Map<number, number>();
  const all = script === LATIN ? pairs + EXTRA_LATIN : pairs;
  for (let i = 0; i + 1 < all.length; i += 2) map.set(all.charCodeAt(i), all.charCodeAt(i + 1));
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
// Per word found, how it reads: real text of its own script (REAL), a known word that is real
// only beside a REAL word (AMBIGUOUS), or a possible disguise (SWAP).
let reads = new Uint8Array(256);
const SWAP = 1;
const REAL = 2;
const AMBIGUOUS = 3;
/** Scripts with known words (ownScriptWords). */
const TARGET_LANGUAGES = LATIN | CYRILLIC;

/**
 * Whether `word`, written wholly in `script` (LATIN or CYRILLIC), is a known word of its languages:
 * a stop word, or for two letters or more a lexicon word.
 */
export type OwnScriptWords = (script: number, word: string) => boolean;

const SCRIPT_LANGUAGES: ReadonlyArray<readonly [number, readonly Language[]]> = [
  [LATIN, ['en']],
  [CYRILLIC, ['ru', 'uk']],
];
/** Longest word looked up (a longer one is not read as a word). */
const MAX_LOOKUP = 24;

/**
 * Known words by script, from the languages' stop words and lexicons. One-letter words are read
 * from stop words only: lexicons made from word counts hold single letters ("b", "c", "o").
 */
export function ownScriptWords(knownWords: KnownWordsOf): OwnScriptWords {
  return (script, word) => {
    for (const [s, langs] of SCRIPT_LANGUAGES) {
      if (s !== script) continue;
      for (const lang of langs) {
        if (stopWords(lang).has(word)) return true;
        if (word.length > 1 && knownWords(lang)?.has(word)) return true;
      }
    }
    return false;
  };
}

/** codes[start, end) as a string with its letters folded to `target` (every one has a look-alike). */
function foldedAt(codes: Uint16Array, start: number, end: number, target: number): string {
  const map = TO.get(target) as Map<number, number>;
  let word = '';
  for (let j = start; j < end; j++) {
    const code = codes[j] as number;
    const script = WORD_SCRIPT[code] as number;
    const to =
      script & LOOKALIKE_SCRIPTS && script !== target ? lookalikeOf(map, code, j > start, target) : code;
    word += String.fromCharCode(to);
  }
  return word;
}

/** The look-alike of `code` in `target`: η inside a word is read as n (see EXTRA_LATIN). */
function lookalikeOf(map: Map<number, number>, code: number, inside: boolean, target: number): number {
  // Every comparison is made on every call: one reached only after others (the first η folded to
  // Latin) was first made after the compiler had compiled foldLookalikes, and cost a recompile.
  const eta = (target === LATIN ? 1 : 0) & (code === ETA ? 1 : 0) & (inside ? 1 : 0);
  return eta === 1 ? N : (map.get(code) as number);
}

/**
 * Folds, in place, the disguised words of codes[0, length): every word that mixes look-alike
 * scripts, and every word written wholly in another look-alike script than the text's main one
 * whose letters all have look-alikes in the main script. Returns the number of words rewritten.
 * Lengths never change (every pair is one code unit to one). One pass over the code units finds
 * the words and counts the letters of each script; only the words outside the main script are
 * read again. Without `known`, every whole word the main script can spell is folded.
 */
export function foldLookalikes(codes: Uint16Array, length: number, known?: OwnScriptWords): number {
  let latin = 0;
  let cyrillic = 0;
  let greek = 0;
  let other = 0; // Armenian and Cherokee letters (source scripts only)
  let otherScript = 0;
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
      // A word that mixes scripts is a disguise: it counts for the script it is spelt in (the one
      // its fold goes to), not letter by letter, or a text disguised throughout ("lоndоn" with
      // Cyrillic о in every word) would count its look-alikes as its main script.
      const spelt = targetFor(codes, start, i, 0);
      if (spelt === LATIN) latin += i - start;
      else if (spelt === CYRILLIC) cyrillic += i - start;
      else if (spelt === GREEK) greek += i - start;
      else
        for (let j = start; j < i; j++) {
          const letter = WORD_SCRIPT[codes[j] as number];
          if (letter === LATIN) latin++;
          else if (letter === CYRILLIC) cyrillic++;
          else if (letter === GREEK) greek++;
        }
    } else {
      // A word wholly Armenian or Cherokee: the text may be written in it.
      other += i - start;
      otherScript |= m;
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
  // An Armenian or Cherokee text: main is that script, which is no target, so only mixed words fold.
  const main =
    other > top
      ? otherScript & ARMENIAN
        ? ARMENIAN
        : CHEROKEE
      : top === 0
        ? 0
        : top === latin
          ? LATIN
          : top === cyrillic
            ? CYRILLIC
            : GREEK;
  const mainTarget = TO.has(main) ? main : 0;
  if (reads.length < found) reads = new Uint8Array(words.length / 3);
  for (let k = 0; k < found; k++) {
    const m = words[3 * k + 2] as number;
    const start = words[3 * k] as number;
    const end = words[3 * k + 1] as number;
    // One store of the reading, whichever it is: a store reached first by a rare reading (the
    // first ambiguous word) after the function was compiled cost a recompile.
    let read = 0;
    if (m === main || mainTarget === 0 || (m & (m - 1)) !== 0) read = 0;
    else if (!canSpell(codes, start, end, mainTarget)) read = REAL;
    else if (known === undefined || (m !== LATIN && m !== CYRILLIC)) read = SWAP;
    else {
      const size = end - start;
      if (size > MAX_LOOKUP || !known(m, codesToString(codes.subarray(start, end)))) read = SWAP;
      else if (size < MIN_DICTIONARY_WORD) read = AMBIGUOUS;
      // A word of both languages ("него" written in Latin is "hero") goes by its neighbours too.
      else if (TARGET_LANGUAGES & mainTarget && known(mainTarget, foldedAt(codes, start, end, mainTarget)))
        read = AMBIGUOUS;
      else read = REAL;
    }
    reads[k] = read;
  }
  let folded = 0;
  for (let k = 0; k < found; k++) {
    const m = words[3 * k + 2] as number;
    if (m === main) continue;
    const start = words[3 * k] as number;
    const end = words[3 * k + 1] as number;
    let target: number;
    if ((m & (m - 1)) === 0) {
      // A short known word beside real text of its own script is part of that text.
      // Both neighbours are read for every such word (see `read` above: no test first made late).
      const read = reads[k];
      const realBefore = k > 0 ? (words[3 * k - 1] === m ? 1 : 0) & (reads[k - 1] === REAL ? 1 : 0) : 0;
      const realAfter =
        k + 1 < found ? (words[3 * k + 5] === m ? 1 : 0) & (reads[k + 1] === REAL ? 1 : 0) : 0;
      const fold = read === SWAP || (read === AMBIGUOUS && (realBefore | realAfter) === 0);
      target = fold ? mainTarget : 0;
    } else target = targetFor(codes, start, end, mainTarget);
    if (target === 0) continue;
    const map = TO.get(target) as Map<number, number>;
    for (let j = start; j < end; j++) {
      const code = codes[j] as number;
      const script = WORD_SCRIPT[code] as number;
      if (script & LOOKALIKE_SCRIPTS && script !== target)
        codes[j] = lookalikeOf(map, code, j > start, target);
    }
    folded++;
  }
  return folded;
}
