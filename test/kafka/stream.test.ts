import { describe, expect, it } from 'vitest';
import { resolveDedupConfig } from '../../src/config/profiles.js';
import { DedupEngine } from '../../src/engine/engine.js';
import { initHashing } from '../../src/hash/xxhash.js';
import { readHeaders } from '../../src/kafka/headers.js';
import type { InputRecord } from '../../src/kafka/input.js';
import { BatchProcessor, type ProcessorOptions } from '../../src/kafka/processor.js';
import { LexiconSet } from '../../src/lexicon/lexicon.js';
import { MessageFlow } from '../../src/pipeline/flow.js';
import { Signer } from '../../src/signatures/signer.js';
import { MemoryStore } from '../../src/store/memory/store.js';
import { knownStream, type StreamMessage } from '../support/kafka-stream.js';

/**
 * The known stream the Kafka end-to-end suite uses, through the batch processor on the memory
 * store: it pins what the real broker + Redis run must produce.
 */
/** A batch processor over a fresh memory-store engine of the news profile. */
async function memoryProcessor(options: ProcessorOptions): Promise<BatchProcessor> {
  await initHashing();
  const config = resolveDedupConfig('news');
  const engine = new DedupEngine(config, new MemoryStore(config.window, config.index));
  return new BatchProcessor(
    new MessageFlow(engine, new Signer(config.signatures, LexiconSet.defaults())),
    options,
  );
}

/** Records of topic "in" from stream messages, offsets counted per partition by `offsets`. */
function recordsOf(messages: readonly StreamMessage[], offsets = [0, 0, 0, 0]): InputRecord[] {
  return messages.map((m) => ({
    topic: 'in',
    partition: m.partition,
    offset: String(offsets[m.partition]!++),
    key: m.key === undefined ? null : Buffer.from(m.key),
    value: m.value === null ? null : Buffer.from(m.value),
    timestamp: String(Date.UTC(2026, 10, 20)),
  }));
}

/** Short output topic names: `<t>.t`, `.d`, `.s`, `.q`. */
const shortOutputs = (t: string) => ({
  tagged: `${t}.t`,
  duplicates: `${t}.d`,
  stories: `${t}.s`,
  dlq: `${t}.q`,
});

describe('the known Kafka test stream on the memory store', () => {
  it('gives every message its planned verdict, cluster and output topic', async () => {
    const processor = await memoryProcessor({
      mode: 'tag',
      formatOf: () => 'json',
      outputsOf: (t) => ({
        tagged: `${t}.tagged`,
        duplicates: `${t}.duplicates`,
        stories: `${t}.stories`,
        dlq: `${t}.dlq`,
      }),
      maxMessageBytes: 1 << 20,
    });
    const stream = knownStream();
    const offsets = [0, 0, 0, 0];
    const seen = new Map<string, Record<string, string>>();
    let stories = 0;
    for (const phase of [stream.phase1, stream.phase2]) {
      const result = await processor.process(recordsOf(phase, offsets));
      for (const t of result.outputs) {
        for (const m of t.messages) {
          if (t.topic === 'in.stories') stories++;
          else seen.set(m.headers['doppel-id'] as string, { topic: t.topic, ...readHeaders(m.headers) });
        }
      }
    }
    const all = [...stream.phase1, ...stream.phase2];
    expect(seen.size).toBe(all.length);
    for (const m of all) {
      const h = seen.get(m.id);
      expect(h, m.id).toBeDefined();
      expect(h?.['doppel-verdict'], m.id).toBe(m.expect.verdict);
      if (m.expect.verdict === 'invalid') {
        expect(h?.topic).toBe('in.dlq');
        expect(h?.['doppel-error-code'], m.id).toBe(m.expect.code);
      } else {
        expect(h?.topic).toBe('in.tagged');
        expect(h?.['doppel-cluster'], m.id).toBe(m.expect.cluster);
        if (m.expect.verdict !== 'unique')
          expect(h?.['doppel-duplicate-of'], m.id).toBe(m.expect.duplicateOf);
      }
    }
    // created per original, grown per message that joined a cluster
    const joined = stream.phase2.filter((m) => m.expect.verdict !== 'invalid').length;
    expect(stories).toBe(stream.phase1.length + joined);
  });
});

describe('story events of replays', () => {
  it("re-emits each replayed message's event with its cluster as it is now, marked as a replay", async () => {
    const processor = await memoryProcessor({
      mode: 'tag',
      formatOf: () => 'json',
      outputsOf: shortOutputs,
      maxMessageBytes: 1 << 20,
    });
    const stream = knownStream({ originals: 12 });
    const records = recordsOf([...stream.phase1, ...stream.phase2]);
    const events = (result: Awaited<ReturnType<BatchProcessor['process']>>) =>
      (result.outputs.find((t) => t.topic === 'in.s')?.messages ?? []).map((m) => ({
        headers: m.headers,
        event: JSON.parse(String(m.value)) as Record<string, unknown>,
      }));
    // The first life: decided and committed to the store, its outputs lost (a crash before the send).
    const first = events(await processor.process(records));
    // The second life consumes the same records again: every verdict is a replay.
    const again = events(await processor.process(records));
    expect(again.length).toBe(first.length);
    const valid = records.length - stream.phase2.filter((m) => m.expect.verdict === 'invalid').length;
    expect(again.length).toBe(valid);
    const firstOf = new Map(first.map((e) => [e.event.messageId, e.event]));
    for (const { headers, event } of again) {
      expect(event.replay).toBe(true);
      expect(headers['doppel-replay']).toBe('true');
      const was = firstOf.get(event.messageId);
      expect(was, String(event.messageId)).toBeDefined();
      expect(event.type).toBe(was?.type);
      expect(event.clusterId).toBe(was?.clusterId);
      // The cluster now: at least as big as when the first event was made.
      expect(event.size as number).toBeGreaterThanOrEqual(was?.size as number);
    }
    // First events are not replays.
    expect(first.every((e) => e.event.replay === undefined && e.headers['doppel-replay'] === undefined)).toBe(
      true,
    );
  });
});

describe('dead letters', () => {
  it('keep key and value untouched, except a value over the limit, which is dropped and flagged', async () => {
    const processor = await memoryProcessor({
      mode: 'drop',
      formatOf: () => 'json',
      outputsOf: shortOutputs,
      maxMessageBytes: 200,
    });
    const base = { topic: 'in', partition: 0, timestamp: '0' };
    const big = JSON.stringify({ id: 'big', text: 'word '.repeat(100) });
    const result = await processor.process([
      { ...base, offset: '0', key: Buffer.from('k0'), value: Buffer.from('{oops') },
      { ...base, offset: '1', key: Buffer.from('k1'), value: Buffer.from(big) },
      { ...base, offset: '2', key: null, value: Buffer.from('{"id":"ok","text":"some words to keep here"}') },
    ]);
    const dlq = result.outputs.find((t) => t.topic === 'in.q')!.messages;
    expect(dlq.map((m) => [m.headers['doppel-error-code'], String(m.value)])).toEqual([
      ['INVALID_JSON', '{oops'],
      ['TOO_LARGE', 'null'],
    ]);
    expect(dlq[1]!.headers['doppel-value-dropped']).toBe('true');
    expect(dlq[1]!.key?.toString()).toBe('k1');
    expect(result.outputs.find((t) => t.topic === 'in.t')!.messages).toHaveLength(1);
    expect(result.counts).toMatchObject({ unique: 1, invalid: 2 });
  });
});
