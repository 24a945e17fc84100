/**
 * Text stored backwards behind a right-to-left override: U+202E makes every character up to the
 * next U+202C (pop directional formatting) or the paragraph's end run right to left, so
 * "\u202Eeerf\u202C" shows as "free". Spam writes words this way to keep their letters out of
 * fingerprints. Before the override characters are removed (invisible.ts), each such span whose
 * letters all run left to right by nature (no Arabic, Hebrew or other right-to-left letter) is
 * written in the order it is read: its characters reversed, each keeping its combining marks.
 * A right-to-left script inside an override is already stored in reading order and stays.
 * An override inside a word is read as the stray invisible character spam strews between letters
 * (a text that showed the rest of its line reversed would be no use to its sender) and is only
 * removed, as before.
 */

const RLO = '\u202e';
const LRO = '\u202d';
/**
 * An override that starts a word (after white space, punctuation or the text's start: not inside
 * a word, nor after another format character), and what it governs: up to U+202C, a line break,
 * or the end of the text.
 */
const SPAN = /(?<![\p{L}\p{M}\p{N}\p{Cf}])\u202e([^\u202c\n]*)/gu;
/** Letters of the right-to-left scripts (their storage order is their reading order). */
const RTL_LETTER = /[\p{Script=Arabic}\p{Script=Hebrew}\p{Script=Syriac}\p{Script=Thaana}\p{Script=Nko}]/u;
/** One character with the combining marks after it. */
const CLUSTER = /\P{M}\p{M}*|\p{M}+/gu;

/** The same for a left-to-right override (U+202D), which makes right-to-left letters run left to right. */
const LTR_SPAN = /(?<![\p{L}\p{M}\p{N}\p{Cf}])\u202d([^\u202c\n]*)/gu;
/** Letters of the left-to-right scripts this reads (Latin, Cyrillic, Greek, Armenian). */
const LTR_LETTER = /[\p{Script=Latin}\p{Script=Cyrillic}\p{Script=Greek}\p{Script=Armenian}]/u;

const reversed = (inner: string): string => (inner.match(CLUSTER) ?? []).reverse().join('');

/**
 * The text with the left-to-right spans of its right-to-left overrides in reading order; and the
 * mirror case, a Persian or Arabic word stored backwards behind a left-to-right override (U+202D),
 * which shows it right to left as written: a span of right-to-left letters with no left-to-right
 * letter is reversed the same way.
 */
export function readOverrides(text: string): string {
  let out = text;
  if (out.includes(RLO))
    out = out.replace(SPAN, (span, inner: string) => (RTL_LETTER.test(inner) ? span : RLO + reversed(inner)));
  if (out.includes(LRO))
    out = out.replace(LTR_SPAN, (span, inner: string) =>
      RTL_LETTER.test(inner) && !LTR_LETTER.test(inner) ? LRO + reversed(inner) : span,
    );
  return out;
}
