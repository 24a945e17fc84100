import type { TestProject } from 'vitest/node';
import { javaAvailable, type LocalKafka, startLocalKafka } from '../../src/dev/kafka-broker.js';

/**
 * One real single-node KRaft Kafka broker (Maven Central jars, src/dev/kafka-broker.ts) on a free
 * loopback port for the whole run; every Kafka test uses its own topics and consumer groups.
 * DOPPEL_TEST_KAFKA_BROKERS=host:port uses an existing broker instead.
 */
let kafka: LocalKafka | undefined;

export async function setup(project: TestProject): Promise<void> {
  const existing = process.env.DOPPEL_TEST_KAFKA_BROKERS;
  if (existing) {
    project.provide('kafkaBrokers', existing);
    return;
  }
  if (!javaAvailable()) {
    project.provide('kafkaBrokers', '');
    process.stdout.write(
      '[kafka] java is not installed: Kafka suites will fail (scripts/ensure-servers.sh)\n',
    );
    return;
  }
  kafka = await startLocalKafka();
  project.provide('kafkaBrokers', kafka.broker);
}

export async function teardown(): Promise<void> {
  await kafka?.stop();
}

declare module 'vitest' {
  export interface ProvidedContext {
    kafkaBrokers: string;
  }
}
