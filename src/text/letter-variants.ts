/**
 * Letters drawn in another shape that readers take for a basic Latin letter, and that NFKC leaves
 * as they are: small capitals (ᴀ ʙ ᴄ, "ᴘᴀʏᴘᴀʟ"), the phonetic alpha and script g, the estimated
 * sign ℮, the Weierstrass p ℘, the o with ogonek ǫ that small-capital
 * text generators put for the q they lack, the Latin letters whose Unicode TR39 confusable is one
 * basic letter (the phonetic iota ɩ as i, ʋ as u, the turned m ɯ as w; the
 * small capital el ᴫ as л, and the Abkhaz che ҽ, which TR39 reads as e, as the Cyrillic е), the IPA
 * letters that are a basic letter with a bar, hook or turn and that TR39 reads as no one basic letter
 * (ɵ as o, ɘ as e, ɾ as r, ɦ as h, ʊ as u; ɭ ɫ ɱ ɳ ʂ ʐ ɽ ɼ ʈ ɕ ʑ ʝ ɧ; not ə, ɛ, ɔ, ɓ, ɗ, letters of
 * Azerbaijani and African alphabets; not
 * the dotless ı, a letter of Turkish, whose words it would change: Turkish spam in the mail corpus), and the astral negative-circled and squared capitals (🅐 🄰 🅰). Each becomes the basic
 * lower-case letter. These are phonetic and typographic characters that ordinary text of any
 * language does not spell words with, so folding them changes no real word (ǫ spells a few Navajo and
 * Old Norse words, which keep one form either way). Applied by the letter
 * rules (normalize.ts), after NFKC and lower case, one character at a time.
 */

/** BMP letter variants: each character of the key folds to the letter in the same place of the value. */
const BMP_FROM =
  '\u1d00\u0299\u1d04\u1d05\u1d07\ua730\u0262\u029c\u026a\u1d0a\u1d0b\u029f\u1d0d\u0274\u1d0f\u1d18\ua7af\u0280\ua731\u1d1b\u1d1c\u1d20\u1d21\u028f\u1d22\u0251\u0261\u212e\u2118\u01eb\u0269\u028b\u026f\u1d2b\u04bd' +
  // IPA letters drawn as a basic letter with a hook, bar or turn: ɵ ɘ ɾ ɦ ʊ ɭ ɫ ɱ ɳ ʂ ʐ ɽ ɼ ʈ ɕ ʑ ʝ ɧ.
  '\u0275\u0258\u027e\u0266\u028a\u026d\u026b\u0271\u0273\u0282\u0290\u027d\u027c\u0288\u0255\u0291\u029d\u0267';
const BMP_TO = 'abcdefghijklmnopqrstuvwyzagepqiuwле' + 'oerhullmnszrrtczjh';

/** Astral enclosed capitals, first code point of each A..Z run. */
const ENCLOSED_RUNS = [0x1f130 /* squared */, 0x1f150 /* negative circled */, 0x1f170 /* negative squared */];

export const LETTER_VARIANT = new RegExp(`[${BMP_FROM}]`, 'g');
export const HAS_LETTER_VARIANT = new RegExp(`[${BMP_FROM}]`);
export const ENCLOSED_LETTER = /[\u{1f130}-\u{1f149}\u{1f150}-\u{1f169}\u{1f170}-\u{1f189}]/gu;
export const HAS_ENCLOSED_LETTER = /[\u{1f130}-\u{1f149}\u{1f150}-\u{1f169}\u{1f170}-\u{1f189}]/u;

const BMP = new Map<string, string>();
for (let i = 0; i < BMP_FROM.length; i++) BMP.set(BMP_FROM[i] as string, BMP_TO[i] as string);
if (BMP.size !== BMP_TO.length) throw new Error('letter-variants: BMP_FROM and BMP_TO differ in length');

/** The basic letter a BMP letter variant imitates. */
export const letterVariant = (ch: string): string => BMP.get(ch) ?? ch;

/** The basic lower-case letter an astral enclosed capital stands for. */
export function enclosedLetter(ch: string): string {
  const code = ch.codePointAt(0) as number;
  for (const first of ENCLOSED_RUNS)
    if (code >= first && code < first + 26) return String.fromCharCode(0x61 + code - first);
  return ch;
}
