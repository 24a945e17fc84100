import { request, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { brotliCompressSync, deflateSync, gzipSync } from 'node:zlib';
import iconv from 'iconv-lite';
import type { Logger } from 'pino';
import { afterEach, describe, expect, it } from 'vitest';
import { createApiServer } from '../../src/api/server.js';
import { resolveDedupConfig } from '../../src/config/profiles.js';
import { DedupEngine } from '../../src/engine/engine.js';
import type { DedupStore } from '../../src/engine/types.js';
import { initHashing } from '../../src/hash/xxhash.js';
import { LexiconSet } from '../../src/lexicon/lexicon.js';
import { Signer } from '../../src/signatures/signer.js';
import { MemoryStore } from '../../src/store/memory/store.js';
import { OpsServer } from '../../src/telemetry/ops-server.js';

// Field values and bodies a hostile client sends to the check API (`doppel serve`).

const TEXT =
  'Городской совет во вторник проголосовал за продление северной линии трамвая на шесть остановок.';
const LIMIT = 4096;

const running: Server[] = [];
afterEach(async () => {
  for (const server of running.splice(0)) {
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  }
});

interface Logged {
  obj: Record<string, unknown>;
  msg: string;
}

async function start(
  store?: (config: ReturnType<typeof resolveDedupConfig>) => DedupStore,
): Promise<{ url: string; logged: Logged[] }> {
  await initHashing();
  const config = resolveDedupConfig('news', { api: { bodyLimitBytes: LIMIT } });
  const logged: Logged[] = [];
  const logger = {
    error: (obj: Record<string, unknown>, msg: string) => logged.push({ obj, msg }),
    debug: () => {},
  } as unknown as Logger;
  const server = createApiServer({
    config,
    engine: new DedupEngine(config, store?.(config) ?? new MemoryStore(config.window, config.index)),
    signer: new Signer(config.signatures, LexiconSet.defaults({})),
    ops: new OpsServer(),
    metrics: null,
    logger,
  });
  running.push(server);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, logged };
}

function post(
  url: string,
  body: string | Buffer,
  headers: Record<string, string> = { 'content-type': 'application/json' },
): Promise<Response> {
  return fetch(url, { method: 'POST', headers, body });
}

/** A GET whose path goes out as written (fetch() would remove dot segments, as WHATWG URLs do). */
function rawGet(url: string, path: string): Promise<{ status: number; body: string }> {
  const { hostname, port } = new URL(url);
  return new Promise((resolve, reject) => {
    const req = request({ host: hostname, port, path, method: 'GET' }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () =>
        resolve({ status: res.statusCode ?? 0, body: Buffer.concat(chunks).toString('utf8') }),
      );
    });
    req.on('error', reject);
    req.end();
  });
}

async function errorOf(res: Response): Promise<{ code: string; message: string }> {
  return ((await res.json()) as { error: { code: string; message: string } }).error;
}

describe('hostile field values', () => {
  it('lang "constructor" is und, not fatal (200, no 500 with a stack)', async () => {
    const api = await start();
    for (const lang of ['constructor', '__proto__', 'toString', 'CONSTRUCTOR', 'constructor-RU']) {
      const res = await post(`${api.url}/v1/messages`, JSON.stringify({ id: `l-${lang}`, lang, text: TEXT }));
      expect(res.status, lang).toBe(200);
    }
  });

  it('numeric ids above 2^53 are refused (422 INVALID_MESSAGE), not merged into one', async () => {
    const api = await start();
    for (const id of ['12345678901234567890', '12345678901234567891', '1e400', '2.5']) {
      const res = await post(`${api.url}/v1/messages`, `{"id":${id},"text":"some words here"}`);
      expect(res.status, id).toBe(422);
      expect((await errorOf(res)).code, id).toBe('INVALID_MESSAGE');
    }
  });

  it('ill-formed ids are refused: a lone surrogate, and ill-formed UTF-8 bytes (never U+FFFD)', async () => {
    const api = await start();
    const surrogate = await post(`${api.url}/v1/messages`, '{"id":"\\ud800","text":"some words here"}');
    expect(surrogate.status).toBe(422);
    expect((await errorOf(surrogate)).code).toBe('INVALID_MESSAGE');
    for (const bytes of [[0xff], [0xfe]]) {
      const body = Buffer.concat([
        Buffer.from('{"id":"x'),
        Buffer.from(bytes),
        Buffer.from('","text":"the same words"}'),
      ]);
      const res = await post(`${api.url}/v1/messages`, body);
      expect(res.status).toBe(422);
      expect((await errorOf(res)).code).toBe('UNDECODABLE');
    }
    // Neither was indexed under "x\ufffd".
    expect((await fetch(`${api.url}/v1/messages/${encodeURIComponent('x\ufffd')}`)).status).toBe(404);
  });

  it('ids "." and ".." are fetchable by GET, percent-encoded', async () => {
    const api = await start();
    for (const id of ['.', '..']) {
      const res = await post(`${api.url}/v1/messages`, JSON.stringify({ id, text: `${TEXT} ${id.length}` }));
      expect(res.status).toBe(200);
    }
    for (const [path, id] of [
      ['%2E', '.'],
      ['%2e%2E', '..'],
      ['.', '.'],
    ]) {
      const res = await rawGet(api.url, `/v1/messages/${path}`);
      expect(res.status, path).toBe(200);
      expect((JSON.parse(res.body) as { id: string }).id).toBe(id);
    }
  });
});

