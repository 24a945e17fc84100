import type { Admin, ITopicConfig } from 'kafkajs';
import type { Logger } from 'pino';
import { type ConsumerSettings, type OutputTopics, outputTopics } from './config.js';

/**
 * Creates the missing input and output topics with the admin client and waits for their leaders
 * (kafkajs cannot subscribe to a missing topic on KRaft). Output topics get as many partitions as
 * their input unless `outputPartitions` says otherwise. Returns the output topics per input.
 */
export async function ensureTopics(
  admin: Admin,
  settings: Pick<
    ConsumerSettings,
    'inputs' | 'topics' | 'createTopics' | 'outputPartitions' | 'inputPartitions' | 'replicationFactor'
  >,
  logger: Logger,
): Promise<Map<string, OutputTopics>> {
  const outputs = new Map<string, OutputTopics>();
  for (const input of settings.inputs) outputs.set(input.topic, outputTopics(settings, input.topic));
  if (!settings.createTopics) return outputs;

  const existing = new Set(await admin.listTopics());
  const create = async (topics: ITopicConfig[]) => {
    if (topics.length === 0) return;
    logger.info({ topics: topics.map((t) => t.topic) }, 'creating topics');
    try {
      await admin.createTopics({ topics, waitForLeaders: true });
    } catch (error) {
      // Another replica may have created them at the same moment.
      const now = new Set(await admin.listTopics());
      if (topics.some((t) => !now.has(t.topic))) throw error;
    }
    for (const t of topics) existing.add(t.topic);
  };

  await create(
    settings.inputs
      .filter((i) => !existing.has(i.topic))
      .map((i) => ({
        topic: i.topic,
        numPartitions: settings.inputPartitions,
        replicationFactor: settings.replicationFactor,
      })),
  );
  const metadata = await admin.fetchTopicMetadata({ topics: settings.inputs.map((i) => i.topic) });
  const partitionsOf = new Map(metadata.topics.map((t) => [t.name, t.partitions.length]));
  const wanted = new Map<string, number>();
  for (const input of settings.inputs) {
    const partitions = settings.outputPartitions || (partitionsOf.get(input.topic) ?? 1);
    for (const topic of Object.values(outputs.get(input.topic) as OutputTopics)) {
      if (!existing.has(topic)) wanted.set(topic, Math.max(wanted.get(topic) ?? 0, partitions));
    }
  }
  await create(
    [...wanted].map(([topic, numPartitions]) => ({
      topic,
      numPartitions,
      replicationFactor: settings.replicationFactor,
    })),
  );
  return outputs;
}
