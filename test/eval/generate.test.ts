import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { beforeAll, describe, expect, it } from 'vitest';
import {
  canonicalWords,
  chooseVariantKinds,
  generateVariants,
  goldClusters,
  hardNegativePairs,
  type LabeledMessage,
  legacyForm,
  messageId,
  readStoryPairs,
  type SourceDoc,
  sourceClusters,
  storyPairDocs,
  type VariantKind,
} from '../../src/eval/generate.js';
import { adjustedRandIndex, pairwiseScores } from '../../src/eval/metrics.js';
import { Random } from '../../src/eval/random.js';
import { parseMessageObject } from '../../src/input/message.js';
import type { Signer } from '../../src/signatures/signer.js';
import { decodeBytes } from '../../src/text/decode/charset.js';
import { htmlToText } from '../../src/text/decode/html.js';
import { signText, testEngine } from '../support/engine.js';
import {
  hasSharedData,
  readSharedJsonl,
  SHARED_DATA_DIR,
  warnIfNoSharedData,
} from '../support/shared-data.js';

const here = dirname(fileURLToPath(import.meta.url));
const readJsonl = (file: string): SourceDoc[] =>
  readFileSync(resolve(here, '../fixtures', file), 'utf8')
    .split('\n')
    .filter((line) => line.trim() !== '')
    .map((line) => JSON.parse(line) as SourceDoc);

const ARTICLES = readJsonl('articles.jsonl');
const MAILS = readJsonl('mails.jsonl');
const FIXTURES = [...ARTICLES, ...MAILS];

// ---------------------------------------------------------------------------------------------
// Token-level checks, on the words the signatures see.

