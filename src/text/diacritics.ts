/**
 * Marks that disguise rather than spell. Run after NFKC, so that a mark that composes with its
 * letter (e + U+0301 = é, и + U+0306 = й, і + U+0308 = ї) is already part of it:
 * - a combining diacritic left over (U+0302-036F, U+1AB0-1AFF, U+1DC0-1DFF, U+20D0-20FF,
 *   U+FE20-FE2F, and the Cyrillic enclosing signs U+0488-0489 that Zalgo text stacks: ҉) is
 *   removed: strikethrough and overlay marks (a̶), "Zalgo" stacks. The acute and grave accents
 *   (U+0301, U+0300) stay: Russian and Ukrainian texts mark stress with them (коли́т), and real
 *   articles do, so removing them would change ordinary text;
 * - a letter that carries a mark below the line (dot, ring, diaeresis, circumflex, breve, tilde or
 *   macron below: ẹ ṭ ḁ ḛ) loses that mark (ệ becomes ê): spam sprinkles these on English words,
 *   while the languages that spell with them (Vietnamese, transliterations) keep one form per word
 *   either way. Cedilla, ogonek and comma below (ç ş ą ę ș ț) are left: they spell Turkish, Polish
 *   and Romanian words.
 * Marks of other scripts (Arabic, Hebrew, Indic vowel signs) are not touched here.
 */

// Written as ranges of code points in a string: a regex literal of combining characters reads
// to linters as letters with marks on them.
const LEFTOVER_RANGES =
  '\\u0302-\\u036f\\u0488-\\u0489\\u1ab0-\\u1aff\\u1dc0-\\u1dff\\u20d0-\\u20ff\\ufe20-\\ufe2f';
export const LEFTOVER_MARK = new RegExp(`[${LEFTOVER_RANGES}]`, 'g');
export const HAS_LEFTOVER_MARK = new RegExp(`[${LEFTOVER_RANGES}]`);

/** Dot, diaeresis, ring, circumflex, breve, tilde and macron below. */
const BELOW = /[\u0323\u0324\u0325\u032d\u032e\u0330\u0331]/g;
const HAS_BELOW = /[\u0323\u0324\u0325\u032d\u032e\u0330\u0331]/;

// Latin letters with a mark below live in Latin Extended-B (U+0180-024F) and Latin Extended
// Additional (U+1E00-1EFF); built on first use (under a millisecond), only by the letter rules.
let belowFolds: Map<string, string> | undefined;
function buildBelowFolds(): Map<string, string> {
  const map = new Map<string, string>();
  for (const [lo, hi] of [
    [0x0180, 0x024f],
    [0x1e00, 0x1eff],
  ] as const) {
    for (let code = lo; code <= hi; code++) {
      const ch = String.fromCharCode(code);
      const nfd = ch.normalize('NFD');
      if (nfd.length > 1 && HAS_BELOW.test(nfd)) map.set(ch, nfd.replace(BELOW, '').normalize('NFC'));
    }
  }
  return map;
}

export const HAS_BELOW_LETTER = /[\u0180-\u024f\u1e00-\u1eff]/;
export const BELOW_LETTER = /[\u0180-\u024f\u1e00-\u1eff]/g;

/** The letter without its marks below (itself when it has none). */
export function withoutMarkBelow(ch: string): string {
  belowFolds ??= buildBelowFolds();
  return belowFolds.get(ch) ?? ch;
}
