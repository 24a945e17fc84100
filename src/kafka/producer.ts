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
 * - exactly-once: a transactional producer; outputs and offsets in one transaction
 *   (`sendOffsets`), so readers with isolation read_committed see each batch once.
 */
export class OutputProducer {
  private readonly producer: Producer;
  /** kafkajs runs one transaction at a time per producer: batches of concurrent partitions queue. */
  private queue: Promise<unknown> = Promise.resolve();

  constructor(
    kafka: Kafka,
    private readonly options: {
      exactlyOnce: boolean;
      transactionalId: string;
      groupId: string;
      /**
       * Called inside each transaction after its outputs are sent and before the offsets and the
       * commit: the crash tests hold a transaction open here to kill the process inside it.
       */
      beforeCommit?: () => Promise<void>;
    },
  ) {
    this.producer = kafka.producer(
      options.exactlyOnce
        ? {
            idempotent: true,
            maxInFlightRequests: 1,
            transactionalId: options.transactionalId,
            createPartitioner: Partitioners.DefaultPartitioner,
          }
        : { idempotent: true, maxInFlightRequests: 1, createPartitioner: Partitioners.DefaultPartitioner },
    );
  }

  /**
   * Connects; in exactly-once mode also takes over the transactional id at once. kafkajs asks for
   * the transactional producer id only at the first transaction, so without this a new process
   * would join the group and read the committed offsets while an earlier process with the same
   * id (a zombie: paused, cut off, not yet dead) could still commit a transaction over the same
   * batch: the batch would be committed twice. Taking the id fences that process and aborts its
   * open transaction before this one reads anything. (No request is sent for the empty
   * transaction: kafkajs ends it on the client.)
   */
  async connect(): Promise<void> {
    await this.producer.connect();
    if (this.options.exactlyOnce) await (await this.producer.transaction()).abort();
  }

  disconnect(): Promise<void> {
    return this.producer.disconnect();
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
    if (!this.options.exactlyOnce) {
      if (topicMessages.length > 0) {
        await this.producer.sendBatch({ topicMessages, acks: -1, compression: CompressionTypes.None });
      }
      await commit(offsets);
      return;
    }
    const run = this.queue.then(async () => {
      const transaction = await this.producer.transaction();
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
    });
    this.queue = run.catch(() => undefined);
    await run;
  }
}
