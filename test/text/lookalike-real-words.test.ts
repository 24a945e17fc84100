import { describe, expect, it } from 'vitest';
import { resolveDedupConfig } from '../../src/config/profiles.js';
import { LexiconSet } from '../../src/lexicon/lexicon.js';
import { canonicalize } from '../../src/text/canonical.js';
import { foldLookalikes, type OwnScriptWords, ownScriptWords } from '../../src/text/lookalike.js';
import { CYRILLIC, LATIN } from '../../src/text/word-scripts.js';

/** Small word lists of their own: the rule only asks whether a word is known in its script. */
const latinWords = new Set(['copy', 'police']);
const cyrillicWords = new Set(['он', 'а', 'сказал', 'моментов', 'рост']);
const small: OwnScriptWords = (script, word) =>
  script === LATIN ? latinWords.has(word) : script === CYRILLIC && cyrillicWords.has(word);

const fold = (text: string, known?: OwnScriptWords): string => {
  const codes = Uint16Array.from(text, (ch) => ch.charCodeAt(0));
  foldLookalikes(codes, codes.length, known);
  return String.fromCharCode(...codes);
};

const lexicons = LexiconSet.defaults();
const news = resolveDedupConfig('news').signatures.canonical;
const canonical = (text: string): string =>
  canonicalize({ text, kind: 'text' }, news, undefined, (lang) => lexicons.get(lang)).canonical;

const ENGLISH_BLOCK =
  'The minister spoke for an hour about the budget and the plans of the government for the next year.';
const RUSSIAN_SENTENCE = 'Он сказал, что много моментов остаются открытыми.';
const RUSSIAN_BLOCK = 'Министр долго говорил о бюджете, о планах правительства на следующий год и о налогах.';
const ENGLISH_SENTENCE = 'Then he said: we are open to a new era, a copy of the deal is here.';

describe('look-alike fold: whole words of another script that are real words', () => {
  it('keeps a known word of its own script, and its short neighbours, as written', () => {
    // моментов is known: a real Russian word; он is short, but beside сказал (known).
    expect(fold('the talks ended он сказал much later', small)).toBe('the talks ended он сказал much later');
    expect(fold('the talks ended and моментов', small)).toBe('the talks ended and моментов');
    // A word the main script cannot spell (жук) marks its neighbours as Russian too.
    expect(fold('the word он жук is short', small)).toBe('the word он жук is short');
  });
  it('still folds a disguised whole word that is no word of its own script', () => {
    expect(fold('а bank has а сору of it', small)).toBe('a bank has a copy of it');
    expect(fold('he sent а сору to the police', small)).toBe('he sent a copy to the police');
    expect(fold('рост цен и pocт цен', small)).toBe('рост цен и рост цен');
    expect(fold('он пришел c сестрой o работе', small)).toBe('он пришел с сестрой о работе');
  });
  it('reads neighbours only within one script: a Latin word between Cyrillic ones still folds', () => {
    expect(fold('рост и c моментов', small)).toBe('рост и с моментов');
  });
  it('folds as before without lexicons, and Greek words (no lexicon) as before', () => {
    expect(fold('the talks ended он сказал much later')).toBe('the talks ended oh сказал much later');
    expect(fold('the ροτ and οκ', small)).toBe('the pot and ok');
  });
  it('a Russian sentence in English text keeps its words, as it has alone', () => {
    const alone = canonical(RUSSIAN_SENTENCE);
    expect(alone).toBe('он сказал что много моментов остаются открытыми');
    expect(canonical(`${ENGLISH_BLOCK} ${RUSSIAN_SENTENCE}`).endsWith(` ${alone}`)).toBe(true);
  });
  it('an English sentence in Russian text keeps its words, as it has alone', () => {
    const alone = canonical(ENGLISH_SENTENCE);
    expect(alone).toBe('then he said we are open to a new era a copy of the deal is here');
    expect(canonical(`${RUSSIAN_BLOCK} ${ENGLISH_SENTENCE}`).endsWith(` ${alone}`)).toBe(true);
  });
  it('a disguise that swaps whole words is still undone with the lexicons', () => {
    expect(canonical('The bank has а сору of the report for the police.')).toBe(
      'the bank has a copy of the report for the police',
    );
    expect(canonical('Рост цен и pocт цен в этом году.')).toBe('рост цен и рост цен в этом году');
    // A Latin B for Russian в beside a real English name: one letter, no English word, so folded.
    expect(canonical('Новые функции Google Ads B сентябре станут доступны всем.')).toBe(
      'новые функции google ads в сентябре станут доступны всем',
    );
  });
  it('ownScriptWords reads Latin words against English, Cyrillic ones against Russian and Ukrainian', () => {
    const known = ownScriptWords((lang) => lexicons.get(lang));
    expect(known(CYRILLIC, 'моментов')).toBe(true);
    expect(known(CYRILLIC, 'много')).toBe(true);
    expect(known(CYRILLIC, 'сору')).toBe(false);
    expect(known(LATIN, 'copy')).toBe(true);
    expect(known(LATIN, 'моментов')).toBe(false);
  });
});
