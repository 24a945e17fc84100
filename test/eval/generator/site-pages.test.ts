import { describe, expect, it } from 'vitest';
import { generateVariants } from '../../../src/eval/generate.js';
import { SITES, sitePage } from '../../../src/eval/generator/site-pages.js';
import { parseBody } from '../../../src/eval/generator/text.js';
import { Random } from '../../../src/eval/random.js';

const A = parseBody(
  'The regional council approved a new budget for public transport on Tuesday. The plan adds four tram lines.',
  'en',
);
const B = parseBody('Heavy rain flooded roads across the north on Saturday. Two bridges were closed.', 'en');
const HEADLINES = [
  'Council approves transport budget',
  'Floods close two bridges',
  'Markets rise',
  'New stadium opens',
  'Election called',
  'Strike ends',
  'Heat wave ahead',
];
const page = (site: number, title: string, body: typeof A, seed = 1) =>
  sitePage({
    seed: 9,
    lang: 'en',
    site,
    title,
    body,
    headlines: HEADLINES,
    date: new Date(Date.UTC(2026, 0, 5)),
    r: Random.from(seed, 'page-test', title),
  });

/** The text of elements of a class: what a reader sees of that block. */
const block = (html: string, cls: string) =>
  new RegExp(`<(?:section|div|footer) class="${cls}"[\\s\\S]*?</(?:section|div|footer)>`).exec(html)?.[0] ??
  '';

describe('site pages', () => {
  it('gives every article of a site the same chrome, and another site other chrome', () => {
    const a0 = page(0, HEADLINES[0]!, A);
    const b0 = page(0, HEADLINES[1]!, B);
    const a3 = page(3, HEADLINES[0]!, A);
    for (const cls of ['most-read', 'cookie-banner', 'site-footer']) {
      expect(block(a0, cls)).not.toBe('');
      expect(block(b0, cls)).toBe(block(a0, cls));
    }
    expect(a0).toContain('The plan adds four tram lines.');
    expect(b0).toContain('Two bridges were closed.');
    expect(a0).toMatch(/id="comments"/);
    expect(a3).not.toContain('og:site_name" content="The Daily Courier"');
    expect(a0).toContain('og:site_name" content="The Daily Courier"');
  });

  it('puts originals on their home site and copies on the others (generateVariants, sitePages)', () => {
    const text = (n: number) =>
      Array.from(
        { length: 6 },
        (_, i) => `Sentence ${i} of article ${n} says something about topic ${n} in detail.`,
      ).join(' ');
    const docs = [1, 2, 3].map((n) => ({
      id: `site-doc-${n}`,
      lang: 'en',
      title: `Article ${n}`,
      text: text(n),
    }));
    const out = generateVariants(docs, { seed: 4, variantsPerDoc: 3, kinds: ['site-page'], sitePages: true });
    for (const doc of docs) {
      const mine = out.filter((m) => m.source === doc.id);
      expect(mine).toHaveLength(4);
      const sites = mine.map((m) => /og:site_name" content="([^"]+)"/.exec(m.html ?? '')?.[1]);
      expect(sites.every((s) => s !== undefined)).toBe(true);
      // Four pages of one article: four different sites of SITES.
      expect(new Set(sites).size).toBe(4);
      expect(SITES).toBeGreaterThanOrEqual(4);
      for (const m of mine) expect(m.text).toBeUndefined();
    }
  });

  it('publishes some teasers before their article (lead-only)', () => {
    const long = Array.from(
      { length: 10 },
      (_, i) =>
        `This is sentence number ${i} of a long article about the regional budget and its many consequences.`,
    ).join(' ');
    const docs = Array.from({ length: 12 }, (_, k) => ({
      id: `lead-doc-${k}`,
      lang: 'en',
      text: `${k} ${long}`,
    }));
    const out = generateVariants(docs, { seed: 5, variantsPerDoc: 1, kinds: ['lead-only'] });
    const ts = new Map(out.filter((m) => m.variant === 'original').map((m) => [m.source, Date.parse(m.ts)]));
    const before = out.filter((m) => m.variant === 'lead-only' && Date.parse(m.ts) < ts.get(m.source)!);
    expect(out.filter((m) => m.variant === 'lead-only')).toHaveLength(12);
    expect(before.length).toBeGreaterThan(0);
    expect(before.length).toBeLessThan(12);
  });
});
