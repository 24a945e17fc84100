import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { INVISIBLE_UNIT, isInvisibleCodePoint, removeInvisibles } from '../../src/text/invisible.js';
import { normalizeText, normalizeTextCodes } from '../../src/text/normalize.js';

const opts = { zwnj: 'join' as const };
const viaCodes = (text: string) => {
  const { codes, length } = normalizeTextCodes(text, opts);
  return String.fromCharCode(...codes.subarray(0, length));
};

describe('invisible characters', () => {
  const classes: Record<string, string[]> = {
    'bidi marks, embeddings, overrides and isolates': [
      '\u200e',
      '\u200f',
      '\u061c',
      '\u202a',
      '\u202b',
      '\u202c',
      '\u202d',
      '\u202e',
      '\u2066',
      '\u2067',
      '\u2068',
      '\u2069',
    ],
    'zero-width space, joiner, word joiner, BOM, soft hyphen': [
      '\u200b',
      '\u200d',
      '\u2060',
      '\ufeff',
      '\u00ad',
    ],
    'invisible operators': ['\u2061', '\u2062', '\u2063', '\u2064'],
    'tag characters': ['\u{e0001}', '\u{e0020}', '\u{e0041}', '\u{e007f}'],
    'variation selectors': ['\ufe00', '\ufe0e', '\ufe0f', '\u{e0100}', '\u{e01ef}'],
    'Hangul fillers': ['\u115f', '\u1160', '\u3164', '\uffa0'],
    'Mongolian vowel separator, combining grapheme joiner, Khmer inherent vowels': [
      '\u180e',
      '\u034f',
      '\u17b4',
      '\u17b5',
    ],
    'NUL and other controls that are not white space': [
      '\u0000',
      '\u0001',
      '\u0008',
      '\u000e',
      '\u001f',
      '\u007f',
      '\u0080',
      '\u009f',
    ],
  };
  for (const [name, chars] of Object.entries(classes)) {
    it(`removes ${name} inside a word, on both normalization paths`, () => {
      for (const ch of chars) {
        // A right-to-left override reverses what follows it up to U+202C (bidi-override.ts):
        // here it governs nothing.
        const mark = ch === '\u202e' ? `${ch}\u202c` : ch;
        const text = `Pay${mark}Pal con${mark}firms the ${mark}transfer`;
        expect(normalizeText(text, opts)).toBe('paypal confirms the transfer');
        expect(viaCodes(text)).toBe('paypal confirms the transfer');
        expect(isInvisibleCodePoint(ch.codePointAt(0) as number)).toBe(true);
      }
    });
  }
  it('keeps white space, ZWNJ (a Persian letter rule) and visible characters', () => {
    for (const ch of ['\t', '\n', '\r', ' ', '\u0085', '\u200c', 'a', 'ё', '€', '\u0301'])
      expect(isInvisibleCodePoint(ch.codePointAt(0) as number)).toBe(false);
    expect(removeInvisibles('plain text, nothing to do')).toBe('plain text, nothing to do');
  });
  it('removes astral invisibles without touching other astral characters', () => {
    expect(removeInvisibles('🏴\u{e0067}\u{e0062}\u{e007f} 😀\ufe0f 𝐚')).toBe('🏴 😀 𝐚');
  });
  it('removes them before NFKC: a removed joiner no longer blocks composition', () => {
    expect(normalizeText('cafe\u034f\u0301', opts)).toBe(normalizeText('caf\u00e9', opts));
  });
  it('removes them before the layout rules (page-number lines, line-end hyphens)', () => {
    for (const text of [
      'first line\n\u200e\u200e\u200e\u200e\u200e\u200e\u200e\u200e\u200e\u200e\u200e\u200e\u200e\u200e\u200e\u200e\u200e\u200e\u200e\u200e\u200e\u200e12\nnext',
      'сельскохозяй-\u200e\nственного',
      `${'x'.repeat(20)}\u200b1${'y'.repeat(23)}\u200b\u200b`,
    ]) {
      expect(viaCodes(text)).toBe(normalizeText(text, opts));
    }
    expect(normalizeText('end\n\u200e- 12 -\u200f\nstart', opts)).toBe('end\n\nstart');
    expect(normalizeText('сельскохозяй-\u2066\nственного', opts)).toBe('сельскохозяйственного');
  });
  it('gives the same text on the one-pass and the full path, on random strings with invisibles', () => {
    const alphabet = fc.constantFrom(
      ...'Aaё1 9\t\n\n-\u2010’يك\u0640۱\u200c\u00ad\u200b\u200d\u200e\u2066\ufe0f\u034f\u3164\u0000\u001f\u0301.'.split(
        '',
      ),
      '\u{e0041}',
      '😀',
    );
    fc.assert(
      fc.property(fc.array(alphabet, { maxLength: 40 }), (chars) => {
        const text = chars.join('');
        expect(viaCodes(text)).toBe(normalizeText(text, opts));
      }),
      { numRuns: 3000 },
    );
  });
  it('maps no visible character to an invisible one under NFKC (so removing first is enough)', () => {
    for (let code = 0; code < 0x10000; code++) {
      if ((code >= 0xd800 && code <= 0xdfff) || INVISIBLE_UNIT[code]) continue;
      const nfkc = String.fromCharCode(code).normalize('NFKC');
      for (const ch of nfkc)
        expect(isInvisibleCodePoint(ch.codePointAt(0) as number), code.toString(16)).toBe(false);
    }
  });
});

describe('invisible characters written as HTML entities', () => {
  it('are decoded by the HTML decoder and then removed: the page signs like the plain text', async () => {
    const { parseMessageObject } = await import('../../src/input/message.js');
    const { signMessage } = await import('../../src/pipeline/sign.js');
    const { createSigner } = await import('../../src/signatures/create.js');
    const signer = await createSigner();
    const text = 'The central bank raised its key interest rate by half a percentage point on Friday.';
    const html = `<html><body><p>The cen&lrm;tral bank ra&#8203;ised its key in&zwnj;terest rate by ha&rlm;lf a per&#x2066;centage point on Fri&zwj;day.</p></body></html>`;
    const plain = await signMessage(parseMessageObject({ id: 'inv-text', text }), signer);
    const page = await signMessage(parseMessageObject({ id: 'inv-html', html }), signer);
    expect(page.signatures.exact).toBe(plain.signatures.exact);
  });
});
