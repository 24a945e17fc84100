import { describe, expect, it } from 'vitest';
import { resolveDedupConfig } from '../../src/config/profiles.js';
import { LexiconSet } from '../../src/lexicon/lexicon.js';
import { canonicalize } from '../../src/text/canonical.js';
import { normalizeTextCodes, spaceVariantsSeen } from '../../src/text/normalize.js';
import { GAP_MARK, markWordGaps, ORDINARY_MARK, readWordGaps } from '../../src/text/word-gaps.js';
import { expectCpuUnder } from '../support/cpu-budget.js';
import { codesOf, lexiconOf, textOf } from '../support/lexicon-fixture.js';

const GAP = String.fromCharCode(GAP_MARK);
const ORDINARY = String.fromCharCode(ORDINARY_MARK);

describe('marking narrow and no-break spaces between letters', () => {
  it('marks each kind between two letters, and nothing else', () => {
    expect(markWordGaps('pre\u2009sident go\u200avernment')).toBe(`pre${GAP}sident go${GAP}vernment`);
    for (const space of ['\u2000', '\u2003', '\u2006', '\u2008', '\u205f', '\u3000'])
      expect(markWordGaps(`ab${space}cd`)).toBe(`ab${GAP}cd`);
    for (const space of ['\u00a0', '\u202f', '\u2007'])
      expect(markWordGaps(`ab${space}cd`)).toBe(`ab${ORDINARY}cd`);
  });
  it('returns the same string when no such space stands between two letters', () => {
    for (const text of [
      'plain text only',
      '10\u202f000 people',
      'prix\u202f: 10',
      '\u2009ab',
      'ab\u2009',
      'a\u2009\u2009b',
      'a\u00a0 b',
    ])
      expect(markWordGaps(text)).toBe(text);
  });
});

describe('normalization notes the narrow and no-break spaces', () => {
  const seen = (text: string): boolean => {
    normalizeTextCodes(text, { zwnj: 'join' });
    return spaceVariantsSeen();
  };
  it('in a text that holds one, and in no other read on the one pass', () => {
    expect(seen('plain text only')).toBe(false);
    for (const space of ['\u00a0', '\u2009', '\u200a', '\u202f', '\u205f', '\u3000'])
      expect(seen(`a${space}b`)).toBe(true);
  });
  it('writes them as spaces, as NFKC does', () => {
    const { codes, length } = normalizeTextCodes('pr\u2009esident\u00a0x', { zwnj: 'join' });
    expect(textOf(codes, length)).toBe('pr esident x');
  });
});

describe('reading the marks with a lexicon', () => {
  const known = lexiconOf({ president: 4.1, pr: 7.2, esident: 11, москве: 5.5, месте: 2.69, вместе: 2.01 });
  const stops = new Set(['в', 'in', 'to', 'into']);
  const read = (text: string, lexicon: typeof known | null = known): string => {
    const codes = codesOf(markWordGaps(text));
    return textOf(codes, readWordGaps(codes, codes.length, lexicon, stops));
  };
  it('joins the pieces of a known word and makes every other mark a space', () => {
    expect(read('the pr\u2009esident said')).toBe('the president said');
    expect(read('the pr\u00a0esident said')).toBe('the president said');
    expect(read('в\u00a0москве и\u2009там')).toBe('в москве и там');
  });
  it('keeps two words bound by a no-break space two words', () => {
    expect(read('в\u00a0месте')).toBe('в месте');
    expect(read('in\u00a0to')).toBe('in to');
  });
  it('makes every mark a space without a lexicon', () => {
    expect(read('the pr\u2009esident in\u00a0to', null)).toBe('the pr esident in to');
  });
});

describe('canonical text with the default lexicons', () => {
  const config = resolveDedupConfig('news').signatures.canonical;
  const lexicons = LexiconSet.defaults();
  const canonical = (text: string, lang?: string): string =>
    canonicalize({ text, kind: 'text' }, config, lang, (l) => lexicons.get(l)).canonical;
  const SPACES = ['\u00a0', '\u2002', '\u2003', '\u2007', '\u2009', '\u200a', '\u202f', '\u205f', '\u3000'];

  it('reads a word split by any of the spaces as the word', () => {
    const en = 'the government said the president would sign the agreement';
    const split = (text: string, space: string): string =>
      text.replace(/\p{L}{4,}/gu, (word) => `${word.slice(0, 2)}${space}${word.slice(2)}`);
    for (const space of SPACES) {
      expect(canonical(split(en, space), 'en'), `U+${space.charCodeAt(0).toString(16)}`).toBe(
        canonical(en, 'en'),
      );
      expect(canonical(split(en, space)), 'language from the letters').toBe(canonical(en));
    }
    const ru = 'правительство заявило что президент подпишет соглашение';
    expect(canonical(split(ru, '\u2009'), 'ru')).toBe(canonical(ru, 'ru'));
    expect(canonical(split(ru, '\u00a0'), 'ru')).toBe(canonical(ru, 'ru'));
  });
  it('reads a Persian verb prefix split by a thin space as the joined verb', () => {
    expect(canonical('این کار انجام می\u2009شود', 'fa')).toBe(canonical('این کار انجام می شود', 'fa'));
  });
  it('keeps the tokens of ordinary text with no-break spaces between words', () => {
    expect(canonical('Встреча в\u00a0Москве и\u00a0в\u00a0Киеве', 'ru')).toBe('встреча в москве и в киеве');
    expect(canonical('Le prix\u202f: 10\u202f000 euros', 'en')).toBe('le prix 10 000 euros');
    expect(canonical('He went in\u00a0to the office, any\u00a0one could', 'en')).toBe(
      'he went in to the office any one could',
    );
  });
  // 1 MiB here, where CI measures coverage (V8's block counters slow the code several times);
  // the fault suite holds the 4 MiB line of the same shape to 2 s on the built code.
  it('stays linear on a 1 MiB line of letters one hair space apart', async () => {
    const line = 'a\u200ab\u200a'.repeat(1 << 18);
    await expectCpuUnder(4_000, () => canonical(line, 'en'), '1 MiB of letters and hair spaces');
  });
});
