import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { OPENAPI } from '../../src/api/openapi.js';
import {
  COMPONENTS,
  clusterListQuerySchema,
  clusterListSchema,
  clusterSchema,
  storedVerdictSchema,
  whySchema,
} from '../../src/api/schemas.js';
import { createApiServer } from '../../src/api/server.js';
import { resolveDedupConfig } from '../../src/config/profiles.js';
import { DedupEngine } from '../../src/engine/engine.js';
import type { DedupStore } from '../../src/engine/types.js';
import { ERROR_CODES } from '../../src/errors.js';
import { initHashing } from '../../src/hash/xxhash.js';
import { LexiconSet } from '../../src/lexicon/lexicon.js';
import { Signer } from '../../src/signatures/signer.js';
import { openStore } from '../../src/store/open.js';
import { OpsServer } from '../../src/telemetry/ops-server.js';
import { redisUrl, uniqueNamespace } from '../support/redis.js';
import { spawnServe } from '../support/serve-process.js';

const STORY =
  'The city council voted on Tuesday to expand the northern tram line by six stations, ' +
  'a project expected to cost four hundred million euros and to open in three years, officials said.';
const NEAR = STORY.replace('Tuesday', 'Wednesday');
const OTHER =
  'Heavy snowfall closed mountain passes across the region overnight, and rescue teams helped ' +
  'dozens of drivers stranded on the highway near the border crossing before dawn on Friday.';

/** A schema with every $ref to a component replaced by that component (to compare with zod's inline form). */
function inlineRefs(schema: unknown, components: Record<string, unknown>): unknown {
  if (Array.isArray(schema)) return schema.map((s) => inlineRefs(s, components));
  if (schema === null || typeof schema !== 'object') return schema;
  const ref = (schema as { $ref?: string }).$ref;
  if (ref?.startsWith('#/components/schemas/'))
    return inlineRefs(components[ref.split('/').pop() as string], components);
  return Object.fromEntries(Object.entries(schema).map(([k, v]) => [k, inlineRefs(v, components)]));
}

interface Running {
  url: string;
  server: Server;
  store: DedupStore;
}

async function startApi(storeSpec: string, namespace?: string, bodyLimitBytes = 4096): Promise<Running> {
  await initHashing();
  const config = resolveDedupConfig('news', { api: { bodyLimitBytes, maxPageSize: 2 } });
  const store = await openStore(storeSpec, namespace ? { config, namespace } : { config });
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
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, server, store };
}

async function stopApi(api: Running): Promise<void> {
  api.server.closeAllConnections();
  await new Promise<void>((resolve) => api.server.close(() => resolve()));
  await api.store.close();
}

async function post(url: string, body: unknown, type = 'application/json') {
  const res = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': type },
    body: typeof body === 'string' ? body : JSON.stringify(body),
  });
  return { status: res.status, body: (await res.json()) as Record<string, unknown> };
}

async function get(url: string) {
  const res = await fetch(url);
  return { status: res.status, body: (await res.json()) as Record<string, unknown> };
}

