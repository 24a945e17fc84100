import { cleanTextCodes } from './clean.js';
import type { KnownWords, KnownWordsOf } from './dictionary-words.js';
import { detectLanguageOfCodes, languageFromTag } from './language.js';
import { joinSplitWords, type SplitRule } from './line-break-words.js';
import type { OwnScriptWords } from './lookalike.js';
import { type NormalizeOptions, spaceVariantsSeen, type ZwnjRule } from './normalize.js';
import { joinPersianAffixes } from './persian-affixes.js';
import { stopWords } from './stopwords.js';
import { isScriptLetter } from './word-scripts.js';

/**
 * Narrow and no-break spaces inside a word ("pre\u2009sident", "гов\u200aернмент"): a hair or thin
 * space looks like nothing or like kerning, so spam writes it inside words to break their
 * fingerprints, and NFKC makes it a plain space (two tokens). A reader sees one word. Before
 * normalization, each such space directly between two letters is written as a marker that NFKC,
 * the letter rules and the tokenizer leave alone (a noncharacter: a separator, like a space);
 * once the language is known, each marker is read as a line break inside a word is
 * (line-break-words.ts: removed where the pieces joined are a known word that costs less than
 * them) and otherwise becomes the space it was.
 *
 * Two kinds, as text uses them:
 * - GAP, spaces no text writes between the letters of two words (en, em, thin, hair, punctuation,
 *   medium mathematical and ideographic spaces: U+2000-2006, U+2008-200A, U+205F, U+3000): the
 *   line-break reading as it is;
 * - ORDINARY, spaces that bind two words (no-break U+00A0: Russian typography binds prepositions,
 *   "в\u00a0Москве"; narrow no-break U+202F: French before punctuation, "10\u202f000"; figure
 *   space U+2007 in numbers): joined only when a piece is no known word as well, so two words
 *   stay two.
 * A space between a letter and anything else (a digit, punctuation) is not marked: it stays a space.
 */

const GAP = 1;
const ORDINARY = 2;
/** The markers (noncharacters: NFKC keeps them, no text has a use for them). */
export const GAP_MARK = 0xfdd0;
export const ORDINARY_MARK = 0xfdd1;
const SPACE = 0x20;
/** Letters read at most per text and kind: ~0.3 µs a letter, so a 4 MiB line of them stays cheap. */
const MAX_READ_LETTERS = 32_768;

const KIND = new Uint8Array(0x10000);
for (let code = 0x2000; code <= 0x200a; code++) KIND[code] = GAP;
KIND[0x205f] = GAP;
KIND[0x3000] = GAP;
KIND[0x00a0] = ORDINARY;
KIND[0x2007] = ORDINARY;
KIND[0x202f] = ORDINARY;

const GAP_RULE: SplitRule = {
  separator: GAP_MARK,
  otherwise: SPACE,
  pieceUnknown: false,
  budget: MAX_READ_LETTERS,
};
const ORDINARY_RULE: SplitRule = {
  separator: ORDINARY_MARK,
  otherwise: SPACE,
  pieceUnknown: true,
  budget: MAX_READ_LETTERS,
};

/**
 * The text with each narrow or no-break space between two letters written as its marker; the
 * same string when it has none (one table lookup per code unit; canonicalize asks only texts that
 * normalization saw such a space in).
 */
export function markWordGaps(text: string): string {
  const n = text.length;
  let out = '';
  let copied = 0;
  for (let i = 1; i + 1 < n; i++) {
    const kind = KIND[text.charCodeAt(i)] as number;
    if (kind === 0) continue;
    if (!isScriptLetter(text.charCodeAt(i - 1)) || !isScriptLetter(text.charCodeAt(i + 1))) continue;
    out += text.slice(copied, i) + String.fromCharCode(kind === GAP ? GAP_MARK : ORDINARY_MARK);
    copied = i + 1;
  }
  return copied === 0 ? text : out + text.slice(copied);
}

/**
 * Reads the markers of codes[0, length) (clean text of a marked text), in place: removed inside
 * a known word of the language, a space otherwise (every one when the language has no lexicon).
 * Returns the new length. A noncharacter U+FDD0 or U+FDD1 written in the text itself is read as a
 * marker too: a separator either way.
 */
export function readWordGaps(
  codes: Uint16Array,
  length: number,
  known: KnownWords | null | undefined,
  stops: ReadonlySet<string>,
): number {
  if (!known) {
    for (let i = 0; i < length; i++)
      if (codes[i] === GAP_MARK || codes[i] === ORDINARY_MARK) codes[i] = SPACE;
    return length;
  }
  return joinSplitWords(
    codes,
    joinSplitWords(codes, length, known, stops, GAP_RULE),
    known,
    stops,
    ORDINARY_RULE,
  );
}

/**
 * cleanTextCodes of `text` (clean.ts), with its narrow and no-break spaces between two letters read
 * by the lexicon of its language: a text without such a space (normalization notes one as it
 * reads the text, spaceVariantsSeen) is normalized once, as before; one with them is marked and
 * normalized again. Without known words the spaces are spaces.
 */
export function cleanReadingWordGaps(
  text: string,
  options: NormalizeOptions,
  ownWords: OwnScriptWords | undefined,
  declaredLang: string | undefined,
  knownWords: KnownWordsOf | undefined,
): { codes: Uint16Array; length: number } {
  const clean = cleanTextCodes(text, options, ownWords);
  if (!knownWords || !spaceVariantsSeen()) return clean;
  const marked = markWordGaps(text);
  if (marked === text) return clean;
  const again = cleanTextCodes(marked, options, ownWords);
  return {
    codes: again.codes,
    length: readWordGapsOf(again.codes, again.length, declaredLang, knownWords, options.zwnj),
  };
}

/**
 * readWordGaps for canonicalize: the language as canonicalize will take it (declared, or by the
 * letters, which the markers do not change), its lexicon and stop words. A marker that became a
 * space in Persian text was no space when the affixes written apart were joined (clean.ts): that
 * join is run again ("می\u2009شود" is `میشود`, as "می شود" is).
 */
export function readWordGapsOf(
  codes: Uint16Array,
  length: number,
  declaredLang: string | undefined,
  knownWords: KnownWordsOf | undefined,
  zwnj: ZwnjRule,
): number {
  const lang = languageFromTag(declaredLang) ?? detectLanguageOfCodes(codes, length);
  const read = readWordGaps(codes, length, knownWords?.(lang), stopWords(lang));
  return lang === 'fa' && zwnj === 'join' ? joinPersianAffixes(codes, read) : read;
}
