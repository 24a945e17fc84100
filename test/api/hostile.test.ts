import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { connect } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { createApiServer } from '../../src/api/server.js';
import { resolveDedupConfig } from '../../src/config/profiles.js';
import { DedupEngine } from '../../src/engine/engine.js';
import type { DedupStore } from '../../src/engine/types.js';
import { initHashing } from '../../src/hash/xxhash.js';
import { LexiconSet } from '../../src/lexicon/lexicon.js';
import { Signer } from '../../src/signatures/signer.js';
import { MemoryStore } from '../../src/store/memory/store.js';
import type { DoppelMetrics } from '../../src/telemetry/metrics.js';
import { OpsServer } from '../../src/telemetry/ops-server.js';

// Requests a hostile or broken client can send must neither end the process nor hold
// the server; every answer is the JSON error shape.

const TOKEN = 'test-token-0123456789abcdef';
const TEXT =
  'The city council voted on Tuesday to expand the northern tram line by six stations, officials said.';

interface Started {
  port: number;
  url: string;
  server: Server;
  http: Array<{ route: string; status: number }>;
}

const running: Server[] = [];
afterEach(async () => {
  for (const server of running.splice(0)) {
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  }
});

async function start(
  options: {
    token?: string;
    requestTimeoutMs?: number;
    store?: (config: ReturnType<typeof resolveDedupConfig>) => DedupStore;
    ops?: OpsServer;
  } = {},
): Promise<Started> {
  await initHashing();
  const config = resolveDedupConfig('news', {
    api: { bodyLimitBytes: 4096, requestTimeoutMs: options.requestTimeoutMs ?? 30_000 },
  });
  const http: Started['http'] = [];
  // Only the calls the server makes; the OTel instruments are not under test here.
  const metrics = {
    recordHttp: (route: string, _method: string, status: number) => http.push({ route, status }),
    recordVerdicts: () => {},
    recordInvalid: () => {},
  } as unknown as DoppelMetrics;
  const store = options.store?.(config) ?? new MemoryStore(config.window, config.index);
  const server = createApiServer({
    config,
    engine: new DedupEngine(config, store),
    signer: new Signer(config.signatures, LexiconSet.defaults({})),
    ops: options.ops ?? new OpsServer(),
    metrics,
    logger: null,
    token: options.token ?? null,
  });
  running.push(server);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;
  return { port, url: `http://127.0.0.1:${port}`, server, http };
}

/** Writes raw bytes on a new connection; resolves with everything the server sent until it closed. */
function raw(
  port: number,
  chunks: Array<string | Buffer>,
  options: { end?: boolean; timeoutMs?: number } = {},
): Promise<string> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, '127.0.0.1');
    let reply = '';
    const timer = setTimeout(() => {
      socket.destroy();
      resolve(reply);
    }, options.timeoutMs ?? 5_000);
    socket.setEncoding('latin1');
    socket.on('data', (d: string) => {
      reply += d;
    });
    socket.on('error', () => undefined);
    socket.on('close', () => {
      clearTimeout(timer);
      resolve(reply);
    });
    socket.on('connect', () => {
      for (const chunk of chunks) socket.write(chunk);
      if (options.end) socket.end();
    });
    socket.on('timeout', () => reject(new Error('socket timeout')));
  });
}

function statusOf(reply: string): number {
  return Number(/^HTTP\/1\.1 (\d{3})/.exec(reply)?.[1] ?? 0);
}

function bodyOf(reply: string): { error?: { code: string; message: string } } {
  return JSON.parse(reply.slice(reply.indexOf('\r\n\r\n') + 4));
}

async function healthz(url: string): Promise<number> {
  return (await fetch(`${url}/healthz`)).status;
}

