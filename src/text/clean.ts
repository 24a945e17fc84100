import { foldLookalikes } from './lookalike.js';
import { type NormalizeOptions, normalizeTextCodes } from './normalize.js';
import { joinPersianAffixes } from './persian-affixes.js';
import { joinSpelledOut } from './spelled-out.js';
import { codesToString } from './utf16.js';
import { HAS_ARABIC, HAS_SCRIPT_MIX, scanWords } from './word-scripts.js';

/**
 * Clean text as the tokenizer reads it: normalized (invisible characters removed, layout, NFKC,
 * letter rules), then per word: disguised look-alike letters folded to one script (lookalike.ts),
 * and Persian affixes written apart joined (with the `join` ZWNJ rule). Words spelt out letter
 * by letter are joined by canonicalize when the tokenizer saw a run of one-letter words
 * (spelled-out.ts), and by cleanText. Returned as UTF-16
 * code units codes[0, length) of a scratch buffer that the next call reuses.
 */
export function cleanTextCodes(
  text: string,
  options: NormalizeOptions,
): { codes: Uint16Array; length: number } {
  const clean = normalizeTextCodes(text, options);
  const found = scanWords(clean.codes, clean.length);
  if (found === 0) return clean;
  if (found & HAS_SCRIPT_MIX) foldLookalikes(clean.codes, clean.length);
  let length = clean.length;
  if (found & HAS_ARABIC && options.zwnj === 'join') length = joinPersianAffixes(clean.codes, length);
  return { codes: clean.codes, length };
}

/** cleanTextCodes as a string, with words spelt out letter by letter joined (as the tokens have them). */
export function cleanText(text: string, options: NormalizeOptions): string {
  const { codes, length } = cleanTextCodes(text, options);
  return codesToString(codes, joinSpelledOut(codes, length));
}