describe('body charset and content-encoding', () => {
  it('decodes the body by its charset parameter (KOI8-R, windows-1251)', async () => {
    const api = await start();
    const first = await post(`${api.url}/v1/messages`, JSON.stringify({ id: 'utf8', text: TEXT }));
    expect(((await first.json()) as { verdict: string }).verdict).toBe('unique');
    for (const charset of ['koi8-r', 'windows-1251', 'CP1251']) {
      const res = await post(
        `${api.url}/v1/check`,
        iconv.encode(JSON.stringify({ id: `c-${charset}`, text: TEXT }), charset),
        { 'content-type': `application/json; charset=${charset}` },
      );
      expect(res.status, charset).toBe(200);
      const verdict = (await res.json()) as { verdict: string; duplicateOf: string };
      expect([verdict.verdict, verdict.duplicateOf], charset).toEqual(['duplicate', 'utf8']);
    }
  });

  it('a charset doppel does not decode is 415, whatever its name', async () => {
    const api = await start();
    for (const charset of ['shift_jis', 'constructor', '__proto__', 'utf-7']) {
      const res = await post(`${api.url}/v1/check`, JSON.stringify({ id: 'x', text: 'a b' }), {
        'content-type': `application/json; charset=${charset}`,
      });
      expect(res.status, charset).toBe(415);
      expect((await errorOf(res)).code).toBe('UNSUPPORTED_MEDIA_TYPE');
    }
  });

  it('inflates gzip, deflate and br bodies; another coding is 415', async () => {
    const api = await start();
    const body = Buffer.from(JSON.stringify({ id: 'z', text: TEXT }));
    for (const [coding, bytes] of [
      ['gzip', gzipSync(body)],
      ['deflate', deflateSync(body)],
      ['br', brotliCompressSync(body)],
    ] as const) {
      const res = await post(`${api.url}/v1/check`, bytes, {
        'content-type': 'application/json',
        'content-encoding': coding,
      });
      expect(res.status, coding).toBe(200);
    }
    for (const coding of ['compress', 'gzip, br', 'constructor']) {
      const res = await post(`${api.url}/v1/check`, body, {
        'content-type': 'application/json',
        'content-encoding': coding,
      });
      expect(res.status, coding).toBe(415);
    }
    const broken = await post(`${api.url}/v1/check`, body, {
      'content-type': 'application/json',
      'content-encoding': 'gzip',
    });
    expect(broken.status).toBe(400);
  });

  it('a gzip bomb is 413: the limit applies to the decoded size, and no more is inflated', async () => {
    const api = await start();
    // 1 MB of JSON (a string of spaces): about 1 kB gzipped, under the 4 kB limit as sent.
    const bomb = gzipSync(Buffer.from(`{"id":"b","text":"${' '.repeat(1_000_000)}x"}`));
    expect(bomb.length).toBeLessThan(LIMIT);
    const res = await post(`${api.url}/v1/check`, bomb, {
      'content-type': 'application/json',
      'content-encoding': 'gzip',
    });
    expect(res.status).toBe(413);
    expect((await errorOf(res)).code).toBe('TOO_LARGE');
  });
});

describe('server errors', () => {
  it('a 5xx body never carries a stack trace or a file path: a generic message and a request id', async () => {
    const api = await start((config) => {
      const store = new MemoryStore(config.window, config.index);
      store.verdict = () =>
        Promise.reject(
          new TypeError(`boom at ${import.meta.filename}:1:1\n    at secret (/srv/app/x.js:2:3)`),
        );
      return store;
    });
    const res = await fetch(`${api.url}/v1/messages/x`);
    expect(res.status).toBe(500);
    const body = (await res.json()) as Record<string, unknown>;
    const requestId = res.headers.get('x-request-id');
    expect(requestId).toMatch(/^[0-9a-f-]{36}$/);
    const message = `internal error (request ${requestId})`;
    expect(body).toMatchObject({ code: 'INTERNAL', detail: message, requestId });
    expect(body.error).toEqual({ code: 'INTERNAL', message });
    expect(JSON.stringify(body)).not.toMatch(/boom|\.js|\.ts|\/srv|at secret/);
    // The log has what the client does not: the message and the stack, under the same id.
    const entry = api.logged.find((l) => l.obj.requestId === requestId);
    expect(entry?.obj.err).toContain('boom at');
    expect(String(entry?.obj.stack)).toContain('TypeError');
  });
});