describe('malformed requests', () => {
  it('a request target that is not a URL gets 400 and the server keeps serving', async () => {
    const api = await start();
    for (const target of ['http://[', 'http://[::1', '//[', 'http://a b/']) {
      const reply = await raw(api.port, [`GET ${target} HTTP/1.1\r\nhost: x\r\n\r\n`]);
      // node's parser itself refuses some targets (400 without a body); ours get the JSON shape.
      expect(statusOf(reply), target).toBe(400);
      if (reply.includes('application/json')) expect(bodyOf(reply).error?.code).toBe('BAD_REQUEST');
    }
    expect(await healthz(api.url)).toBe(200);
  });

  it('the consumers operations port answers 400 to the same target', async () => {
    const ops = new OpsServer();
    const port = await ops.listen(0, '127.0.0.1');
    try {
      const reply = await raw(port, ['GET http://[ HTTP/1.1\r\nhost: x\r\n\r\n']);
      expect(statusOf(reply)).toBe(400);
      expect(bodyOf(reply).error?.code).toBe('BAD_REQUEST');
      expect((await fetch(`http://127.0.0.1:${port}/healthz`)).status).toBe(200);
    } finally {
      await ops.close();
    }
  });

  it('a handler that throws (synchronously or not) answers JSON 500, never ends the process', async () => {
    const ops = new OpsServer();
    const throwing = Object.assign(Object.create(ops) as OpsServer, {
      handle: (...args: Parameters<OpsServer['handle']>) => {
        if (args[2] === '/boom') throw new Error('sync boom');
        return ops.handle(...args);
      },
    });
    const api = await start({
      ops: throwing,
      store: (config) => {
        const store = new MemoryStore(config.window, config.index);
        store.verdict = () => Promise.reject(new TypeError('async boom'));
        return store;
      },
    });
    const sync = await fetch(`${api.url}/boom`);
    expect(sync.status).toBe(500);
    expect(await sync.json()).toMatchObject({
      status: 500,
      code: 'INTERNAL',
      error: { code: 'INTERNAL', message: 'internal error' },
    });
    const async = await fetch(`${api.url}/v1/messages/x`);
    expect(async.status).toBe(500);
    expect(((await async.json()) as { error: { code: string } }).error.code).toBe('INTERNAL');
    expect(await healthz(api.url)).toBe(200);
  });
});

describe('bodies and time limits', () => {
  it('413 as soon as a chunked body passes the limit, while the client is still sending', async () => {
    const api = await start();
    const head =
      'POST /v1/check HTTP/1.1\r\nhost: x\r\ncontent-type: application/json\r\ntransfer-encoding: chunked\r\n\r\n';
    const chunk = (s: string) => `${s.length.toString(16)}\r\n${s}\r\n`;
    // 5000 bytes of an unfinished body (limit 4096); the terminating chunk is never sent.
    const reply = await raw(
      api.port,
      [head, chunk(`{"id":"x","text":"${'y'.repeat(2000)}`), chunk('y'.repeat(3000))],
      {
        timeoutMs: 3_000,
      },
    );
    expect(statusOf(reply)).toBe(413);
    expect(bodyOf(reply).error?.code).toBe('TOO_LARGE');
    expect(reply.toLowerCase()).toContain('connection: close');
  });

  it('a body that does not arrive in time gets 408; /healthz answers meanwhile', async () => {
    const api = await start({ requestTimeoutMs: 300 });
    const started = Date.now();
    const pending = raw(api.port, [
      'POST /v1/check HTTP/1.1\r\nhost: x\r\ncontent-type: application/json\r\ncontent-length: 100\r\n\r\n{"id":',
    ]);
    expect(await healthz(api.url)).toBe(200);
    const reply = await pending;
    expect(statusOf(reply)).toBe(408);
    expect(bodyOf(reply).error?.code).toBe('REQUEST_TIMEOUT');
    expect(Date.now() - started).toBeLessThan(3_000);
    expect(api.http).toContainEqual({ route: '/v1/check', status: 408 });
  });

  it('an answer that is not ready in time gets 503 TIMEOUT', async () => {
    const api = await start({
      requestTimeoutMs: 300,
      store: (config) => {
        const store = new MemoryStore(config.window, config.index);
        store.verdict = () => new Promise(() => {});
        return store;
      },
    });
    const res = await fetch(`${api.url}/v1/messages/x`);
    expect(res.status).toBe(503);
    expect(((await res.json()) as { error: { code: string } }).error.code).toBe('TIMEOUT');
  });

  it('a client that goes away is counted as 499, not as a server error', async () => {
    let release: () => void = () => {};
    let entered = false;
    const api = await start({
      store: (config) => {
        const store = new MemoryStore(config.window, config.index);
        store.verdict = () =>
          new Promise((resolve) => {
            entered = true;
            release = () => resolve(null);
          });
        return store;
      },
    });
    // Gone while the handler runs...
    const controller = new AbortController();
    const request = fetch(`${api.url}/v1/messages/x`, { signal: controller.signal }).catch(() => null);
    await waitFor(() => entered);
    controller.abort();
    await request;
    await waitFor(() => api.http.length > 0);
    release();
    // ...and gone in the middle of its body.
    await raw(
      api.port,
      [
        'POST /v1/check HTTP/1.1\r\nhost: x\r\ncontent-type: application/json\r\ncontent-length: 100\r\n\r\n{"id":',
      ],
      { timeoutMs: 200 },
    );
    await waitFor(() => api.http.length > 1);
    await new Promise((r) => setTimeout(r, 50));
    expect(api.http).toEqual([
      { route: '/v1/messages/{id}', status: 499 },
      { route: '/v1/check', status: 499 },
    ]);
    expect(await healthz(api.url)).toBe(200);
  });
});

