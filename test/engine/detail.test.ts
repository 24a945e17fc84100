import { describe, expect, it } from 'vitest';
import {
  decodeDetail,
  displaySnippet,
  displayUrl,
  encodeDetail,
  isWideSpace,
  MAX_SNIPPET_LENGTH,
} from '../../src/engine/detail.js';

describe('message detail', () => {
  it('round-trips every field, ids with separators in them included', () => {
    const detail = {
      lang: 'fa',
      url: 'https://example.org/خبر?a=1',
      snippet: 'بانک مرکزی نرخ بهره را افزایش داد',
      evidence: {
        exact: true,
        hamming: 0,
        jaccard: 1,
        imatch: true,
        lexical: 3,
        cosine: null,
        containment: 1,
      },
      via: 'id\u001fwith:separators',
    };
    expect(decodeDetail(encodeDetail(detail))).toEqual(detail);
    expect(decodeDetail(encodeDetail({ lang: 'en' }))).toEqual({ lang: 'en' });
    expect(encodeDetail({})).toBe('');
    expect(decodeDetail('')).toEqual({});
    expect(decodeDetail('garbage')).toEqual({});
  });

  it('keeps sentence containment evidence, and reads details stored with seven evidence values', () => {
    const evidence = {
      exact: false,
      hamming: 14,
      jaccard: 0.21,
      imatch: false,
      lexical: 0,
      cosine: 0.74,
      containment: 0.31,
      contained: 0.96,
      containedSentences: 3,
      containedTokens: 58,
    };
    expect(decodeDetail(encodeDetail({ evidence }))).toEqual({ evidence });
    const older = ['en', '0,5,0.7,0,1,0.9,0.8', '', '', 'snippet'].join('\u001f');
    expect(decodeDetail(older).evidence).toEqual({
      exact: false,
      hamming: 5,
      jaccard: 0.7,
      imatch: false,
      lexical: 1,
      cosine: 0.9,
      containment: 0.8,
    });
  });

  it('costs few bytes: a typical news message detail is its snippet and url plus ~30', () => {
    const snippet = 'x'.repeat(MAX_SNIPPET_LENGTH);
    const url = 'https://news.example/2026/11/20/rates';
    const encoded = encodeDetail({
      lang: 'en',
      url,
      snippet,
      evidence: {
        exact: false,
        hamming: 5,
        jaccard: 0.7412,
        imatch: false,
        lexical: 1,
        cosine: 0.9133,
        containment: 0.82,
      },
    });
    expect(Buffer.byteLength(encoded) - snippet.length - url.length).toBeLessThanOrEqual(40);
  });

  it('makes a snippet: one line, at most MAX_SNIPPET_LENGTH characters, cut at a word', () => {
    expect(displaySnippet('  Short\n\ttext.  ')).toBe('Short text.');
    expect(displaySnippet('   ')).toBeUndefined();
    const long = `${'word '.repeat(100)}end`;
    const s = displaySnippet(long) as string;
    expect(Array.from(s).length).toBeLessThanOrEqual(MAX_SNIPPET_LENGTH);
    expect(s).toMatch(/word…$/);
    // Whole code points: an emoji is never cut in half.
    const emoji = displaySnippet('😀'.repeat(300)) as string;
    expect(Array.from(emoji).every((c) => c === '😀' || c === '…')).toBe(true);
    // index.snippetLength: a shorter cut by the same rule; 0 keeps none.
    const short = displaySnippet(long, 50) as string;
    expect(Array.from(short).length).toBeLessThanOrEqual(50);
    expect(short).toMatch(/^word word .*word…$/);
    expect(displaySnippet(long, 0)).toBeUndefined();
    expect(displaySnippet('Short text.', 50)).toBe('Short text.');
    // Only the opening is read, however long the text.
    expect(displaySnippet(`${'a '.repeat(10)}${' '.repeat(5_000_000)}b`)).toBe(`${'a '.repeat(10).trim()}…`);
  });

  it('makes the snippet the string-building form made, on random openings of spaces, controls and surrogates', () => {
    // A seeded mix of words, every kind of white space, C0/C1 controls, astral characters and
    // lone surrogates, at lengths around the cut and the scan bound.
    let seed = 0x5eed;
    const next = (n: number) => {
      seed = (Math.imul(seed, 1103515245) + 12345) >>> 0;
      return (seed >>> 8) % n;
    };
    const pieces = [
      'word',
      'слово',
      'کلمه',
      ' ',
      '  ',
      '\t',
      '\n',
      '\r\n',
      '\u00a0',
      '\u2003',
      '\u3000',
      '\x01',
      '\x85',
      '\x9f',
      '😀',
      '\ud83d',
      '\ude00',
      '…',
      'a',
      'bb',
    ];
    for (let round = 0; round < 400; round++) {
      let text = '';
      const target = [0, 5, 190, 205, 400, 1700][next(6)] as number;
      while (text.length < target) text += pieces[next(pieces.length)];
      for (const length of [MAX_SNIPPET_LENGTH, 50, 1, 250])
        expect(displaySnippet(text, length)).toBe(stringBuiltSnippet(text, length));
    }
  });

  it('knows white space above ASCII as \\s does', () => {
    const differ: number[] = [];
    for (let code = 128; code < 0xd800; code++)
      if (isWideSpace(code) !== /\s/u.test(String.fromCharCode(code))) differ.push(code);
    expect(differ).toEqual([]);
    expect(isWideSpace(0x3000)).toBe(true);
  });

  it('keeps only absolute http(s) URLs, which a page may link', () => {
    expect(displayUrl(' https://example.com/a ')).toBe('https://example.com/a');
    expect(displayUrl('http://example.com')).toBe('http://example.com');
    expect(displayUrl('javascript:alert(1)')).toBeUndefined();
    expect(displayUrl('/relative/path')).toBeUndefined();
    expect(displayUrl('https://example.com/\u0000')).toBeUndefined();
    expect(displayUrl(`https://example.com/${'a'.repeat(3000)}`)).toBeUndefined();
    expect(displayUrl(42)).toBeUndefined();
  });
});

