import { request } from 'node:http';
import { connect } from 'node:net';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { httpStatus } from '../../src/api/errors.js';
import { ERROR_CODES, type ErrorCode } from '../../src/errors.js';
import type { ServeProcess } from '../support/serve-process.js';
import {
  brokenHtml,
  brokenMail,
  deepJson,
  hostileMessage,
  INPUT_ERROR_CODES,
  SAMPLES,
} from './support/hostile.js';
import { faultSeed } from './support/seed.js';
import { quietServe } from './support/serve.js';

/**
 * `doppel serve` (memory store) under hostile requests: malformed request targets sent on a raw
 * socket, generated paths and query strings, generated bodies (hostile messages, JSON that is not
 * a message, random bytes, truncated and deeply nested JSON, over-limit bodies) under right and
 * wrong content types. The process must never exit, never answer 5xx, and every error answer is
 * `{error: {code, message}}` with the status its code maps to.
 */

const SEED = faultSeed('api fuzz', 4_242);
let server: ServeProcess | undefined;
let port: number;
/** The server's last output, for failure messages. */
const output = () => server?.output().slice(-20_000) ?? '';

beforeAll(async () => {
  server = await quietServe();
  port = server.port;
});

afterAll(async () => {
  await server?.stop();
});

interface Reply {
  status: number;
  body: string;
}

interface SendOptions {
  method: string;
  path: string;
  body?: Buffer | string;
  contentType?: string | null;
}

/**
 * One request. A server that refuses a request on its headers (415, 413 on a declared length)
 * answers and closes while a client may still be writing a large body: the client then meets
 * EPIPE / ECONNRESET, maybe before it has read the answer. Such a request is sent again with its
 * headers first and its body only if no answer comes within 2 s, so the answer is always read; a
 * server that is gone fails the second attempt (ECONNREFUSED).
 */
async function send(options: SendOptions): Promise<Reply> {
  try {
    return await attempt(options, false);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code !== 'EPIPE' && code !== 'ECONNRESET') throw error;
    return attempt(options, true);
  }
}

function attempt(options: SendOptions, headersFirst: boolean): Promise<Reply> {
  return new Promise((resolve, reject) => {
    const headers: Record<string, string> = {};
    if (options.contentType !== null) headers['content-type'] = options.contentType ?? 'application/json';
    if (headersFirst && options.body !== undefined)
      headers['content-length'] = String(Buffer.byteLength(options.body));
    let answered = false;
    const req = request(
      { host: '127.0.0.1', port, method: options.method, path: options.path, headers, timeout: 30_000 },
      (res) => {
        answered = true;
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => {
          resolve({ status: res.statusCode ?? 0, body: Buffer.concat(chunks).toString('utf8') });
          if (headersFirst) req.destroy();
        });
      },
    );
    req.on('error', (e: NodeJS.ErrnoException) => {
      if (!answered) reject(e);
    });
    req.on('timeout', () => req.destroy(new Error('timeout')));
    if (!headersFirst) {
      req.end(options.body);
      return;
    }
    req.flushHeaders();
    setTimeout(() => {
      if (!answered && !req.destroyed) req.end(options.body);
    }, 2_000).unref();
  });
}

/** A request written byte for byte (targets an HTTP client refuses to send). */
function sendRaw(head: string, body = ''): Promise<Reply> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, '127.0.0.1');
    let data = '';
    socket.setTimeout(15_000, () => socket.destroy(new Error('timeout')));
    socket.on('data', (c: Buffer) => {
      data += c.toString('latin1');
    });
    socket.on('error', (e: NodeJS.ErrnoException) =>
      e.code === 'ECONNRESET' && data ? undefined : reject(e),
    );
    socket.on('close', () => {
      const status = Number(/^HTTP\/1\.1 (\d{3})/.exec(data)?.[1] ?? 0);
      resolve({ status, body: data.slice(data.indexOf('\r\n\r\n') + 4) });
    });
    socket.write(
      `${head}\r\nHost: x\r\nConnection: close\r\n${body ? `Content-Type: application/json\r\nContent-Length: ${Buffer.byteLength(body)}\r\n` : ''}\r\n${body}`,
      'latin1',
    );
  });
}

