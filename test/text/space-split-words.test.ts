import { describe, expect, it } from 'vitest';
import { resolveDedupConfig } from '../../src/config/profiles.js';
import { LexiconSet } from '../../src/lexicon/lexicon.js';
import { canonicalize } from '../../src/text/canonical.js';
import { joinSpaceSplitWords } from '../../src/text/space-split-words.js';
import { expectCpuUnder } from '../support/cpu-budget.js';
import { codesOf, lexiconOf, textOf } from '../support/lexicon-fixture.js';

// idf values of the shape the default lexicons have: fragments are in them, rare.
const known = lexiconOf({
  president: 4.1,
  pre: 6.5,
  better: 2.6,
  information: 3.9,
  formation: 6.1,
  way: 1.9,
  away: 2.4,
  anyone: 2.8,
  one: 0.5,
  th: 5.4,
  there: 1.2,
  ere: 7.9,
  were: 1.0,
  re: 3.0,
  президент: 3.3,
  ab: 5.7,
  cd: 6.1,
  abcd: 5.0,
});
const stops = new Set(['be', 'in', 'to', 'into', 'a', 'any', 'we', 'в']);
const join = (text: string): string => {
  const codes = codesOf(text);
  return textOf(codes, joinSpaceSplitWords(codes, codes.length, known, stops));
};

describe('a plain space inside a word', () => {
  it('joins two tokens when a piece is no word and the two make one', () => {
    expect(join('the pre sident said')).toBe('the president said');
    expect(join('it is be tter now')).toBe('it is better now');
    expect(join('th ere is')).toBe('there is');
    expect(join('пре зидент')).toBe('президент');
  });
  it('keeps two known words two, whatever they make joined', () => {
    for (const text of ['go in to it', 'a way out', 'any one of them', 'marines in formation'])
      expect(join(text)).toBe(text);
  });
  it('keeps two letters after a stop word (a contraction without its apostrophe)', () => {
    expect(join('we re here')).toBe('we re here');
  });
  it('joins only letters of one script, one space apart, and a joined word only once', () => {
    for (const text of [
      'pre\nsident',
      'pre  sident',
      'pre, sident',
      'pre sidеnt',
      'pre5 sident',
      "pre sident's",
    ])
      expect(join(text)).toBe(text);
    expect(join('ab cd ab cd')).toBe('abcd abcd');
  });
});

describe('canonical text with the default lexicons', () => {
  // The rule is the mail profile's (canonical.spaceSplitWords); here on the news profile's other settings.
  const config = { ...resolveDedupConfig('news').signatures.canonical, spaceSplitWords: true };
  const lexicons = LexiconSet.defaults();
  const canonical = (text: string, lang?: string): string =>
    canonicalize({ text, kind: 'text' }, config, lang, (l) => lexicons.get(l)).canonical;

  it('is on in the mail profile and off in the news profile', () => {
    expect(resolveDedupConfig('mail').signatures.canonical.spaceSplitWords).toBe(true);
    const news = resolveDedupConfig('news').signatures.canonical;
    expect(news.spaceSplitWords).toBe(false);
    const asNews = canonicalize({ text: 'the pre sident', kind: 'text' }, news, 'en', (l) => lexicons.get(l));
    expect(asNews.canonical).toBe('the pre sident');
    expect(canonical('the pre sident', 'en')).toBe('the president');
  });

  it('reads words split after their second letter as the words', () => {
    const en = 'the government said the president would sign the agreement';
    const split = en.replace(/\p{L}{4,}/gu, (word) => `${word.slice(0, 2)} ${word.slice(2)}`);
    expect(canonical(split, 'en')).toBe(canonical(en, 'en'));
    const ru = 'правительство заявило что президент подпишет соглашение';
    expect(
      canonical(
        ru.replace(/\p{L}{4,}/gu, (w) => `${w.slice(0, 2)} ${w.slice(2)}`),
        'ru',
      ),
    ).toBe(canonical(ru, 'ru'));
  });
  it('leaves ordinary text as it was', () => {
    const text = 'He went in to the office; any one of us could see a way out, per cent by per cent.';
    expect(canonical(text, 'en')).toBe(
      'he went in to the office any one of us could see a way out per cent by per cent',
    );
  });
  // 1 MiB here, where CI measures coverage (V8's block counters slow the code several times);
  // the fault suite holds the 4 MiB line of the same shape to 2 s on the built code.
  it('stays linear on a 1 MiB line of "ab cd" pieces', async () => {
    const line = 'ab cd '.repeat((1 << 20) / 6);
    await expectCpuUnder(4_000, () => canonical(line, 'en'), '1 MiB of ab cd');
  });
});
