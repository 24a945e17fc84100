/**
 * Zalgo text: random combining marks stacked on letters. Some of them compose with their letter
 * into a real accented letter (e + U+0301 = é, o + U+0328 = ǫ), so the rule that removes marks
 * left over after NFKC (diacritics.ts) cannot see them: "ítem", "shė" would stay disguised.
 *
 * The evidence is in the text itself: a combining mark that composes with nothing before it
 * (a mark no letter is spelt with: a̶, a stack of three marks) is never written by a language. A
 * text holding one, other than the acute and grave stress accents of Russian and Ukrainian
 * (коли́т), is read as decorated: every Latin, Cyrillic and Arabic-script letter in it loses its combining marks
 * (U+0300-036F), composed or not, except the ones that spell й, ё and ї. Text without such a mark,
 * whether precomposed (café, Sánchez, Zoë) or decomposed (Vietnamese NFD: every mark composes),
 * is not touched. Runs before NFKC, on text whose invisible characters are already removed.
 */

// Written as ranges of code points in a string: a regex literal of combining characters reads
// to linters as letters with marks on them.
const MARKS = '\\u0300-\\u036f';
/** A combining diacritical mark (U+0300-036F): the marks Zalgo generators stack. */
const HAS_MARK = new RegExp(`[${MARKS}]`);
/** A character followed by marks: one grapheme's marks, to try composing. */
const CHAR_WITH_MARKS = new RegExp(`[^${MARKS}][${MARKS}]+`, 'gu');
/** A mark other than the stress accents (U+0300, U+0301), left after composing. */
const STRAY_MARK = /[\u0302-\u036f]/;
/**
 * A Latin, Cyrillic or Arabic-script letter, or a character that is no letter (a digit), with the
 * marks after it. Arabic script writes its vowels with marks of its own (U+064B-065F), never with
 * these, so on an Arabic or Persian letter they are decoration whatever they are.
 */
const LETTER_WITH_MARKS = new RegExp(
  `([\\p{Script=Latin}\\p{Script=Cyrillic}\\p{Script=Arabic}]|[^\\p{L}\\p{M}])([${MARKS}]+)`,
  'gu',
);

/** An Arabic-script character: no mark of U+0300-036F, the stress accents included, belongs on it. */
const ARABIC_LETTER = /^\p{Script=Arabic}/u;

/** Marks that spell a letter of Russian or Ukrainian, by base letter: й, ё, ї. */
const SPELLING_MARK: Readonly<Record<string, string>> = {
  и: '\u0306',
  И: '\u0306',
  е: '\u0308',
  Е: '\u0308',
  і: '\u0308',
  І: '\u0308',
};

/**
 * Whether the text has a combining mark that composes with nothing (the acute and grave aside, but
 * on an Arabic-script letter, where they stress nothing).
 */
export function hasStrayMarks(text: string): boolean {
  if (!HAS_MARK.test(text)) return false;
  for (const match of text.matchAll(CHAR_WITH_MARKS))
    if (ARABIC_LETTER.test(match[0]) || STRAY_MARK.test(match[0].normalize('NFC'))) return true;
  return false;
}

/** The text with the combining marks of its Latin and Cyrillic letters removed (й, ё, ї kept). */
export function stripLetterMarks(text: string): string {
  return text.replace(LETTER_WITH_MARKS, (_all, letter: string, marks: string) => {
    const spelling = SPELLING_MARK[letter];
    return marks === spelling ? letter + spelling : letter;
  });
}

/** Zalgo undone: stripLetterMarks for a text with stray marks; any other text as it is. */
export function undoStackedMarks(text: string): string {
  return hasStrayMarks(text) ? stripLetterMarks(text) : text;
}
