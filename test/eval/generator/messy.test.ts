import { describe, expect, it } from 'vitest';
import { invisibleCharacters, lookAlikeLetters, tatweel } from '../../../src/eval/generator/messy.js';
import { Random } from '../../../src/eval/random.js';

const EN =
  'The regional council approved a new budget for public transport on Tuesday after a long debate. ' +
  'The plan adds four tram lines and replaces the oldest buses with electric ones over five years. ' +
  'Opposition members said the cost estimates were far too optimistic and asked for a review.';
const RU =
  'Региональный совет в среду утвердил новый бюджет общественного транспорта после долгих споров. ' +
  'План добавляет четыре трамвайные линии и заменяет старые автобусы электрическими.';
const FA =
  'شورای شهر روز سه‌شنبه بودجه جدید حمل و نقل عمومی را پس از بحثی طولانی تصویب کرد و چهار خط تراموا اضافه می‌شود';

const words = (s: string) => s.split(/\s+/).filter((w) => w !== '');
// Everything the invisible kind inserts: Cf characters, variation selectors, Hangul fillers, CGJ, MVS.
const INVISIBLE_SOURCE = '\\p{Cf}|\\u034f|\\u180e|\\u3164|\\u115f|\\uffa0|[\\ufe00-\\ufe0f]';
const INVISIBLE = new RegExp(INVISIBLE_SOURCE, 'gu');
const HAS_INVISIBLE = new RegExp(INVISIBLE_SOURCE, 'u');

describe('messy-input kinds', () => {
  it('invisible characters: inside ~10% of the words, and nothing else changes', () => {
    let touched = 0;
    let total = 0;
    for (let seed = 1; seed <= 20; seed++) {
      const out = invisibleCharacters(EN, Random.from(seed, 'invisible-test'));
      expect(out.replace(INVISIBLE, '')).toBe(EN);
      const ws = words(out);
      total += ws.length;
      touched += ws.filter((w) => HAS_INVISIBLE.test(w)).length;
      // Never at a word's edge: the word stays one word to a reader.
      for (const w of ws) expect(/^[\p{Cf}]/u.test(w)).toBe(false);
    }
    expect(touched / total).toBeGreaterThan(0.05);
    expect(touched / total).toBeLessThan(0.16);
  });

  it('look-alike letters: Cyrillic in English words, Latin in Russian ones, some words only', () => {
    const en = lookAlikeLetters(EN, 'en', Random.from(3, 'lookalike-test'));
    expect(en).not.toBe(EN);
    const mixed = words(en).filter((w) => /\p{Script=Latin}/u.test(w) && /\p{Script=Cyrillic}/u.test(w));
    expect(mixed.length).toBeGreaterThan(0);
    expect(mixed.length).toBeLessThan(words(EN).length / 2);
    const back: Record<string, string> = {
      а: 'a',
      с: 'c',
      е: 'e',
      о: 'o',
      р: 'p',
      х: 'x',
      у: 'y',
      і: 'i',
      А: 'A',
      В: 'B',
      С: 'C',
      Е: 'E',
      Н: 'H',
      К: 'K',
      М: 'M',
      О: 'O',
      Р: 'P',
      Т: 'T',
      Х: 'X',
    };
    expect([...en].map((c) => back[c] ?? c).join('')).toBe(EN);
    const ru = lookAlikeLetters(RU, 'ru', Random.from(4, 'lookalike-test'));
    expect(ru).not.toBe(RU);
    expect(words(ru).some((w) => /\p{Script=Latin}/u.test(w))).toBe(true);
    expect(lookAlikeLetters(FA, 'fa', Random.from(4, 'lookalike-test'))).toBe(FA);
  });

  it('tatweel: inside Persian words after a joining letter, removable', () => {
    const out = tatweel(FA, Random.from(5, 'tatweel-test'));
    expect(out).toContain('\u0640');
    expect(out.replaceAll('\u0640', '')).toBe(FA);
    expect(/(^|\s)\u0640|\u0640(\s|$)/u.test(out)).toBe(false);
    expect(/[اآأإدذرزژو]\u0640/u.test(out)).toBe(false);
  });
});
