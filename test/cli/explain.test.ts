import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCli } from '../support/cli.js';

const article = [
  'The regional council approved a new budget for public transport on Tuesday after a debate that lasted most of the night.',
  'The plan adds four tram lines and replaces the oldest buses with electric ones over the next five years.',
  'Opposition members said the cost estimates were far too optimistic and asked for an independent review of the figures.',
  'Ticket prices will stay the same until the end of next year, the council said in a statement after the vote.',
  'Construction of the first new line is expected to begin in the spring, once the last land purchases are complete.',
  'Local businesses along the planned routes have asked for compensation for the months of roadworks ahead of them.',
];

describe('doppel explain', () => {
  it('reports sentence containment for a teaser of an article, method containment', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'doppel-explain-'));
    const a = join(dir, 'a.json');
    const b = join(dir, 'b.json');
    writeFileSync(a, JSON.stringify({ id: 'explain-full', lang: 'en', text: article.join(' ') }));
    writeFileSync(
      b,
      JSON.stringify({ id: 'explain-teaser', lang: 'en', text: article.slice(0, 2).join(' ') }),
    );
    const result = await runCli(['explain', a, b]);
    expect(result.code).toBe(0);
    const report = JSON.parse(result.stdout) as {
      similarity: { contained: number; containedSentences: number; sentences: { a: number; b: number } };
      verdict: { verdict: string; method: string };
    };
    expect(report.similarity.sentences).toMatchObject({ a: 6, b: 2 });
    expect(report.similarity.contained).toBe(1);
    expect(report.similarity.containedSentences).toBe(2);
    expect(report.verdict).toMatchObject({ verdict: 'near_duplicate', method: 'containment' });
  });

  it('says the title was signed because the body was a stub', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'doppel-explain-'));
    const a = join(dir, 'a.json');
    const b = join(dir, 'b.json');
    const stub = 'CITY, Nov 26 (Wire) -';
    writeFileSync(
      a,
      JSON.stringify({ id: 'explain-stub-a', lang: 'en', title: 'Council approves tram budget', text: stub }),
    );
    writeFileSync(
      b,
      JSON.stringify({ id: 'explain-stub-b', lang: 'en', title: 'Storm closes the port', text: stub }),
    );
    const result = await runCli(['explain', a, b]);
    expect(result.code).toBe(0);
    const report = JSON.parse(result.stdout) as {
      a: { titleSigned: string; bodyTokens: number; titleSignedBecause: string; canonical: string };
      b: { titleSigned: string; canonical: string };
      verdict: { verdict: string };
    };
    expect(report.a).toMatchObject({ titleSigned: 'stub-body', bodyTokens: 4 });
    expect(report.a.titleSignedBecause).toBe(
      'the body is a stub: 4 tokens, fewer than canonical.stubBodyTokens (8)',
    );
    expect(report.a.canonical).toBe('council approves tram budget city nov 26 wire');
    expect(report.b.canonical).toBe('storm closes the port city nov 26 wire');
    expect(report.verdict.verdict).toBe('unique');
  });
});
