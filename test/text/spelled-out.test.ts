import { describe, expect, it } from 'vitest';
import { cleanText } from '../../src/text/clean.js';
import { joinSpelledOut } from '../../src/text/spelled-out.js';

const opts = { zwnj: 'join' as const };
const join = (text: string): string => {
  const codes = Uint16Array.from(text, (ch) => ch.charCodeAt(0));
  return String.fromCharCode(...codes.subarray(0, joinSpelledOut(codes, codes.length)));
};

describe('words spelt out letter by letter', () => {
  it('joins four or more single letters with one separator between each two', () => {
    expect(join('buy v i a g r a now')).toBe('buy viagra now');
    expect(join('get it f.r.e.e today')).toBe('get it free today');
    expect(join('c-a-s-h and w_i_n_s')).toBe('cash and wins');
    expect(join('the w . i . n . n . e . r is')).toBe('the winner is');
    expect(cleanText('Р-е-к-л-а-м-а в нашем к а т а л о г е', opts)).toBe('реклама в нашем каталоге');
  });
  it('tells two spelt-out words apart when their separators differ', () => {
    expect(join('this c o u l d h_e_l_p you')).toBe('this could help you');
    expect(join('a t.h.a.t b')).toBe('a that b');
  });
  it('leaves initials, short abbreviations, one-letter words and digits alone', () => {
    for (const text of [
      'J. R. R. Tolkien wrote it',
      'the U.S.A. and the U.K.',
      'и т. д. и т. п.',
      'он и в с ней',
      'a b c',
      'call 1 2 3 4 5 now',
      'x,y,z',
      'version 4 x 4',
    ])
      expect(join(text)).toBe(text);
  });
  it('joins letters of one script only', () => {
    expect(join('گروه های e و d و همچنین')).toBe('گروه های e و d و همچنین');
  });
  it('does not join across a line break or an apostrophe', () => {
    expect(join('a\nb\nc\nd')).toBe('a\nb\nc\nd');
    expect(join("a'b'c'd")).toBe("a'b'c'd");
  });
});
