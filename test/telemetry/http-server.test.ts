import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Writable } from 'node:stream';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApiServer } from '../../src/api/server.js';
import { telemetrySchema } from '../../src/config/ops.js';
import { resolveDedupConfig } from '../../src/config/profiles.js';
import { DedupEngine } from '../../src/engine/engine.js';
import { initHashing } from '../../src/hash/xxhash.js';
import { LexiconSet } from '../../src/lexicon/lexicon.js';
import { Signer } from '../../src/signatures/signer.js';
import { openStore } from '../../src/store/open.js';
import { OpsServer } from '../../src/telemetry/ops-server.js';
import { startTelemetry, type Telemetry } from '../../src/telemetry/sdk.js';
import { OtlpReceiver } from '../support/otlp-receiver.js';

/**
 * The API under the OpenTelemetry HTTP instrumentation (one SDK per test file): server spans with
 * the HTTP semantic conventions under an incoming traceparent, runtime and process metrics on
 * /metrics, 422s counted as invalid inputs, and the access log.
 */
const receiver = new OtlpReceiver();
let telemetry: Telemetry;
let server: Server;
let url = '';
const logLines: Array<Record<string, unknown>> = [];

interface JsonSpan {
  name: string;
  traceId: string;
  parentSpanId?: string;
  kind: number;
  attributes: Array<{ key: string; value: { stringValue?: string; intValue?: number | string } }>;
}

function spans(): JsonSpan[] {
  const out: JsonSpan[] = [];
  for (const b of receiver.json('/v1/traces') as Array<{
    resourceSpans: Array<{ scopeSpans: Array<{ spans: JsonSpan[] }> }>;
  }>)
    for (const rs of b.resourceSpans) for (const ss of rs.scopeSpans) out.push(...ss.spans);
  return out;
}

function attribute(span: JsonSpan, key: string): string | undefined {
  const a = span.attributes.find((x) => x.key === key);
  return a === undefined ? undefined : String(a.value.stringValue ?? a.value.intValue);
}

beforeAll(async () => {
  const endpoint = await receiver.start();
  telemetry = startTelemetry(
    telemetrySchema.parse({
      otlpEndpoint: endpoint,
      otlpProtocol: 'http/json',
      metricExportIntervalMs: 60_000,
    }),
    {},
    'news',
  );
  await initHashing();
  const config = resolveDedupConfig('news', { api: { accessLog: true } });
  const store = await openStore('memory', { config });
  const sink = new Writable({
    write(chunk: Buffer, _enc, done) {
      for (const line of chunk.toString('utf8').split('\n')) if (line) logLines.push(JSON.parse(line));
      done();
    },
  });
  server = createApiServer({
    config,
    engine: new DedupEngine(config, store),
    signer: new Signer(config.signatures, LexiconSet.defaults({})),
    ops: new OpsServer({ prometheus: telemetry.prometheus }),
    metrics: telemetry.metrics,
    logger: pino({ level: 'info' }, sink),
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(async () => {
  await new Promise<void>((resolve) => server.close(() => resolve()));
  await telemetry.shutdown();
  await receiver.stop();
});

describe('HTTP API telemetry', () => {
  it('an incoming traceparent is the parent of the server span, named by the route, with HTTP attributes', async () => {
    const traceId = '4bf92f3577b34da6a3ce929d0e0e4736';
    const parent = '00f067aa0ba902b7';
    const res = await fetch(`${url}/v1/messages`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', traceparent: `00-${traceId}-${parent}-01` },
      body: JSON.stringify({
        id: 'traced-1',
        text: 'the council voted to extend the tram line by four stops',
      }),
    });
    expect(res.status).toBe(200);
    const missing = await fetch(`${url}/v1/messages/no-such-id`);
    expect(missing.status).toBe(404);
    await telemetry.flush();
    const server = spans().filter((s) => s.kind === 2);
    const traced = server.find((s) => s.traceId === traceId);
    expect(traced?.name).toBe('POST /v1/messages');
    expect(traced?.parentSpanId).toBe(parent);
    expect(traced && attribute(traced, 'http.route')).toBe('/v1/messages');
    expect(traced && attribute(traced, 'http.request.method')).toBe('POST');
    expect(traced && attribute(traced, 'http.response.status_code')).toBe('200');
    // The signing span is a child of the server span, in the same trace.
    expect(spans().some((s) => s.name === 'signatures' && s.traceId === traceId)).toBe(true);
    const notFound = server.find((s) => s.name === 'GET /v1/messages/{id}');
    expect(notFound && attribute(notFound, 'http.response.status_code')).toBe('404');
    // Probes are not traced.
    await fetch(`${url}/healthz`);
    await telemetry.flush();
    expect(spans().some((s) => (attribute(s, 'url.path') ?? '').includes('healthz'))).toBe(false);
  });

  it('serves runtime, process and HTTP server metrics, and counts a 422 as an invalid input', async () => {
    const bad = await fetch(`${url}/v1/check`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ id: 'empty', text: ' ... ' }),
    });
    expect(bad.status).toBe(422);
    const text = await (await fetch(`${url}/metrics`)).text();
    // Event-loop utilization and time, V8 heap (RuntimeNodeInstrumentation); process CPU and memory
    // (HostMetrics); the HTTP server duration of the semantic conventions (HttpInstrumentation).
    for (const name of [
      'nodejs_eventloop_utilization',
      'nodejs_eventloop_time_total',
      'v8js_memory_heap_used',
      'process_cpu_time_total',
      'process_memory_usage',
      'http_server_request_duration_bucket',
    ])
      expect(text, name).toMatch(new RegExp(`^${name}[{ ]`, 'm'));
    expect(text).toMatch(/doppel_invalid_inputs_total\{[^}]*code="EMPTY_TEXT"[^}]*\} 1/);
    expect(text).toMatch(/http_server_request_duration_count\{[^}]*http_route="\/v1\/check"/);
  });

  it('writes one access log line per answered request, none for probes', () => {
    const requests = logLines.filter((l) => l.msg === 'request');
    expect(requests.map((l) => [l.method, l.route, l.status])).toEqual(
      expect.arrayContaining([
        ['POST', '/v1/messages', 200],
        ['GET', '/v1/messages/{id}', 404],
        ['POST', '/v1/check', 422],
      ]),
    );
    expect(requests.every((l) => typeof l.ms === 'number')).toBe(true);
    expect(requests.some((l) => String(l.route).includes('healthz'))).toBe(false);
    expect(requests.find((l) => l.route === '/v1/messages')?.traceId).toBe(
      '4bf92f3577b34da6a3ce929d0e0e4736',
    );
  });
});
