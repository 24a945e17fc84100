import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { isDoppelError } from '../../src/errors.js';
import { parseMessageObject } from '../../src/input/message.js';
import { signMessage } from '../../src/pipeline/sign.js';
import type { Signer } from '../../src/signatures/signer.js';
import { canonicalize } from '../../src/text/canonical.js';
import { DOCUMENT_TAG, htmlToText, tidy } from '../../src/text/decode/html.js';
import { parseMail, squeezeBlankLines } from '../../src/text/decode/mail.js';
import { replaceAddresses } from '../../src/text/mail-cleanup.js';
import { cleanLayout } from '../../src/text/normalize.js';
import { expectCpuUnder } from '../support/cpu-budget.js';
import { testEngine } from '../support/engine.js';

// Regexes on the decode -> canonicalise -> sign path that backtracked
// super-linearly. Each rewrite is checked against the regex it replaced (same output on random
// texts over the characters that matter), and the shapes that took minutes must now take well
// under the budget below (generous: the machine is shared; the old code took 30 s to hours).

// The replaced regexes, verbatim.
const OLD_LINE_END_HYPHEN = /(\p{L})[-\u2010\u2011]\s*\n\s*(?=\p{Ll})/gu;
const OLD_PAGE_NUMBER_LINE =
  /^[ \t]*(?:(?:page|p\.|стр\.?|страница|сторінка|с\.|صفحه)[ \t]*)?[-\u2013\u2014]?[ \t]*\d{1,4}(?:[ \t]*\/[ \t]*\d{1,4})?[ \t]*[-\u2013\u2014]?[ \t]*$/gimu;
const OLD_EMAIL = /\b[\w.+-]+@((?:[\w-]+\.)+[\w-]{2,})\b/g;
const OLD_DOCUMENT_TAG = /^\s*(?:<!--[\s\S]*?-->\s*)*<!doctype\s+html|<(?:html|head|body)[\s>]/i;

function oldCleanLayoutTail(text: string): string {
  return text.replace(OLD_LINE_END_HYPHEN, '$1').replace(OLD_PAGE_NUMBER_LINE, '');
}
function oldTidy(text: string): string {
  return text
    .replace(/[ \t]*\n[ \t]*/g, '\n')
    .replace(/\n{3,}/g, '\n\n')
    .replace(/ {2,}/g, ' ')
    .trim();
}

/** Strings over a small alphabet, so that the interesting patterns occur often. */
const textOver = (pieces: string[], maxLength = 60) =>
  fc.array(fc.constantFrom(...pieces), { maxLength }).map((parts) => parts.join(''));

const RUNS = { numRuns: 3000, seed: 12 };

