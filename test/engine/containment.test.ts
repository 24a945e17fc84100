import { beforeAll, describe, expect, it } from 'vitest';
import { resolveDedupConfig } from '../../src/config/profiles.js';
import { DedupEngine, type EngineMessage } from '../../src/engine/engine.js';
import { compactRecord } from '../../src/engine/record.js';
import type { Evidence } from '../../src/engine/types.js';
import { compareRecords, setContained } from '../../src/engine/verify.js';
import { initHashing } from '../../src/hash/xxhash.js';
import { parseMessageObject } from '../../src/input/message.js';
import { LexiconSet } from '../../src/lexicon/lexicon.js';
import { engineMessage } from '../../src/pipeline/flow.js';
import { signMessage } from '../../src/pipeline/sign.js';
import { emptySentenceContainment, type SentenceContainment } from '../../src/signatures/sentences.js';
import { Signer } from '../../src/signatures/signer.js';
import { MemoryStore } from '../../src/store/memory/store.js';
import { rng, syntheticSentences } from '../support/engine.js';

const config = resolveDedupConfig('news');
let signer: Signer;
beforeAll(async () => {
  await initHashing();
  signer = new Signer(config.signatures, LexiconSet.defaults());
});

const T0 = Date.UTC(2026, 10, 2);

const sentences = (seed: number, n: number): string[] => syntheticSentences(seed, n, 'q');

function shuffled<T>(items: readonly T[], seed: number): T[] {
  const random = rng(seed);
  const out = [...items];
  for (let i = out.length - 1; i > 0; i--) {
    const j = Math.floor(random() * (i + 1));
    [out[i], out[j]] = [out[j] as T, out[i] as T];
  }
  return out;
}

async function input(id: string, text: string, minutes: number): Promise<EngineMessage> {
  const signed = await signMessage(parseMessageObject({ id, text, lang: 'en' }), signer);
  return engineMessage(signed, T0 + minutes * 60_000);
}

const engine = () => new DedupEngine(config, new MemoryStore(config.window, config.index));

describe('containment (sentence fingerprints)', () => {
  it("links a teaser of an article's first sentences to the article, in either order", async () => {
    const article = sentences(1, 20);
    const teaser = article.slice(0, 3).join(' ');
    const full = article.join(' ');
    const first = await engine().processMessages([
      await input('ct1-full', full, 0),
      await input('ct1-teaser', teaser, 10),
    ]);
    expect(first[1]).toMatchObject({
      verdict: 'near_duplicate',
      duplicateOf: 'ct1-full',
      method: 'containment',
    });
    expect(first[1]!.evidence?.jaccard).toBeLessThan(0.4);
    expect(first[1]!.evidence?.contained).toBe(1);
    const second = await engine().processMessages([
      await input('ct2-teaser', teaser, 0),
      await input('ct2-full', full, 10),
    ]);
    expect(second[1]).toMatchObject({
      verdict: 'near_duplicate',
      duplicateOf: 'ct2-teaser',
      method: 'containment',
    });
    expect(second[1]!.clusterId).toBe('ct2-teaser');
  });

  it('links a partial copy to a reordered full copy', async () => {
    const article = sentences(2, 16);
    const v = await engine().processMessages([
      await input('ct3-reordered', shuffled(article, 9).join(' '), 0),
      await input('ct3-lead', article.slice(0, 4).join(' '), 10),
      await input('ct3-tail', shuffled(article.slice(9), 4).join(' '), 20),
    ]);
    expect(v.map((x) => x.verdict)).toEqual(['unique', 'near_duplicate', 'near_duplicate']);
    expect(v[1]).toMatchObject({ duplicateOf: 'ct3-reordered', method: 'containment' });
    expect(v[2]).toMatchObject({ duplicateOf: 'ct3-reordered' });
  });

  it('does not link texts that share one boilerplate sentence, or too few tokens; links a short teaser', async () => {
    const boilerplate =
      'Follow our newsroom on every social network for the latest updates on this and other stories today.';
    const a = sentences(3, 3);
    const b = sentences(4, 3);
    const short = [
      'Markets rose again on Monday morning in early trade.',
      'Oil fell by two percent in Asia.',
    ];
    const v = await engine().processMessages([
      await input('ct4-a', [...a, boilerplate].join(' '), 0),
      await input('ct4-b', [...b, boilerplate].join(' '), 10),
      await input('ct4-c', [...short, ...sentences(5, 6)].join(' '), 20),
      await input('ct4-d', short[1] as string, 30),
      await input('ct4-e', short.join(' '), 40),
    ]);
    expect(v[1]!.verdict).toBe('unique');
    // ct4-d is contained whole in ct4-c, but its one sentence holds fewer than 12 tokens.
    expect(v[3]!.verdict).not.toBe('near_duplicate');
    // ct4-e, both sentences (16 tokens), is a two-sentence teaser of ct4-c.
    expect(v[4]).toMatchObject({ verdict: 'near_duplicate', duplicateOf: 'ct4-c', method: 'containment' });
  });

  it("measures the smaller side's share of shared sentence tokens", async () => {
    const article = sentences(6, 10);
    // Sentences only: lead passages would measure the same text by its runs (below).
    const bySentences = new Signer(
      resolveDedupConfig('news', { signatures: { sentences: { leadTokens: 0 } } }).signatures,
      LexiconSet.defaults(),
    );
    const sign = async (text: string) =>
      (await signMessage(parseMessageObject({ id: 'x', text, lang: 'en' }), bySentences)).signatures;
    const full = compactRecord(await sign(article.join(' ')), 'en');
    const half = compactRecord(await sign([...article.slice(0, 2), ...sentences(7, 2)].join(' ')), 'en');
    const e = compareRecords(half, full);
    expect(e.containedSentences).toBe(2);
    expect(e.contained).toBeGreaterThan(0.3);
    expect(e.contained).toBeLessThan(0.7);
    expect(compareRecords(full, half)).toEqual(e);
  });
});

