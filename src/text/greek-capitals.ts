/**
 * Greek capitals inside Latin words ("ΝEWS", "ΒΑΝΚ ΥOUR"): lower case turns Ν and Υ into ν and υ,
 * which look like v and u, so the look-alike fold (lookalike.ts), which runs on lower-case text,
 * would read "ΝEWS" as "vews". Before lower case, each Greek capital with a Latin capital twin
 * becomes that capital, in words that also hold a Latin letter only: a word written wholly in
 * Greek keeps its letters (Greek text, "ΝΑΤΟ" in a Greek quote).
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

/** A test that most texts fail at once: no Greek capital with a Latin twin. */
const HAS_TWIN = /[ΑΒΕΖΗΙΚΜΝΟΡΤΥΧ]/;
/** Words (letters, marks, digits) that hold one of the capitals. */
const WORD_WITH_TWIN = /[\p{L}\p{M}\p{N}]*[ΑΒΕΖΗΙΚΜΝΟΡΤΥΧ][\p{L}\p{M}\p{N}]*/gu;
const LATIN_LETTER = /\p{Script=Latin}/u;
const TWIN = /[ΑΒΕΖΗΙΚΜΝΟΡΤΥΧ]/g;

const twinOf = (ch: string): string => TWINS[ch] ?? ch;

/** The text with the Greek capitals of mixed Latin-Greek words written as their Latin twins. */
export function foldGreekCapitals(text: string): string {
  if (!HAS_TWIN.test(text)) return text;
  return text.replace(WORD_WITH_TWIN, (word) =>
    LATIN_LETTER.test(word) ? word.replace(TWIN, twinOf) : word,
  );
}