/** The check-then-index sequence, the same against every store. */
async function checkDoesNotIndex(url: string): Promise<void> {
  const first = await post(`${url}/v1/check`, { id: 'a1', text: STORY });
  expect(first.status).toBe(200);
  expect(first.body).toMatchObject({ id: 'a1', verdict: 'unique', clusterId: 'a1', indexed: false });
  // Checking again (same and another id) still finds nothing: the first check indexed nothing.
  expect((await post(`${url}/v1/check`, { id: 'a1', text: STORY })).body.verdict).toBe('unique');
  expect((await post(`${url}/v1/check`, { id: 'a2', text: NEAR })).body.verdict).toBe('unique');
  expect((await get(`${url}/v1/messages/a1`)).status).toBe(404);

  const indexed = await post(`${url}/v1/messages`, {
    id: 'a1',
    title: 'Tram line',
    text: STORY,
    url: 'https://city.example/news/tram?id=1',
  });
  expect(indexed.body).toMatchObject({ id: 'a1', verdict: 'unique', clusterId: 'a1', indexed: true });
  // Now a check of the near-duplicate sees it, still without indexing it...
  const check = await post(`${url}/v1/check`, { id: 'a2', text: NEAR });
  expect(check.body).toMatchObject({
    verdict: 'near_duplicate',
    duplicateOf: 'a1',
    clusterId: 'a1',
    indexed: false,
  });
  expect((await get(`${url}/v1/messages/a2`)).status).toBe(404);
  // ...and indexing it gives the same verdict.
  const near = await post(`${url}/v1/messages`, { id: 'a2', text: NEAR });
  expect(near.body).toMatchObject({
    verdict: 'near_duplicate',
    duplicateOf: 'a1',
    clusterId: 'a1',
    indexed: true,
  });
  expect((near.body.evidence as { jaccard: number }).jaccard).toBeGreaterThan(0.4);
  const exact = await post(`${url}/v1/messages`, { id: 'a3', text: `  ${STORY.toUpperCase()} ` });
  expect(exact.body).toMatchObject({ verdict: 'duplicate', duplicateOf: 'a1' });
  const replay = await post(`${url}/v1/messages`, { id: 'a2', text: NEAR });
  expect(replay.body).toMatchObject({ verdict: 'near_duplicate', replay: true, indexed: false });
  expect((await post(`${url}/v1/messages`, { id: 'b1', text: OTHER })).body).toMatchObject({
    verdict: 'unique',
    clusterId: 'b1',
  });

  const stored = await get(`${url}/v1/messages/a2`);
  expect(stored.status).toBe(200);
  expect(stored.body).toMatchObject({
    id: 'a2',
    verdict: 'near_duplicate',
    duplicateOf: 'a1',
    clusterId: 'a1',
    lang: 'en',
    // The evidence POST answered with, kept with the verdict.
    evidence: near.body.evidence,
    // The whole text: under the snippet's 200 characters.
    snippet: NEAR,
  });
  storedVerdictSchema.parse(stored.body);
  expect((await get(`${url}/v1/messages/a1`)).body).toMatchObject({
    url: 'https://city.example/news/tram?id=1',
    title: 'Tram line',
  });
  // Why: the two texts side by side, the shared passages marked, the evidence in words.
  const why = await get(`${url}/v1/messages/a2/why`);
  whySchema.parse(why.body);
  expect(why.body).toMatchObject({
    relation: 'near_duplicate',
    message: { id: 'a2' },
    other: { id: 'a1', title: 'Tram line', url: 'https://city.example/news/tram?id=1' },
  });
  const passages = (why.body.message as { passages: Array<{ text: string; match: boolean }> }).passages;
  expect(passages.map((p) => p.text).join('')).toBe(stored.body.snippet);
  // Only "Wednesday" differs from a1: it is the one word left unmarked.
  const unmarked = passages.filter((p) => !p.match && /\p{L}/u.test(p.text)).map((p) => p.text.trim());
  expect(unmarked).toEqual(['Wednesday']);
  expect((why.body.reasons as string[]).join(' ')).toMatch(/shingles/);
  expect((await get(`${url}/v1/messages/a1/why`)).body).toMatchObject({ relation: 'own_story', other: null });
  expect((await get(`${url}/v1/messages/zz/why`)).status).toBe(404);
  const cluster = await get(`${url}/v1/clusters/a1`);
  expect(cluster.status).toBe(200);
  expect(cluster.body).toMatchObject({ id: 'a1', size: 3, representative: 'a1' });
  // Times as RFC 3339 (the stores keep epoch ms); `since` takes either form.
  expect(cluster.body.firstSeen).toBe('2026-01-05T10:00:00.000Z');
  expect(cluster.body.lastSeen).toBe('2026-01-05T10:00:00.000Z');
  expect(stored.body.ts).toBe('2026-01-05T10:00:00.000Z');
  expect((why.body.message as { ts: string }).ts).toBe('2026-01-05T10:00:00.000Z');
  const members = cluster.body.members as { members: Array<{ ts: unknown }> };
  expect(members.members.map((m) => m.ts)).toContain('2026-01-05T10:00:00.000Z');
  for (const since of ['2026-01-05T10:00:00Z', String(Date.parse('2026-01-05T10:00:00Z'))]) {
    const listed = await get(`${url}/v1/clusters?since=${encodeURIComponent(since)}`);
    expect((listed.body.items as Array<{ id: string; lastSeen: string }>)[0]).toMatchObject({
      id: 'a1',
      lastSeen: '2026-01-05T10:00:00.000Z',
    });
  }
  for (const since of ['2026-01-05T10:00:00.001Z', String(Date.parse('2026-01-05T10:00:00Z') + 1)])
    expect((await get(`${url}/v1/clusters?since=${encodeURIComponent(since)}`)).body.items).toEqual([]);
  // RFC 9457 problem details, with the earlier {error: {code, message}} kept as an extension member.
  const detail = 'cluster "nope" is not in the index (unknown or expired)';
  const nope = await fetch(`${url}/v1/clusters/nope`);
  expect(nope.headers.get('content-type')).toBe('application/problem+json; charset=utf-8');
  expect(await nope.json()).toEqual({
    type: 'urn:doppel:problem:not-found',
    title: ERROR_CODES.NOT_FOUND.description,
    status: 404,
    detail,
    code: 'NOT_FOUND',
    error: { code: 'NOT_FOUND', message: detail },
  });
}

