import { beforeAll, describe, expect, it } from 'vitest';
import { resolveDedupConfig } from '../../src/config/profiles.js';
import { DedupEngine, type EngineMessage } from '../../src/engine/engine.js';
import { initHashing } from '../../src/hash/xxhash.js';
import { parseMessageObject } from '../../src/input/message.js';
import { LexiconSet } from '../../src/lexicon/lexicon.js';
import { engineMessage } from '../../src/pipeline/flow.js';
import { signMessage } from '../../src/pipeline/sign.js';
import { Signer } from '../../src/signatures/signer.js';
import { MemoryStore } from '../../src/store/memory/store.js';
import { editWords, rng } from '../support/engine.js';

const config = resolveDedupConfig('news');
let signer: Signer;
beforeAll(async () => {
  await initHashing();
  signer = new Signer(config.signatures, LexiconSet.defaults());
});

const T0 = Date.UTC(2026, 10, 1);
const story =
  'The central bank raised its key interest rate by half a percentage point on Friday, the third increase this year, ' +
  'saying inflation was still running well above its target. Analysts had expected a smaller move after consumer prices ' +
  "rose more slowly in October. The bank's governor said further increases could not be ruled out if wage growth stays " +
  'strong. Mortgage lenders are expected to pass the higher cost on to borrowers within weeks, and several large banks ' +
  'said they would review their fixed-rate offers on Monday.';
const other =
  'Heavy rain flooded roads across the northern region on Saturday, forcing the closure of two bridges and delaying ' +
  'trains for several hours. Emergency services said no one had been hurt, but hundreds of homes were left without ' +
  'power overnight and schools in three towns will stay closed until the water level drops.';

async function input(id: string, text: string, minutes = 0): Promise<EngineMessage> {
  const signed = await signMessage(parseMessageObject({ id, text, lang: 'en' }), signer);
  return engineMessage(signed, T0 + minutes * 60_000);
}

function engine(): DedupEngine {
  return new DedupEngine(config, new MemoryStore(config.window, config.index));
}

