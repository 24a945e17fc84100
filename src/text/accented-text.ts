import { buildLatinBase } from './diacritics.js';
import type { KnownWords } from './dictionary-words.js';
import type { Tokens } from './tokenize.js';

/**
 * Accents sprinkled on English words ("président", "cómpany", "résults"): a copy so written
 * shares almost no token with its original, though a reader sees the same text. English spells
 * almost no word with an accent, but English text quotes names and words that are (Beyoncé,
 * Sánchez, fiancée, Dáil), and a mail may be French or Spanish throughout: folding every accent
 * of every text would change those tokens, and with them the signatures of ordinary text.
 *
 * So the text itself must show the disguise, as stacked-marks.ts asks of Zalgo text: a word is
 * evidence when, as written, it is neither a lexicon word nor a stop word of the text's language,
 * and without its accents it is one ("thé", "ín", "cómpany"). A text with at least MIN_EVIDENCE
 * such words, making at least a third of its words with an accented Latin letter (as
 * leet-text.ts asks a third of the mixed runs to read as words; a mail of jargon the lexicon
 * lacks, "spamassassín", "msgíd", has 7 of 15), is disguised: every Latin letter of it loses its
 * diacritics (é è ê ë → e, ü → u, ñ → n, ç → c), in place, one code unit for one. Real text falls
 * short: a name or loan word is one evidence word at most, and a French text's cognates
 * ("présent", "général") are a fifth of its accented words in the evaluation corpus's French mail
 * (38 of 196).
 */

/** Fewest evidence words that make a disguised text: one can be chance ("rté" is `rte`). */
export const MIN_EVIDENCE = 2;

// Built on first use (about a millisecond): only a text with a letter of the accented blocks
// (undoLeet tells) reads it.
let latinBase: Uint16Array | undefined;
const baseOf = (code: number): number => {
  latinBase ??= buildLatinBase();
  return latinBase[code] as number;
};

/** The blocks of the Latin letters with diacritics (others there too: ø ß ı have no base letter). */
const EXTENDED_LATIN = /[\u00c0-\u024f\u1e00-\u1eff]/g;

/** joined[start, end) with its Latin letters' accents folded; '' when it has none. */
function folded(joined: string, start: number, end: number): string {
  let i = start;
  while (i < end && baseOf(joined.charCodeAt(i)) === 0) i++;
  if (i === end) return '';
  let out = joined.slice(start, i);
  for (; i < end; i++) {
    const code = joined.charCodeAt(i);
    const base = baseOf(code);
    out += String.fromCharCode(base === 0 ? code : base);
  }
  return out;
}

/**
 * Whether the tokens are written with accents sprinkled on the words of `known` (see above).
 * `stops`: the language's stop words, which count as known words.
 */
export function isAccentedDisguise(
  tokens: Pick<Tokens, 'joined' | 'count' | 'starts'>,
  known: KnownWords,
  stops: ReadonlySet<string>,
): boolean {
  let accented = 0;
  let evidence = 0;
  const { joined, count, starts } = tokens;
  // Most tokens of a text with an accented letter have none: the tokens read are those a native
  // search finds a letter of the accented blocks in.
  EXTENDED_LATIN.lastIndex = 0;
  let k = 0;
  for (let found = EXTENDED_LATIN.exec(joined); found !== null; found = EXTENDED_LATIN.exec(joined)) {
    while (k + 1 < count && (starts[k + 1] as number) <= found.index) k++;
    const start = starts[k] as number;
    const end = k + 1 < count ? (starts[k + 1] as number) - 1 : joined.length;
    EXTENDED_LATIN.lastIndex = end;
    const plain = folded(joined, start, end);
    if (plain === '') continue;
    accented++;
    const token = joined.slice(start, end);
    if (known.has(token) || stops.has(token)) continue;
    if (known.has(plain) || stops.has(plain)) evidence++;
  }
  return evidence >= MIN_EVIDENCE && 3 * evidence >= accented;
}

/** Folds the diacritics of the Latin letters of codes[0, length) in place; returns how many. */
export function foldLatinAccents(codes: Uint16Array, length: number): number {
  let folds = 0;
  for (let i = 0; i < length; i++) {
    const base = baseOf(codes[i] as number);
    if (base === 0) continue;
    codes[i] = base;
    folds++;
  }
  return folds;
}
