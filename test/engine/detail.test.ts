import { describe, expect, it } from 'vitest';
import {
  decodeDetail,
  displaySnippet,
  displayUrl,
  encodeDetail,
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

  it('makes one space of exactly the characters /\\s/u calls whitespace, below the surrogates', () => {
    const wrong: number[] = [];
    for (let code = 160; code < 0xd800; code++) {
      const ch = String.fromCharCode(code);
      const expected = /\s/u.test(ch) ? 'a b' : `a${ch}b`;
      if (displaySnippet(`a${ch}b`) !== expected) wrong.push(code);
    }
    expect(wrong).toEqual([]);
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
