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
    expect(join('buy v.i.a.g.r.a now')).toBe('buy viagra now');
    expect(join('get it f.r.e.e today')).toBe('get it free today');
    expect(join('c-a-s-h and w_i_n_s')).toBe('cash and wins');
    expect(join('the w . i . n . n . e . r is')).toBe('the winner is');
    expect(cleanText('Р-е-к-л-а-м-а в нашем к.а.т.а.л.о.г.е', opts)).toBe('реклама в нашем каталоге');
  });
  it('tells two spelt-out words apart when their separators differ', () => {
    expect(join('this c.o.u.l.d h_e_l_p you')).toBe('this could help you');
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
  it('joins a run of up to 16 letters, and leaves a text with a longer run (strewn letters) alone', () => {
    expect(join('read our s-p-e-c-i-a-l-r-e-p-o-r-t now')).toBe('read our specialreport now');
    const filler = 'x.m.a.h.c.x.u.a.a.x.u.d.i.i.z.q.t.b.h.y.n.x.a.z.d';
    expect(join(`${filler} and s-p-e-c-i-a-l`)).toBe(`${filler} and s-p-e-c-i-a-l`);
  });
  it('leaves a text with more than 40 letters in spelt-out runs alone', () => {
    const many = Array.from({ length: 11 }, () => 'f.r.e.e').join(' and ');
    expect(join(many)).toBe(many);
    const ten = Array.from({ length: 10 }, () => 'f.r.e.e').join(' and ');
    expect(join(ten)).toBe(Array.from({ length: 10 }, () => 'free').join(' and '));
  });
  it('leaves letters separated by blanks only: filler and command flags look the same', () => {
    expect(join('buy v i a g r a now')).toBe('buy v i a g r a now');
    expect(join('diff b w u d r')).toBe('diff b w u d r');
  });
  it('leaves a text of strewn letters alone, so that words inserted among them change nothing', () => {
    const salad = 'q.w.e.r.t.y.u.i.o.p.a.s.d.f.g.h.j.k.l.z.x.c.v.b.n.m';
    expect(join(`hello ${salad} s.p.a.m`)).toBe(`hello ${salad} s.p.a.m`);
    const cut = 'hello q.w.e.r.t.y inserted u.i.o.p.a.s.d.f.g.h.j.k.l.z.x.c.v.b.n.m s.p.a.m';
    expect(join(cut)).toBe(cut);
  });
  it('joins letters of one script only', () => {
    expect(join('گروه های e و d و همچنین')).toBe('گروه های e و d و همچنین');
  });
  it('does not join across a line break or an apostrophe', () => {
    expect(join('a\nb\nc\nd')).toBe('a\nb\nc\nd');
    expect(join("a'b'c'd")).toBe("a'b'c'd");
  });
});
