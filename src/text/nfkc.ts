import { DoppelError } from '../errors.js';
import { charTable } from './char-tables.js';

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

/**
 * The longest text NFKC may make, in UTF-16 code units: twice the longest input line (4 MiB).
 * Some characters expand many times over (U+FDFA into 18 characters, U+3300 into 4): a line of
 * them would otherwise cost seconds and hundreds of megabytes. Longer is TOO_LARGE.
 */
export const MAX_NORMALIZED_LENGTH = 8 * 1024 * 1024;

/**
 * INERT: 1 where a code unit is inert (see above): NFKC of a run of inert characters is the run
 * itself. NFKD_LENGTH: NFKD length of each code unit; 3 for a surrogate (the longest astral
 * decomposition is 6 units). NFKD of a string is the concatenation of its characters'
 * (reordered), and NFKC only composes what NFKD gives: the sum over a run bounds its NFKC length
 * before ICU is asked to build it.
 */
export function buildNfkcTables(): { inert: Uint8Array; nfkdLength: Uint8Array } {
  const inert = new Uint8Array(0x10000);
  const nfkdLength = new Uint8Array(0x10000);
  const mark = /\p{M}/u;
  for (let code = 0; code < 0x10000; code++) {
    if (code >= 0xd800 && code <= 0xdfff) {
      nfkdLength[code] = 3;
      continue; // surrogates: astral characters take the slow path
    }
    const ch = String.fromCharCode(code);
    nfkdLength[code] = ch.normalize('NFKD').length;
    if (code >= 0x1100 && code <= 0x11ff) continue; // Hangul jamo compose with each other
    if (code >= 0x3130 && code <= 0x318f) continue;
    if (mark.test(ch)) continue;
    if (ch.normalize('NFKC') === ch) inert[code] = 1;
  }
  return { inert, nfkdLength };
}

let built: ReturnType<typeof buildNfkcTables> | undefined;
const nfkcTables = (): ReturnType<typeof buildNfkcTables> => {
  built ??= buildNfkcTables();
  return built;
};

export const INERT = charTable('nfkc-inert', Uint8Array, () => nfkcTables().inert);
const NFKD_LENGTH = charTable('nfkd-length', Uint8Array, () => nfkcTables().nfkdLength);
built = undefined;

/** NFKC of `text`; DoppelError TOO_LARGE, before building it, when it could pass MAX_NORMALIZED_LENGTH. */
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
    let bound = out.length + (start - copied) + (n - end);
    for (let k = start; k < end; k++) bound += NFKD_LENGTH[text.charCodeAt(k)] as number;
    if (bound > MAX_NORMALIZED_LENGTH) throw tooLongWhenNormalized();
    out += text.slice(copied, start) + text.slice(start, end).normalize('NFKC');
    copied = end;
    i = end;
    while (i < n && INERT[text.charCodeAt(i)]) i++;
  }
  return out + text.slice(copied);
}

export function tooLongWhenNormalized(): DoppelError {
  return new DoppelError(
    'TOO_LARGE',
    `text is longer than ${MAX_NORMALIZED_LENGTH} characters once normalized (NFKC expands some characters many times over)`,
  );
}
