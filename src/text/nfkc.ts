/**
 * NFKC that only normalizes where it can change anything. Most news text is made of characters
 * that NFKC leaves alone and that never compose with a neighbour (basic Latin, Cyrillic and
 * Arabic letters, punctuation): for those the whole-string ICU call is wasted work.
 *
 * A character is "inert" when NFKC maps it to itself, it is not a mark, and it is not a Hangul
 * jamo: then it is a starter with NFC_Quick_Check = Yes, nothing composes across it, and NFKC of
 * a string equals the concatenation of NFKC of the pieces between inert characters. Each run of
 * non-inert characters is normalized together with the character before it (a following mark
 * may compose with it). test/text/nfkc.test.ts checks equality with String#normalize on real text
 * and on random strings.
 */

/** 1 where a code unit is inert (see above): NFKC of a run of inert characters is the run itself. */
export const INERT = new Uint8Array(0x10000);
{
  const mark = /\p{M}/u;
  for (let code = 0; code < 0x10000; code++) {
    if (code >= 0xd800 && code <= 0xdfff) continue; // surrogates: astral characters take the slow path
    if (code >= 0x1100 && code <= 0x11ff) continue; // Hangul jamo compose with each other
    if (code >= 0x3130 && code <= 0x318f) continue;
    const ch = String.fromCharCode(code);
    if (mark.test(ch)) continue;
    if (ch.normalize('NFKC') === ch) INERT[code] = 1;
  }
}

export function fastNfkc(text: string): string {
  const n = text.length;
  let i = 0;
  while (i < n && INERT[text.charCodeAt(i)]) i++;
  if (i === n) return text;
  let out = '';
  let copied = 0;
  while (i < n) {
    // i is the first non-inert character of a run; take one character before it as well.
    const start = i > copied ? i - 1 : i;
    let end = i + 1;
    while (end < n && !INERT[text.charCodeAt(end)]) end++;
    out += text.slice(copied, start) + text.slice(start, end).normalize('NFKC');
    copied = end;
    i = end;
    while (i < n && INERT[text.charCodeAt(i)]) i++;
  }
  return out + text.slice(copied);
}