/** Members (paged, maxPageSize 2) and the story list, checked against the documented schemas. */
async function membersAndStories(url: string): Promise<void> {
  const page1 = await get(`${url}/v1/clusters/a1?limit=2`);
  clusterSchema.parse(page1.body);
  const m1 = page1.body.members as { members: Array<Record<string, unknown>>; next: string; total: number };
  // One member form (objects), no list of bare ids beside it.
  expect(Object.keys(m1).sort()).toEqual(['members', 'next', 'total']);
  expect(m1.members.map((m) => m.id)).toEqual(['a1', 'a2']);
  expect(m1.total).toBe(3);
  expect(m1.next).toMatch(/^[A-Za-z0-9_-]+$/);
  expect(m1.members[0]).toMatchObject({
    id: 'a1',
    verdict: 'unique',
    title: 'Tram line',
    url: 'https://city.example/news/tram?id=1',
  });
  const page2 = await get(`${url}/v1/clusters/a1?limit=2&cursor=${m1.next}`);
  expect(page2.body.members).toMatchObject({ members: [{ id: 'a3' }], next: null, total: 3 });
  expect(page1.body.title).toBe('Tram line');
  const list = await get(`${url}/v1/clusters?order=size&limit=2`);
  clusterListSchema.parse(list.body);
  expect(list.body).toMatchObject({ items: [{ id: 'a1', size: 3, title: 'Tram line' }], next: null });
  expect((await get(`${url}/v1/clusters?since=${Date.parse('2027-01-01')}`)).body).toEqual({
    items: [],
    next: null,
  });
  // since as RFC 3339; title search (case and accents ignored, every word); size and time filters.
  const ids = async (query: string) =>
    ((await get(`${url}/v1/clusters?${query}`)).body.items as Array<{ id: string }>).map((c) => c.id);
  expect(await ids('since=2026-01-05T09:00:00Z')).toEqual(['a1']);
  expect(await ids('since=2026-01-05T11:00:00%2B01:00')).toEqual(['a1']);
  expect(await ids('q=TRAM')).toEqual(['a1']);
  expect(await ids('q=line%20tr%C3%A1m')).toEqual(['a1']);
  expect(await ids('q=a1')).toEqual(['a1']);
  expect(await ids('q=snow')).toEqual([]);
  expect(await ids('minSize=3')).toEqual(['a1']);
  expect(await ids('minSize=4')).toEqual([]);
  expect(await ids('until=2026-01-05T10:00:00Z')).toEqual([]);
  expect((await get(`${url}/v1/clusters?cursor=bm90IGEgY3Vyc29y`)).status).toBe(400);
}