describe('bearer token', () => {
  it('/v1 needs the token (401 with WWW-Authenticate); health, metrics and the document stay open', async () => {
    const api = await start({ token: TOKEN });
    const check = (authorization?: string) =>
      fetch(`${api.url}/v1/check`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', ...(authorization ? { authorization } : {}) },
        body: JSON.stringify({ id: 'a', text: TEXT }),
      });
    const none = await check();
    expect(none.status).toBe(401);
    expect(none.headers.get('www-authenticate')).toBe('Bearer realm="doppel"');
    expect(((await none.json()) as { error: { code: string } }).error.code).toBe('UNAUTHORIZED');
    for (const wrong of [`Bearer ${TOKEN}x`, `Bearer ${TOKEN.slice(0, -1)}`, `Basic ${TOKEN}`, 'Bearer']) {
      const res = await check(wrong);
      expect(res.status, wrong).toBe(401);
      expect(res.headers.get('www-authenticate')).toContain('error="invalid_token"');
    }
    expect((await check(`Bearer ${TOKEN}`)).status).toBe(200);
    expect((await check(`bearer  ${TOKEN}`)).status).toBe(200);
    // Unknown /v1 paths are not disclosed without the token either.
    expect((await fetch(`${api.url}/v1/nothing`)).status).toBe(401);
    expect(await healthz(api.url)).toBe(200);
    expect((await fetch(`${api.url}/readyz`)).status).toBe(200);
    expect((await fetch(`${api.url}/openapi.json`)).status).toBe(200);
  });

  it('without a token the /v1 routes are open (loopback default)', async () => {
    const api = await start();
    const res = await fetch(`${api.url}/v1/check`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ id: 'a', text: TEXT }),
    });
    expect(res.status).toBe(200);
  });
});

describe('JSON errors never quote the body', () => {
  it('INVALID_JSON says kind and position, not the text', async () => {
    const api = await start();
    const secret = 'S3cretPassXYZ';
    for (const body of [
      `${secret}`,
      `{"id": "x", "text": "${secret}`,
      `{"id": "x", "text": ${secret}}`,
      `{"id": "x"} ${secret}`,
      `{${secret}: 1}`,
      `["${secret}\u0001"]`,
    ]) {
      const res = await fetch(`${api.url}/v1/check`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body,
      });
      const text = await res.text();
      expect(res.status, body).toBe(400);
      expect(text, body).not.toContain('S3cret');
      expect(text).not.toContain('XYZ');
      expect((JSON.parse(text) as { error: { code: string } }).error.code).toBe('INVALID_JSON');
    }
  });
});

async function waitFor(condition: () => boolean, timeoutMs = 5_000): Promise<void> {
  const until = Date.now() + timeoutMs;
  while (!condition()) {
    if (Date.now() > until) throw new Error('condition not reached');
    await new Promise((r) => setTimeout(r, 10));
  }
}
