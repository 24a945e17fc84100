import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { createApiServer } from '../../src/api/server.js';
import { resolveDedupConfig } from '../../src/config/profiles.js';
import { DedupEngine } from '../../src/engine/engine.js';
import type { DedupStore } from '../../src/engine/types.js';
import { initHashing } from '../../src/hash/xxhash.js';
import { LexiconSet } from '../../src/lexicon/lexicon.js';
import { Signer } from '../../src/signatures/signer.js';
import { openStore } from '../../src/store/open.js';
import { OpsServer } from '../../src/telemetry/ops-server.js';
import { redisUrl, uniqueNamespace } from '../support/redis.js';

/**
 * Defect 11 (hostile input, round 3): concurrent POSTs of one id on two servers sharing a Redis
 * namespace. Exactly one answer says it indexed the message (`indexed: true`); every other one is
 * a replay (`replay: true`, `indexed: false`) of the same verdict.
 */
const running: Array<{ server: Server; store: DedupStore }> = [];

afterEach(async () => {
  for (const { server, store } of running.splice(0)) {
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
    await store.close();
  }
});

async function startApi(namespace: string): Promise<string> {
  await initHashing();
  const config = resolveDedupConfig('news', {});
  const store = await openStore(redisUrl(), { config, namespace });
  const server = createApiServer({
    config,
    engine: new DedupEngine(config, store),
    signer: new Signer(config.signatures, LexiconSet.defaults({})),
    ops: new OpsServer(),
    metrics: null,
    logger: null,
    now: () => Date.parse('2026-01-05T10:00:00Z'),
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  running.push({ server, store });
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

const TEXT =
  'The city council approved the new tram line on Tuesday after a long debate about its cost, its route through the old town and the years of building work it will bring.';

describe('defect 11: concurrent POSTs of one id on two servers sharing Redis', () => {
  it('exactly one answer says it indexed the message; the others are replays of the same verdict', async () => {
    const namespace = uniqueNamespace('posts');
    const urls = [await startApi(namespace), await startApi(namespace)];
    for (let round = 0; round < 3; round++) {
      const id = `race-${round}`;
      const answers = await Promise.all(
        Array.from({ length: 20 }, async (_, i) => {
          const res = await fetch(`${urls[i % 2]}/v1/messages`, {
            method: 'POST',
            headers: { 'content-type': 'application/json' },
            body: JSON.stringify({ id, text: TEXT }),
          });
          expect(res.status).toBe(200);
          return (await res.json()) as {
            verdict: string;
            clusterId: string;
            indexed: boolean;
            replay?: boolean;
          };
        }),
      );
      expect(answers.filter((a) => a.indexed)).toHaveLength(1);
      expect(answers.filter((a) => !a.indexed).every((a) => a.replay === true)).toBe(true);
      expect(new Set(answers.map((a) => `${a.verdict} ${a.clusterId}`)).size).toBe(1);
    }
  });
});