/** Alive, and an answer the API can give for hostile input: never 5xx; errors in the documented shape. */
function checkReply(
  what: string,
  reply: Reply,
  allowed: number[] = [200, 400, 404, 405, 409, 413, 415, 422],
): void {
  expect(server?.child.exitCode, `${what}: server exited\n${output()}`).toBeNull();
  expect(allowed, `${what}: status ${reply.status} ${reply.body.slice(0, 300)}`).toContain(reply.status);
  if (reply.status === 200 || reply.body === '') return;
  let parsed: { error?: { code?: string; message?: string } };
  try {
    parsed = JSON.parse(reply.body) as typeof parsed;
  } catch {
    // Node's own HTTP parser answers a request it cannot parse with a bare 400.
    expect(reply.status, `${what}: not JSON: ${reply.body.slice(0, 200)}`).toBe(400);
    return;
  }
  const code = parsed.error?.code as ErrorCode;
  expect(Object.keys(ERROR_CODES), `${what}: ${reply.body.slice(0, 300)}`).toContain(code);
  expect(code, what).not.toBe('INTERNAL');
  expect(typeof parsed.error?.message, what).toBe('string');
  expect(reply.status, `${what}: ${code}`).toBe(httpStatus(code));
}

async function alive(what: string): Promise<void> {
  const health = await send({ method: 'GET', path: '/healthz' });
  expect(health.status, `${what}: /healthz after it\n${output()}`).toBe(200);
}

describe('doppel serve: malformed request targets', () => {
  const targets = [
    '//[',
    '//[::1',
    'http://[',
    '//a:b@[x]/v1/check',
    '///',
    '//',
    '/%',
    '/v1/messages/%',
    '/v1/messages/%E0%A4%A',
    '/v1/messages/%ED%A0%80',
    '/v1/messages/%00',
    `/v1/messages/${'a'.repeat(5000)}`,
    `/v1/messages/${'%41'.repeat(2000)}`,
    '/v1/clusters/x?limit=%',
    '/v1/clusters/x?limit=-1&cursor=1e999',
    '/v1/clusters/%FF?cursor=abc',
    '/..%2f..%2fetc%2fpasswd',
    '*',
    '?',
    '#',
    'v1/check',
    '/v1/check?\u00ff',
    'http://x:99999999/v1/check',
    '/v1/messages/\u00e9',
  ];
  for (const target of targets) {
    it(`GET ${JSON.stringify(target.slice(0, 60))}`, async () => {
      const reply = await sendRaw(`GET ${target} HTTP/1.1`);
      checkReply(`GET ${target}`, reply);
      await alive(target);
    });
  }

  it('POST to malformed targets with a valid body', async () => {
    for (const target of ['//[', 'http://[/v1/check', '/v1/check%', '/v1/messages/%']) {
      const reply = await sendRaw(`POST ${target} HTTP/1.1`, JSON.stringify({ id: 'x', text: SAMPLES.en }));
      checkReply(`POST ${target}`, reply);
      await alive(target);
    }
  });
});

