import { describe, expect, it } from 'vitest';
import { resolveDedupConfig } from '../../src/config/profiles.js';
import { canonicalize } from '../../src/text/canonical.js';
import type { KnownWords } from '../../src/text/dictionary-words.js';
import { joinSpelledKnownWords } from '../../src/text/spelled-known.js';

const known: KnownWords = new Set([
  'free',
  'cash',
  'now',
  'money',
  'offer',
  'today',
  'friday',
  'us',
  'каталог',
]);
const stops = new Set(['the', 'on', 'is', 'of', 'в', 'на']);

const join = (text: string, spellsOut = false): string => {
  const codes = Uint16Array.from(text, (ch) => ch.charCodeAt(0));
  return String.fromCharCode(
    ...codes.subarray(0, joinSpelledKnownWords(codes, codes.length, known, stops, spellsOut)),
  );
};

describe('words spelt out with punctuation that the first pass leaves', () => {
  it('joins a run that spells a known word or a stop word, in a text that spells words out', () => {
    expect(join('get f.r.e.e c.a.s.h n.o.w o.n f.r.i.d.a.y')).toBe('get free cash now on friday');
    expect(join('t-h-e o-f-f-e-r is on')).toBe('the offer is on');
    expect(join('т.е.с.т в к.а.т.а.л.о.г')).toBe('тест в каталог');
  });
  it('reads two- and three-letter runs only where the text spells words out', () => {
    expect(join('the U.S. and t.h.e rest')).toBe('the U.S. and t.h.e rest');
    expect(join('the u.s. and t.h.e rest', true)).toBe('the us. and the rest');
  });
  it('joins runs of four letters or more whatever they spell, shorter ones only when known', () => {
    expect(join('x.q.z.k f.r.e.e')).toBe('xqzk free');
    expect(join('z.z f.r.e.e x.q')).toBe('z.z free x.q');
    const filler = 'x.m.a.h.c.x.u.a.a.x.u.d.i.i.z.q.t';
    expect(join(`${filler} f.r.e.e`)).toBe(`${filler} free`);
  });
  it('leaves blank-separated letters and mixed separators', () => {
    expect(join('f r e e m.o.n.e.y')).toBe('f r e e money');
    expect(join('f.r-e.e m.o.n.e.y')).toBe('f.r-e.e money');
  });
  it('joins a text spelt out throughout, which the filler bound of joinSpelledOut leaves', () => {
    const config = resolveDedupConfig('news').signatures.canonical;
    const sentence = 'free cash now on friday';
    const spelled = Array.from({ length: 12 }, () => 'f.r.e.e c.a.s.h n.o.w o.n f.r.i.d.a.y').join('. ');
    const copy = canonicalize({ text: spelled, kind: 'text' }, config, 'en', () => known);
    expect(copy.canonical).toBe(Array.from({ length: 12 }, () => sentence).join(' '));
  });
});