describe('HTTP API on the memory store', () => {
  let api: Running;
  beforeAll(async () => {
    api = await startApi('memory');
  });
  afterAll(() => stopApi(api));

  it('/v1/check never indexes; /v1/messages indexes; GET returns what was stored', async () => {
    await checkDoesNotIndex(api.url);
    // Members in the order they joined, paged by cursor (maxPageSize 2).
    await membersAndStories(api.url);
    expect((await get(`${api.url}/v1/clusters/a1?limit=3`)).body.error).toMatchObject({
      code: 'BAD_REQUEST',
    });
    expect((await get(`${api.url}/v1/clusters/a1?cursor=-1`)).status).toBe(400);
    expect((await get(`${api.url}/v1/clusters?order=oldest`)).body.error).toMatchObject({
      code: 'BAD_REQUEST',
    });
    expect((await get(`${api.url}/v1/clusters?since=yesterday`)).status).toBe(400);
  });

  it('pages stories by opaque cursor: stories created between two pages neither repeat nor skip', async () => {
    // Six unrelated stories: no two may meet the story rule.
    const texts = [
      '',
      'Dock workers at the northern harbour unloaded the first container ship since the new cranes arrived, and the port authority expects traffic to double by spring.',
      'After three days of heavy rain the river burst its banks near the old mill, flooding cellars in twenty houses while volunteers filled sandbags along the embankment.',
      'The natural history museum reopened its dinosaur hall on Sunday after a two year renovation that added a glass roof, interactive displays and a new fossil laboratory.',
      'A nineteen year old grandmaster won the national chess championship in a tense final game that lasted almost seven hours and ended with a rook endgame.',
      'Engineers closed the suspension bridge for emergency repairs after inspectors found corroded cables, sending commuters on a forty minute detour through the valley.',
      'Farmers in the southern plains signed contracts for a solar park of twelve hundred panels, which will supply power to the irrigation pumps of four villages.',
    ];
    const story = (i: number) => texts[i] as string;
    const addStory = async (i: number) => {
      const ts = `2026-02-01T0${i}:00:00Z`;
      await post(`${api.url}/v1/messages`, { id: `k${i}-a`, title: `Story ${i}`, text: story(i), ts });
      const copy = await post(`${api.url}/v1/messages`, { id: `k${i}-b`, text: story(i), ts });
      expect(copy.body).toMatchObject({ verdict: 'duplicate', clusterId: `k${i}-a` });
    };
    for (let i = 1; i <= 4; i++) await addStory(i);
    const list = (cursor?: string) =>
      get(`${api.url}/v1/clusters?since=2026-02-01T00:00:00Z&limit=2${cursor ? `&cursor=${cursor}` : ''}`);
    const p1 = await list();
    expect((p1.body.items as Array<{ id: string }>).map((c) => c.id)).toEqual(['k4-a', 'k3-a']);
    // Two newer stories arrive: with counted offsets page 2 would repeat k4 and k3.
    await addStory(5);
    await addStory(6);
    const p2 = await list(p1.body.next as string);
    expect((p2.body.items as Array<{ id: string }>).map((c) => c.id)).toEqual(['k2-a', 'k1-a']);
    expect(p2.body.next).toBeNull();
    // A cursor of one order is refused by the other.
    const bySize = await get(`${api.url}/v1/clusters?order=size&cursor=${p1.body.next}`);
    expect(bySize.status).toBe(400);
  });

  it('answers 4xx with {error: {code, message}} for bad requests', async () => {
    const cases: Array<[Promise<{ status: number; body: Record<string, unknown> }>, number, string]> = [
      [post(`${api.url}/v1/messages`, '{"id": "x", "text": '), 400, 'INVALID_JSON'],
      [post(`${api.url}/v1/messages`, { text: 'no id here at all' }), 422, 'INVALID_MESSAGE'],
      [post(`${api.url}/v1/messages`, { id: 'x', text: 5 }), 422, 'INVALID_MESSAGE'],
      [post(`${api.url}/v1/check`, { id: 'x' }), 422, 'MISSING_CONTENT'],
      [post(`${api.url}/v1/check`, { id: 'x', raw: '%%%' }), 422, 'INVALID_BASE64'],
      [post(`${api.url}/v1/check`, { id: 'x', text: '... !!! ...' }), 422, 'EMPTY_TEXT'],
      [post(`${api.url}/v1/check`, { id: 'x', text: 'a' }, 'text/plain'), 415, 'UNSUPPORTED_MEDIA_TYPE'],
      [post(`${api.url}/v1/check`, { id: 'x', text: 'y'.repeat(5000) }), 413, 'TOO_LARGE'],
      [get(`${api.url}/v1/nothing`), 404, 'NOT_FOUND'],
      [get(`${api.url}/v1/check`), 405, 'METHOD_NOT_ALLOWED'],
      [get(`${api.url}/v1/messages/%E0%A4%A`), 400, 'BAD_REQUEST'],
    ];
    for (const [request, status, code] of cases) {
      const res = await request;
      expect([res.status, (res.body.error as { code: string }).code]).toEqual([status, code]);
      expect(typeof (res.body.error as { message: string }).message).toBe('string');
    }
    // A request that never says its length is cut off at the limit too (chunked upload).
    const chunked = await fetch(`${api.url}/v1/check`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: new Blob([JSON.stringify({ id: 'x', text: 'z '.repeat(4000) })]).stream(),
      duplex: 'half',
    } as RequestInit);
    expect(chunked.status).toBe(413);
  });

  it('serves an OpenAPI 3.1 document naming every route, and health paths', async () => {
    const doc = await get(`${api.url}/openapi.json`);
    expect(doc.body.openapi).toBe('3.1.0');
    const paths = doc.body.paths as Record<string, Record<string, unknown>>;
    const routes: Array<[string, string]> = [
      ['/v1/check', 'post'],
      ['/v1/messages', 'post'],
      ['/v1/messages/{id}', 'get'],
      ['/v1/messages/{id}/why', 'get'],
      ['/v1/clusters', 'get'],
      ['/v1/clusters/{id}', 'get'],
      ['/', 'get'],
      ['/openapi.json', 'get'],
      ['/healthz', 'get'],
      ['/readyz', 'get'],
      ['/metrics', 'get'],
    ];
    for (const [path, method] of routes) expect(paths[path]?.[method], `${method} ${path}`).toBeDefined();
    expect(Object.keys(paths).sort()).toEqual(routes.map(([p]) => p).sort());
    // Every error code the document names in a description is one of the fixed list.
    const named = JSON.stringify(OPENAPI.paths).match(/\b[A-Z]+_[A-Z_]+\b/g) ?? [];
    for (const code of new Set(named)) expect(Object.keys(ERROR_CODES)).toContain(code);
    // Every component is the JSON Schema of its zod schema (generated, so it cannot drift), and
    // every schema a route refers to is one of them.
    const components = (doc.body.components as { schemas: Record<string, unknown> }).schemas;
    expect(Object.keys(components).sort()).toEqual(Object.keys(COMPONENTS).sort());
    for (const [name, schema] of Object.entries(COMPONENTS)) {
      const { $schema: _s, ...own } = z.toJSONSchema(schema, {
        io: 'input',
        unrepresentable: 'any',
      }) as Record<string, unknown>;
      expect(inlineRefs(components[name], components), name).toEqual(inlineRefs(own, components));
    }
    const refs = JSON.stringify(doc.body.paths).match(/#\/components\/schemas\/\w+/g) ?? [];
    for (const r of refs) expect(Object.keys(COMPONENTS)).toContain(r.split('/').pop());
    const listRoute = paths['/v1/clusters']?.get as { parameters: Array<{ name: string }> };
    const listParams = listRoute.parameters;
    expect(listParams.map((p) => p.name).sort()).toEqual(Object.keys(clusterListQuerySchema.shape).sort());
    // What a generated client sends: integers for counts, a date-time or epoch ms for times.
    const schemaOf = (name: string) =>
      (listParams as Array<{ name: string; schema: Record<string, unknown> }>).find((p) => p.name === name)
        ?.schema;
    expect(schemaOf('limit')).toMatchObject({ type: 'integer', minimum: 1 });
    expect(schemaOf('minSize')).toMatchObject({ type: 'integer', minimum: 2 });
    expect(JSON.stringify(schemaOf('since'))).toMatch(/"format":"date-time".*"type":"integer"/);
    const members = paths['/v1/clusters/{id}']?.get as {
      parameters: Array<{ name: string; schema: unknown }>;
    };
    expect(members.parameters.find((p) => p.name === 'limit')?.schema).toMatchObject({ type: 'integer' });
    // Every operation is tagged with a declared tag; the servers are listed.
    const tags = new Set((doc.body.tags as Array<{ name: string }>).map((t) => t.name));
    for (const [path, method] of routes) {
      const op = paths[path]?.[method] as { tags?: string[] };
      expect(op.tags?.length, `${method} ${path} tags`).toBe(1);
      expect(tags.has(op.tags?.[0] ?? ''), `${method} ${path} tag declared`).toBe(true);
    }
    expect((doc.body.servers as Array<{ url: string }>).map((s) => s.url)).toContain('/');
    expect((await get(`${api.url}/healthz`)).status).toBe(200);
    expect((await get(`${api.url}/readyz`)).status).toBe(200);
  });
});

