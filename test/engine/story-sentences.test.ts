import { beforeAll, describe, expect, it } from 'vitest';
import type { DedupConfig } from '../../src/config/dedup.js';
import { resolveDedupConfig } from '../../src/config/profiles.js';
import { DedupEngine, type EngineMessage } from '../../src/engine/engine.js';
import { sharedSentenceTokens, withoutSharedSentences } from '../../src/engine/story-sentences.js';
import type { Evidence } from '../../src/engine/types.js';
import { initHashing } from '../../src/hash/xxhash.js';
import { parseMessageObject } from '../../src/input/message.js';
import { LexiconSet } from '../../src/lexicon/lexicon.js';
import { engineMessage } from '../../src/pipeline/flow.js';
import { signMessage } from '../../src/pipeline/sign.js';
import { Signer } from '../../src/signatures/signer.js';
import { MemoryStore } from '../../src/store/memory/store.js';
import { editWords, rng, syntheticSentences } from '../support/engine.js';

const config = resolveDedupConfig('news');
const withoutRule = resolveDedupConfig('news', { decision: { storySharedSentenceGroups: null } });
let signer: Signer;
beforeAll(async () => {
  await initHashing();
  signer = new Signer(config.signatures, LexiconSet.defaults());
});

const T0 = Date.UTC(2026, 10, 26);

async function input(id: string, text: string, minutes: number): Promise<EngineMessage> {
  const signed = await signMessage(parseMessageObject({ id, text, lang: 'en' }), signer);
  return engineMessage(signed, T0 + minutes * 60_000);
}

const engineWith = (c: DedupConfig) => new DedupEngine(c, new MemoryStore(c.window, c.index));

const evidence = (cosine: number | null, jaccard: number | null): Evidence => ({
  exact: false,
  hamming: null,
  jaccard,
  imatch: false,
  lexical: 0,
  cosine,
});

describe('story evidence beyond shared sentences: the estimate', () => {
  it('leaves evidence alone when the texts share no sentence', () => {
    const e = evidence(0.5, 0.3);
    expect(withoutSharedSentences(e, 100, 100, 0)).toBe(e);
  });

  it('takes the shared part out of the cosine: what only the shared part explains goes to 0', () => {
    // 36 of 100 tokens in both texts: the shared part alone gives a cosine of sqrt(0.36 * 0.36).
    expect(withoutSharedSentences(evidence(0.36, null), 100, 100, 36).cosine).toBe(0);
    // The rest of each text is 0.64 of it; what is left of 0.68 is (0.68 - 0.36) / 0.64 = 0.5.
    expect(withoutSharedSentences(evidence(0.68, null), 100, 100, 36).cosine).toBe(0.5);
    // The same shared tokens weigh less in longer texts: sqrt(0.1 * 0.1) = 0.1, (0.55 - 0.1) / 0.9.
    expect(withoutSharedSentences(evidence(0.55, null), 360, 360, 36).cosine).toBe(0.5);
  });

  it('takes the shared tokens out of the Jaccard intersection and union', () => {
    // Jaccard 0.25 over 100 + 100 tokens: intersection 40, union 160; less 20: 20 / 140.
    expect(withoutSharedSentences(evidence(null, 0.25), 100, 100, 20).jaccard).toBe(0.1429);
    // Never below 0, whatever the sentences' count says.
    expect(withoutSharedSentences(evidence(0.1, 0.05), 50, 50, 50)).toMatchObject({ cosine: 0, jaccard: 0 });
  });
});

/**
 * Short articles of one site: a few sentences of their own and the same paragraph of page text
 * (an "about the company" block) under each.
 */
async function sitePages(prefix: string, seed: number, count: number): Promise<EngineMessage[]> {
  const about = syntheticSentences(500 + seed, 3, 'q');
  const out: EngineMessage[] = [];
  for (let k = 0; k < count; k++) {
    const own = syntheticSentences(600 + 10 * seed + k, 4, 'q');
    out.push(await input(`${prefix}-${k}`, [...own, ...about].join(' '), 30 * k));
  }
  return out;
}

describe('story evidence beyond shared sentences: the engine', () => {
  it('counts shared sentences by their tokens', async () => {
    const [a, b] = await sitePages('ss0', 1, 2);
    const e = engineWith(config);
    const shared = sharedSentenceTokens(
      e.indexRequest(a as EngineMessage).record,
      e.indexRequest(b as EngineMessage).record,
    );
    const about = syntheticSentences(501, 3, 'q').join(' ').split(' ').length;
    expect(shared).toBe(about);
  });

  it('does not join articles of one site through a paragraph that two other texts also carry', async () => {
    for (const seed of [1, 2, 3]) {
      const before = await engineWith(withoutRule).processMessages(await sitePages(`ss1-${seed}`, seed, 3));
      // Without the rule the paragraph alone makes them one story (story links, not duplicates).
      expect(before.map((v) => v.clusterId)).toEqual(new Array(3).fill(`ss1-${seed}-0`));
      expect(before[2]?.method).toMatch(/^story:/);
      const after = await engineWith(config).processMessages(await sitePages(`ss2-${seed}`, seed, 3));
      // The second page has one candidate: a sentence two texts share may be a quote, and counts.
      expect(after[1]?.clusterId).toBe(`ss2-${seed}-0`);
      // The third page's candidates are two texts holding the paragraph: it is page text.
      expect(after[2]).toMatchObject({ verdict: 'unique', clusterId: `ss2-${seed}-2` });
    }
  });

  it('with groups 1, leaves out every shared sentence, also on the second page', async () => {
    const every = resolveDedupConfig('news', { decision: { storySharedSentenceGroups: 1 } });
    const after = await engineWith(every).processMessages(await sitePages('ss4', 1, 2));
    expect(after[1]).toMatchObject({ verdict: 'unique', clusterId: 'ss4-1' });
  });

  it('still joins two reports of one story that share words, not sentences', async () => {
    const report = syntheticSentences(800, 8, 'r');
    const random = rng(9);
    // A rewrite: a third of the words changed, so no sentence is the same, yet the vocabulary is.
    const rewrite = report.map((s) => `${editWords(random, s.slice(0, -1).split(' '), 0.35).join(' ')}.`);
    const messages = [await input('ss3-a', report.join(' '), 0), await input('ss3-b', rewrite.join(' '), 30)];
    const verdicts = await engineWith(config).processMessages(messages);
    expect(verdicts[1]).toMatchObject({ verdict: 'unique', clusterId: 'ss3-a' });
    expect(verdicts[1]?.method).toMatch(/^story:/);
  });
});
