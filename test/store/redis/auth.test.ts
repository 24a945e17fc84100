import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { resolveDedupConfig } from '../../../src/config/profiles.js';
import { type LocalRedis, startLocalRedis } from '../../../src/dev/redis-server.js';
import type { DoppelError } from '../../../src/errors.js';
import { openStore } from '../../../src/store/open.js';
import { storeError } from '../../../src/store/redis/errors.js';
import { runCli } from '../../support/cli.js';

// A wrong Redis password was "STORE_UNAVAILABLE: Connection is closed." (retried for
// ever), and a malformed URL printed the password in a stack trace.

const PASSWORD = 'S3cretPassXYZ';
let redis: LocalRedis;

beforeAll(async () => {
  redis = await startLocalRedis();
  const admin = new Redis(redis.url);
  await admin.config('SET', 'requirepass', PASSWORD);
  admin.disconnect();
});
afterAll(() => redis?.stop());

async function openError(url: string): Promise<DoppelError> {
  const config = resolveDedupConfig('news', { redis: { commandTimeoutMs: 2_000, maxRetries: 0 } });
  try {
    const store = await openStore(url, { config, namespace: 'auth' });
    await store.close();
  } catch (error) {
    return error as DoppelError;
  }
  throw new Error(`opened ${url}`);
}

describe('Redis authentication', () => {
  it('a wrong or missing password is STORE_AUTH, not retryable, and the message says so', async () => {
    for (const url of [
      `redis://:wrong-${PASSWORD}@127.0.0.1:${redis.port}`,
      `redis://127.0.0.1:${redis.port}`,
      `redis://nobody:x@127.0.0.1:${redis.port}`,
    ]) {
      const error = await openError(url);
      expect([error.code, error.retryable], url).toEqual(['STORE_AUTH', false]);
      expect(error.message).toMatch(/refused the credentials.*(WRONGPASS|NOAUTH)/);
      expect(error.message).not.toContain(PASSWORD);
    }
    const config = resolveDedupConfig('news', {});
    const store = await openStore(`redis://:${PASSWORD}@127.0.0.1:${redis.port}`, {
      config,
      namespace: 'auth',
    });
    expect(await store.resolveCluster('x')).toBe('x');
    await store.close();
  });

  it('a command failing after AUTH was refused is classified by the connection error', () => {
    const closed = new Error('Connection is closed.');
    expect(storeError(closed, 'index').code).toBe('STORE_UNAVAILABLE');
    const error = storeError(closed, 'index', new Error('WRONGPASS invalid username-password pair'));
    expect([error.code, error.retryable]).toEqual(['STORE_AUTH', false]);
    expect(
      storeError(new Error("NOPERM this user has no permissions to run the 'evalsha' command"), 'index').code,
    ).toBe('STORE_AUTH');
  });

  it('a malformed URL never shows its password (also not with "@" in it)', async () => {
    for (const url of [
      `redis://:${PASSWORD}@127.0.0.1:notaport`,
      `redis://:${PASSWORD.slice(0, 5)}@${PASSWORD.slice(5)}@127.0.0.1:notaport`,
    ]) {
      const error = await openError(url);
      expect(error.code).toBe('USAGE');
      expect(error.message).toContain('redis://***@127.0.0.1:notaport');
      expect(error.message).not.toMatch(/S3cre|PassXYZ/);
    }
    expect((await openError(`redi://:${PASSWORD}@host`)).message).not.toContain(PASSWORD);
  });

  it('the CLI exits 1 with STORE_AUTH (2 for a malformed URL) and prints no password', async () => {
    const wrong = await runCli(
      ['dedup', '--quiet', '--store', `redis://:wrong${PASSWORD}@127.0.0.1:${redis.port}`],
      '{"id":"a","text":"hello world"}\n',
    );
    expect(wrong.code).toBe(1);
    expect(wrong.stderr).toMatch(/^doppel dedup: STORE_AUTH: Redis refused the credentials/);
    expect(wrong.stderr + wrong.stdout).not.toContain(PASSWORD);
    const malformed = await runCli(
      ['dedup', '--quiet', '--store', `redis://:${PASSWORD}@127.0.0.1:notaport`],
      '{"id":"a","text":"hello world"}\n',
    );
    expect(malformed.code).toBe(2);
    expect(malformed.stderr).toContain('USAGE');
    expect(malformed.stderr + malformed.stdout).not.toContain(PASSWORD);
  });
});
