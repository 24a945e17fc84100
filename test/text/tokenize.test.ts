import { describe, expect, it } from 'vitest';
import { hasLetter, tokenEnd, tokenHash, tokenize, tokenWords } from '../../src/text/tokenize.js';

describe('tokenize', () => {
  it('splits on punctuation and spaces, keeps digits', () => {
    expect(tokenWords(tokenize('россия, сша и ес: 17,5 млн тонн!', 64))).toEqual([
      'россия',
      'сша',
      'и',
      'ес',
      '17',
      '5',
      'млн',
      'тонн',
    ]);
  });
  it('keeps inner apostrophes, drops outer ones', () => {
    expect(tokenWords(tokenize("don't 'quoted' м'ясо", 64))).toEqual(["don't", 'quoted', "м'ясо"]);
  });
  it('keeps Persian words with their letters', () => {
    expect(tokenWords(tokenize('خبرگزاری فارس: رئیس اداره', 64))).toEqual([
      'خبرگزاری',
      'فارس',
      'رئیس',
      'اداره',
    ]);
  });
  it('drops tokens longer than the limit', () => {
    expect(tokenWords(tokenize(`a ${'x'.repeat(70)} b`, 64))).toEqual(['a', 'b']);
  });
  it('ends sentences at full stops followed by space and at line breaks, not inside numbers', () => {
    const t = tokenize('первое предложение 17.5 тонн. второе! заголовок\nтретье', 64);
    expect(tokenWords(t)).toEqual([
      'первое',
      'предложение',
      '17',
      '5',
      'тонн',
      'второе',
      'заголовок',
      'третье',
    ]);
    expect(t.sentenceEnds).toEqual([5, 6, 7, 8]);
  });
  it('ends a sentence at a stop followed by closing quotes or brackets', () => {
    // Reordered copies move such sentences: their ends must not depend on what follows.
    const t = tokenize('he said "we will go." then they left (as planned.) «всё.» end', 64);
    expect(t.sentenceEnds).toEqual([5, 10, 11, 12]);
    expect(tokenize('3.5 "a.b" c', 64).sentenceEnds).toEqual([5]);
  });
  it('joins word runs across several apostrophes, not across a trailing one or a doubled one', () => {
    expect(tokenWords(tokenize("rock'n'roll don' o''clock x'", 64))).toEqual([
      "rock'n'roll",
      'don',
      'o',
      'clock',
      'x',
    ]);
  });
  it('ends a sentence at closing quotes that run to the end of the text', () => {
    expect(tokenize('he said "go."\')', 64).sentenceEnds).toEqual([3]);
    expect(tokenize('one. "two."', 64).sentenceEnds).toEqual([1, 2]);
  });
  it('tokenizes a text longer than its scratch buffers (64 K code units) like the same words in pieces', () => {
    const sentence = "it's a test of the scratch buffers. ";
    const long = sentence.repeat(Math.ceil(70_000 / sentence.length));
    const t = tokenize(long, 64);
    const piece = tokenize(sentence, 64);
    const copies = Math.ceil(70_000 / sentence.length);
    expect(t.count).toBe(piece.count * copies);
    expect(t.joined).toBe(Array.from({ length: copies }, () => piece.joined).join(' '));
    expect(t.sentenceEnds.length).toBe(copies);
    expect(tokenWords(tokenize("the next text: don't", 64))).toEqual(['the', 'next', 'text', "don't"]);
  });
  it("hashes each token as it is copied: hashes[k] is the FNV-1a of token k's code units", () => {
    const fnv = (word: string): number => {
      let h = 0x811c9dc5;
      for (const unit of word.split('').map((ch) => ch.charCodeAt(0))) h = Math.imul(h ^ unit, 0x01000193);
      return h;
    };
    const t = tokenize("Москва, don't 17 نامه‌ای мʼясо x", 64);
    const words = tokenWords(t);
    expect(Array.from(t.hashes ?? [])).toEqual(words.map(fnv));
    expect(new Set(t.hashes).size).toBe(words.length);
    // Past the scratch buffers (32 K tokens, 64 K code units): grown with the starts.
    const many = tokenize('a bc d '.repeat(12_000), 64);
    expect(many.count).toBe(36_000);
    expect(many.hashes?.length).toBe(36_000);
    for (const k of [0, 1, 2, 32_767, 32_768, 32_769, 35_999])
      expect(many.hashes?.[k]).toBe(tokenHash(many.joined, many.starts[k] as number, tokenEnd(many, k)));
  });
  it('joins the tokens with single spaces', () => {
    const t = tokenize("  one, two;\n\nthree... don't  ", 64);
    expect(t.joined).toBe(tokenWords(t).join(' '));
    expect(t.joined).toBe("one two three don't");
  });
  it('drops emoji and symbols', () => {
    expect(tokenWords(tokenize('hello 😀 world ✓ ©', 64))).toEqual(['hello', 'world']);
  });
  it('returns nothing for punctuation only', () => {
    const t = tokenize(' -- ... ! ', 64);
    expect(t.count).toBe(0);
    expect(t.joined).toBe('');
    expect(t.sentenceEnds).toEqual([]);
  });
});

describe('hasLetter', () => {
  it('is false for numbers only', () => {
    expect(hasLetter('2019')).toBe(false);
    expect(hasLetter('17a')).toBe(true);
    expect(hasLetter('год')).toBe(true);
  });
});

describe('tokenize: runs of one-character tokens (words spelt out)', () => {
  it('flags four one-character tokens in a row, each within 3 characters of the last', () => {
    expect(tokenize('buy f.r.e.e now', 64).spelledOut).toBe(true);
    expect(tokenize('w . i . n . s', 64).spelledOut).toBe(true);
    expect(tokenize('v i a g r a', 64).spelledOut).toBe(true);
  });
  it('does not flag three in a row, or one-character words far apart', () => {
    expect(tokenize('the U.S.A. and J. R. R. Tolkien', 64).spelledOut).toBe(false);
    expect(tokenize('a cat, a dog, a bird and a fish', 64).spelledOut).toBe(false);
    expect(tokenize('x .... y .... z .... w', 64).spelledOut).toBe(false);
  });
});