function levenshtein(a: readonly string[], b: readonly string[]): number {
  let prev = Array.from({ length: b.length + 1 }, (_v, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const cur = [i];
    for (let j = 1; j <= b.length; j++) {
      cur[j] = Math.min(prev[j]! + 1, cur[j - 1]! + 1, prev[j - 1]! + (a[i - 1] === b[j - 1] ? 0 : 1));
    }
    prev = cur;
  }
  return prev[b.length]!;
}

/** Index where `needle` occurs as a contiguous run in `hay`, or -1. */
function indexOfRun(hay: readonly string[], needle: readonly string[]): number {
  outer: for (let i = 0; i + needle.length <= hay.length; i++) {
    for (let j = 0; j < needle.length; j++) if (hay[i + j] !== needle[j]) continue outer;
    return i;
  }
  return -1;
}

const sorted = (words: readonly string[]) => [...words].sort();

function sourceOf(m: LabeledMessage, docs: readonly SourceDoc[]): SourceDoc {
  const doc = docs.find((d) => d.id === m.source);
  if (doc === undefined) throw new Error(`no source for ${m.id}`);
  return doc;
}

/** The text a message carries, however it carries it. */
function messageText(m: LabeledMessage): string {
  if (m.text !== undefined) return m.text;
  if (m.html !== undefined) return htmlToText(m.html).text;
  if (m.raw !== undefined) return decodeBytes(new Uint8Array(Buffer.from(m.raw, 'base64'))).text;
  throw new Error(`${m.id} has no content`);
}

/**
 * What each kind promises, checked against the source. Returns the measured share of changed
 * words for word edits (so that callers can check the mean on many documents).
 */
function checkKind(m: LabeledMessage, doc: SourceDoc): { share: number; words: number } | undefined {
  const orig = canonicalWords(doc.text);
  const kind = m.variant;
  if (kind === 'original') {
    expect(m.text).toBe(doc.text);
    expect(m.title).toBe(doc.title);
    return undefined;
  }
  if (kind === 'html') {
    const html = m.html!;
    expect(m.text).toBeUndefined();
    expect(html).toMatch(/<head>[\s\S]*<title>[\s\S]*<\/head>/);
    if (doc.spam === undefined) expect(html).toContain('<script');
    expect(html).toMatch(/<p>/);
    // The article is all there, in order, between the page's own boilerplate.
    expect(indexOfRun(canonicalWords(htmlToText(html).text), orig)).toBeGreaterThanOrEqual(0);
    return undefined;
  }
  if (kind === 'legacy-encoding') {
    const bytes = new Uint8Array(Buffer.from(m.raw!, 'base64'));
    const decoded = decodeBytes(bytes);
    expect(decoded.charset).toBe(m.charset);
    expect(decoded.text).toBe(legacyForm(doc.text, m.charset!));
    return undefined;
  }
  const words = canonicalWords(m.text!);
  switch (kind) {
    case 'syndication': {
      const at = indexOfRun(words, orig);
      expect(at, `${m.id}: the article stays whole`).toBeGreaterThanOrEqual(0);
      expect(words.length).toBeGreaterThan(orig.length);
      break;
    }
    case 'retitle':
      expect(words).toEqual(orig);
      expect(m.title).toBeDefined();
      expect(m.title).not.toBe(doc.title);
      break;
    case 'truncate-lede':
      expect(words.length).toBeLessThan(orig.length);
      expect(words).toEqual(orig.slice(orig.length - words.length));
      break;
    case 'truncate-end':
      expect(words.length).toBeLessThan(orig.length);
      expect(words.length / orig.length).toBeGreaterThan(0.6);
      expect(words).toEqual(orig.slice(0, words.length));
      break;
    case 'swap-paragraphs':
      expect(words).not.toEqual(orig);
      expect(sorted(words)).toEqual(sorted(orig));
      break;
    case 'insert-sentence': {
      expect(words.length).toBeGreaterThan(orig.length);
      const added = words.length - orig.length;
      // orig[0..k) + the note + orig[k..): find k by the common prefix.
      let k = 0;
      while (k < orig.length && words[k] === orig[k]) k++;
      expect(words.slice(k + added)).toEqual(orig.slice(k));
      // In the middle (a text of one or two sentences has no middle: fa-00148 is "خبرگزاري فارس:\n.").
      if (orig.length >= 50) {
        expect(k).toBeGreaterThan(orig.length * 0.1);
        expect(k).toBeLessThan(orig.length * 0.9);
      }
      break;
    }
    case 'word-edits-5':
    case 'word-edits-10':
    case 'word-edits-15':
      return { share: levenshtein(orig, words) / orig.length, words: orig.length };
    case 'mail-template': {
      const [first] = m.text!.split('\n');
      expect(first).toMatch(
        /^(Dear|Hi|Hello|Hey) \p{Lu}\p{Ll}+,$|^\p{Lu}\p{Ll}+, добрый день!$|^(Здравствуйте|Добрый день), \p{Lu}\p{Ll}+!$/u,
      );
      if (doc.spam !== false) {
        expect(m.text).toMatch(/http:\/\/track\.example\.com\/c\/[0-9a-f]{16}\/0/);
        expect(m.text).toMatch(/\d{4}-\d{4}-\d{4}/);
        // 1-3 hash-buster words close the copy.
        expect(m.text).toMatch(/\n[a-z]+(?: [a-z]+){0,2}$/);
      }
      break;
    }
  }
  return undefined;
}

const EDIT_SHARE: Partial<Record<VariantKind, number>> = {
  'word-edits-5': 0.05,
  'word-edits-10': 0.1,
  'word-edits-15': 0.15,
};

type EditShare = { share: number; words: number };

function checkFeed(
  messages: readonly LabeledMessage[],
  docs: readonly SourceDoc[],
): Map<VariantKind, EditShare[]> {
  const shares = new Map<VariantKind, EditShare[]>();
  for (const m of messages) {
    const share = checkKind(m, sourceOf(m, docs));
    if (share !== undefined) shares.set(m.variant, [...(shares.get(m.variant) ?? []), share]);
  }
  return shares;
}

const mean = (list: readonly EditShare[]) => list.reduce((s, x) => s + x.share, 0) / list.length;

// ---------------------------------------------------------------------------------------------

describe('Random', () => {
  it('is a pure function of seed and labels', () => {
    const draw = (r: Random) => Array.from({ length: 5 }, () => r.nextUint32());
    expect(draw(Random.from(42, 'a', 'b'))).toEqual(draw(Random.from(42, 'a', 'b')));
    expect(draw(Random.from(42, 'a', 'b'))).not.toEqual(draw(Random.from(42, 'ab')));
    expect(draw(Random.from(1))).not.toEqual(draw(Random.from(2 ** 32 + 1)));
  });

  it('draws in range, samples distinct indices and is roughly uniform', () => {
    const r = Random.from(3);
    const counts = new Array<number>(10).fill(0);
    for (let i = 0; i < 20_000; i++) counts[r.int(10)]!++;
    for (const c of counts) expect(c).toBeGreaterThan(1800);
    const s = r.sample(1000, 50);
    expect(new Set(s).size).toBe(50);
    expect(s.every((x) => x >= 0 && x < 1000)).toBe(true);
    expect(r.sample(3, 10)).toEqual([0, 1, 2]);
    expect(r.hex(21)).toMatch(/^[0-9a-f]{21}$/);
    expect(() => Random.from(0.5)).toThrow(RangeError);
  });
});

describe('generateVariants on fixtures', () => {
  const options = { seed: 20191120, variantsPerDoc: 12 };
  const feed = generateVariants(FIXTURES, options);

  it('is reproducible: the same seed gives byte-identical output, another seed another', () => {
    const again = generateVariants(FIXTURES, options);
    expect(JSON.stringify(again)).toBe(JSON.stringify(feed));
    const other = generateVariants(FIXTURES, { ...options, seed: 7 });
    expect(JSON.stringify(other)).not.toBe(JSON.stringify(feed));
  });

  it("keeps a document's variants when other documents are added or removed", () => {
    const alone = generateVariants([ARTICLES[0]!], options);
    const content = (ms: readonly LabeledMessage[]) =>
      ms
        .filter((m) => m.source === ARTICLES[0]!.id)
        .map(({ ts: _ts, ...rest }) => rest)
        .sort((a, b) => a.id.localeCompare(b.id));
    expect(content(alone)).toEqual(content(feed));
  });

  it('labels every message with its source cluster; ids are unique; originals come first; ts ordered', () => {
    expect(feed).toHaveLength(FIXTURES.length * (1 + options.variantsPerDoc));
    expect(new Set(feed.map((m) => m.id)).size).toBe(feed.length);
    const originalTs = new Map<string, number>();
    for (const m of feed) {
      expect(m.cluster).toBe(m.source);
      expect(m.id.startsWith(`${m.source}~${m.variant}~`)).toBe(true);
      expect(m.lang).toBe(sourceOf(m, FIXTURES).lang);
      if (m.variant === 'original') originalTs.set(m.source, Date.parse(m.ts));
    }
    for (let i = 1; i < feed.length; i++)
      expect(Date.parse(feed[i]!.ts)).toBeGreaterThanOrEqual(Date.parse(feed[i - 1]!.ts));
    for (const m of feed) {
      if (m.variant === 'original') continue;
      const delay = Date.parse(m.ts) - originalTs.get(m.source)!;
      expect(delay).toBeGreaterThanOrEqual(120_000);
      expect(delay).toBeLessThanOrEqual(12 * 3_600_000);
    }
    expect(feed[0]!.ts).toBe('2019-11-20T06:00:00.000Z');
  });

  it('covers every applicable kind of each document, and only those', () => {
    for (const doc of FIXTURES) {
      const kinds = new Set(
        feed.filter((m) => m.source === doc.id && m.variant !== 'original').map((m) => m.variant),
      );
      expect([...kinds].sort()).toEqual([...chooseVariantKinds(doc)].sort());
    }
    expect(chooseVariantKinds(MAILS[0]!)).toContain('mail-template');
    expect(chooseVariantKinds(MAILS[0]!)).not.toContain('syndication');
    expect(chooseVariantKinds(ARTICLES[0]!)).not.toContain('mail-template');
  });

  it('makes hash-buster copies of spam only when asked: inserted words, greeting, unsubscribe id', () => {
    const spam = MAILS.filter((m) => m.spam === true);
    expect(spam.length).toBeGreaterThan(0);
    expect(chooseVariantKinds(spam[0]!)).not.toContain('hash-buster');
    expect(chooseVariantKinds(spam[0]!, { hashBuster: true })).toContain('hash-buster');
    const out = generateVariants(MAILS, { seed: 3, variantsPerDoc: 2, kinds: ['hash-buster'] });
    const copies = out.filter((m) => m.variant === 'hash-buster');
    expect(copies.length).toBe(2 * spam.length);
    for (const copy of copies) {
      const source = spam.find((d) => d.id === copy.source)!;
      expect(copy.text).toMatch(/unsubscribe/i);
      // About 10% of the words inserted, besides the template's greeting, link and reference.
      expect(canonicalWords(copy.text!).length).toBeGreaterThan(1.08 * canonicalWords(source.text).length);
    }
    expect(
      out.some((m) => m.variant === 'hash-buster' && MAILS.find((d) => d.id === m.source)?.spam !== true),
    ).toBe(false);
  });

  it('writes valid doppel input messages', () => {
    for (const m of feed) expect(() => parseMessageObject(m)).not.toThrow();
  });

  it('makes each kind do what it says (several seeds)', () => {
    const shares = new Map<VariantKind, EditShare[]>();
    for (const seed of [1, 2, 3, 4, 5]) {
      const messages = generateVariants(FIXTURES, { seed, variantsPerDoc: 12 });
      for (const [kind, list] of checkFeed(messages, FIXTURES))
        shares.set(kind, [...(shares.get(kind) ?? []), ...list]);
    }
    for (const [kind, list] of shares) {
      // Short fixtures round the number of edits (3 of 60 words is 5%); real articles are checked tighter below.
      expect(mean(list), kind).toBeGreaterThan(EDIT_SHARE[kind]! - 0.025);
      expect(mean(list), kind).toBeLessThan(EDIT_SHARE[kind]! + 0.02);
      for (const { share } of list) expect(share).toBeGreaterThan(0);
    }
  });

  it('chooses Russian legacy charsets by seed and writes Persian as windows-1256 does', () => {
    const charsets = new Set<string>();
    for (let seed = 0; seed < 12; seed++) {
      const [m] = generateVariants([ARTICLES.find((d) => d.lang === 'ru')!], {
        seed,
        variantsPerDoc: 1,
        kinds: ['legacy-encoding'],
      }).filter((x) => x.variant === 'legacy-encoding');
      charsets.add(m!.charset!);
    }
    expect([...charsets].sort()).toEqual(['ibm866', 'koi8-r', 'windows-1251']);
    const fa = generateVariants([ARTICLES.find((d) => d.lang === 'fa')!], {
      seed: 1,
      variantsPerDoc: 1,
      kinds: ['legacy-encoding'],
    }).find((m) => m.variant === 'legacy-encoding')!;
    expect(fa.charset).toBe('windows-1256');
    const text = decodeBytes(new Uint8Array(Buffer.from(fa.raw!, 'base64'))).text;
    expect(text).toContain('ي');
    expect(text).not.toContain('ی');
    // Letter forms aside, the canonical words are the article's.
    expect(canonicalWords(text)).toEqual(canonicalWords(ARTICLES.find((d) => d.lang === 'fa')!.text));
  });

  it('varies mail copies like a campaign: name, tracking id, reference, hash-busters', () => {
    const copies = feed.filter((m) => m.source === 'mail-prize' && m.variant === 'mail-template');
    expect(copies.length).toBeGreaterThanOrEqual(2);
    const ids = copies.map((m) => /track\.example\.com\/c\/([0-9a-f]+)/.exec(m.text!)?.[1]);
    expect(new Set(ids).size).toBe(copies.length);
    for (const m of copies) {
      expect(m.text).not.toContain('Dear customer');
      expect(m.text).not.toContain('7720-4415-0093');
      expect(m.text).not.toContain('prizes.example.net');
    }
    // A legitimate mail's copies only differ where the template fills in: no invented links or junk words.
    const ham = feed.filter((m) => m.source === 'mail-team' && m.variant === 'mail-template');
    for (const m of ham) {
      expect(m.text).not.toContain('track.example.com');
      expect(m.text!.split('\n').slice(1).join('\n')).toBe(
        MAILS.find((d) => d.id === 'mail-team')!
          .text.split('\n')
          .slice(1)
          .join('\n'),
      );
    }
  });

  it('restricts kinds and handles zero variants', () => {
    const only = generateVariants(FIXTURES, { seed: 1, variantsPerDoc: 3, kinds: ['retitle', 'html'] });
    expect(new Set(only.map((m) => m.variant))).toEqual(new Set(['original', 'retitle', 'html']));
    expect(only.filter((m) => m.variant !== 'original')).toHaveLength(FIXTURES.length * 3);
    const counters = only.filter((m) => m.source === ARTICLES[0]!.id).map((m) => m.id);
    expect(counters).toContain(messageId(ARTICLES[0]!.id, 'retitle', 1));
    expect(generateVariants(FIXTURES, { seed: 1, variantsPerDoc: 0 })).toHaveLength(FIXTURES.length);
  });

  it('rejects bad input', () => {
    expect(() => generateVariants([ARTICLES[0]!, ARTICLES[0]!], { seed: 1, variantsPerDoc: 1 })).toThrow(
      /duplicate/,
    );
    expect(() => generateVariants(ARTICLES, { seed: 1.5, variantsPerDoc: 1 })).toThrow(RangeError);
    expect(() => generateVariants(ARTICLES, { seed: 1, variantsPerDoc: -1 })).toThrow(RangeError);
    expect(() => generateVariants(ARTICLES, { seed: 1, variantsPerDoc: 1, startTime: 'yesterday' })).toThrow(
      RangeError,
    );
  });

  describe('with signatures', () => {
    let engine: Signer;
    beforeAll(async () => {
      engine = await testEngine();
    });

    it('re-titled copies are exact duplicates after canonicalization, by design', () => {
      for (const m of feed.filter((x) => x.variant === 'retitle')) {
        const doc = sourceOf(m, FIXTURES);
        expect(signText(engine, m.text!, m.lang).exact).toBe(signText(engine, doc.text, doc.lang).exact);
      }
    });
  });
});

describe('negatives and gold clusters', () => {
  const [ru, uk, en] = ARTICLES as [SourceDoc, SourceDoc, SourceDoc];

  it('adds negatives as originals with their own clusters, interleaved with the sources', () => {
    const negatives: SourceDoc[] = [
      {
        id: 'neg-a',
        lang: 'en',
        text: 'Stocks fell sharply on Monday as investors worried about slowing growth in China and Europe.',
      },
      {
        id: 'neg-b',
        lang: 'en',
        text: 'Shares dropped at the start of the week, with traders citing weak factory data from Asia.',
      },
    ];
    const feed = generateVariants([ru, uk, en], {
      seed: 5,
      variantsPerDoc: 2,
      negatives: [...negatives, en],
    });
    const neg = feed.filter((m) => m.source.startsWith('neg-'));
    expect(neg.map((m) => [m.id, m.cluster, m.variant])).toEqual([
      ['neg-a~original~0', 'neg-a', 'original'],
      ['neg-b~original~0', 'neg-b', 'original'],
    ]);
    // The source given again as a negative is the same document, not a second one.
    expect(feed.filter((m) => m.id === `${en.id}~original~0`)).toHaveLength(1);
    expect(() =>
      generateVariants([en], { seed: 1, variantsPerDoc: 1, negatives: [{ ...uk, id: en.id }] }),
    ).toThrow(/different source/);
  });

  it('merges sources that are near-duplicates of each other into one gold cluster', () => {
    const long = `${ARTICLES.map((d) => d.text).join('\n')}`;
    const copy: SourceDoc = { id: 'z-copy', lang: 'ru', text: long.slice(0, Math.floor(long.length * 0.8)) };
    const docs: SourceDoc[] = [{ id: 'long', lang: 'ru', text: long }, ...ARTICLES, copy];
    const clusters = sourceClusters(docs);
    expect(clusters.get('z-copy')).toBe('long');
    // Each fixture article is wholly inside "long" too, but as a fifth of it: an excerpt, not a copy.
    expect(clusters.get(ru.id)).toBe(ru.id);
    expect(sourceClusters(docs, { minRatio: 0.1 }).get(ru.id)).toBe('long');
    expect(sourceClusters(ARTICLES).get(ru.id)).toBe(ru.id);
    expect(sourceClusters(docs, false).get('z-copy')).toBe('z-copy');
    const feed = generateVariants(docs, { seed: 1, variantsPerDoc: 1 });
    const copyMessages = feed.filter((m) => m.source === 'z-copy');
    expect(copyMessages.every((m) => m.cluster === 'long')).toBe(true);
  });

  it('reads story pairs, gives one article one id, and drops pairs that are really near-duplicates', () => {
    const dir = mkdtempSync(join(tmpdir(), 'doppel-pairs-'));
    const file = join(dir, 'pairs.jsonl');
    const row = (a: SourceDoc, b: SourceDoc, sameStory: boolean) =>
      JSON.stringify({
        a: { url: `https://x/${a.id}`, lang: a.lang, title: a.title, text: a.text },
        b: { url: `https://x/${b.id}`, lang: b.lang, title: b.title, text: b.text },
        sameStory,
      });
    const copy: SourceDoc = { ...en, id: 'en-copy', text: `LONDON (Wire) - ${en.text}` };
    writeFileSync(file, [row(ru, uk, false), row(en, copy, true), row(uk, en, false)].join('\n'));
    const pairs = readStoryPairs(file, { knownDocs: [{ ...ru, url: `https://x/${ru.id}` }] });
    expect(pairs).toHaveLength(3);
    expect(pairs[0]!.a.id).toBe(ru.id); // known by URL
    expect(pairs[0]!.b.id).toMatch(/^story-[0-9a-f]{16}$/);
    expect(pairs[2]!.a.id).toBe(pairs[0]!.b.id); // one article, one id
    expect(storyPairDocs(pairs)).toHaveLength(4);
    const negatives = hardNegativePairs(pairs);
    expect(negatives.map((p) => p.sameStory)).toEqual([false, false]);
    expect(negatives.every((p) => p.containment < 0.75)).toBe(true);
  });

  it('scores its own gold labels perfectly', () => {
    const feed = generateVariants(FIXTURES, { seed: 9, variantsPerDoc: 4 });
    const gold = goldClusters(feed);
    expect(pairwiseScores(gold, gold).f1).toBe(1);
    expect(adjustedRandIndex(gold, gold)).toBe(1);
  });
});

// ---------------------------------------------------------------------------------------------

describe.skipIf(!hasSharedData())('generateVariants on real articles and mails (evaluation corpus)', () => {
  warnIfNoSharedData();
  const sample = (file: string, n: number, key: string): SourceDoc[] => {
    const rows = readSharedJsonl<SourceDoc>(file);
    return Random.from(1, key)
      .sample(rows.length, n)
      .map((i) => rows[i]!);
  };

  it('every kind does what it says on Russian, English, Persian news and English mail', () => {
    const docs = [
      ...sample('news-ru.jsonl', 25, 'ru'),
      ...sample('news-en.jsonl', 25, 'en'),
      ...sample('news-fa.jsonl', 25, 'fa'),
      ...sample('mail-en.jsonl', 25, 'mail'),
    ];
    const feed = generateVariants(docs, { seed: 11, variantsPerDoc: 11, mergeSources: false });
    expect(new Set(feed.map((m) => m.id)).size).toBe(feed.length);
    for (const m of feed) expect(() => parseMessageObject(m)).not.toThrow();
    const shares = checkFeed(feed, docs);
    for (const [kind, list] of shares) {
      expect(Math.abs(mean(list) - EDIT_SHARE[kind]!), kind).toBeLessThan(0.01);
      // One edit is 1/n of a short text: the share can only be as exact as that.
      for (const { share, words } of list)
        expect(Math.abs(share - EDIT_SHARE[kind]!), kind).toBeLessThan(Math.max(0.03, 1 / words));
    }
    const kinds = new Set(feed.map((m) => m.variant));
    expect(kinds.size).toBe(13);
    // Every message still decodes to text.
    for (const m of feed) expect(canonicalWords(messageText(m)).length).toBeGreaterThan(0);
  });

  it('merges the wire copies that the shared news sets hold under different ids', () => {
    const ru = readSharedJsonl<SourceDoc>('news-ru.jsonl');
    const en = readSharedJsonl<SourceDoc>('news-en.jsonl');
    const clusters = sourceClusters([...ru, ...en]);
    for (const [a, b] of [
      ['ru-00081', 'ru-00082'],
      ['en-00088', 'en-00089'],
      ['en-00090', 'en-00110'],
      ['en-00094', 'en-00095'], // AFP copy and a copy cut to half (containment 0.94, Jaccard 0.46)
    ] as const) {
      expect(clusters.get(b), `${a} ${b}`).toBe(clusters.get(a));
    }
    // Two reports of one story (AP and BBC on Trump's check-up) stay apart, and so does an
    // excerpt of a quarter of an article.
    expect(clusters.get('en-00073')).not.toBe(clusters.get('en-00072'));
    expect(clusters.get('ru-00084')).not.toBe(clusters.get('ru-00083'));
    const merged = [...clusters].filter(([id, c]) => id !== c).length;
    expect(merged).toBe(11);
  });

  it('story pairs map onto the news ids, and near-duplicate "same story" pairs are not negatives', () => {
    const known = [
      ...readSharedJsonl<SourceDoc>('news-ru.jsonl'),
      ...readSharedJsonl<SourceDoc>('news-en.jsonl'),
    ];
    const pairs = readStoryPairs(resolve(SHARED_DATA_DIR, 'story-pairs.jsonl'), { knownDocs: known });
    expect(pairs.length).toBeGreaterThan(50);
    const knownIds = new Set(known.map((d) => d.id));
    expect(storyPairDocs(pairs).every((d) => knownIds.has(d.id))).toBe(true);
    const negatives = hardNegativePairs(pairs);
    expect(negatives.length).toBeGreaterThan(pairs.length * 0.7);
    expect(negatives.length).toBeLessThan(pairs.length);
    expect(negatives.filter((p) => p.sameStory).length).toBeGreaterThan(15);
    // Consistent with the gold labels: no negative pair shares a merged cluster.
    const clusters = sourceClusters(known);
    for (const p of negatives) expect(clusters.get(p.a)).not.toBe(clusters.get(p.b));
    // As negatives of a generator run, the known articles are not added twice.
    const docs = known.filter((d) => d.lang === 'ru');
    const feed = generateVariants(docs, { seed: 3, variantsPerDoc: 0, negatives: storyPairDocs(pairs) });
    expect(feed).toHaveLength(
      new Set([...docs.map((d) => d.id), ...storyPairDocs(pairs).map((d) => d.id)]).size,
    );
  });
});
