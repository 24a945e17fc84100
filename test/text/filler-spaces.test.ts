import { describe, expect, it } from 'vitest';
import { resolveDedupConfig } from '../../src/config/profiles.js';
import { LexiconSet } from '../../src/lexicon/lexicon.js';
import { canonicalize } from '../../src/text/canonical.js';
import { fillersAsSpaces, hasHangulFiller, leastCost } from '../../src/text/filler-spaces.js';
import { lexiconOf } from '../support/lexicon-fixture.js';

const F = '\u3164';
const cost = leastCost([
  {
    known: lexiconOf({
      free: 2.1,
      money: 2.1,
      now: 1.5,
      price: 3,
      good: 2,
      pri: 8.9,
      ce: 7.5,
      цена: 3,
      новая: 2.7,
    }),
    stops: new Set(['the', 'is', 'и']),
  },
]);

describe('Hangul fillers for spaces', () => {
  it('reads the fillers as spaces when they stand between words', () => {
    expect(fillersAsSpaces(`free${F}money${F}now`, cost)).toBe('free money now');
    // Every filler of the text is read so once the vote is taken: the one after the comma too.
    expect(fillersAsSpaces(`the price\uffa0is good,\uffa0free money\u1160now`, cost)).toBe(
      'the price is good, free money now',
    );
    expect(fillersAsSpaces(`новая\u115fцена${F}и${F}цена`, cost)).toBe('новая цена и цена');
  });
  it('leaves a lone filler, and fillers inside words', () => {
    for (const text of [`free${F}money is good`, `the pri${F}ce is good, pri${F}ce now`, `free money${F}`, F])
      expect(fillersAsSpaces(text, cost)).toBe(text);
  });
  it('finds the texts that hold a filler', () => {
    expect(hasHangulFiller(`a${F}b`)).toBe(true);
    expect(hasHangulFiller('a b')).toBe(false);
  });
});

describe('canonical text with the default lexicons', () => {
  const config = resolveDedupConfig('news').signatures.canonical;
  const lexicons = LexiconSet.defaults();
  const canonical = (text: string, lang?: string): string =>
    canonicalize({ text, kind: 'text' }, config, lang, (l) => lexicons.get(l)).canonical;

  it('signs fillers for spaces as the spaced text, with or without a declared language', () => {
    const plain = 'the company said the new price will apply from next week';
    expect(canonical(plain.replaceAll(' ', F), 'en')).toBe(canonical(plain, 'en'));
    expect(canonical(plain.replaceAll(' ', F))).toBe(canonical(plain));
    const ru = 'компания сообщила что новая цена будет действовать со следующей недели';
    expect(canonical(ru.replaceAll(' ', '\uffa0'))).toBe(canonical(ru));
  });
  it('keeps removing a filler inside a word of a normally spaced text', () => {
    expect(canonical(`the company said the new pri${F}ce will apply`, 'en')).toBe(
      'the company said the new price will apply',
    );
  });
  it('joins a word split by a line break, and keeps real line ends', () => {
    expect(canonical('the company said the new pri\nce will apply', 'en')).toBe(
      'the company said the new price will apply',
    );
    expect(canonical('the report ends here\nNext week the company', 'en')).toBe(
      'the report ends here next week the company',
    );
    expect(canonical('компания сообщила в\nместе с партнёрами', 'ru')).toBe(
      'компания сообщила в месте с партнерами',
    );
  });
  const spacedOut = (text: string): string =>
    text
      .split(' ')
      .map((word) => [...word].join(' '))
      .join(' ');
  it('reads a text spaced out letter by letter with single spaces', () => {
    const plain = 'the company said the new price will apply from next week';
    expect(canonical(spacedOut(plain), 'en')).toBe(canonical(plain, 'en'));
    const ru = 'компания сообщила что новая цена будет действовать';
    expect(canonical(spacedOut(ru), 'ru')).toBe(canonical(ru, 'ru'));
  });
});
