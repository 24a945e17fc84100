import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApiServer } from '../../src/api/server.js';
import { resolveDedupConfig } from '../../src/config/profiles.js';
import { DedupEngine } from '../../src/engine/engine.js';
import type { DedupStore } from '../../src/engine/types.js';
import { initHashing } from '../../src/hash/xxhash.js';
import { LexiconSet } from '../../src/lexicon/lexicon.js';
import { SignPool } from '../../src/pipeline/sign-pool.js';
import { Signer } from '../../src/signatures/signer.js';
import { openStore } from '../../src/store/open.js';
import { OpsServer } from '../../src/telemetry/ops-server.js';

const STORY =
  'The city council voted on Tuesday to expand the northern tram line by six stations, ' +
  'a project expected to cost four hundred million euros and to open in three years, officials said.';
const NEAR = STORY.replace('Tuesday', 'Wednesday');
const OTHER =
  'Heavy snowfall closed mountain passes across the region overnight, and rescue teams helped ' +
  'dozens of drivers stranded on the highway near the border crossing before dawn on Friday.';
const THIRD =
  'The national museum reopened its restored east wing after four years of work, showing ' +
  'medieval manuscripts, maps of the old harbour and a collection of ceramics donated by a collector.';

interface Running {
  url: string;
  server: Server;
  store: DedupStore;
  pool: SignPool | null;
}

