/**
 * The script of each word character, and one pass over clean text that tells whether it has
 * letters of two look-alike scripts (look-alike folding needed) and Arabic-script letters
 * (Persian affix joining needed). Most texts need neither, and the pass is the only cost they
 * pay: one table lookup per code unit.
 *
 * A word is a run of letters, marks and digits (the tokenizer's word characters, without its
 * apostrophe rule: an apostrophe splits a word here, which only makes the runs shorter).
 */

import { charTable } from './char-tables.js';

export const LATIN = 1;
export const CYRILLIC = 2;
export const GREEK = 4;
export const ARMENIAN = 8;
export const ARABIC = 16;
/** Cherokee: its capitals look like Latin capitals (Ꭺ Ᏼ Ꮯ Ꭼ Ꮋ Ꮶ Ꮇ Ꮲ Ꮪ Ꭲ), and canonical text holds their small forms. */
export const CHEROKEE = 32;
/** A word character of no script above (digits, marks, letters of other scripts). */
export const NEUTRAL = 0x80;
/** The scripts between which look-alike letters are folded. */
export const LOOKALIKE_SCRIPTS = LATIN | CYRILLIC | GREEK | ARMENIAN | CHEROKEE;

/** Per BMP code unit: 0 (not a word character), a script bit, or NEUTRAL. Surrogates: NEUTRAL. */
export function buildWordScript(): Uint8Array {
  const table = new Uint8Array(0x10000);
  const word = /[\p{L}\p{M}\p{N}]/u;
  const letter = /\p{L}/u;
  const scripts: ReadonlyArray<readonly [RegExp, number]> = [
    [/\p{Script=Latin}/u, LATIN],
    [/\p{Script=Cyrillic}/u, CYRILLIC],
    [/\p{Script=Greek}/u, GREEK],
    [/\p{Script=Armenian}/u, ARMENIAN],
    [/\p{Script=Arabic}/u, ARABIC],
    [/\p{Script=Cherokee}/u, CHEROKEE],
  ];
  for (let code = 0; code < 0x10000; code++) {
    if (code >= 0xd800 && code <= 0xdfff) {
      // Astral characters are not word characters for the tokenizer either; they end a word.
      continue;
    }
    const ch = String.fromCharCode(code);
    if (!word.test(ch)) continue;
    let value = NEUTRAL;
    if (letter.test(ch)) for (const [re, bit] of scripts) if (re.test(ch)) value = bit;
    table[code] = value;
  }
  return table;
}

export const WORD_SCRIPT = charTable('word-script', Uint8Array, buildWordScript);

/** WORD_SCRIPT bits of a script's letters (not digits, marks, or letters of other scripts). */
const SCRIPT_LETTER = 0x7f;

/** Whether a code unit is a word character. */
export const isWordChar = (code: number): boolean => (WORD_SCRIPT[code] as number) !== 0;

/** Whether a code unit is a letter of one of the scripts above. */
export const isScriptLetter = (code: number): boolean =>
  ((WORD_SCRIPT[code] as number) & SCRIPT_LETTER) !== 0;

/** Whether codes[i] is a letter of one of the scripts above with no word character on either side. */
export function singleLetter(codes: Uint16Array, i: number, length: number): boolean {
  return (
    i < length &&
    isScriptLetter(codes[i] as number) &&
    (i === 0 || !isWordChar(codes[i - 1] as number)) &&
    (i + 1 === length || !isWordChar(codes[i + 1] as number))
  );
}

/** Bits of scanWords' answer. */
export const HAS_SCRIPT_MIX = 1;
export const HAS_ARABIC = 2;
/** Greek letters beside letters of another look-alike script (greek-capitals.ts may have work). */
export const HAS_GREEK_MIX = 4;
/** Latin and Cyrillic letters in one text (greek-capitals.ts: Cyrillic capitals in English text). */
export const HAS_LATIN_CYRILLIC = 8;

/**
 * Whether codes[0, length) has letters of two look-alike scripts (then a word may be disguised:
 * lookalike.ts), and whether it has Arabic letters. One branch-free pass: a text whose letters are
 * all in one script (most English text) needs no other look.
 */
export function scanWords(codes: Uint16Array, length: number): number {
  let all = 0;
  for (let i = 0; i < length; i++) all |= WORD_SCRIPT[codes[i] as number] as number;
  const scripts = all & LOOKALIKE_SCRIPTS;
  const mix = (scripts & (scripts - 1)) !== 0;
  const latinCyrillic = (scripts & (LATIN | CYRILLIC)) === (LATIN | CYRILLIC) ? HAS_LATIN_CYRILLIC : 0;
  return (
    (mix ? HAS_SCRIPT_MIX | (scripts & GREEK ? HAS_GREEK_MIX : 0) | latinCyrillic : 0) |
    (all & ARABIC ? HAS_ARABIC : 0)
  );
}

/**
 * Whether most of the Latin, Cyrillic and Greek letters of codes[0, length) are Latin, read on
 * every fourth code unit: a text's main script shows as well in a quarter of its letters, at a
 * quarter of the cost (it is read for every Russian text with a Latin word).
 */
export function mostlyLatin(codes: Uint16Array, length: number): boolean {
  let latin = 0;
  let others = 0;
  for (let i = 0; i < length; i += 4) {
    const script = WORD_SCRIPT[codes[i] as number] as number;
    if (script === LATIN) latin++;
    else if (script === CYRILLIC || script === GREEK) others++;
  }
  return latin > others;
}