describe('DedupEngine', () => {
  it('finds exact and near duplicates, names the earliest match, and folds them into one cluster', async () => {
    const e = engine();
    const edited = editWords(rng(5), story.split(' '), 0.05).join(' ');
    const v = await e.processMessages([
      await input('a', story),
      await input('b', `LONDON (Wire) - ${story} Read more on our business pages.`, 10),
      await input('c', story.toUpperCase(), 20),
      await input('d', edited, 30),
      await input('e', other, 40),
    ]);
    expect(v.map((x) => x.verdict)).toEqual([
      'unique',
      'near_duplicate',
      'duplicate',
      'near_duplicate',
      'unique',
    ]);
    expect(v.slice(1, 4).map((x) => x.duplicateOf)).toEqual(['a', 'a', 'a']);
    expect(new Set(v.slice(0, 4).map((x) => x.clusterId))).toEqual(new Set(['a']));
    expect(v[4]!.clusterId).toBe('e');
    expect(v[2]).toMatchObject({ method: 'exact', similarity: 1 });
    expect(v[1]!.evidence?.jaccard).toBeGreaterThan(0.5);
  });

  it('gives the same verdicts across batch boundaries as in one batch', async () => {
    const inputs = [
      await input('a', story),
      await input('b', `${story} Read more.`, 1),
      await input('c', other, 2),
      await input('d', story, 3),
    ];
    const one = (await engine().processMessages(inputs)).map((v) => [
      v.id,
      v.verdict,
      v.clusterId,
      v.duplicateOf,
    ]);
    const e = engine();
    const split = [];
    for (const i of inputs) split.push(...(await e.processMessages([i])));
    expect(split.map((v) => [v.id, v.verdict, v.clusterId, v.duplicateOf])).toEqual(one);
  });

  it('replays an id with its first verdict and cluster, and adds nothing', async () => {
    const e = engine();
    await e.processMessages([await input('a', story), await input('b', `${story} Read more.`, 1)]);
    const stats = await e.store.stats();
    const [again] = await e.processMessages([await input('b', other, 2)]);
    expect(again).toMatchObject({
      id: 'b',
      verdict: 'near_duplicate',
      clusterId: 'a',
      duplicateOf: 'a',
      replay: true,
    });
    expect(await e.store.stats()).toMatchObject({ messages: stats.messages, buckets: stats.buckets });
  });

  it('gives a replay the story event of its first decision, with the cluster as it is now', async () => {
    const e = engine();
    const first = await e.processMessages([
      await input('a', story),
      await input('b', `${story} Read more.`, 1),
    ]);
    expect(first.map((v) => v.events.map((x) => x.type))).toEqual([['created'], ['grown']]);
    const again = await e.processMessages([await input('b', story, 2), await input('a', story, 2)]);
    expect(again.map((v) => v.replay)).toEqual([true, true]);
    const cluster = { clusterId: 'a', size: 2, representative: 'a' };
    expect(again[0]!.events).toEqual([
      expect.objectContaining({ type: 'grown', messageId: 'b', ...cluster }),
    ]);
    expect(again[1]!.events).toEqual([
      expect.objectContaining({ type: 'created', messageId: 'a', ...cluster }),
    ]);
  });

  it('treats a repeated id inside one batch as a replay of its first occurrence', async () => {
    const v = await engine().processMessages([await input('a', story), await input('a', other, 1)]);
    expect(v[1]).toMatchObject({ id: 'a', verdict: 'unique', clusterId: 'a', replay: true });
  });

  it('answers an id repeated in a batch, decided in an earlier batch, with that first decision', async () => {
    const e = engine();
    const [a, b] = await e.processMessages([
      await input('a', story),
      await input('b', `${story} Read more.`, 1),
    ]);
    const v = await e.processMessages([
      await input('b', other, 2),
      await input('c', other, 3),
      await input('b', 'again', 4),
      await input('a', 'and again', 5),
      await input('a', story, 6),
    ]);
    const first = { verdict: b!.verdict, clusterId: b!.clusterId, duplicateOf: 'a', replay: true };
    expect(v[0]).toMatchObject({ id: 'b', ...first });
    expect(v[2]).toMatchObject({ id: 'b', ...first });
    expect(v[3]).toMatchObject({ id: 'a', verdict: a!.verdict, clusterId: 'a', replay: true });
    expect(v[4]).toMatchObject({ id: 'a', verdict: 'unique', clusterId: 'a', replay: true });
    expect(v[1]).toMatchObject({ id: 'c', verdict: 'unique' });
    expect(v[1]!.replay).toBeUndefined();
  });

  it('flags a replay whose content differs from the first (conflict), in later batches and within one', async () => {
    const e = engine();
    await e.processMessages([await input('a', story)]);
    // The same text again (whitespace and case are not content): a plain replay.
    const [same] = await e.processMessages([await input('a', `  ${story.toUpperCase()} `, 1)]);
    expect(same).toMatchObject({ id: 'a', verdict: 'unique', replay: true });
    expect(same!.conflict).toBeUndefined();
    // Other content under the same id: the first verdict still, flagged.
    const [reused] = await e.processMessages([await input('a', other, 2)]);
    expect(reused).toMatchObject({
      id: 'a',
      verdict: 'unique',
      clusterId: 'a',
      replay: true,
      conflict: true,
    });
    // check (nothing indexed) says the same.
    const [checked] = await e.check([e.indexRequest(await input('a', other, 3))]);
    expect(checked).toMatchObject({ replay: true, conflict: true });
    const [checkedSame] = await e.check([e.indexRequest(await input('a', story, 3))]);
    expect(checkedSame!.conflict).toBeUndefined();
    // Within one batch: a repeat with other content than its first occurrence.
    const batch = await e.processMessages([
      await input('n', other, 4),
      await input('n', other, 4),
      await input('n', story, 4),
    ]);
    expect(batch.map((v) => [v.replay ?? false, v.conflict ?? false])).toEqual([
      [false, false],
      [true, false],
      [true, true],
    ]);
  });

  it('never calls short texts near-duplicates, only exact ones', async () => {
    const v = await engine().processMessages([
      await input('a', 'ok thanks'),
      await input('b', 'ok thanks!', 1),
      await input('c', 'ok thank you', 2),
    ]);
    expect(v.map((x) => x.verdict)).toEqual(['unique', 'duplicate', 'unique']);
  });

  it('merges two clusters when a message matches both, keeping the older id', async () => {
    const half = story.split(' ');
    const first = half.slice(0, 40).join(' ');
    const second = half.slice(40).join(' ');
    const e = engine();
    const v = await e.processMessages([
      await input('p1', first),
      await input('p2', second, 1),
      await input('both', `${first} ${second}`, 2),
    ]);
    expect(v[0]!.clusterId).toBe('p1');
    expect(v[1]!.clusterId).toBe('p2');
    expect(v[2]!.clusterId).toBe('p1');
    expect(v[2]!.events.map((x) => x.type)).toEqual(['merged', 'grown']);
    expect(await e.store.resolveCluster('p2')).toBe('p1');
  });
});