describe('doppel serve: generated paths, methods and bodies', () => {
  it('generated paths and query strings on every method', async () => {
    const cases = fc.sample(
      fc.tuple(
        fc.constantFrom('GET', 'POST', 'PUT', 'DELETE', 'PATCH', 'OPTIONS', 'HEAD'),
        fc.oneof(
          fc.webPath(),
          fc
            .tuple(
              fc.constantFrom('/v1/messages/', '/v1/clusters/'),
              fc.string({ unit: 'binary', maxLength: 40 }),
            )
            .map(
              ([p, s]) =>
                p +
                encodeURIComponent(s).replace(
                  /%2/g,
                  fc.sample(fc.constantFrom('%2', '%', '%%', '%g2'), 1)[0]!,
                ),
            ),
          fc.tuple(fc.webPath(), fc.webQueryParameters()).map(([p, q]) => `/v1/clusters/${p}?${q}`),
        ),
      ),
      { seed: SEED, numRuns: 250 },
    );
    for (const [method, rawPath] of cases) {
      const path = rawPath.startsWith('/') ? rawPath : `/${rawPath}`;
      const reply = await send({
        method,
        path,
        body: method === 'GET' || method === 'HEAD' ? undefined : '{}',
      });
      checkReply(`${method} ${path}`, reply);
    }
    await alive('generated paths');
  }, 120_000);

  it('generated bodies on /v1/check and /v1/messages', async () => {
    let n = 0;
    const body = fc.oneof(
      fc
        .nat()
        .chain((i) => hostileMessage(`api-${i}`, i))
        .map((m) => JSON.stringify(m)),
      fc.jsonValue({ maxDepth: 4 }).map((v) => JSON.stringify(v)),
      fc.uint8Array({ maxLength: 3000 }).map((b) => Buffer.from(b)),
      fc
        .tuple(fc.nat(), fc.nat(1000))
        .map(([at, i]) => JSON.stringify({ id: `api-t${i}`, text: SAMPLES.ru }).slice(0, at % 60)),
      fc
        .integer({ min: 1, max: 300_000 })
        .map((d) => deepJson(d, d % 2 === 0, d % 3 === 0 ? 'object' : 'array')),
      brokenHtml.map((html) => JSON.stringify({ id: `api-h${n++}`, html })),
      brokenMail.map((m) => JSON.stringify({ id: `api-m${n++}`, raw: m.toString('base64') })),
    );
    const contentType = fc.oneof(
      { weight: 8, arbitrary: fc.constant('application/json') },
      fc.constantFrom(
        null,
        'text/plain',
        'application/json; charset=koi8-r',
        'APPLICATION/JSON',
        'application/json, text/html',
        ';',
        '',
      ),
    );
    const cases = fc.sample(fc.tuple(fc.constantFrom('/v1/check', '/v1/messages'), body, contentType), {
      seed: SEED + 1,
      numRuns: Number(process.env.DOPPEL_FAULTS_API_RUNS ?? 600),
    });
    const statuses = new Map<number, number>();
    for (const [path, payload, type] of cases) {
      const reply = await send({ method: 'POST', path, body: payload, contentType: type });
      checkReply(`POST ${path} ${String(payload).slice(0, 80)}`, reply);
      if (reply.status === 200) {
        // One message: its verdict; a batch (a JSON array): a verdict or an input error per item.
        type Item = { verdict?: string; code?: string };
        const answer = JSON.parse(reply.body) as Item & { results?: Item[] };
        for (const item of answer.results ?? [answer]) {
          if (item.code === undefined)
            expect(['unique', 'duplicate', 'near_duplicate']).toContain(item.verdict);
          else expect(INPUT_ERROR_CODES as readonly string[]).toContain(item.code);
        }
      } else if (reply.status === 409) {
        expect((JSON.parse(reply.body) as { verdict: { conflict: boolean } }).verdict.conflict).toBe(true);
      } else if (reply.status === 422) {
        expect(INPUT_ERROR_CODES as readonly string[]).toContain(
          (JSON.parse(reply.body) as { error: { code: string } }).error.code,
        );
      }
      statuses.set(reply.status, (statuses.get(reply.status) ?? 0) + 1);
    }
    process.stdout.write(
      `[faults] api bodies: ${cases.length} requests, statuses ${JSON.stringify(Object.fromEntries(statuses))}\n`,
    );
    await alive('generated bodies');
  }, 300_000);

  it('an over-limit body is 413 (declared or streamed), and the server goes on', async () => {
    const big = JSON.stringify({ id: 'big', text: 'word '.repeat(300_000) });
    // Declared: the 413 comes on the headers and the server closes the connection, so the
    // headers go first and the body only if no answer came (see send).
    const declared = await attempt({ method: 'POST', path: '/v1/check', body: big }, true);
    checkReply('declared big body', declared, [413]);
    // Chunked: no content-length, the limit is found while reading.
    const reply = await new Promise<Reply>((resolve, reject) => {
      const req = request(
        {
          host: '127.0.0.1',
          port,
          method: 'POST',
          path: '/v1/messages',
          headers: { 'content-type': 'application/json' },
        },
        (res) => {
          const chunks: Buffer[] = [];
          res.on('data', (c: Buffer) => chunks.push(c));
          res.on('end', () =>
            resolve({ status: res.statusCode ?? 0, body: Buffer.concat(chunks).toString() }),
          );
        },
      );
      req.on('error', (e: NodeJS.ErrnoException) =>
        e.code === 'EPIPE' || e.code === 'ECONNRESET' ? undefined : reject(e),
      );
      for (let i = 0; i < 30; i++) req.write('x'.repeat(64 * 1024));
      req.end();
    });
    checkReply('streamed big body', reply, [413]);
    await alive('over-limit bodies');
  });

  it('a 1 MiB body of a hostile shape is answered quickly', async () => {
    for (const text of [
      '\n'.repeat(500_000),
      '-\n'.repeat(300_000),
      '@'.repeat(1_000_000),
      ' '.repeat(1_000_000),
    ]) {
      const started = performance.now();
      const reply = await send({
        method: 'POST',
        path: '/v1/check',
        body: JSON.stringify({ id: 'shape', text }),
      });
      checkReply('shape', reply);
      expect(performance.now() - started).toBeLessThan(2_000);
    }
    await alive('hostile shapes');
  });
});