describe('rewritten regexes give the old results', () => {
  it('line-end hyphens and page-number lines (cleanLayout)', () => {
    const pieces = [
      'a',
      'B',
      'ж',
      'Ж',
      '-',
      '\u2010',
      '\n',
      ' ',
      '\t',
      '1',
      '12',
      '/',
      '—',
      'page',
      'Стр.',
      'с.',
      'x',
      '\u00a0',
      '\u3000',
    ];
    fc.assert(
      fc.property(textOver(pieces), (text) => {
        expect(cleanLayout(text)).toBe(oldCleanLayoutTail(text));
      }),
      RUNS,
    );
  });

  it('tidy', () => {
    fc.assert(
      fc.property(textOver(['a', ' ', '\t', '\n', 'b ']), (text) => {
        expect(tidy(text)).toBe(oldTidy(text));
      }),
      RUNS,
    );
  });

  it('addresses (replaceAddresses)', () => {
    const pieces = ['a', 'B', '1', '_', '.', '+', '-', '@', ' ', 'é', 'x.com', '@@', 'ab'];
    fc.assert(
      fc.property(textOver(pieces), (text) => {
        const old = text.replace(OLD_EMAIL, (_m, domain: string) => ` ${domain.toLowerCase()} `);
        expect(replaceAddresses(text)).toBe(old);
      }),
      RUNS,
    );
  });

  it('the document sniff (DOCUMENT_TAG)', () => {
    const pieces = [
      '<!--',
      '-->',
      '-',
      ' ',
      '\n',
      '<!doctype html>',
      '<!DOCTYPE',
      ' html',
      'x',
      '<body>',
      '<html',
    ];
    fc.assert(
      fc.property(textOver(pieces, 20), (text) => {
        expect(DOCUMENT_TAG.test(text)).toBe(OLD_DOCUMENT_TAG.test(text));
      }),
      RUNS,
    );
  });

  it('squeezing empty body lines: only runs of three or more are cut, and the canonical text does not see it', async () => {
    const bodies = fc.sample(
      textOver(['word ', 'Word. ', 'a-', '\n', '\r\n', '\n\n\n', '> q\n', '-- \n', '12\n'], 40),
      {
        numRuns: 300,
        seed: 7,
      },
    );
    const engine = await testEngine();
    const outcomes = new Set<string>();
    for (const body of bodies) {
      const head = 'From: a@example.com\nSubject: s\n\n';
      const mail = Buffer.from(`${head}${body}x`);
      // Reference: drop an empty line ("" or "\r") that follows two empty lines.
      let blanks = 0;
      const expected = `${body}x`
        .split(/(?<=\n)/)
        .filter((line) => {
          blanks = line === '\n' || line === '\r\n' ? blanks + 1 : 0;
          return blanks <= 2;
        })
        .join('');
      expect(Buffer.from(squeezeBlankLines(mail, head.length)).toString()).toBe(head + expected);
      // The outcome of signing: the exact hash, or the error code (a text of no words is
      // EMPTY_TEXT either way); both texts must have the same one.
      const outcome = (text: string): string => {
        try {
          return `hash ${engine.compute(canonicalize({ text, kind: 'mail' }, engine.config.canonical, 'en')).exact}`;
        } catch (error) {
          if (!isDoppelError(error)) throw error;
          return `error ${error.code}`;
        }
      };
      const squeezed = outcome(expected);
      expect(squeezed).toBe(outcome(`${body}x`));
      outcomes.add(squeezed.split(' ')[0] as string);
    }
    // Both kinds occur among the samples: the comparison covers hashes, not only errors.
    expect([...outcomes].sort()).toEqual(['error', 'hash']);
    // And parseMail gives the text of the squeezed mail.
    expect((await parseMail(Buffer.from(`From: a@b.c\n\na-${'\n'.repeat(10)}X`))).text).toBe('a-\n\n\nX');
  });
});

const MiB = 1024 * 1024;
const BUDGET_MS = 4000;

/** Signs the message: its outcome is irrelevant here (EMPTY_TEXT and the like are fine), only its time. */
async function sign(engine: Signer, message: Record<string, unknown>): Promise<void> {
  try {
    await signMessage(parseMessageObject({ id: 'x', ...message }), engine);
  } catch (error) {
    if (!isDoppelError(error)) throw error;
  }
}

const fill = (unit: string, bytes: number) => unit.repeat(Math.ceil(bytes / unit.length));
const asMail = (body: string) => Buffer.from(`From: a@example.com\nSubject: s\n\n${body}`).toString('base64');

