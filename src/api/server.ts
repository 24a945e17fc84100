import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { Logger } from 'pino';
import type { DedupConfig } from '../config/dedup.js';
import type { DedupEngine, EngineVerdict } from '../engine/engine.js';
import { DoppelError, toDoppelError } from '../errors.js';
import { parseMessageObject } from '../input/message.js';
import { verdictRecord } from '../output/verdict-record.js';
import { signMessage } from '../pipeline/sign.js';
import type { Signer } from '../signatures/signer.js';
import type { DoppelMetrics } from '../telemetry/metrics.js';
import { type OpsServer, sendJson } from '../telemetry/ops-server.js';
import { withSpan } from '../telemetry/trace.js';
import { httpStatus } from './errors.js';
import { OPENAPI } from './openapi.js';

export interface ApiDependencies {
  config: DedupConfig;
  engine: DedupEngine;
  signer: Signer;
  /** /healthz, /readyz, /metrics. */
  ops: OpsServer;
  metrics: DoppelMetrics | null;
  logger: Logger | null;
  /** Event time of a message without `ts` (tests fix it). */
  now?: () => number;
}

type Handler = (req: IncomingMessage, params: string[], url: URL) => Promise<[number, unknown]>;

interface Route {
  method: 'GET' | 'POST';
  /** The OpenAPI path template, also the `route` label of the HTTP metrics. */
  template: string;
  pattern: RegExp;
  handler: Handler;
}

/**
 * The HTTP check API (`doppel serve`) on node:http: six fixed routes do not need a framework, and
 * zod (already the config and message validator) checks the bodies. The same engine and store as
 * the consumers: /v1/messages indexes, /v1/check only queries (DedupEngine.check).
 */
export function createApiServer(deps: ApiDependencies): Server {
  const { config, engine, signer, metrics, logger } = deps;
  const now = deps.now ?? Date.now;
  const profile = config.profile;

  const decide = async (req: IncomingMessage, index: boolean): Promise<[number, unknown]> => {
    const body = await readJsonBody(req, config.api.bodyLimitBytes);
    const message = parseMessageObject(body);
    const signed = await withSpan('signatures', () => signMessage(message, signer));
    const started = performance.now();
    const input = { signed, ts: message.ts ?? now() };
    const [verdict] = index ? await engine.processBatch([input]) : await engine.check([input]);
    const v = verdict as EngineVerdict;
    if (index) metrics?.recordVerdicts(profile, [v], (performance.now() - started) / 1000);
    logger?.debug({ id: v.id, verdict: v.verdict, clusterId: v.clusterId, indexed: index }, 'verdict');
    return [200, { ...verdictRecord(v), candidates: v.candidates, indexed: index && !v.replay }];
  };

  const routes: Route[] = [
    { method: 'POST', template: '/v1/check', pattern: /^\/v1\/check$/, handler: (req) => decide(req, false) },
    {
      method: 'POST',
      template: '/v1/messages',
      pattern: /^\/v1\/messages$/,
      handler: (req) => decide(req, true),
    },
    {
      method: 'GET',
      template: '/v1/messages/{id}',
      pattern: /^\/v1\/messages\/([^/]+)$/,
      handler: async (_req, [raw]) => {
        const id = decodeId(raw as string);
        const stored = await engine.store.verdict(id);
        if (!stored)
          throw new DoppelError(
            'NOT_FOUND',
            `message "${id}" is not in the index (never seen, undecided or expired)`,
          );
        return [
          200,
          {
            ...stored,
            clusterId: await engine.store.resolveCluster(stored.clusterId),
            clusterIdAtDecision: stored.clusterId,
          },
        ];
      },
    },
    {
      method: 'GET',
      template: '/v1/clusters/{id}',
      pattern: /^\/v1\/clusters\/([^/]+)$/,
      handler: async (_req, [raw], url) => {
        const id = decodeId(raw as string);
        const limit = pageLimit(url.searchParams.get('limit'), config.api.maxPageSize);
        const cursor = pageCursor(url.searchParams.get('cursor'));
        const cluster = await engine.store.cluster(id);
        if (!cluster)
          throw new DoppelError('NOT_FOUND', `cluster "${id}" is not in the index (unknown or expired)`);
        const page = engine.store.clusterMembers
          ? await engine.store.clusterMembers(cluster.id, cursor, limit)
          : null;
        return [200, { ...cluster, members: page }];
      },
    },
    {
      method: 'GET',
      template: '/openapi.json',
      pattern: /^\/openapi\.json$/,
      handler: async () => [200, OPENAPI],
    },
  ];

  const server = createServer((req, res) => {
    const started = performance.now();
    let template = 'unmatched';
    const finish = (status: number, body: unknown) => {
      if (!res.headersSent) sendJson(res, status, body);
      metrics?.recordHttp(template, req.method ?? '', status, (performance.now() - started) / 1000);
    };
    if (deps.ops.handle(req, res)) return;
    const url = new URL(req.url ?? '/', 'http://localhost');
    const matching = routes.filter((r) => r.pattern.test(url.pathname));
    const route = matching.find((r) => r.method === req.method);
    const run = async (): Promise<[number, unknown]> => {
      if (matching.length === 0) throw new DoppelError('NOT_FOUND', `no route ${url.pathname}`);
      if (!route) {
        res.setHeader('allow', matching.map((r) => r.method).join(', '));
        throw new DoppelError(
          'METHOD_NOT_ALLOWED',
          `${url.pathname} takes ${matching.map((r) => r.method).join(', ')}`,
        );
      }
      template = route.template;
      const params = (route.pattern.exec(url.pathname) ?? []).slice(1);
      return withSpan(`HTTP ${route.method} ${route.template}`, () => route.handler(req, params, url), {
        attributes: { 'http.route': route.template },
      });
    };
    run().then(
      ([status, body]) => finish(status, body),
      (thrown: unknown) => {
        const error = toDoppelError(thrown);
        const status = httpStatus(error.code);
        if (status >= 500)
          logger?.error({ code: error.code, err: error.message, route: template }, 'request failed');
        if (error.code === 'TOO_LARGE') res.setHeader('connection', 'close');
        if (error.retryable) res.setHeader('retry-after', '1');
        finish(status, { error: error.toJSON() });
      },
    );
  });
  server.requestTimeout = config.api.requestTimeoutMs;
  return server;
}

