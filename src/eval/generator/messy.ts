import type { Random } from '../random.js';
import type { Lang } from './language-packs.js';

/**
 * Deliberate obfuscation, as spam and content farms use it to slip past fingerprints: invisible
 * formatting characters inside words, letters of another script that look the same, and Persian
 * words stretched with tatweel. Each changes code points only: a reader sees the same text.
 */

const WORD = /[\p{L}\p{M}\p{N}]+/gu;

/**
 * Invisible characters spam inserts: bidi marks, embeddings, overrides and isolates; invisible
 * operators; the Mongolian vowel separator; the combining grapheme joiner; variation selectors;
 * the Arabic letter mark; Hangul fillers; zero-width space, joiners, word joiner, BOM, soft
 * hyphen; tag characters (astral, two UTF-16 units each).
 */
const INVISIBLE: readonly string[] = [
  '\u200e',
  '\u200f',
  '\u202a',
  '\u202b',
  '\u202c',
  '\u202d',
  '\u202e',
  '\u2066',
  '\u2067',
  '\u2068',
  '\u2069',
  '\u2061',
  '\u2062',
  '\u2063',
  '\u2064',
  '\u180e',
  '\u034f',
  '\ufe00',
  '\ufe0f',
  '\u061c',
  '\u3164',
  '\u115f',
  '\uffa0',
  '\u200b',
  '\u200c',
  '\u200d',
  '\u2060',
  '\ufeff',
  '\u00ad',
  String.fromCodePoint(0xe0020),
  String.fromCodePoint(0xe0041),
  String.fromCodePoint(0xe007f),
];

/** Code points of a word, so that an insertion never splits a surrogate pair. */
function chars(word: string): string[] {
  return [...word];
}

/**
 * One invisible character (sometimes two) at a random place inside about `share` of the words of
 * two letters or more; which character is drawn per text from a few, as one spam run uses a few.
 */
export function invisibleCharacters(text: string, r: Random, share = 0.1): string {
  const palette = r.shuffle(INVISIBLE).slice(0, r.between(2, 5));
  return text.replace(WORD, (word) => {
    const cs = chars(word);
    if (cs.length < 2 || !r.chance(share)) return word;
    const times = r.chance(0.2) ? 2 : 1;
    for (let t = 0; t < times; t++) cs.splice(r.between(1, cs.length - 1), 0, r.pick(palette));
    return cs.join('');
  });
}

/** Latin letters and the Cyrillic letters that look the same (TR39 confusables), both ways. */
const LATIN_TO_CYRILLIC: Readonly<Record<string, string>> = {
  a: 'а',
  c: 'с',
  e: 'е',
  o: 'о',
  p: 'р',
  x: 'х',
  y: 'у',
  i: 'і',
  A: 'А',
  B: 'В',
  C: 'С',
  E: 'Е',
  H: 'Н',
  K: 'К',
  M: 'М',
  O: 'О',
  P: 'Р',
  T: 'Т',
  X: 'Х',
};
const CYRILLIC_TO_LATIN: Readonly<Record<string, string>> = Object.fromEntries(
  Object.entries(LATIN_TO_CYRILLIC)
    // Ukrainian і is a letter of its own there, not a disguise: Latin i stands in for it in
    // Ukrainian text, but never turns Russian и into anything.
    .map(([latin, cyrillic]) => [cyrillic, latin]),
);

/**
 * Look-alike letters: in about `share` of the words that have a swappable letter, one letter
 * (often), some or all of them are replaced by the other script's look-alike: Cyrillic in English
 * words, Latin in Russian and Ukrainian ones. Persian has no such pairs and is returned as is.
 */
export function lookAlikeLetters(text: string, lang: Lang, r: Random, share = 0.3): string {
  const table = lang === 'en' ? LATIN_TO_CYRILLIC : lang === 'ru' || lang === 'uk' ? CYRILLIC_TO_LATIN : null;
  if (table === null) return text;
  return text.replace(WORD, (word) => {
    const cs = chars(word);
    const swappable = cs.map((c, i) => (table[c] === undefined ? -1 : i)).filter((i) => i >= 0);
    if (swappable.length === 0 || !r.chance(share)) return word;
    const mode = r.weighted([
      ['one', 3],
      ['some', 2],
      ['all', 1],
    ] as const);
    const count =
      mode === 'one' ? 1 : mode === 'all' ? swappable.length : r.between(1, Math.max(1, swappable.length));
    for (const k of r.sample(swappable.length, Math.min(count, swappable.length))) {
      const at = swappable[k] as number;
      cs[at] = table[cs[at] as string] as string;
    }
    return cs.join('');
  });
}

/** Persian letters that do not join the next letter: tatweel cannot follow them. */
const NON_JOINING = new Set([...'اآأإدذرزژوؤءة']);
const ARABIC_LETTER = /[\u0620-\u064a\u066e-\u06d3\u06fa-\u06ff]/u;
const TATWEEL = '\u0640';

/**
 * Tatweel (kashida) inside about `share` of the Persian words of three letters or more: one to
 * three U+0640 after a letter that joins the next, as headlines and spam stretch words.
 */
export function tatweel(text: string, r: Random, share = 0.3): string {
  return text.replace(WORD, (word) => {
    const cs = chars(word);
    if (cs.length < 3 || !r.chance(share)) return word;
    const places: number[] = [];
    for (let i = 0; i + 1 < cs.length; i++) {
      const c = cs[i] as string;
      if (ARABIC_LETTER.test(c) && !NON_JOINING.has(c) && ARABIC_LETTER.test(cs[i + 1] as string))
        places.push(i);
    }
    if (places.length === 0) return word;
    const at = r.pick(places);
    cs[at] = (cs[at] as string) + TATWEEL.repeat(r.between(1, 3));
    return cs.join('');
  });
}
