import type { DedupEngine, EngineMessage } from '../../src/engine/engine.js';
import { parseMessageObject } from '../../src/input/message.js';
import { engineMessage } from '../../src/pipeline/flow.js';
import { signMessage } from '../../src/pipeline/sign.js';
import type { Signer } from '../../src/signatures/signer.js';
import { editWords, rng, syntheticDoc } from './engine.js';

const HOUR = 3_600_000;

/**
 * Stories with syndicated copies (word edits, headers, exact repeats), shuffled, in stream order:
 * message i at t0 + i * hoursApart hours, with titles (a copy keeps its story's headline or gets
 * one of its own: the story rule compares them). The store suites compare engines on it.
 */
export async function syndicatedStream(
  signer: Signer,
  seed: number,
  stories: number,
  hoursApart: number,
  t0: number,
): Promise<EngineMessage[]> {
  const random = rng(seed);
  const texts: Array<{ id: string; text: string }> = [];
  for (let s = 0; s < stories; s++) {
    const base = syntheticDoc(random, 120 + Math.floor(random() * 200), 3000);
    texts.push({ id: `s${s}`, text: base.join(' ') });
    const copies = Math.floor(random() * 4);
    for (let c = 0; c < copies; c++) {
      const kind = random();
      const text =
        kind < 0.2
          ? base.join(' ')
          : kind < 0.5
            ? `AGENCY WIRE ${base.join(' ')} more news at our site`
            : editWords(random, base, 0.03 + random() * 0.25).join(' ');
      texts.push({ id: `s${s}c${c}`, text });
    }
  }
  for (let i = texts.length - 1; i > 0; i--) {
    const j = Math.floor(random() * (i + 1));
    [texts[i], texts[j]] = [texts[j]!, texts[i]!];
  }
  // Titles drawn from their own generator, so that the texts stay what they were.
  const titleRandom = rng(seed + 1);
  const out: EngineMessage[] = [];
  for (const [i, t] of texts.entries()) {
    const title = syntheticDoc(titleRandom, 6, 3000).join(' ');
    const own = titleRandom() < 0.5 || !t.id.includes('c');
    const signed = await signMessage(
      parseMessageObject({
        id: t.id,
        text: t.text,
        lang: 'en',
        title: own ? title : `wire ${t.id.split('c')[0]}`,
      }),
      signer,
    );
    out.push(engineMessage(signed, t0 + i * hoursApart * HOUR));
  }
  return out;
}

/** The verdicts of `inputs` in batches of `batch`, as compared across stores (with candidates on request). */
export async function verdictsInBatches(
  engine: DedupEngine,
  inputs: EngineMessage[],
  batch: number,
  options: { candidates?: boolean } = {},
) {
  const out = [];
  for (let i = 0; i < inputs.length; i += batch)
    out.push(...(await engine.processMessages(inputs.slice(i, i + batch))));
  return out.map((v) => ({
    id: v.id,
    verdict: v.verdict,
    clusterId: v.clusterId,
    duplicateOf: v.duplicateOf,
    story: v.story,
    ...(options.candidates ? { candidates: v.candidates } : {}),
  }));
}
