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
 * and without its accents it is one ("thé", "ín", "cómpany"). A text with at least
 * MIN_EVIDENCE such words, making at least half of its words with an accented Latin letter, is
 * disguised: every Latin letter of it loses its diacritics (é è ê ë → e, ü → u, ñ → n, ç → c),
 * in place, one code unit for one. Real text falls far short: French quotes ("même") and
 * cognates ("présent", "général") are a fifth of a French text's accented words at most.
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

/** The token with its Latin letters' accents folded; '' when it has none. */
function folded(token: string): string {
  let out = '';
  let any = false;
  for (let i = 0; i < token.length; i++) {
    const code = token.charCodeAt(i);
    const base = baseOf(code);
    any ||= base !== 0;
    out += String.fromCharCode(base === 0 ? code : base);
  }
  return any ? out : '';
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
  for (let k = 0; k < count; k++) {
    const end = k + 1 < count ? (starts[k + 1] as number) - 1 : joined.length;
    const token = joined.slice(starts[k], end);
    const plain = folded(token);
    if (plain === '') continue;
    accented++;
    if (known.has(token) || stops.has(token)) continue;
    if (known.has(plain) || stops.has(plain)) evidence++;
  }
  return evidence >= MIN_EVIDENCE && 2 * evidence >= accented;
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
