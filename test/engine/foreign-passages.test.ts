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
import { EN_PROMO, FA_FOOTBALL, FA_VOLLEYBALL, FA_WRESTLING } from '../support/mixed-script.js';

const config = resolveDedupConfig('news');
let signer: Signer;
beforeAll(async () => {
  await initHashing();
  signer = new Signer(config.signatures, LexiconSet.defaults());
});

const T0 = Date.UTC(2026, 10, 26, 8);

async function input(id: string, text: string, minutes: number): Promise<EngineMessage> {
  const signed = await signMessage(parseMessageObject({ id, text, lang: 'fa' }), signer);
  return engineMessage(signed, T0 + minutes * 60_000);
}

describe('an English paragraph under every Persian article of one site', () => {
  it('joins no two different articles, and a copy elsewhere without it still joins its article', async () => {
    const engine = new DedupEngine(config, new MemoryStore(config.window, config.index));
    const verdicts = await engine.processMessages([
      await input('fp1-football', `${FA_FOOTBALL}\n\n${EN_PROMO}`, 0),
      await input('fp1-volleyball', `${FA_VOLLEYBALL}\n\n${EN_PROMO}`, 5),
      await input('fp1-wrestling', `${FA_WRESTLING}\n\n${EN_PROMO}`, 10),
      await input('fp1-football-elsewhere', FA_FOOTBALL, 15),
    ]);
    // Before passages were weighed by their share, the volleyball squad joined the football
    // report's story (cosine 0.74) and the wrestling transfer was its near-duplicate (0.82).
    expect(verdicts.slice(0, 3).map((v) => [v.verdict, v.clusterId])).toEqual([
      ['unique', 'fp1-football'],
      ['unique', 'fp1-volleyball'],
      ['unique', 'fp1-wrestling'],
    ]);
    expect(verdicts[3]).toMatchObject({
      verdict: 'near_duplicate',
      duplicateOf: 'fp1-football',
      clusterId: 'fp1-football',
    });
  });
});
