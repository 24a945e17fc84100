import { describe, expect, it } from 'vitest';
import { resolveDedupConfig } from '../../src/config/profiles.js';
import { canonicalize } from '../../src/text/canonical.js';
import type { KnownWords } from '../../src/text/dictionary-words.js';
import { countLetterPairs, dropRandomWords, readWord } from '../../src/text/random-words.js';

// A small made-up lexicon: its words teach which letter pairs English spells.
const LIST = [
  'get',
  'free',
  'offer',
  'today',
  'click',
  'here',
  'now',
  'your',
  'order',
  'ready',
  'please',
  'reply',
  'the',
  'and',
  'best',
  'price',
  'new',
  'item',
  'store',
  'hello',
  'team',
  'with',
  'our',
  'list',
  'more',
  'deals',
  'this',
  'week',
  'only',
  'save',
  'money',
  'ship',
  'fast',
  'friend',
  'email',
  'thank',
  'you',
  'for',
  'shopping',
  'winter',
  'sale',
  'ends',
  'soon',
];
const pairs = countLetterPairs([...LIST, ...LIST, ...LIST]);
const known: KnownWords = Object.assign(new Set(LIST), { letterPairs: pairs });
const codesOf = (text: string): Uint16Array => Uint16Array.from(text, (c) => c.charCodeAt(0));
const textOf = (codes: Uint16Array): string => String.fromCharCode(...codes);
const random = (word: string): boolean => {
  const read = readWord(codesOf(`${word} next`), 0, word.length + 5, pairs);
  expect(read >>> 1).toBe(word.length); // the run ends at the space
  return (read & 1) === 1;
};

describe('hash-buster words', () => {
  it('counts each letter pair once per word, word start and end included', () => {
    const counted = countLetterPairs(['aa', 'ab', 'b', 'C3']);
    const at = (a: number, b: number): number => counted[a * 27 + b] as number;
    expect(at(0, 0)).toBe(1); // "aa" holds a-a once
    expect(at(26, 0)).toBe(2); // two words start with a
    expect(at(1, 26)).toBe(2); // "ab" and "b" end with b
    expect(counted.reduce((sum, n) => sum + n, 0)).toBe(3 + 3 + 2); // "C3" is not a-z
  });

  it('reads strings without a vowel, with five consonants in a row or with rare letter pairs as random', () => {
    expect(random('bxcntjz')).toBe(true); // no vowel
    expect(random('qzwxa')).toBe(true); // pairs no word holds
    expect(random('shdktjva')).toBe(true);
    expect(random('offer')).toBe(false);
    expect(random('sheep')).toBe(false); // not a listed word, spelt like one
    expect(random('zzzz')).toBe(false); // one letter repeated: a placeholder
  });

  it('blanks out random unknown words, keeps known ones, repeated letters and joined tokens', () => {
    const codes = codesOf('get free offer zdjaw today bxcntjz zzzz rzzrf2 x-bxcnt');
    expect(dropRandomWords(codes, codes.length, known, pairs, 10)).toBe(3);
    expect(textOf(codes)).toBe('get free offer       today         zzzz rzzrf2 x-     ');
  });

  it('never empties a text: when every token would go, none does', () => {
    const codes = codesOf('bxcntjz qzwxa');
    expect(dropRandomWords(codes, codes.length, known, pairs, 2)).toBe(0);
    expect(textOf(codes)).toBe('bxcntjz qzwxa');
  });
});

describe('canonical text with the drop rule', () => {
  const mail = resolveDedupConfig('mail').signatures.canonical;
  const news = resolveDedupConfig('news').signatures.canonical;
  const knownOf = () => known;
  it('lets a spam copy with random strings appended meet its original in the mail profile', () => {
    const original = canonicalize(
      { text: 'Get the best price today, click here', kind: 'text' },
      mail,
      'en',
      knownOf,
    );
    const copy = canonicalize(
      { text: 'Get the best price today, click here\n\nbxcntjz qzwxa shdktjva', kind: 'text' },
      mail,
      'en',
      knownOf,
    );
    expect(mail.randomWords).toBe('drop');
    expect(copy.canonical).toBe(original.canonical);
  });
  it('keeps every word in the news profile and in texts of other languages', () => {
    expect(news.randomWords).toBe('keep');
    const doc = canonicalize({ text: 'Get the best price bxcntjz', kind: 'text' }, news, 'en', knownOf);
    expect(doc.words).toContain('bxcntjz');
    const ru = canonicalize({ text: 'Цена дня bxcntjz', kind: 'text' }, mail, 'ru', () => known);
    expect(ru.words).toContain('bxcntjz');
  });
});
