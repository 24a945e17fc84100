import { describe, expect, it } from 'vitest';
import { resolveDedupConfig } from '../../src/config/profiles.js';
import { foldLatinAccents, isAccentedDisguise } from '../../src/text/accented-text.js';
import { canonicalize } from '../../src/text/canonical.js';
import { buildLatinBase } from '../../src/text/diacritics.js';
import { stopWords } from '../../src/text/stopwords.js';
import { tokenize } from '../../src/text/tokenize.js';
import { codesOf, lexiconOf, textOf } from '../support/lexicon-fixture.js';

const known = lexiconOf({
  president: 3.5,
  company: 3.2,
  results: 3.4,
  board: 3.6,
  agreed: 3.9,
  good: 2.5,
  said: 2.0,
  cafe: 5.0,
  café: 6.0,
  fiancée: 7.0,
  market: 3.3,
  rte: 8.0,
  general: 3.5,
  present: 3.6,
});
const stops = stopWords('en');
const config = resolveDedupConfig('news').signatures.canonical;
const words = (text: string, lang = 'en'): string[] =>
  canonicalize({ text, kind: 'text' }, config, lang, () => known).words;
const disguised = (text: string): boolean => isAccentedDisguise(tokenize(text, 64), known, stops);

const PLAIN = 'The president of the company said the results were good, and the board agreed.';

describe('accents sprinkled on English words', () => {
  it('reads a sentence with accents on its vowels as the sentence without them', () => {
    expect(words('The présidént of thé cómpany said the résults were góod, and the bóard agreed.')).toEqual(
      words(PLAIN),
    );
  });
  it('folds precomposed and decomposed accents alike', () => {
    const composed = 'Thé président óf the cómpany said the résults were góod.';
    const apart = composed.normalize('NFD');
    expect(apart).not.toBe(composed);
    expect(words(apart)).toEqual(words(composed));
    expect(words(composed)).toEqual(words('The president of the company said the results were good.'));
  });
  it('folds every Latin letter of a disguised text, names and capitals too', () => {
    expect(words('THÉ PRÉSIDENT of the cómpany, Ñúñez, said the résults were góod')).toEqual(
      words('THE PRESIDENT of the company, Nunez, said the results were good'),
    );
  });
  it('keeps the accents of ordinary text: names, loan words, one word by chance', () => {
    expect(words('Beyoncé met José Sánchez and his fiancée at the café')).toEqual([
      'beyoncé',
      'met',
      'josé',
      'sánchez',
      'and',
      'his',
      'fiancée',
      'at',
      'the',
      'café',
    ]);
    // "rté" reads as a known word without its accent, but one such word is no disguise.
    expect(words('The RTÉ board said the results were good')).toContain('rté');
  });
  it('keeps a French text, whose cognates are a small share of its accented words', () => {
    const french = 'Le général a présenté à la société les résultats détaillés du marché européen, dit-il.';
    expect(disguised(french)).toBe(false);
    expect(words(french)).toContain('général');
  });
  it('asks for two evidence words making a third of the accented ones', () => {
    expect(disguised('thé cómpany')).toBe(true);
    expect(disguised('thé josé')).toBe(false);
    expect(disguised('thé cómpany josé sánchez núñez peña')).toBe(true);
    expect(disguised('thé cómpany josé sánchez núñez peña garcía')).toBe(false);
    expect(disguised('the company')).toBe(false);
  });
  it('reads only English text so (Russian and Ukrainian stress marks are removed for every text)', () => {
    expect(words('Президе́нт компа́нии сказа́л', 'ru')).toEqual(words('Президент компании сказал', 'ru'));
  });
});

describe('foldLatinAccents', () => {
  it('folds the diacritics of Latin letters in place and counts them', () => {
    const codes = codesOf('é è ê ë ü ñ ç ş ą ệ ǘ ø ß ı x');
    expect(foldLatinAccents(codes, codes.length)).toBe(11);
    expect(textOf(codes, codes.length)).toBe('e e e e u n c s a e u ø ß ı x');
  });
  it('maps no letter outside the Latin script and no letter without a mark', () => {
    const base = buildLatinBase();
    for (const ch of 'йёїѐѓάآøłđßæıa') expect(base[ch.charCodeAt(0)]).toBe(0);
    expect(String.fromCharCode(base['Ÿ'.charCodeAt(0)] as number)).toBe('Y');
  });
});
