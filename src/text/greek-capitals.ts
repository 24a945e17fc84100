/**
 * Greek and Cyrillic capitals drawn as Latin capitals. Lower case turns Greek Ν and Υ into ν and υ,
 * which look like v and u, and Cyrillic Н into н, so the look-alike fold (lookalike.ts), which
 * runs on lower-case text, would read "ΝEWS" as "vews" and "ΝΟ" as "vo". Before lower case:
 * - each Greek capital with a Latin capital twin becomes that capital in words that also hold a
 *   Latin letter ("ΝEWS", "ΒΑΝΚ ΥOUR" keeps ΒΑΝΚ);
 * - in a text whose letters are mostly Latin, a word written wholly in the Greek or wholly in the
 *   Cyrillic capitals that have a Latin twin ("ΝΕΧΤ", "ΗΟΤ", "СОМЕ") becomes Latin capitals.
 * A Greek or Russian text is never touched by the second rule (its letters are mostly its own),
 * and a Greek or Cyrillic word with any other letter (small, or with no Latin twin) keeps them.
 */

/** Greek capital -> the Latin capital it is drawn as. */
const TWINS: Readonly<Record<string, string>> = {
  Α: 'A',
  Β: 'B',
  Ε: 'E',
  Ζ: 'Z',
  Η: 'H',
  Ι: 'I',
  Κ: 'K',
  Μ: 'M',
  Ν: 'N',
  Ο: 'O',
  Ρ: 'P',
  Τ: 'T',
  Υ: 'Y',
  Χ: 'X',
};

/** Cyrillic capital -> the Latin capital it is drawn as. */
const CYRILLIC_TWINS: Readonly<Record<string, string>> = {
  А: 'A',
  В: 'B',
  Е: 'E',
  К: 'K',
  М: 'M',
  Н: 'H',
  О: 'O',
  Р: 'P',
  С: 'C',
  Т: 'T',
  Х: 'X',
  І: 'I',
  Ј: 'J',
  Ѕ: 'S',
  У: 'Y',
};

/** A test that most texts fail at once: no Greek capital with a Latin twin. */
const HAS_TWIN = /[ΑΒΕΖΗΙΚΜΝΟΡΤΥΧ]/;
/** Words (letters, marks, digits) that hold one of the capitals. */
const WORD_WITH_TWIN = /[\p{L}\p{M}\p{N}]*[ΑΒΕΖΗΙΚΜΝΟΡΤΥΧ][\p{L}\p{M}\p{N}]*/gu;
const LATIN_LETTER = /\p{Script=Latin}/u;
const TWIN = /[ΑΒΕΖΗΙΚΜΝΟΡΤΥΧ]/g;

const twinOf = (ch: string): string => TWINS[ch] ?? ch;
const cyrillicTwinOf = (ch: string): string => CYRILLIC_TWINS[ch] ?? ch;

/** A word of the twin capitals of one script only (any other letter, mark or digit ends the match). */
const WORD = /[\p{L}\p{M}\p{N}]+/gu;
const ALL_GREEK_TWINS = /^[ΑΒΕΖΗΙΚΜΝΟΡΤΥΧ]+$/;
const ALL_CYRILLIC_TWINS = /^[АВЕКМНОРСТХІЈЅУ]+$/;
const HAS_CAPITAL_TWIN = /[ΑΒΕΖΗΙΚΜΝΟΡΤΥΧАВЕКМНОРСТХІЈЅУ]/;

/** The text with the Greek capitals of mixed Latin-Greek words written as their Latin twins. */
export function foldGreekCapitals(text: string): string {
  if (!HAS_TWIN.test(text)) return text;
  return text.replace(WORD_WITH_TWIN, (word) =>
    LATIN_LETTER.test(word) ? word.replace(TWIN, twinOf) : word,
  );
}

/**
 * foldGreekCapitals, and, when `latinText` (most of the text's letters are Latin), the words
 * written wholly in Greek or wholly in Cyrillic twin capitals as Latin capitals.
 */
export function foldCapitalTwins(text: string, latinText: boolean): string {
  const mixed = foldGreekCapitals(text);
  if (!latinText || !HAS_CAPITAL_TWIN.test(mixed)) return mixed;
  return mixed.replace(WORD, (word) =>
    ALL_GREEK_TWINS.test(word)
      ? word.replace(TWIN, twinOf)
      : ALL_CYRILLIC_TWINS.test(word)
        ? word.replace(/./g, cyrillicTwinOf)
        : word,
  );
}