describe('containment: sentences or lead passages', () => {
  const measured = (c: Partial<SentenceContainment>): Evidence => {
    const e: Evidence = {
      exact: false,
      hamming: null,
      jaccard: null,
      imatch: false,
      lexical: 0,
      cosine: null,
    };
    setContained(e, { ...emptySentenceContainment(), ...c });
    return e;
  };

  it('reports the higher share and the more shared tokens of the two measures', () => {
    // A lead share of 1 over 18 tokens (a teaser behind a headline) beside 0.62 over 23: the
    // sentences saw tokens the runs did not (the teaser's last run), the runs the share.
    expect(
      measured({ share: 0.62, count: 1, tokens: 23, leadShare: 1, leadCount: 4, leadTokens: 18 }),
    ).toMatchObject({ contained: 1, containedSentences: 4, containedTokens: 23 });
    // Glued sentences: one shared sentence of 12 tokens, the lead's runs 0.9 over 30.
    expect(
      measured({ share: 0.3, count: 1, tokens: 12, leadShare: 0.9, leadCount: 6, leadTokens: 30 }),
    ).toMatchObject({ contained: 0.9, containedSentences: 6, containedTokens: 30 });
    // A tie of shares: the count of the one over more tokens.
    expect(
      measured({ share: 1, count: 3, tokens: 40, leadShare: 1, leadCount: 9, leadTokens: 46 }),
    ).toMatchObject({ contained: 1, containedSentences: 9, containedTokens: 46 });
    // Nothing shared by either: nothing contained.
    expect(measured({})).toMatchObject({ contained: 0, containedSentences: 0, containedTokens: 0 });
  });
});

describe('containment (lead passages)', () => {
  /** The same words as `parts` with the sentences glued ("rose.The") and no paragraph breaks. */
  const glued = (parts: readonly string[]) => parts.join('').replaceAll('\n', ' ');
  /** The first `n` words of a text (a teaser cut at a word limit, mid-sentence). */
  const words = (text: string, n: number) => text.split(/\s+/).slice(0, n).join(' ');

  it('links a teaser whose sentence boundaries are not the article’s: glued, cut mid-sentence, with a tail', async () => {
    const article = sentences(11, 18);
    const full = article.join(' ');
    // The first sentence whole (its fingerprint is the index key that finds the article), the next
    // ones glued into one sentence and cut at a word limit.
    const teaser = `${article[0]} ${words(glued(article.slice(1, 5)), 40)}…\nRead more`;
    const first = await engine().processMessages([
      await input('lp1-full', full, 0),
      await input('lp1-teaser', teaser, 10),
    ]);
    expect(first[1]).toMatchObject({
      verdict: 'near_duplicate',
      duplicateOf: 'lp1-full',
      method: 'containment',
    });
    // Glued, the teaser shares only its first sentence with the article: too small a share.
    const sentenceOnly = resolveDedupConfig('news', {
      signatures: { sentences: { leadTokens: 0 } },
    });
    const plain = new Signer(sentenceOnly.signatures, LexiconSet.defaults());
    const sign = async (text: string) =>
      compactRecord(
        (await signMessage(parseMessageObject({ id: 'x', text, lang: 'en' }), plain)).signatures,
        'en',
      );
    const bySentences = compareRecords(await sign(teaser), await sign(full));
    expect(bySentences.containedSentences).toBe(1);
    expect(bySentences.contained ?? 0).toBeLessThan(0.6);
    const second = await engine().processMessages([
      await input('lp2-teaser', teaser, 0),
      await input('lp2-full', full, 10),
    ]);
    expect(second[1]).toMatchObject({ verdict: 'near_duplicate', duplicateOf: 'lp2-teaser' });
  });

  it('links a teaser with a lead-in line of its own before the article’s first words', async () => {
    const article = sentences(12, 15);
    const teaser = `Breaking from the wires:\n${words(article.join(' '), 50)}`;
    const v = await engine().processMessages([
      await input('lp3-full', article.join('\n\n'), 0),
      await input('lp3-teaser', teaser, 10),
    ]);
    expect(v[1]).toMatchObject({ verdict: 'near_duplicate', duplicateOf: 'lp3-full' });
  });

  it('does not link two articles that open with the same boilerplate line of their site', async () => {
    const chrome = 'This story was written by a reader of the site and was paid for by the editors.';
    const a = `${chrome} ${sentences(13, 10).join(' ')}`;
    const b = `${chrome} ${words(sentences(14, 3).join(' '), 30)}`;
    const v = await engine().processMessages([await input('lp4-a', a, 0), await input('lp4-b', b, 10)]);
    expect(v[1]!.verdict).toBe('unique');
    const e = compareRecords(await record(b), await record(a));
    expect(e.contained ?? 0).toBeLessThan(0.6);
  });
});

async function record(text: string) {
  return compactRecord(
    (await signMessage(parseMessageObject({ id: 'x', text, lang: 'en' }), signer)).signatures,
    'en',
  );
}
