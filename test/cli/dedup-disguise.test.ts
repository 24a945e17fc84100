import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { jsonLines, REPO_ROOT, runCli } from '../support/cli.js';

const articles = readFileSync(resolve(REPO_ROOT, 'test/fixtures/articles.jsonl'), 'utf8')
  .split('\n')
  .filter((l) => l.trim() !== '')
  .map((l) => JSON.parse(l) as { id: string; text: string });
const english = articles.find((a) => a.id === 'en-bank')!.text;
const russian = articles.find((a) => a.id === 'ru-grain')!.text;
const ukrainian = articles.find((a) => a.id === 'uk-rail')!.text;

/** A stress mark (U+0301) after the first vowel of every other Cyrillic word. */
const stressed = (text: string): string => {
  let n = 0;
  return text.replace(/\p{Script=Cyrillic}{2,}/gu, (word) =>
    n++ % 2 === 0 ? word.replace(/[аеиоуыэюяієї]/i, (vowel) => `${vowel}\u0301`) : word,
  );
};
/** An acute on every fifth vowel, composed (é) or written apart (e + U+0301). */
const accented = (text: string, composed: boolean): string => {
  let n = 0;
  return text.replace(/[aeiou]/gi, (vowel) =>
    n++ % 5 === 0 ? (composed ? `${vowel}\u0301`.normalize('NFC') : `${vowel}\u0301`) : vowel,
  );
};

/** Every tenth word gets a left-to-right mark after its first letter. */
const withLrm = (text: string): string => {
  let n = 0;
  return text.replace(/\p{L}{2,}/gu, (word) => (n++ % 10 === 0 ? `${word[0]}\u200e${word.slice(1)}` : word));
};
const swap = (text: string, pairs: Record<string, string>): string =>
  text.replace(/./gu, (ch) => pairs[ch] ?? ch);

describe('doppel dedup on disguised copies', () => {
  it('finds a copy with LRM in 10% of words and copies with look-alike letters', async () => {
    const lrm = withLrm(english);
    const cyrillicInEnglish = swap(english, { a: 'а', e: 'е', o: 'о', p: 'р', c: 'с', x: 'х' });
    const latinInRussian = swap(russian, { а: 'a', е: 'e', о: 'o', р: 'p', с: 'c', х: 'x' });
    expect(lrm).not.toBe(english);
    const input = [
      { id: 'dg-en', text: english },
      { id: 'dg-en-lrm', text: lrm },
      { id: 'dg-en-cyr', text: cyrillicInEnglish },
      { id: 'dg-ru', text: russian },
      { id: 'dg-ru-lat', text: latinInRussian },
    ]
      .map((m) => JSON.stringify(m))
      .join('\n');
    const result = await runCli(['dedup', '--quiet'], `${input}\n`);
    expect(result.code).toBe(0);
    const byId = Object.fromEntries(jsonLines(result.stdout).map((l) => [String(l.id), l]));
    expect(byId['dg-en']).toMatchObject({ verdict: 'unique' });
    for (const id of ['dg-en-lrm', 'dg-en-cyr']) {
      expect(byId[id]?.verdict).toMatch(/^(duplicate|near_duplicate)$/);
      expect(byId[id]).toMatchObject({ duplicateOf: 'dg-en' });
    }
    expect(byId['dg-ru']).toMatchObject({ verdict: 'unique' });
    expect(byId['dg-ru-lat']?.verdict).toMatch(/^(duplicate|near_duplicate)$/);
    expect(byId['dg-ru-lat']).toMatchObject({ duplicateOf: 'dg-ru' });
  });

  it('reads copies with stress marks and with accents on vowels as exact duplicates', async () => {
    const input = [
      { id: 'st-ru', text: russian },
      { id: 'st-uk', text: ukrainian },
      { id: 'st-en', text: english },
      { id: 'st-ru-stressed', text: stressed(russian) },
      { id: 'st-uk-stressed', text: stressed(ukrainian) },
      { id: 'st-en-composed', text: accented(english, true) },
      { id: 'st-en-apart', text: accented(english, false) },
    ];
    for (const m of input.slice(3)) expect(m.text).not.toBe(input.find((o) => m.id.startsWith(o.id))?.text);
    const result = await runCli(['dedup', '--quiet'], `${input.map((m) => JSON.stringify(m)).join('\n')}\n`);
    expect(result.code).toBe(0);
    const byId = Object.fromEntries(jsonLines(result.stdout).map((l) => [String(l.id), l]));
    for (const id of ['st-ru', 'st-uk', 'st-en']) expect(byId[id]).toMatchObject({ verdict: 'unique' });
    expect(byId['st-ru-stressed']).toMatchObject({ verdict: 'duplicate', duplicateOf: 'st-ru' });
    expect(byId['st-uk-stressed']).toMatchObject({ verdict: 'duplicate', duplicateOf: 'st-uk' });
    expect(byId['st-en-composed']).toMatchObject({ verdict: 'duplicate', duplicateOf: 'st-en' });
    expect(byId['st-en-apart']).toMatchObject({ verdict: 'duplicate', duplicateOf: 'st-en' });
  });

  it('tells emoji-only texts apart and finds a repeated one', async () => {
    const input = [
      { id: 'em-1', text: '☀️☀️☀️ ❤️' },
      { id: 'em-2', text: '⚠️ ✈️✈️ ☎️' },
      { id: 'em-3', text: '☀️☀️☀️ ❤️' },
      { id: 'em-4', text: '!!! ...' },
    ]
      .map((m) => JSON.stringify(m))
      .join('\n');
    const result = await runCli(['dedup', '--quiet'], `${input}\n`);
    expect(result.code).toBe(0);
    const byId = Object.fromEntries(jsonLines(result.stdout).map((l) => [String(l.id), l]));
    expect(byId['em-1']).toMatchObject({ verdict: 'unique' });
    expect(byId['em-2']).toMatchObject({ verdict: 'unique' });
    expect(byId['em-3']).toMatchObject({ verdict: 'duplicate', duplicateOf: 'em-1' });
    expect(byId['em-4']).toMatchObject({ verdict: 'invalid', error: { code: 'EMPTY_TEXT' } });
  });
});
