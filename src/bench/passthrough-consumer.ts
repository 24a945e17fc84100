/**
 * bench:e2e's Kafka-only baseline (`BENCH_PASSTHROUGH=1`): what the news consumer does with Kafka,
 * and nothing else. Same consumer settings (eachBatch, partitions at a time, fetch size, no
 * auto-commit), same outputs per message, built by the consumer's own code (a tagged copy of the
 * value with verdictHeaders, a story event from storyMessage) through an idempotent producer with acks=all, then the offset commit.
 * No parsing, no signing, no store: the CPU it costs the broker, kafkajs and the bench producer is
 * the floor under any consumer that must do the same deliveries on this machine
 * (docs/benchmarks.md). Reads the bench's DOPPEL_CONFIG and DOPPEL_KAFKA_BROKERS.
 */
import { readFileSync } from 'node:fs';
import kafkajs from 'kafkajs';
import type { EngineVerdict } from '../engine/engine.js';
import { verdictHeaders } from '../kafka/headers.js';
import { type InputRecord, positionId } from '../kafka/input.js';
import { type OutputMessage, storyMessage } from '../kafka/processor.js';

const { Kafka, logLevel, CompressionTypes } = kafkajs;

interface BenchConfig {
  consumer: { inputs: Array<{ topic: string }>; groupId: string; concurrency: number };
}

const { consumer: settings } = JSON.parse(
  readFileSync(process.env.DOPPEL_CONFIG as string, 'utf8'),
) as BenchConfig;
const input = (settings.inputs[0] as { topic: string }).topic;
const tagged = `${input}.tagged`;
const stories = `${input}.stories`;
const kafka = new Kafka({
  clientId: 'doppel-passthrough',
  brokers: (process.env.DOPPEL_KAFKA_BROKERS as string).split(','),
  logLevel: logLevel.ERROR,
});

const admin = kafka.admin();
await admin.connect();
const partitions = (await admin.fetchTopicMetadata({ topics: [input] })).topics[0]?.partitions.length ?? 1;
// The four outputs the bench reads back (this consumer only writes tagged copies and stories).
await admin.createTopics({
  topics: [tagged, stories, `${input}.duplicates`, `${input}.dlq`].map((topic) => ({
    topic,
    numPartitions: partitions,
  })),
  waitForLeaders: true,
});
await admin.disconnect();

const producer = kafka.producer({ idempotent: true, maxInFlightRequests: 1 });
await producer.connect();
const consumer = kafka.consumer({ groupId: settings.groupId, maxBytesPerPartition: 1_048_576 });
await consumer.connect();
await consumer.subscribe({ topics: [input], fromBeginning: true });
await consumer.run({
  autoCommit: false,
  eachBatchAutoResolve: false,
  partitionsConsumedConcurrently: settings.concurrency,
  eachBatch: async ({ batch, resolveOffset, commitOffsetsIfNecessary }) => {
    if (batch.messages.length === 0) return;
    const copies: OutputMessage[] = [];
    const events: OutputMessage[] = [];
    for (const m of batch.messages) {
      // The consumer's own header and event builders, with every message "unique" in a cluster of
      // its own: the same bytes per output as the news consumer sends for most messages.
      const record: InputRecord = {
        topic: batch.topic,
        partition: batch.partition,
        offset: m.offset,
        key: m.key ?? null,
        value: m.value ?? null,
        timestamp: m.timestamp,
      };
      const id = positionId(record);
      const verdict: EngineVerdict = {
        id,
        verdict: 'unique',
        clusterId: id,
        events: [],
        candidates: 0,
        hotBuckets: 0,
      };
      copies.push({ key: record.key, value: record.value, headers: verdictHeaders(verdict, record) });
      const ts = Number(m.timestamp);
      events.push(
        storyMessage({
          type: 'created',
          clusterId: id,
          messageId: id,
          size: 1,
          firstSeen: ts,
          lastSeen: ts,
          representative: id,
        }),
      );
    }
    await producer.sendBatch({
      topicMessages: [
        { topic: tagged, messages: copies },
        { topic: stories, messages: events },
      ],
      acks: -1,
      compression: CompressionTypes.None,
    });
    const last = batch.lastOffset();
    resolveOffset(last);
    await commitOffsetsIfNecessary({
      topics: [
        {
          topic: batch.topic,
          partitions: [{ partition: batch.partition, offset: String(Number(last) + 1) }],
        },
      ],
    });
  },
});

process.once('SIGTERM', () => {
  void consumer
    .disconnect()
    .then(() => producer.disconnect())
    .finally(() => process.exit(0));
});
