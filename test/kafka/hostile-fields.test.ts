import { describe, expect, it } from 'vitest';
import { resolveDedupConfig } from '../../src/config/profiles.js';
import { DedupEngine } from '../../src/engine/engine.js';
import { initHashing } from '../../src/hash/xxhash.js';
import type { InputRecord } from '../../src/kafka/input.js';
import { BatchProcessor } from '../../src/kafka/processor.js';
import { LexiconSet } from '../../src/lexicon/lexicon.js';
import { MessageFlow } from '../../src/pipeline/flow.js';
import { Signer } from '../../src/signatures/signer.js';
import { MemoryStore } from '../../src/store/memory/store.js';

/** Hostile field values in Kafka records: each gets one output, none fails the batch. */
async function processor(): Promise<BatchProcessor> {
  await initHashing();
  const config = resolveDedupConfig('news');
  const engine = new DedupEngine(config, new MemoryStore(config.window, config.index));
  return new BatchProcessor(new MessageFlow(engine, new Signer(config.signatures, LexiconSet.defaults())), {
    mode: 'tag',
    formatOf: () => 'json',
    outputsOf: (t) => ({ tagged: `${t}.t`, duplicates: `${t}.d`, stories: `${t}.s`, dlq: `${t}.q` }),
    maxMessageBytes: 1 << 20,
  });
}

const records = (values: string[]): InputRecord[] =>
  values.map((value, offset) => ({
    topic: 'in',
    partition: 0,
    offset: String(offset),
    key: null,
    value: Buffer.from(value),
    timestamp: String(Date.UTC(2026, 10, 20)),
  }));

describe('hostile field values in Kafka records', () => {
  it('lang "constructor" is und, not fatal: the batch is tagged, nothing blocks the partition', async () => {
    const result = await (await processor()).process(
      records([
        '{"id":"a","text":"one two three four five"}',
        '{"id":"p","lang":"constructor","text":"hello world and more words"}',
        '{"id":"q","lang":"__proto__","text":"yet another line of words"}',
        '{"id":12345678901234567890,"text":"an id past two to the fifty-third"}',
        '{"id":"\\ud800","text":"a lone surrogate id"}',
      ]),
    );
    const byTopic = new Map(result.outputs.map((t) => [t.topic, t.messages]));
    expect(
      (byTopic.get('in.t') ?? []).map((m) => [m.headers['doppel-id'], m.headers['doppel-verdict']]),
    ).toEqual([
      ['a', 'unique'],
      ['p', 'unique'],
      ['q', 'unique'],
    ]);
    expect(
      (byTopic.get('in.q') ?? []).map((m) => [m.headers['doppel-id'], m.headers['doppel-error-code']]),
    ).toEqual([
      ['12345678901234567890', 'INVALID_MESSAGE'],
      ['in-0-4', 'INVALID_MESSAGE'], // no key, no usable id: named by its position,
    ]);
  });
});
