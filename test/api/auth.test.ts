import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { createApiServer } from '../../src/api/server.js';
import { resolveDedupConfig } from '../../src/config/profiles.js';
import { DedupEngine } from '../../src/engine/engine.js';
import { initHashing } from '../../src/hash/xxhash.js';
import { LexiconSet } from '../../src/lexicon/lexicon.js';
import { Signer } from '../../src/signatures/signer.js';
import { MemoryStore } from '../../src/store/memory/store.js';
import { OpsServer } from '../../src/telemetry/ops-server.js';
import { spawnServe } from '../support/serve-process.js';

/**
 * Bearer-token auth on every route, as docs/operations.md promises: with a token, every /v1 route
 * and method answers 401 (WWW-Authenticate, `error="invalid_token"` for a wrong token) without the
 * right one, and /healthz, /readyz, /metrics, /openapi.json and the desk (/) stay open. The routes
 * come from the served /openapi.json, so a new route is checked without changing this test (and
 * a route the document does not list answers 405 with the token, 401 without).
 */
const TOKEN = 'auth-token-0123456789abcdef';
const TEXT =
  'The harbour authority said on Monday that the new container terminal will open in spring, two years later than planned.';
const METHODS = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE'] as const;
/** The open paths docs/operations.md names (the desk at / among them). */
const OPEN = ['/', '/healthz', '/metrics', '/openapi.json', '/readyz'];

interface OpenApiDocument {
  paths: Record<string, Partial<Record<string, { responses: Record<string, unknown> }>>>;
}

/** The wrong credentials a client may send. */
const WRONG = [
  `Bearer ${TOKEN}x`,
  `Bearer ${TOKEN.slice(0, -1)}`,
  `Basic ${TOKEN}`,
  'Bearer',
  `Token ${TOKEN}`,
];

async function request(url: string, method: string, authorization?: string): Promise<Response> {
  const body =
    method === 'GET' || method === 'DELETE' ? undefined : JSON.stringify({ id: 'auth-msg', text: TEXT });
  return fetch(url, {
    method,
    headers: {
      ...(body ? { 'content-type': 'application/json' } : {}),
      ...(authorization ? { authorization } : {}),
    },
    ...(body ? { body } : {}),
  });
}

/** Every route of the served document, every method, no / wrong / right token. */
async function checkEveryRoute(base: string, options: { metrics: boolean }): Promise<number> {
  const doc = (await (await fetch(`${base}/openapi.json`)).json()) as OpenApiDocument;
  const paths = Object.keys(doc.paths);
  const v1 = paths.filter((p) => p.startsWith('/v1/'));
  expect(paths.filter((p) => !p.startsWith('/v1/')).sort()).toEqual(OPEN);
  // The documented API: check, messages, clusters (more may come; none may go unchecked).
  expect(v1).toEqual(
    expect.arrayContaining(['/v1/check', '/v1/messages', '/v1/messages/{id}', '/v1/clusters']),
  );
  // Something to find for the {id} routes.
  const indexed = await request(`${base}/v1/messages`, 'POST', `Bearer ${TOKEN}`);
  expect(indexed.status).toBe(200);
  let checked = 0;
  for (const path of v1) {
    const url = base + path.replaceAll(/\{[^}]+\}/g, 'auth-msg');
    const documented = METHODS.filter((m) => doc.paths[path]?.[m.toLowerCase()]);
    expect(documented.length, path).toBeGreaterThan(0);
    for (const method of METHODS) {
      const what = `${method} ${path}`;
      const none = await request(url, method);
      expect(none.status, what).toBe(401);
      expect(none.headers.get('www-authenticate'), what).toBe('Bearer realm="doppel"');
      expect(await none.text(), what).toContain('UNAUTHORIZED');
      for (const wrong of WRONG) {
        const res = await request(url, method, wrong);
        expect(res.status, `${what} with "${wrong.slice(0, 6)}..."`).toBe(401);
        expect(res.headers.get('www-authenticate'), what).toContain('error="invalid_token"');
        await res.arrayBuffer();
      }
      const right = await request(url, method, `Bearer ${TOKEN}`);
      await right.arrayBuffer();
      if (documented.includes(method)) {
        const responses = Object.keys(doc.paths[path]?.[method.toLowerCase()]?.responses ?? {});
        expect(right.status, what).toBe(200);
        expect(responses, what).toContain('200');
      } else {
        // Not a route: said so only to a client with the token.
        expect(right.status, what).toBe(405);
        expect(right.headers.get('allow')?.split(', ').sort(), what).toEqual([...documented].sort());
      }
      checked++;
    }
  }
  // An unknown /v1 path is not disclosed without the token.
  expect((await request(`${base}/v1/nothing-here`, 'GET')).status).toBe(401);
  expect((await request(`${base}/v1/nothing-here`, 'GET', `Bearer ${TOKEN}`)).status).toBe(404);
  // The open routes answer with no token and ignore a wrong one.
  for (const path of OPEN) {
    for (const authorization of [undefined, WRONG[0]]) {
      const res = await request(base + path, 'GET', authorization);
      // An API server built without a Prometheus exporter has no /metrics (doppel serve has one).
      const expected = path === '/metrics' && !options.metrics ? 404 : 200;
      expect(res.status, `${path} ${authorization ?? 'no token'}`).toBe(expected);
      expect(res.headers.get('www-authenticate'), path).toBeNull();
      await res.arrayBuffer();
    }
  }
  return checked;
}

describe('bearer token on every route', () => {
  const servers: Server[] = [];
  const dir = mkdtempSync(join(tmpdir(), 'doppel-auth-'));
  afterAll(async () => {
    for (const server of servers) {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    }
    rmSync(dir, { recursive: true, force: true });
  });

  it('the API server: every /v1 route and method refuses no token and wrong ones, takes the right one', async () => {
    await initHashing();
    const config = resolveDedupConfig('news');
    const server = createApiServer({
      config,
      engine: new DedupEngine(config, new MemoryStore(config.window, config.index)),
      signer: new Signer(config.signatures, LexiconSet.defaults({})),
      ops: new OpsServer(),
      metrics: null,
      logger: null,
      token: TOKEN,
    });
    servers.push(server);
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const checked = await checkEveryRoute(`http://127.0.0.1:${(server.address() as AddressInfo).port}`, {
      metrics: false,
    });
    expect(checked).toBeGreaterThanOrEqual(5 * METHODS.length);
  });

  it.each([
    ['DOPPEL_API_TOKEN', () => ({ DOPPEL_API_TOKEN: TOKEN })],
    [
      'DOPPEL_API_TOKEN_FILE (a final newline is ignored)',
      () => {
        const file = join(dir, 'token');
        writeFileSync(file, `${TOKEN}\n`);
        return { DOPPEL_API_TOKEN_FILE: file };
      },
    ],
  ])(
    'doppel serve with %s',
    async (_name, env: () => Record<string, string>) => {
      const serve = await spawnServe({ env: env() });
      try {
        expect(serve.line?.auth).toBe('bearer');
        await checkEveryRoute(serve.url, { metrics: true });
        expect(serve.output()).not.toContain(TOKEN);
      } finally {
        expect(await serve.stop()).toBe(0);
      }
    },
    60_000,
  );
});
