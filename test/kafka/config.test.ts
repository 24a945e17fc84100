import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { envOverrides, loadConsumerConfig, outputTopics, parseInputsEnv } from '../../src/kafka/config.js';

const BASE = { DOPPEL_KAFKA_BROKERS: 'k1:9092, k2:9092', DOPPEL_REDIS_URL: 'redis://127.0.0.1:6379' };

describe('consumer config', () => {
  it('has documented defaults per profile', () => {
    const news = loadConsumerConfig(
      BASE,
      { profile: 'news', inputs: [{ topic: 'news', format: 'json' }] },
      {},
    );
    expect(news.kafka.brokers).toEqual(['k1:9092', 'k2:9092']);
    expect(news.kafka.clientId).toBe('doppel');
    expect(news.kafka.tls.enabled).toBe(false);
    expect(news.consumer.groupId).toBe('doppel-news');
    expect(news.consumer.concurrency).toBe(1);
    expect(news.consumer.signThreads).toBe(1);
    expect(news.consumer.exactlyOnce).toBe(false);
    expect(news.consumer.createTopics).toBe(true);
    expect(news.consumer.maxMessageBytes).toBe(1_000_000);
    expect(news.consumer.sessionTimeoutMs).toBe(30_000);
    // The prefix of the per-partition transactional ids: the same in every process of the group.
    expect(news.consumer.transactionalId).toBe('doppel-news');
    expect(news.dedup.mode).toBe('tag');
    expect(outputTopics(news.consumer, 'news')).toEqual({
      tagged: 'news.tagged',
      duplicates: 'news.duplicates',
      stories: 'news.stories',
      dlq: 'news.dlq',
    });
    const mail = loadConsumerConfig(
      BASE,
      { profile: 'mail', inputs: [{ topic: 'mail', format: 'mail' }] },
      {},
    );
    expect(mail.consumer.groupId).toBe('doppel-mail');
    expect(mail.dedup.window.windowMs).toBe(86_400_000);
  });

  it('takes the environment over the file, and the file over the defaults', () => {
    const file = {
      kafka: { clientId: 'from-file', brokers: ['file:9092'] },
      consumer: { concurrency: 3, groupId: 'g-file', topics: { dlq: 'dead.{input}' } },
      mode: 'drop',
      batchSize: 100,
    };
    const config = loadConsumerConfig(
      {
        ...BASE,
        DOPPEL_CONCURRENCY: '5',
        DOPPEL_INPUT_TOPICS: 'a:text,b',
        DOPPEL_EXACTLY_ONCE: 'true',
        DOPPEL_SIGN_THREADS: '0',
      },
      { profile: 'news' },
      file,
    );
    expect(config.kafka.brokers).toEqual(['k1:9092', 'k2:9092']);
    expect(config.kafka.clientId).toBe('from-file');
    expect(config.consumer.concurrency).toBe(5);
    expect(config.consumer.groupId).toBe('g-file');
    expect(config.consumer.exactlyOnce).toBe(true);
    expect(config.consumer.signThreads).toBe(0);
    expect(config.consumer.inputs).toEqual([
      { topic: 'a', format: 'text' },
      { topic: 'b', format: 'json' },
    ]);
    expect(outputTopics(config.consumer, 'a').dlq).toBe('dead.a');
    expect(config.dedup.mode).toBe('drop');
    expect(config.dedup.batchSize).toBe(100);
  });

  it('reads SASL and TLS settings from the environment', () => {
    const env = envOverrides({
      DOPPEL_KAFKA_TLS: 'yes',
      DOPPEL_KAFKA_SASL_MECHANISM: 'SCRAM-SHA-512',
      DOPPEL_KAFKA_SASL_USERNAME: 'u',
      DOPPEL_KAFKA_SASL_PASSWORD: 'p',
    });
    expect(env.kafka).toEqual({
      tls: { enabled: true },
      sasl: { mechanism: 'scram-sha-512', username: 'u', password: 'p' },
    });
  });

  it('takes a Redis Cluster URL for the shared index (one namespace over the masters)', () => {
    const url = 'redis+cluster://10.0.0.1:7000,10.0.0.2:7000';
    const config = loadConsumerConfig(
      { ...BASE, DOPPEL_REDIS_URL: url },
      { profile: 'news', inputs: [{ topic: 'news', format: 'json' }] },
      {},
    );
    expect(config.consumer.redisUrl).toBe(url);
    expect(config.dedup.redis.slotShards).toBe(3);
  });

  it('rejects invalid settings at start-up with INVALID_CONFIG', () => {
    const bad = [
      [{ DOPPEL_REDIS_URL: 'redis://x' }, {}],
      [BASE, { consumer: { inputs: [{ topic: 'bad topic!', format: 'json' }] } }],
      [BASE, { consumer: { inputs: [{ topic: 'x', format: 'xml' }] } }],
      [{ ...BASE, DOPPEL_REDIS_URL: 'http://x' }, {}],
      [{ ...BASE, DOPPEL_REDIS_URL: 'redis+sentinel://x:1' }, {}],
      [{ ...BASE, DOPPEL_CONCURRENCY: 'many' }, {}],
      [{ ...BASE, DOPPEL_EXACTLY_ONCE: 'maybe' }, {}],
      [BASE, { consumer: { unknownKey: 1 } }],
      [BASE, { consumer: { retryInitialMs: 500, retryMaxMs: 100 } }],
      [BASE, { mode: 'delete' }],
    ] as const;
    for (const [env, file] of bad) {
      expect(
        () => loadConsumerConfig(env, { profile: 'news', inputs: [{ topic: 'news', format: 'json' }] }, file),
        JSON.stringify([env, file]),
      ).toThrow(expect.objectContaining({ code: 'INVALID_CONFIG' }));
    }
  });

  it('reads the Helm chart variables: DOPPEL_INPUT_TOPIC, DOPPEL_KAFKA_TLS_DIR, DOPPEL_LOG_LEVEL', () => {
    const dir = mkdtempSync(join(tmpdir(), 'doppel-tls-'));
    writeFileSync(join(dir, 'ca.crt'), 'CA');
    const env = {
      ...BASE,
      DOPPEL_INPUT_TOPIC: 'mail.in',
      DOPPEL_KAFKA_TLS_DIR: dir,
      DOPPEL_LOG_LEVEL: 'warn',
    };
    const mail = loadConsumerConfig(
      env,
      { profile: 'mail', inputs: [{ topic: 'mail', format: 'mail' }] },
      {},
    );
    expect(mail.consumer.inputs).toEqual([{ topic: 'mail.in', format: 'mail' }]);
    expect(mail.kafka.tls).toMatchObject({ enabled: true, caFile: join(dir, 'ca.crt') });
    expect(mail.kafka.tls.certFile).toBeUndefined();
    expect(mail.consumer.logLevel).toBe('warn');
    const news = loadConsumerConfig({ ...BASE, DOPPEL_INPUT_TOPIC: 'feed' }, { profile: 'news' }, {});
    expect(news.consumer.inputs).toEqual([{ topic: 'feed', format: 'json' }]);
    const text = loadConsumerConfig({ ...BASE, DOPPEL_INPUT_TOPIC: 'feed:text' }, { profile: 'news' }, {});
    expect(text.consumer.inputs).toEqual([{ topic: 'feed', format: 'text' }]);
    // Without DOPPEL_LOG_LEVEL the file's logging.level applies.
    const quiet = loadConsumerConfig(
      BASE,
      { profile: 'news', inputs: [{ topic: 'n', format: 'json' }] },
      { logging: { level: 'error' } },
    );
    expect(quiet.consumer.logLevel).toBe('error');
    rmSync(dir, { recursive: true, force: true });
  });

  it('parses DOPPEL_INPUT_TOPICS', () => {
    expect(parseInputsEnv('news.raw:json, mail.in:mail ,plain:text,x')).toEqual([
      { topic: 'news.raw', format: 'json' },
      { topic: 'mail.in', format: 'mail' },
      { topic: 'plain', format: 'text' },
      { topic: 'x', format: 'json' },
    ]);
  });
});