/** displaySnippet as it was written with string concatenation: the definition the scratch-array form must equal. */
function stringBuiltSnippet(text: string, length: number): string | undefined {
  if (length <= 0) return undefined;
  const max = Math.min(length, MAX_SNIPPET_LENGTH);
  const scan = Math.min(text.length, 8 * MAX_SNIPPET_LENGTH);
  let out = '';
  let chars = 0;
  let run = -1;
  let space = false;
  let more = scan < text.length;
  let i = 0;
  for (; i < scan; i++) {
    const code = text.charCodeAt(i);
    const isSpace =
      code === 32 ||
      (code >= 9 && code <= 13) ||
      (code > 127 && code < 0xd800 && /\s/u.test(text[i] as string));
    if (isSpace || code < 32 || (code >= 127 && code <= 159)) {
      if (run >= 0) out += text.slice(run, i);
      run = -1;
      if (isSpace && out.length > 0) space = true;
      continue;
    }
    if (code < 0xdc00 || code > 0xdfff) {
      if (chars + (space ? 1 : 0) >= max) {
        more = true;
        break;
      }
      if (space) {
        out += ' ';
        chars++;
        space = false;
      }
      chars++;
    }
    if (run < 0) run = i;
  }
  if (run >= 0) out += text.slice(run, i);
  if (out === '') return undefined;
  if (!more) return out;
  if (chars < max) return `${out}…`;
  const last = out.charCodeAt(out.length - 1);
  const cut = out.slice(0, out.length - (last >= 0xdc00 && last <= 0xdfff ? 2 : 1));
  const at = cut.lastIndexOf(' ');
  return `${at > cut.length * 0.7 ? cut.slice(0, at) : cut}…`;
}
