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

/** Bits of scanWords' answer. */
export const HAS_SCRIPT_MIX = 1;
export const HAS_ARABIC = 2;
/** Four or more one-character words in a row, each within 3 characters of the last: maybe a word spelt out. */
export const HAS_SPELLED_OUT = 4;

/** Most characters between two one-character words of a word spelt out (spelled-out.ts). */
const SPELLED_GAP = 3;

/**
 * Whether codes[0, length) has letters of two look-alike scripts (then a word may be disguised:
 * lookalike.ts), whether it has Arabic letters, and whether it may hold a word spelt out letter by
 * letter (spelled-out.ts). One pass: a text whose letters are all in one script and that has no
 * run of one-character words (most English text) needs no other look.
 */
export function scanWords(codes: Uint16Array, length: number): number {
  let all = 0;
  // Bits 2, 1, 0: whether the code unit before the last, the last and this one are word
  // characters; 0b010 is a word of one character that just ended.
  let state = 0;
  let single = -SPELLED_GAP - 2; // where the last one-character word stood
  let chain = 0; // one-character words in a row so far, less one
  let longest = 0;
  for (let i = 0; i < length; i++) {
    const script = WORD_SCRIPT[codes[i] as number] as number;
    all |= script;
    state = ((state << 1) | (script === 0 ? 0 : 1)) & 7;
    if (state === 2) {
      chain = i - 1 - single <= SPELLED_GAP + 1 ? chain + 1 : 0;
      if (chain > longest) longest = chain;
      single = i - 1;
    }
  }
  // A one-character word at the very end.
  if ((state & 3) === 1 && length - 1 - single <= SPELLED_GAP + 1 && chain + 1 > longest) longest = chain + 1;
  const scripts = all & LOOKALIKE_SCRIPTS;
  return (
    ((scripts & (scripts - 1)) !== 0 ? HAS_SCRIPT_MIX : 0) |
    (all & ARABIC ? HAS_ARABIC : 0) |
    (longest >= 3 ? HAS_SPELLED_OUT : 0)
  );
}
