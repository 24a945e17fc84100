import { beforeAll, describe, expect, it } from 'vitest';
import type { DedupConfig } from '../../src/config/dedup.js';
import { resolveDedupConfig } from '../../src/config/profiles.js';
import { DedupEngine, type EngineMessage } from '../../src/engine/engine.js';
import { initHashing } from '../../src/hash/xxhash.js';
import { parseMessageObject } from '../../src/input/message.js';
import { LexiconSet } from '../../src/lexicon/lexicon.js';
import { engineMessage } from '../../src/pipeline/flow.js';
import { signMessage } from '../../src/pipeline/sign.js';
import { Signer } from '../../src/signatures/signer.js';
import { MemoryStore } from '../../src/store/memory/store.js';
import { editWords, rng, syntheticSentences } from '../support/engine.js';

const config = resolveDedupConfig('news');
let signer: Signer;
beforeAll(async () => {
  await initHashing();
  signer = new Signer(config.signatures, LexiconSet.defaults());
});

const T0 = Date.UTC(2026, 10, 3);

const sentences = (seed: number, n: number): string[] => syntheticSentences(seed, n, 's');

async function input(id: string, text: string, minutes: number): Promise<EngineMessage> {
  const signed = await signMessage(parseMessageObject({ id, text, lang: 'en' }), signer);
  return engineMessage(signed, T0 + minutes * 60_000);
}

const engineWith = (c: DedupConfig) => new DedupEngine(c, new MemoryStore(c.window, c.index));
const withoutRule = resolveDedupConfig('news', { decision: { commonSentenceGroups: null } });

/**
 * Short pages of one site as an extractor that left the site's furniture in gives them: one to
 * four sentences of their own, and the same two sentences of cookie notice and legal line.
 */
async function sitePages(prefix: string, count: number, chromeFirst = false): Promise<EngineMessage[]> {
  const chrome = sentences(900, 2);
  const out: EngineMessage[] = [];
  for (let k = 0; k < count; k++) {
    const own = sentences(1000 + k, 1 + (k % 4));
    const page = chromeFirst ? [...chrome, ...own] : [...own, ...chrome];
    out.push(await input(`${prefix}-${k}`, page.join(' '), k * 20));
  }
  return out;
}

describe('sentences common in the window (site furniture)', () => {
  it('do not make different short articles of one site contained in each other', async () => {
    // Without the rule every page after the first is a "partial copy" of an earlier one.
    const before = await engineWith(withoutRule).processMessages(await sitePages('cs1', 12));
    expect(before.slice(1).map((v) => v.verdict)).toEqual(new Array(11).fill('near_duplicate'));
    const after = await engineWith(config).processMessages(await sitePages('cs2', 12));
    // Once candidates of 5 different texts hold the furniture (from the seventh page: pages 0 and
    // 4 are near-duplicates, one text), it no longer counts: the pages matched only by containment
    // are unique. Pages of one own sentence are two-thirds furniture and share word runs with each
    // other (Jaccard >= 0.4): that is not the containment rule's.
    expect(after[5]?.verdict).toBe('near_duplicate');
    after.slice(6).forEach((v, i) => {
      const k = i + 6;
      const byContainmentBefore = before[k]?.method === 'containment';
      expect([k, v.verdict]).toEqual([k, byContainmentBefore ? 'unique' : 'near_duplicate']);
    });
    expect(after.slice(6).filter((v) => v.verdict === 'unique').length).toBeGreaterThanOrEqual(4);
  });

  it('still link a teaser to an article published on many sites (its copies are one text)', async () => {
    const article = sentences(7, 20);
    const random = rng(8);
    const copies: EngineMessage[] = [];
    for (let k = 0; k < 6; k++) {
      // Each site edits a few words: near-duplicates of one another, not exact copies.
      const text = editWords(random, article.join(' ').split(' '), 0.03).join(' ');
      copies.push(await input(`cs3-site${k}`, text, k * 5));
    }
    const teaser = await input('cs3-teaser', article.slice(0, 3).join(' '), 60);
    const verdicts = await engineWith(config).processMessages([...copies, teaser]);
    const last = verdicts.at(-1);
    expect(last).toMatchObject({ verdict: 'near_duplicate', method: 'containment' });
    expect(last?.duplicateOf).toMatch(/^cs3-site/);
  });

  it('leave a teaser contained when the shared sentences are its own, beside furniture it also carries', async () => {
    const chrome = sentences(901, 2);
    const messages: EngineMessage[] = [];
    // Six unrelated articles of one site carry its two furniture sentences.
    for (let k = 0; k < 6; k++)
      messages.push(await input(`cs4-other${k}`, [...sentences(2000 + k, 8), ...chrome].join(' '), k * 10));
    const article = sentences(11, 16);
    messages.push(await input('cs4-article', [...article, ...chrome].join(' '), 70));
    messages.push(await input('cs4-teaser', [...article.slice(0, 3), ...chrome].join(' '), 80));
    const verdicts = await engineWith(config).processMessages(messages);
    expect(verdicts.at(-1)).toMatchObject({
      verdict: 'near_duplicate',
      duplicateOf: 'cs4-article',
      method: 'containment',
    });
    // Judged without the furniture: the teaser's own three sentences, all in the article.
    expect(verdicts.at(-1)?.evidence?.contained).toBe(1);
    expect(verdicts.at(-1)?.evidence?.containedSentences).toBe(3);
  });

  it('leave out furniture that opens every page, as sentences and as lead passages', async () => {
    // The furniture first: the pages' lead passages are the site's too.
    const before = await engineWith(withoutRule).processMessages(await sitePages('cs5', 12, true));
    expect(before.slice(1).every((v) => v.verdict === 'near_duplicate')).toBe(true);
    const after = await engineWith(config).processMessages(await sitePages('cs6', 12, true));
    after.slice(6).forEach((v, i) => {
      const k = i + 6;
      const byContainmentBefore = before[k]?.method === 'containment';
      expect([k, v.verdict]).toEqual([k, byContainmentBefore ? 'unique' : 'near_duplicate']);
    });
    expect(after.slice(6).filter((v) => v.verdict === 'unique').length).toBeGreaterThanOrEqual(4);
  });
});
