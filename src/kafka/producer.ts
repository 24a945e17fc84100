import kafkajs, { type Kafka, type Producer } from 'kafkajs';

const { CompressionTypes, Partitioners } = kafkajs;

import type { TopicMessages } from './processor.js';

/** The next offset to consume of one partition, committed with the batch's outputs. */
export interface PartitionOffset {
  topic: string;
  partition: number;
  /** Offset of the next message to read (last processed + 1). */
  offset: string;
}

/**
 * Sends a batch's outputs and then commits its offsets, so an offset is never committed before
 * every output of its batch is acknowledged (acks=all).
 * - at-least-once (default): idempotent producer, `sendBatch`, then the consumer commits. A crash
 *   between the two replays the batch: the outputs may appear twice, with the same verdicts.
 * - exactly-once: outputs and offsets in one transaction (`sendOffsets`), so readers with
 *   isolation read_committed see each batch once. One transactional producer per input
 *   partition, with the id `<transactionalId>-<topic>-<partition>`, the same in every process of
 *   the group: the process that takes a partition over claims it (`claim`) and so fences the one
 *   that had it, aborting its open transaction. kafkajs cannot fence by group generation
 *   (KIP-447), so with one id per process a previous owner that is slow rather than dead could
 *   still commit a batch the new owner consumes again.
 */
export class OutputProducer {
  /** At-least-once. */
  private readonly producer: Producer | null;
  /** Exactly-once: the claimed partitions' producers, by `topic/partition`. */
  private readonly transactional = new Map<string, Producer>();

  constructor(
    private readonly kafka: Kafka,
    private readonly options: {
      exactlyOnce: boolean;
      /** Prefix of the per-partition transactional ids (exactly-once). */
      transactionalId: string;
      groupId: string;
      /**
       * Called inside each transaction after its outputs are sent and before the offsets and the
       * commit: the crash tests hold a transaction open here to kill the process inside it.
       */
      beforeCommit?: () => Promise<void>;
    },
  ) {
    this.producer = options.exactlyOnce
      ? null
      : kafka.producer({
          idempotent: true,
          maxInFlightRequests: 1,
          createPartitioner: Partitioners.DefaultPartitioner,
        });
  }

  async connect(): Promise<void> {
    await this.producer?.connect();
  }

  async disconnect(): Promise<void> {
    await this.producer?.disconnect();
    const all = [...this.transactional.values()];
    this.transactional.clear();
    await Promise.all(all.map((p) => p.disconnect().catch(() => undefined)));
  }

  /**
   * Exactly-once: takes the partition's transactional id with a new producer (InitProducerId):
   * the process that had it is fenced and its open transaction aborted, before this process
   * reads the partition's committed offset. Nothing to do at-least-once.
   */
  async claim(topic: string, partition: number): Promise<void> {
    if (!this.options.exactlyOnce) return;
    await this.release(topic, partition);
    const producer = this.kafka.producer({
      idempotent: true,
      maxInFlightRequests: 1,
      transactionalId: `${this.options.transactionalId}-${topic}-${partition}`,
      createPartitioner: Partitioners.DefaultPartitioner,
    });
    await producer.connect();
    // kafkajs asks for the transactional producer id at the first transaction: an empty one
    // takes it now (ended on the client, nothing is sent).
    await (await producer.transaction()).abort();
    this.transactional.set(`${topic}/${partition}`, producer);
  }

  /** Drops a partition's producer (fenced: another process claimed the partition). */
  async release(topic: string, partition: number): Promise<void> {
    const key = `${topic}/${partition}`;
    const producer = this.transactional.get(key);
    this.transactional.delete(key);
    await producer?.disconnect().catch(() => undefined);
  }

  /**
   * `commit` commits the consumer's offsets: the eachBatch payload's `commitOffsetsIfNecessary`
   * (kafkajs' `consumer.commitOffsets` silently does nothing once a stop has begun, which would
   * lose the commit of the batch being drained).
   */
  async deliver(
    outputs: readonly TopicMessages[],
    offsets: PartitionOffset,
    commit: (offsets: PartitionOffset) => Promise<void>,
  ): Promise<void> {
    const topicMessages = outputs.map((t) => ({ topic: t.topic, messages: t.messages }));
    if (this.producer) {
      if (topicMessages.length > 0) {
        await this.producer.sendBatch({ topicMessages, acks: -1, compression: CompressionTypes.None });
      }
      await commit(offsets);
      return;
    }
    const producer = this.transactional.get(`${offsets.topic}/${offsets.partition}`);
    if (!producer) throw new Error(`partition ${offsets.topic}/${offsets.partition} is not claimed`);
    const transaction = await producer.transaction();
    try {
      if (topicMessages.length > 0) {
        await transaction.sendBatch({ topicMessages, acks: -1, compression: CompressionTypes.None });
      }
      await this.options.beforeCommit?.();
      await transaction.sendOffsets({
        consumerGroupId: this.options.groupId,
        topics: [
          { topic: offsets.topic, partitions: [{ partition: offsets.partition, offset: offsets.offset }] },
        ],
      });
      await transaction.commit();
    } catch (error) {
      await transaction.abort().catch(() => undefined);
      throw error;
    }
  }
}
