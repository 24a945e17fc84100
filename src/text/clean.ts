import { foldCapitalTwins } from './greek-capitals.js';
import { foldLookalikes, type OwnScriptWords } from './lookalike.js';
import { type NormalizeOptions, normalizeTextCodes } from './normalize.js';
import { joinPersianAffixes } from './persian-affixes.js';
import { joinSpelledOut } from './spelled-out.js';
import { codesToString } from './utf16.js';
import {
  HAS_ARABIC,
  HAS_GREEK_MIX,
  HAS_LATIN_CYRILLIC,
  HAS_SCRIPT_MIX,
  mostlyLatin,
  scanWords,
} from './word-scripts.js';

/**
 * Clean text as the tokenizer reads it: normalized (invisible characters removed, layout, NFKC,
 * letter rules; a text with Greek and other letters first has the Greek capitals of its mixed
 * words written as their Latin twins, greek-capitals.ts, since lower case loses their shape), then per word: disguised look-alike letters folded to one script (lookalike.ts),
 * and Persian affixes written apart joined (with the `join` ZWNJ rule). Words spelt out letter
 * by letter are joined by canonicalize when the tokenizer saw a run of one-letter words
 * (spelled-out.ts), and by cleanText. Returned as UTF-16
 * code units codes[0, length) of a scratch buffer that the next call reuses.
 */
export function cleanTextCodes(
  text: string,
  options: NormalizeOptions,
  /** Known words by script: a whole word of another script that is real text keeps its letters. */
  known?: OwnScriptWords,
  greekFolded = false,
): { codes: Uint16Array; length: number } {
  const clean = normalizeTextCodes(text, options);
  const found = scanWords(clean.codes, clean.length);
  if (found === 0) return clean;
  // Only a text with Greek or Cyrillic letters beside Latin ones is read again (greek-capitals.ts):
  // the check costs the rest nothing.
  if (found & (HAS_GREEK_MIX | HAS_LATIN_CYRILLIC) && !greekFolded) {
    const folded = foldCapitalTwins(text, mostlyLatin(clean.codes, clean.length));
    if (folded !== text) return cleanTextCodes(folded, options, known, true);
  }
  if (found & HAS_SCRIPT_MIX) foldLookalikes(clean.codes, clean.length, known);
  let length = clean.length;
  if (found & HAS_ARABIC && options.zwnj === 'join') length = joinPersianAffixes(clean.codes, length);
  return { codes: clean.codes, length };
}

/** cleanTextCodes as a string, with words spelt out letter by letter joined (as the tokens have them). */
export function cleanText(text: string, options: NormalizeOptions, known?: OwnScriptWords): string {
  const { codes, length } = cleanTextCodes(text, options, known);
  return codesToString(codes, joinSpelledOut(codes, length));
}
