/**
 * Marks that disguise rather than spell. Run after NFKC, so that a mark that composes with its
 * letter (e + U+0301 = é, и + U+0306 = й, і + U+0308 = ї) is already part of it:
 * - a combining diacritic left over (U+0300-036F, U+1AB0-1AFF, U+1DC0-1DFF, U+20D0-20FF,
 *   U+FE20-FE2F, and the Cyrillic enclosing signs U+0488-0489 that Zalgo text stacks: ҉) is
 *   removed: strikethrough and overlay marks (a̶), "Zalgo" stacks, and the acute and grave stress
 *   marks of Russian and Ukrainian text (Президе́нт, коли́т: no Cyrillic vowel has a composed form
 *   with the acute, so NFKC leaves them apart). Textbooks, dictionaries and Wikipedia headwords
 *   print them, spam sprinkles them to break fingerprints, and neither language spells a word
 *   with them: Russian and Ukrainian text normalisers drop them too;
 * - the Cyrillic letters NFKC composes of a letter and the grave or acute (ѐ ѝ, and ѓ ќ) are that
 *   letter: neither Russian nor Ukrainian spells a word with them (ѓ and ќ are Macedonian, which
 *   doppel does not read; in Russian or Ukrainian text they are a mark on г or к). й, ё and ї keep
 *   their marks (ё is е by the letter rules), as і, є and ґ, which have none, keep their letters;
 * - a letter that carries a mark below the line (dot, ring, diaeresis, circumflex, breve, tilde or
 *   macron below: ẹ ṭ ḁ ḛ) loses that mark (ệ becomes ê): spam sprinkles these on English words,
 *   while the languages that spell with them (Vietnamese, transliterations) keep one form per word
 *   either way. Cedilla, ogonek and comma below (ç ş ą ę ș ț) are left: they spell Turkish, Polish
 *   and Romanian words. Accents on Latin letters (é ü ñ) stay here too: a text written with them
 *   throughout is French or Spanish; accented-text.ts folds them where the text shows the disguise.
 * Marks of other scripts (Arabic, Hebrew, Indic vowel signs) are not touched here.
 */

// Written as ranges of code points in a string: a regex literal of combining characters reads
// to linters as letters with marks on them.
const LEFTOVER_RANGES =
  '\\u0300-\\u036f\\u0488-\\u0489\\u1ab0-\\u1aff\\u1dc0-\\u1dff\\u20d0-\\u20ff\\ufe20-\\ufe2f';
export const LEFTOVER_MARK = new RegExp(`[${LEFTOVER_RANGES}]`, 'g');
export const HAS_LEFTOVER_MARK = new RegExp(`[${LEFTOVER_RANGES}]`);

/** ѐ ѝ ѓ ќ (lower case: the letter rules lower-case first). */
export const CYRILLIC_ACCENTED = /[\u0450\u0453\u045c\u045d]/g;
export const HAS_CYRILLIC_ACCENTED = /[\u0450\u0453\u045c\u045d]/;
const CYRILLIC_BASE: Readonly<Record<string, string>> = { ѐ: 'е', ѝ: 'и', ѓ: 'г', ќ: 'к' };
/** ѐ ѝ ѓ ќ without their accent. */
export const withoutCyrillicAccent = (ch: string): string => CYRILLIC_BASE[ch] ?? ch;

/** Dot, diaeresis, ring, circumflex, breve, tilde and macron below. */
const BELOW = /[\u0323\u0324\u0325\u032d\u032e\u0330\u0331]/g;
const HAS_BELOW = /[\u0323\u0324\u0325\u032d\u032e\u0330\u0331]/;

const LATIN_BASE = /^\p{Script=Latin}/u;

/**
 * Each Latin letter whose canonical decomposition holds a mark and passes `keep`, mapped to `fold`
 * of that decomposition (recomposed). Latin letters with marks live in Latin-1 Supplement, Latin
 * Extended-A and -B (U+00C0-024F) and Latin Extended Additional (U+1E00-1EFF).
 */
function latinFolds(keep: (nfd: string) => boolean, fold: (nfd: string) => string): Map<string, string> {
  const map = new Map<string, string>();
  for (const [lo, hi] of [
    [0x00c0, 0x024f],
    [0x1e00, 0x1eff],
  ] as const) {
    for (let code = lo; code <= hi; code++) {
      const ch = String.fromCharCode(code);
      const nfd = ch.normalize('NFD');
      if (nfd.length > 1 && LATIN_BASE.test(nfd) && keep(nfd)) map.set(ch, fold(nfd).normalize('NFC'));
    }
  }
  return map;
}
// Built on first use (under a millisecond), only by the letter rules and by accented-text.ts.
let belowFolds: Map<string, string> | undefined;

export const HAS_BELOW_LETTER = /[\u0180-\u024f\u1e00-\u1eff]/;
export const BELOW_LETTER = /[\u0180-\u024f\u1e00-\u1eff]/g;

/** The letter without its marks below (itself when it has none). */
export function withoutMarkBelow(ch: string): string {
  belowFolds ??= latinFolds(
    (nfd) => HAS_BELOW.test(nfd),
    (nfd) => nfd.replace(BELOW, ''),
  );
  return belowFolds.get(ch) ?? ch;
}

/**
 * Per BMP code unit, the base letter of a Latin letter with diacritics (é è ê ë → e, ü → u, ñ → n,
 * ç → c, ş → s, ą → a, ǘ → u), 0 for any other code unit. Letters that are no base letter with a
 * mark (ø ł đ ß æ, the dotless ı) have none.
 */
export function buildLatinBase(): Uint16Array {
  const table = new Uint16Array(0x10000);
  const marks = /[\u0300-\u036f]/g;
  for (const [ch, base] of latinFolds(
    () => true,
    (nfd) => nfd.replace(marks, ''),
  ))
    if (base.length === 1) table[ch.charCodeAt(0)] = base.charCodeAt(0);
  return table;
}
