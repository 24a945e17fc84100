import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { cleanText } from '../../src/text/clean.js';
import { foldLookalikes } from '../../src/text/lookalike.js';
import { LOOKALIKE_PAIRS } from '../../src/text/lookalike-table.js';

const opts = { zwnj: 'join' as const };
const fold = (text: string): string => {
  const codes = Uint16Array.from(text, (ch) => ch.charCodeAt(0));
  foldLookalikes(codes, codes.length);
  return String.fromCharCode(...codes);
};

describe('look-alike letters (TR39 confusables)', () => {
  it('folds Cyrillic look-alikes in an English word to Latin, even a single а', () => {
    expect(fold('the bаnk')).toBe('the bank');
    expect(fold('pаypаl sеcurity сheck')).toBe('paypal security check');
    expect(fold('оrder hеre')).toBe('order here');
  });
  it('reads a text disguised throughout by the script its mixed words are spelt in, not letter by letter', () => {
    // Every letter with a Cyrillic twin swapped: more Cyrillic letters than Latin ones, yet every
    // word that mixes the two is English, so English is the main script and "а", "сору" fold too.
    expect(fold('а сору оf thе ѕсrірt frоm уоur dеѕk')).toBe('a copy of the script from your desk');
    // Cherokee capitals for every Latin capital they imitate: the same.
    expect(cleanText('ᎢᎻᎬ ᏴᎪNK ᎪᎡᎬ ᎡᎬᎪᎠY ᎢO ᏢᎪY', opts)).toBe(cleanText('THE BANK ARE READY TO PAY', opts));
  });
  it('folds capital look-alikes too (the text is lower case by then: В Н М Т К)', () => {
    expect(cleanText('ВАNК ТЕSТ MОNEY', opts)).toBe('bank test money');
  });
  it('folds Latin look-alikes in a Russian or Ukrainian word to Cyrillic', () => {
    expect(fold('москва и мocква')).toBe('москва и москва');
    expect(fold('рост цен и pocт цен')).toBe('рост цен и рост цен');
    expect(fold('інший і iнший')).toBe('інший і інший');
    expect(fold('її та ïї')).toBe('її та її');
  });
  it('folds Greek look-alikes in an English word', () => {
    expect(fold('the prοduct is ηere')).toBe('the product is here');
  });
  it('reads η inside a word as n (the small letter) and at its start as h (the capital Η)', () => {
    expect(fold('the bαηk is ηere')).toBe('the bank is here');
    expect(cleanText('Ηello from the bαηk', opts)).toBe('hello from the bank');
  });
  it('reads Cyrillic п in an English word as n', () => {
    expect(fold('the bапk is open')).toBe('the bank is open');
  });
  it('folds Cherokee capitals (their small forms in canonical text) in English text', () => {
    expect(cleanText('ᎢᎻᎬ bank and ᏢᎪYᏢᎪᏞ wrote to every ᏚᎬᏟᎢ of the club', opts)).toBe(
      'the bank and paypal wrote to every sect of the club',
    );
    expect(cleanText('Ꮃin ᏟᎪᏚᎻ today with our offer', opts)).toBe('win cash today with our offer');
  });
  it('leaves an Armenian or Cherokee text alone, English words in it too, and folds only mixed words', () => {
    const armenian = 'Հայաստանի կառավարությունը ուսումնասիրում է օրենքը ոս and the bank';
    expect(fold(armenian)).toBe(armenian);
    expect(fold('Հայաստանի կառավարությունը ուսումնասիրում է bօnk')).toBe(
      'Հայաստանի կառավարությունը ուսումնասիրում է bonk',
    );
    const cherokee = 'ꮳꮃꭹ ꭰꮒꮧꭲꮝꮧ ꮧꭵꮃ ꭰꮒ ꮳꮃꭹ ꭰꮿꮝꮧ ok';
    expect(fold(cherokee)).toBe(cherokee);
  });
  it('prefers the script of the text when a word could be spelt in either', () => {
    // "cop" in Cyrillic letters с о р, disguised with a Latin p: Cyrillic text, so Cyrillic.
    expect(fold('сор и coр')).toBe('сор и сор');
    expect(fold('the cop and the сop')).toBe('the cop and the cop');
  });
  it('leaves words of the main script alone (Ukrainian і ї, Greek, Persian, Armenian)', () => {
    for (const text of [
      'київ і їжак',
      'ελληνικά',
      'کتاب می‌شود',
      'հայերեն',
      'сос',
      'coc',
      'рентген и снимок',
    ]) {
      expect(fold(text)).toBe(text);
    }
  });
  it('folds a word wholly in another script when the main script can spell it (a swap of every letter)', () => {
    expect(fold('а bank has а сору of it')).toBe('a bank has a copy of it');
    expect(fold('он пришел c сестрой o работе')).toBe('он пришел с сестрой о работе');
    expect(fold('він i вона')).toBe('він і вона');
  });
  it('leaves a word of another script alone when the main script cannot spell it', () => {
    expect(fold('новости Twitter и Facebook')).toBe('новости Twitter и Facebook');
    expect(fold('the word жук is Russian')).toBe('the word жук is Russian');
  });
  it('leaves a mixed word alone when no script can spell all its letters', () => {
    expect(fold('жbank')).toBe('жbank');
  });
  it('maps only lower-case letters to the basic alphabets, one code unit to one', () => {
    const basic: Record<string, RegExp> = { Latin: /^[a-z]$/, Cyrillic: /^[а-яіїєґ]$/, Greek: /^[α-ω]$/ };
    for (const [target, pairs] of Object.entries(LOOKALIKE_PAIRS)) {
      expect(pairs.length % 2).toBe(0);
      for (let i = 0; i < pairs.length; i += 2) {
        const from = pairs[i] as string;
        expect(from.normalize('NFKC').toLowerCase()).toBe(from);
        expect(pairs[i + 1]).toMatch(basic[target] as RegExp);
      }
    }
  });
  it('the committed table is what scripts/gen-lookalikes.mjs makes from the confusables data', () => {
    const root = resolve(import.meta.dirname, '../..');
    const fresh = execFileSync(process.execPath, [resolve(root, 'scripts/gen-lookalikes.mjs'), '--print'], {
      encoding: 'utf8',
    });
    expect(readFileSync(resolve(root, 'src/text/lookalike-table.ts'), 'utf8')).toBe(fresh);
  });
});