describe('HTTP API on the Redis store', () => {
  let api: Running;
  beforeAll(async () => {
    api = await startApi(redisUrl(), uniqueNamespace('api'));
  });
  afterAll(() => stopApi(api));

  it('/v1/check never indexes; /v1/messages indexes (same sequence as on memory)', async () => {
    await checkDoesNotIndex(api.url);
    await membersAndStories(api.url);
  });
});

describe('HTTP API on a Redis namespace that lost its data', () => {
  it('answers 503 STORE_DATA_LOST, without Retry-After, instead of judging against an empty index', async () => {
    const namespace = uniqueNamespace('api-lost');
    const api = await startApi(redisUrl(), namespace);
    try {
      expect((await post(`${api.url}/v1/messages`, { id: 'a1', text: STORY })).status).toBe(200);
      const client = new Redis(redisUrl());
      try {
        await client.del(...(await client.keys(`doppel:{${namespace}}:*`)));
      } finally {
        client.disconnect();
      }
      for (const path of ['/v1/messages', '/v1/check']) {
        const res = await fetch(`${api.url}${path}`, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ id: 'a2', text: STORY }),
        });
        expect(res.status).toBe(503);
        expect(res.headers.get('retry-after')).toBeNull();
        expect(((await res.json()) as { error: { code: string } }).error.code).toBe('STORE_DATA_LOST');
      }
    } finally {
      await stopApi(api);
    }
  });
});

describe('doppel serve', () => {
  it('starts from the CLI, logs JSON, answers /healthz and /v1/check, exits 0 on SIGTERM', async () => {
    const serve = await spawnServe({ args: ['--host', '127.0.0.1'], env: { DOPPEL_LOG_LEVEL: 'info' } });
    const { url } = serve;
    try {
      expect((await get(`${url}/healthz`)).body).toEqual({ status: 'ok' });
      expect((await get(`${url}/readyz`)).body).toEqual({ status: 'ready', checks: { store: 'ok' } });
      expect((await post(`${url}/v1/messages`, { id: 's1', text: STORY })).body.verdict).toBe('unique');
      const metrics = await (await fetch(`${url}/metrics`)).text();
      expect(metrics).toMatch(/^doppel_messages_total\{.*verdict="unique".*profile="news".*\} 1$/m);
      expect(metrics).toMatch(/^doppel_http_requests_total\{.*route="\/v1\/messages".*status="200".*\} 1$/m);
    } finally {
      expect(await serve.stop()).toBe(0);
    }
    expect(serve.output()).not.toContain('tram line');
  });
});