async function startApi(threads: number): Promise<Running> {
  await initHashing();
  const config = resolveDedupConfig('news', { api: { maxBatchItems: 5 } });
  const store = await openStore('memory', { config });
  const pool = threads > 0 ? await SignPool.start({ threads, config }) : null;
  const server = createApiServer({
    config,
    engine: new DedupEngine(config, store),
    signer: new Signer(config.signatures, LexiconSet.defaults({})),
    pool,
    ops: new OpsServer(),
    metrics: null,
    logger: null,
    now: () => Date.parse('2026-01-05T10:00:00Z'),
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, server, store, pool };
}

async function stopApi(api: Running): Promise<void> {
  api.server.closeAllConnections();
  await new Promise<void>((resolve) => api.server.close(() => resolve()));
  await api.store.close();
  await api.pool?.close();
}

async function post(url: string, body: string | Buffer, headers: Record<string, string>) {
  const res = await fetch(url, { method: 'POST', headers, body });
  return { status: res.status, body: (await res.json()) as Record<string, unknown> };
}

type Result = Record<string, unknown>;

for (const threads of [0, 2]) {
  describe(`batch POST /v1/messages and /v1/check (${threads ? `${threads} sign threads` : 'no sign pool'})`, () => {
    let api: Running;
    beforeAll(async () => {
      api = await startApi(threads);
    });
    afterAll(async () => {
      await stopApi(api);
    });

    it('a JSON array: one result per item in order, a bad item its own problem, the others judged', async () => {
      const prefix = `t${threads}-array`;
      const items = [
        { id: `${prefix}-1`, text: STORY },
        { id: `${prefix}-2` },
        { id: `${prefix}-3`, text: NEAR },
        'not a message',
        { id: `${prefix}-5`, text: OTHER },
      ];
      const checked = await post(`${api.url}/v1/check`, JSON.stringify(items), {
        'content-type': 'application/json',
      });
      expect(checked.status).toBe(200);
      const checkedResults = checked.body.results as Result[];
      // check indexes nothing: the near copy does not see the first item.
      expect(checkedResults.map((r) => r.verdict ?? r.code)).toEqual([
        'unique',
        'MISSING_CONTENT',
        'unique',
        'INVALID_MESSAGE',
        'unique',
      ]);

      const res = await post(`${api.url}/v1/messages`, JSON.stringify(items), {
        'content-type': 'application/json',
      });
      expect(res.status).toBe(200);
      const results = res.body.results as Result[];
      expect(results).toHaveLength(5);
      expect(results[0]).toMatchObject({ id: `${prefix}-1`, verdict: 'unique', indexed: true });
      expect(results[1]).toMatchObject({
        id: `${prefix}-2`,
        code: 'MISSING_CONTENT',
        status: 422,
        type: 'urn:doppel:problem:missing-content',
      });
      expect(results[2]).toMatchObject({
        id: `${prefix}-3`,
        verdict: 'near_duplicate',
        duplicateOf: `${prefix}-1`,
        indexed: true,
      });
      expect(results[3]).toMatchObject({ code: 'INVALID_MESSAGE', status: 422 });
      expect(results[3]).not.toHaveProperty('id');
      expect(results[4]).toMatchObject({ id: `${prefix}-5`, verdict: 'unique' });
      // Indexed for real: the single GET reads the batch's verdict.
      const stored = await fetch(`${api.url}/v1/messages/${prefix}-3`);
      expect(((await stored.json()) as Result).duplicateOf).toBe(`${prefix}-1`);
    });

    it('NDJSON: an unparseable line is that item INVALID_JSON, blank lines are not items; gzip works', async () => {
      const prefix = `t${threads}-ndjson`;
      const body = [
        JSON.stringify({ id: `${prefix}-1`, text: THIRD }),
        '{"id": "broken", "text": ',
        '',
        JSON.stringify({ id: `${prefix}-1`, text: THIRD }),
        `${JSON.stringify({ id: `${prefix}-4`, text: THIRD })}\r`,
        '',
      ].join('\n');
      const res = await post(`${api.url}/v1/messages`, gzipSync(body), {
        'content-type': 'application/x-ndjson',
        'content-encoding': 'gzip',
      });
      expect(res.status).toBe(200);
      const results = res.body.results as Result[];
      expect(results.map((r) => r.verdict ?? r.code)).toEqual([
        'unique',
        'INVALID_JSON',
        'unique',
        'duplicate',
      ]);
      expect(results[1]?.detail).toMatch(/line 2/);
      // The repeated id in one batch answers as its first occurrence, and says so.
      expect(results[2]).toMatchObject({ id: `${prefix}-1`, replay: true, indexed: false });
      expect(results[3]).toMatchObject({ id: `${prefix}-4`, duplicateOf: `${prefix}-1` });
    });

    it('a single object keeps its plain answer; an empty batch answers no results', async () => {
      const prefix = `t${threads}-single`;
      const res = await post(`${api.url}/v1/check`, JSON.stringify({ id: `${prefix}-1`, text: STORY }), {
        'content-type': 'application/json',
      });
      expect(res.status).toBe(200);
      expect(res.body).toMatchObject({ id: `${prefix}-1`, indexed: false });
      expect(res.body).not.toHaveProperty('results');
      const empty = await post(`${api.url}/v1/messages`, '[]', { 'content-type': 'application/json' });
      expect(empty).toEqual({ status: 200, body: { results: [] } });
    });

    it('an id reused with other content: 409 ID_CONFLICT with the first verdict; in a batch, the flag', async () => {
      const id = `t${threads}-conflict`;
      const json = { 'content-type': 'application/json' };
      const first = await post(`${api.url}/v1/messages`, JSON.stringify({ id, text: STORY }), json);
      expect(first.status).toBe(200);
      // The same content again: a plain replay, 200.
      const again = await post(`${api.url}/v1/messages`, JSON.stringify({ id, text: STORY }), json);
      expect(again.status).toBe(200);
      expect(again.body).toMatchObject({ id, replay: true, indexed: false });
      expect(again.body).not.toHaveProperty('conflict');
      for (const route of ['/v1/messages', '/v1/check']) {
        const res = await fetch(`${api.url}${route}`, {
          method: 'POST',
          headers: json,
          body: JSON.stringify({ id, text: OTHER }),
        });
        expect(res.status, route).toBe(409);
        expect(res.headers.get('content-type')).toMatch(/^application\/problem\+json/);
        expect(res.headers.get('retry-after')).toBeNull();
        expect(await res.json()).toMatchObject({
          status: 409,
          code: 'ID_CONFLICT',
          type: 'urn:doppel:problem:id-conflict',
          verdict: {
            id,
            verdict: first.body.verdict,
            clusterId: first.body.clusterId,
            replay: true,
            conflict: true,
          },
        });
      }
      const batch = await post(
        `${api.url}/v1/messages`,
        JSON.stringify([
          { id, text: OTHER },
          { id, text: STORY },
        ]),
        json,
      );
      expect(batch.status).toBe(200);
      const results = batch.body.results as Result[];
      expect(results.map((r) => [r.replay, r.conflict])).toEqual([
        [true, true],
        [true, undefined],
      ]);
    });

    it('more than api.maxBatchItems items: 413 TOO_LARGE, nothing indexed', async () => {
      const prefix = `t${threads}-over`;
      const items = Array.from({ length: 6 }, (_, i) => ({ id: `${prefix}-${i}`, text: `${OTHER} ${i}` }));
      const res = await post(`${api.url}/v1/messages`, JSON.stringify(items), {
        'content-type': 'application/json',
      });
      expect(res.status).toBe(413);
      expect(res.body.code).toBe('TOO_LARGE');
      expect(res.body.detail).toMatch(/maxBatchItems \(5\)/);
      expect((await fetch(`${api.url}/v1/messages/${prefix}-0`)).status).toBe(404);
    });
  });
}