describe('adversarial 1 MiB texts decide in linear time', async () => {
  const engine = await testEngine();
  const shapes: Array<[string, Record<string, unknown>]> = [
    ['newline run after a hyphen', { text: `a-${fill('\n', MiB)}X` }],
    ['hyphen/newline alternation', { text: `a${fill('-\n', MiB)}x` }],
    ['blank run after a short digit line', { text: `1\n${fill(' ', MiB)}b` }],
    ['"page" and a blank run', { text: `1\npage${fill(' ', MiB)}x` }],
    ['digit lines', { text: fill('12\n', MiB) }],
    ['"a." run then "@" (mail)', { raw: asMail(`${fill('a.', MiB)}@`) }],
    ['"@" run (mail)', { raw: asMail(fill('@', MiB)) }],
    ['empty lines (mail)', { raw: asMail(`a-${fill('\n', MiB)}X`) }],
    ['short lines (mail: postal-mime kept two Blob parts per line)', { raw: asMail(fill('-\n', MiB)) }],
    ['"<" run', { html: fill('<', MiB) }],
    ['unclosed <b> (300 KB took 8 s)', { html: `${fill('<b>', MiB)}x` }],
    ['unclosed <b> then unmatched closes', { html: `<p>x${fill('<b>', MiB / 2)}${fill('</i>', MiB / 2)}` }],
    ['<div><svg></div> (grows the foreign-context stack)', { html: `${fill('<div><svg></div>', MiB)}x` }],
    [
      'empty table cells (blank runs for tidy)',
      { html: `<table><tr>${fill('<td></td>', MiB)}</tr></table>x` },
    ],
    [
      '"<!---->" run (exponential doctype sniff)',
      { raw: Buffer.from(`${fill('<!---->', MiB)}x`).toString('base64') },
    ],
    ['long word', { text: fill('абв', MiB) }],
    ['leet characters and letters (one long run)', { text: fill('1a$0', MiB), lang: 'en' }],
    ['leet words', { text: fill('fr33 l0v3 ', MiB), lang: 'en' }],
    [
      'a leet text: short words, ones, contractions',
      { text: fill("7h3 f111 1t'5 537 4x4 ", MiB), lang: 'en' },
    ],
    ['a leet text: one long run of ones', { text: `7h3 d0g 4nd ${fill('1', MiB)}`, lang: 'en' }],
    ['regional indicators in every word', { text: fill('🇫🇷🇪🇪 🇲🇴🇳🇪🇾 ', MiB) }],
    ['one long run of regional indicators (flags)', { text: `x${fill('🇫🇷', MiB)}` }],
    ['spaced single letters', { text: fill('f r e e ', MiB), lang: 'en' }],
    ['spaced single letters, runs of five', { text: fill('a f r e e. ', MiB), lang: 'en' }],
    [
      'letters spaced out one space apart, words too (one run)',
      { text: fill('f r e e m o n e y ', MiB), lang: 'en' },
    ],
    ['letters spaced out, no language declared', { text: fill('н о в ы й д о м ', MiB) }],
    ['line breaks inside words', { text: fill('wor\nking n\next ', MiB), lang: 'en' }],
    ['line breaks between every two letters', { text: fill('a\n', MiB), lang: 'en' }],
    ['punctuation inside words', { text: fill('pr.esident gov-ernment mon|ey ', MiB), lang: 'en' }],
    ['letters and dots', { text: fill('ab.', MiB), lang: 'en' }],
    ['Hangul fillers for spaces', { text: fill('free\u3164money\u3164', MiB) }],
    ['Hangul fillers between letters', { text: fill('a\u3164', MiB) }],
    ['letters spelt out with dots, every word', { text: fill('f.r.e.e o.n ', MiB), lang: 'en' }],
    ['one long run of dotted letters', { text: `x ${fill('a.', MiB)}`, lang: 'en' }],
    ['emoji between letters', { text: fill('a🔥', MiB), lang: 'en' }],
    ['emoji inside words', { text: fill('fr🔥ee ', MiB), lang: 'ru' }],
    ['<style> of open braces', { html: `<style>${fill('a{', MiB)}</style><p>x</p>` }],
    ['<style> of unclosed comments', { html: `<style>${fill('/*', MiB)}</style><p>x</p>` }],
    [
      '<style> rules hiding classes',
      { html: `<style>${fill('.a{display:none}', MiB)}</style><p class="a b">x</p>y` },
    ],
    ['off-page inline styles', { html: fill('<span style="position:absolute;left:-9999px">x</span>', MiB) }],
  ];
  for (const [name, message] of shapes) {
    it(name, async () => {
      await expectCpuUnder(BUDGET_MS, () => sign(engine, message), name);
    });
  }
});

describe('htmlparser2 depth cap', () => {
  it('keeps text and breaks of documents nested deeper than the cap', () => {
    const deep = `${'<div>'.repeat(2000)}one${'</div>'.repeat(2000)}<p>two</p>`;
    expect(htmlToText(deep).text).toBe('one\n\ntwo');
    expect(htmlToText(`${'<b>'.repeat(5000)}bold`).text).toBe('bold');
  });
});
