import { FLAG_LETTER, FLAG_OTHER_SCRIPT, INFO_FLAGS, INFO_STRIDE, type Vocabulary } from './vocabulary.js';

/**
 * Words of another script in a row of at least this many make a passage in another language (a
 * sentence: sentence fingerprints start at 8 tokens too). Shorter rows are names and titles
 * ("Walter Reed National Medical Center", "PROFIT DAY") and keep their weight as rare words of
 * the text's own language.
 */
export const PASSAGE_WORDS = 8;

/**
 * Marks (Vocabulary.passageStamp, under the current document's stamp) the words of `slots[0,
 * total)` that lie in a passage of another script: PASSAGE_WORDS or more words of other scripts
 * with no word of the language's own script between them (numbers neither count nor break a row).
 * The term vector weighs those words as words of their own language (Vocabulary.foreignFlags).
 */
export function markForeignPassages(vocab: Vocabulary, slots: Int32Array, total: number): void {
  const { info, passageStamp } = vocab;
  const stamp = vocab.stamp;
  let run = 0;
  let runStart = 0;
  for (let i = 0; i < total; i++) {
    const slot = slots[i] as number;
    const f = info[slot * INFO_STRIDE + INFO_FLAGS] as number;
    if (f & FLAG_OTHER_SCRIPT) {
      if (run === 0) runStart = i;
      run++;
      if (run > PASSAGE_WORDS) passageStamp[slot] = stamp;
      else if (run === PASSAGE_WORDS) {
        for (let k = runStart; k <= i; k++) {
          const s = slots[k] as number;
          if ((info[s * INFO_STRIDE + INFO_FLAGS] as number) & FLAG_OTHER_SCRIPT) passageStamp[s] = stamp;
        }
      }
    } else if (f & FLAG_LETTER) run = 0;
  }
}
