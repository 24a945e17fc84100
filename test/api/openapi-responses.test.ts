import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApiServer } from '../../src/api/server.js';
import { resolveDedupConfig } from '../../src/config/profiles.js';
import { DedupEngine } from '../../src/engine/engine.js';
import { initHashing } from '../../src/hash/xxhash.js';
import { LexiconSet } from '../../src/lexicon/lexicon.js';
import { Signer } from '../../src/signatures/signer.js';
import { MemoryStore } from '../../src/store/memory/store.js';
import { OpsServer } from '../../src/telemetry/ops-server.js';
import { type OpenApiDocument, ResponseValidator } from '../support/openapi.js';
import { mergeMessages } from '../support/story-merge.js';

/**
 * Real responses of the API, checked against the /openapi.json it serves (ajv, JSON Schema
 * 2020-12): every documented operation is called and its answer validated, errors included; and
 * a story merge seen through the API: the merged-away cluster id answers with the surviving story.
 */
let server: Server;
let base: string;
let api: ResponseValidator;
let doc: OpenApiDocument;

beforeAll(async () => {
  await initHashing();
  const config = resolveDedupConfig('news', { api: { bodyLimitBytes: 4096, maxPageSize: 2 } });
  server = createApiServer({
    config,
    engine: new DedupEngine(config, new MemoryStore(config.window, config.index)),
    signer: new Signer(config.signatures, LexiconSet.defaults({})),
    ops: new OpsServer(),
    metrics: null,
    logger: null,
    now: () => Date.parse('2026-11-20T09:00:00Z'),
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  api = await ResponseValidator.fetch(base);
  doc = (await (await fetch(`${base}/openapi.json`)).json()) as OpenApiDocument;
});

afterAll(async () => {
  server.closeAllConnections();
  await new Promise<void>((resolve) => server.close(() => resolve()));
});

const post = (path: string, body: unknown, type = 'application/json') =>
  fetch(`${base}${path}`, {
    method: 'POST',
    headers: { 'content-type': type },
    body: typeof body === 'string' ? body : JSON.stringify(body),
  });
const get = (path: string) => fetch(`${base}${path}`);

describe('API responses match the served OpenAPI document', () => {
  it('a story merge: verdicts, the merged-away id resolving to the surviving story, its members', async () => {
    const [p1, p2, both, again] = mergeMessages('api-');
    const verdicts = [];
    for (const m of [p1, p2, both, again])
      verdicts.push(await api.check('POST', '/v1/messages', await post('/v1/messages', m)));
    expect(verdicts.map((v) => [v.id, v.verdict, v.clusterId, v.replay ?? false])).toEqual([
      ['api-p1', 'unique', 'api-p1', false],
      ['api-p2', 'unique', 'api-p2', false],
      ['api-both', 'near_duplicate', 'api-p1', false],
      ['api-both', 'near_duplicate', 'api-p1', true],
    ]);
    // The merged-away story answers with the one it was merged into.
    const merged = await api.check('GET', '/v1/clusters/{id}', await get('/v1/clusters/api-p2'));
    expect(merged).toMatchObject({ id: 'api-p1', size: 3, representative: 'api-p1' });
    const members = merged.members as { members: Array<{ id: string }>; next: string | null; total: number };
    expect(members.total).toBe(3);
    const page2 = await api.check(
      'GET',
      '/v1/clusters/{id}',
      await get(`/v1/clusters/api-p2?cursor=${encodeURIComponent(members.next ?? '')}`),
    );
    const ids = [...members.members, ...(page2.members as { members: Array<{ id: string }> }).members].map(
      (m) => m.id,
    );
    expect(ids.sort()).toEqual(['api-both', 'api-p1', 'api-p2']);
    expect(await api.check('GET', '/v1/clusters/{id}', await get('/v1/clusters/api-p1'))).toMatchObject({
      id: 'api-p1',
      size: 3,
    });
    // A message of the merged-away story: its cluster now, and the one it was decided into.
    expect(await api.check('GET', '/v1/messages/{id}', await get('/v1/messages/api-p2'))).toMatchObject({
      clusterId: 'api-p1',
      clusterIdAtDecision: 'api-p2',
    });
    // One live story, not two.
    const list = await api.check('GET', '/v1/clusters', await get('/v1/clusters?order=size'));
    const stories = (list.items as Array<{ id: string; size: number }>).filter((s) =>
      s.id.startsWith('api-'),
    );
    expect(stories).toEqual([expect.objectContaining({ id: 'api-p1', size: 3 })]);
  });

  it('every documented operation, its answers and errors', async () => {
    const text = mergeMessages('ops-')[2]!.text;
    await api.check('POST', '/v1/check', await post('/v1/check', { id: 'ops-1', text }));
    await api.check('POST', '/v1/messages', await post('/v1/messages', { id: 'ops-1', text }));
    // Batches: a JSON array and NDJSON, a bad item among them.
    const batch = await api.check(
      'POST',
      '/v1/messages',
      await post('/v1/messages', [{ id: 'ops-1', text }, { id: 'ops-b' }]),
    );
    expect((batch.results as Array<{ code?: string }>).map((r) => r.code)).toEqual([
      undefined,
      'MISSING_CONTENT',
    ]);
    await api.check(
      'POST',
      '/v1/check',
      await post('/v1/check', `${JSON.stringify({ id: 'ops-c', text })}\nnot json\n`, 'application/x-ndjson'),
    );
    await api.check('GET', '/v1/messages/{id}', await get('/v1/messages/ops-1'));
    await api.check('GET', '/v1/clusters', await get('/v1/clusters'));
    await api.check('GET', '/v1/clusters/{id}', await get('/v1/clusters/ops-1'));
    await api.check('GET', '/v1/messages/{id}/why', await get('/v1/messages/ops-1/why'));
    const errors: Array<[string, string, Promise<Response>, number]> = [
      ['POST', '/v1/check', post('/v1/check', '{"id":'), 400],
      ['POST', '/v1/check', post('/v1/check', { id: 'x', text: 'y'.repeat(5000) }), 413],
      ['POST', '/v1/check', post('/v1/check', { id: 'x', text: 'a' }, 'text/plain'), 415],
      ['POST', '/v1/check', post('/v1/check', { id: 'x' }), 422],
      ['POST', '/v1/check', post('/v1/check', { id: 'ops-1', text: `${text} Another ending.` }), 409],
      ['POST', '/v1/messages', post('/v1/messages', { id: 'ops-1', text: 'Other words entirely.' }), 409],
      ['POST', '/v1/messages', post('/v1/messages', { id: 'x', text: '... !!! ...' }), 422],
      ['GET', '/v1/messages/{id}', get('/v1/messages/never-seen'), 404],
      ['GET', '/v1/messages/{id}', get('/v1/messages/%E0%A4%A'), 400],
      ['GET', '/v1/messages/{id}/why', get('/v1/messages/never-seen/why'), 404],
      ['GET', '/v1/clusters', get('/v1/clusters?order=oldest'), 400],
      ['GET', '/v1/clusters/{id}', get('/v1/clusters/never-seen'), 404],
      ['GET', '/v1/clusters/{id}', get('/v1/clusters/ops-1?cursor=-1'), 400],
    ];
    for (const [method, template, response, status] of errors) {
      const res = await response;
      expect(res.status, `${method} ${template}`).toBe(status);
      await api.check(method, template, res);
    }
    await api.check('GET', '/healthz', await get('/healthz'));
    await api.check('GET', '/readyz', await get('/readyz'));
    await api.check('GET', '/openapi.json', await get('/openapi.json'));
    // Every JSON operation of the document was answered with 200 at least once here: a new
    // route needs a request in this test.
    const json = Object.entries(doc.paths).flatMap(([path, ops]) =>
      Object.entries(ops ?? {})
        .filter(([, op]) => op?.responses['200']?.content?.['application/json'])
        .map(([method]) => `${method.toUpperCase()} ${path} 200`),
    );
    const missing = json.filter((k) => !api.checked.has(k) && k !== 'GET /metrics 200');
    expect(missing).toEqual([]);
  });

  it('every example of the document matches its schema (requests and responses)', () => {
    const { checked, failures } = api.checkExamples();
    expect(failures).toEqual([]);
    // Messages (text, html, batch), verdicts (two), a batch result... not an empty loop.
    expect(checked).toBeGreaterThanOrEqual(10);
  });

  it('the validator refuses what the document does not allow (it is not a rubber stamp)', async () => {
    const response = (body: unknown, status = 200) =>
      new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });
    const good = (await (
      await post('/v1/check', { id: 'ops-2', text: mergeMessages()[0]!.text })
    ).json()) as Record<string, unknown>;
    await expect(api.check('POST', '/v1/check', response(good))).resolves.toMatchObject({ id: 'ops-2' });
    await expect(api.check('POST', '/v1/check', response({ ...good, verdict: 'maybe' }))).rejects.toThrow(
      /verdict|allowed values/,
    );
    const { verdict: _v, ...noVerdict } = good;
    await expect(api.check('POST', '/v1/check', response(noVerdict))).rejects.toThrow(/verdict/);
    await expect(api.check('POST', '/v1/check', response(good, 201))).rejects.toThrow(/not documented/);
    await expect(api.check('GET', '/v1/clusters/{id}', response({ error: 'x' }, 404))).rejects.toThrow();
  });
});
