import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { pino } from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApiServer } from '../../src/api/server.js';
import { DedupEngine } from '../../src/engine/engine.js';
import type { DedupStore } from '../../src/engine/types.js';
import { initHashing } from '../../src/hash/xxhash.js';
import { DoppelConsumer } from '../../src/kafka/consumer.js';
import { LexiconSet } from '../../src/lexicon/lexicon.js';
import { Signer } from '../../src/signatures/signer.js';
import { openStore } from '../../src/store/open.js';
import { OpsServer } from '../../src/telemetry/ops-server.js';
import {
  readTopic,
  testConsumerConfig,
  testKafka,
  uniqueName,
  waitFor,
  waitForCommitted,
} from '../support/kafka.js';
import { ResponseValidator } from '../support/openapi.js';
import { redisUrl, uniqueNamespace } from '../support/redis.js';
import { eventShape, expectedMergeEvents, mergeMessages } from '../support/story-merge.js';

const logger = pino({ level: process.env.DOPPEL_TEST_LOG ?? 'silent' });

/**
 * A story merge through the Kafka consumer on Redis: `<input>.stories` carries the `merged` event
 * with `mergedFrom`, then `grown`; the same message again (a redelivery) re-emits `grown` with
 * `"replay": true` and the `doppel-replay` header; and the API on the same Redis namespace answers
 * GET /v1/clusters/{merged-away id} with the surviving story (checked against /openapi.json).
 */
describe('story merge: Kafka stories topic, replay, and the API on the same index', () => {
  const kafka = testKafka();
  const admin = kafka.admin();
  let store: DedupStore | undefined;
  let server: Server | undefined;
  beforeAll(() => admin.connect());
  afterAll(async () => {
    server?.closeAllConnections();
    await new Promise<void>((resolve) => (server ? server.close(() => resolve()) : resolve()));
    await store?.close();
    await admin.disconnect();
  });

  it('merged with mergedFrom, grown, the replay, and GET /v1/clusters/{merged-away id}', async () => {
    const input = uniqueName('merge');
    const namespace = uniqueNamespace('merge');
    const prefix = `${input}-`;
    const config = testConsumerConfig({
      consumer: {
        inputs: [{ topic: input, format: 'json' }],
        groupId: uniqueName('merge-group'),
        namespace,
      },
    });
    const consumer = new DoppelConsumer({ config, logger });
    await admin.createTopics({ topics: [{ topic: input, numPartitions: 1 }], waitForLeaders: true });
    await consumer.start();
    try {
      await waitFor(() => consumer.ready(), 30_000, 'group join');
      const producer = kafka.producer();
      await producer.connect();
      // One at a time: the replay is a redelivery in a later batch, not a repeat inside one.
      for (const m of mergeMessages(prefix)) {
        await producer.send({ topic: input, acks: -1, messages: [{ key: m.id, value: JSON.stringify(m) }] });
        await waitForCommitted(admin, config.consumer.groupId, input);
      }
      await producer.disconnect();
    } finally {
      await consumer.stop();
    }
    const stories = await readTopic(kafka, `${input}.stories`, { atLeast: 5, settleMs: 500 });
    const events = stories.map((m) => JSON.parse(String(m.value)) as Record<string, unknown>);
    expect(events.map(eventShape)).toEqual(expectedMergeEvents(prefix));
    expect(stories.map((m) => [m.headers['doppel-event'], m.headers['doppel-cluster'], m.key])).toEqual([
      ['created', `${prefix}p1`, `${prefix}p1`],
      ['created', `${prefix}p2`, `${prefix}p2`],
      ['merged', `${prefix}p1`, `${prefix}p1`],
      ['grown', `${prefix}p1`, `${prefix}p1`],
      ['grown', `${prefix}p1`, `${prefix}p1`],
    ]);
    expect(stories.map((m) => m.headers['doppel-replay'] ?? null)).toEqual([null, null, null, null, 'true']);
    const tagged = await readTopic(kafka, `${input}.tagged`, { atLeast: 4, settleMs: 300 });
    expect(tagged.map((m) => [m.headers['doppel-verdict'], m.headers['doppel-cluster']])).toEqual([
      ['unique', `${prefix}p1`],
      ['unique', `${prefix}p2`],
      ['near_duplicate', `${prefix}p1`],
      ['near_duplicate', `${prefix}p1`],
    ]);

    // The API on the consumers' Redis namespace.
    await initHashing();
    store = await openStore(redisUrl(), { config: config.dedup, namespace });
    server = createApiServer({
      config: config.dedup,
      engine: new DedupEngine(config.dedup, store),
      signer: new Signer(config.dedup.signatures, LexiconSet.defaults({})),
      ops: new OpsServer(),
      metrics: null,
      logger: null,
    });
    await new Promise<void>((resolve) => server?.listen(0, '127.0.0.1', resolve));
    const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    const api = await ResponseValidator.fetch(base);
    const cluster = await api.check(
      'GET',
      '/v1/clusters/{id}',
      await fetch(`${base}/v1/clusters/${encodeURIComponent(`${prefix}p2`)}`),
    );
    expect(cluster).toMatchObject({ id: `${prefix}p1`, size: 3, representative: `${prefix}p1` });
    expect(
      await api.check(
        'GET',
        '/v1/messages/{id}',
        await fetch(`${base}/v1/messages/${encodeURIComponent(`${prefix}p2`)}`),
      ),
    ).toMatchObject({ clusterId: `${prefix}p1`, clusterIdAtDecision: `${prefix}p2` });
  }, 90_000);
});