/** The body as JSON: application/json only, at most `limit` bytes (413 before reading more). */
export async function readJsonBody(req: IncomingMessage, limit: number): Promise<unknown> {
  const type = String(req.headers['content-type'] ?? '')
    .split(';')[0]
    ?.trim()
    .toLowerCase();
  if (type !== 'application/json')
    throw new DoppelError(
      'UNSUPPORTED_MEDIA_TYPE',
      `content-type must be application/json, not "${type || 'none'}"`,
    );
  const declared = Number(req.headers['content-length'] ?? Number.NaN);
  if (declared > limit) throw new DoppelError('TOO_LARGE', `body is larger than ${limit} bytes`);
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size > limit) throw new DoppelError('TOO_LARGE', `body is larger than ${limit} bytes`);
    chunks.push(chunk);
  }
  try {
    return JSON.parse(Buffer.concat(chunks).toString('utf8'));
  } catch (error) {
    throw new DoppelError('INVALID_JSON', (error as Error).message);
  }
}

function decodeId(raw: string): string {
  try {
    const id = decodeURIComponent(raw);
    if (id.length > 0 && id.length <= 1024) return id;
  } catch {}
  throw new DoppelError(
    'BAD_REQUEST',
    'the id in the path is not a valid percent-encoded id of 1 to 1024 characters',
  );
}

function pageLimit(value: string | null, max: number): number {
  if (value === null) return Math.min(50, max);
  const n = Number(value);
  if (!Number.isInteger(n) || n < 1 || n > max)
    throw new DoppelError('BAD_REQUEST', `limit must be an integer from 1 to ${max}`);
  return n;
}

function pageCursor(value: string | null): number {
  if (value === null) return 0;
  const n = Number(value);
  if (!Number.isInteger(n) || n < 0)
    throw new DoppelError('BAD_REQUEST', 'cursor must be a non-negative integer (the next field of a page)');
  return n;
}
