import { createHash, randomUUID, timingSafeEqual } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { trace } from '@opentelemetry/api';
import type { Logger } from 'pino';
import type { DedupConfig } from '../config/dedup.js';
import type { DedupEngine, EngineVerdict } from '../engine/engine.js';
import { DoppelError, ERROR_CODES, isInputError, toDoppelError } from '../errors.js';
import { parseMessageObject } from '../input/message.js';
import { verdictRecord } from '../output/verdict-record.js';
import { MessageFlow } from '../pipeline/flow.js';
import { unpackItem } from '../pipeline/prepared-wire.js';
import type { SignPool } from '../pipeline/sign-pool.js';
import type { Signer } from '../signatures/signer.js';
import { PROBLEM_JSON, problem, requestTarget, safeListener, sendJson } from '../telemetry/http.js';
import type { DoppelMetrics } from '../telemetry/metrics.js';
import type { OpsServer } from '../telemetry/ops-server.js';
import { setHttpRoute, withSpan } from '../telemetry/trace.js';
import { checkBatchSize, judgeBatch } from './batch.js';
import { type BodyItem, readMessagesBody } from './body.js';
import { getCluster, listClusters } from './clusters.js';
import { httpStatus } from './errors.js';
import { OPENAPI } from './openapi.js';
import { verdictOut } from './times.js';
import { handleWeb } from './web.js';
import { explainMessage } from './why.js';

export interface ApiDependencies {
  config: DedupConfig;
  engine: DedupEngine;
  signer: Signer;
  /**
   * Sign workers (pipeline/sign-pool.ts): bodies are signed off the event loop, so a large body
   * does not hold up /healthz and other requests. None: signed on the event loop with `signer`.
   */
  pool?: SignPool | null;
  /** /healthz, /readyz, /metrics. */
  ops: OpsServer;
  metrics: DoppelMetrics | null;
  logger: Logger | null;
  /** Event time of a message without `ts` (tests fix it). */
  now?: () => number;
  /** Bearer token the /v1 routes require (DOPPEL_API_TOKEN / _FILE); none: the routes are open. */
  token?: string | null;
}

/** A route's answer: status, JSON body and any extra headers. */
type Answer = [status: number, body: unknown, headers?: Record<string, string>];

type Handler = (req: IncomingMessage, params: string[], url: URL) => Promise<Answer>;

interface Route {
  method: 'GET' | 'POST';
  /** The OpenAPI path template, also the `route` label of the HTTP metrics. */
  template: string;
  pattern: RegExp;
  handler: Handler;
}

/**
 * The HTTP check API (`doppel serve`) on node:http: seven fixed routes do not need a framework, and
 * zod (already the config and message validator) checks the bodies. The same engine and store as
 * the consumers: /v1/messages indexes, /v1/check only queries (DedupEngine.check).
 */
export function createApiServer(deps: ApiDependencies): Server {
  const { config, engine, signer, metrics, logger } = deps;
  const pool = deps.pool ?? null;
  const now = deps.now ?? Date.now;
  const profile = config.profile;

  const flow = new MessageFlow(engine, signer);
  const answer = (v: EngineVerdict, index: boolean) => ({
    ...verdictRecord(v),
    candidates: v.candidates,
    indexed: index && !v.replay,
  });
  const verdictOf = async (req: IncomingMessage, index: boolean): Promise<Answer> => {
    const body = await readMessagesBody(req, config.api.bodyLimitBytes);
    if (body.batch) return batchOf(body.items, index);
    const message = parseMessageObject(body.value);
    const request = await withSpan('signatures', async () => {
      if (!pool) return flow.prepare(message, message.ts ?? now());
      const item = unpackItem(await pool.prepareMessages([message]), 0);
      if (!item.ok) throw item.bug ? new Error(item.error.message) : item.error;
      return { ...item.request, ts: item.ts ?? now() };
    });
    const started = performance.now();
    const [verdict] = index ? await flow.process([request]) : await flow.check([request]);
    const v = verdict as EngineVerdict;
    if (index) metrics?.recordVerdicts(profile, [v], (performance.now() - started) / 1000);
    logger?.debug({ id: v.id, verdict: v.verdict, clusterId: v.clusterId, indexed: index }, 'verdict');
    if (v.eventTimeClamped) logger?.warn({ id: v.id }, 'event time clamped (window.maxFutureSkewMs)');
    if (v.conflict) {
      // Not an error of the service: the client reused an id. 409 with the first verdict, so a
      // client that retries a send it thought lost is told what the id already holds.
      const detail = `message "${v.id}" was decided before with other content (another exact hash); its first verdict is in "verdict"`;
      return [
        409,
        { ...problem(409, 'ID_CONFLICT', detail), verdict: answer(v, index) },
        { 'content-type': PROBLEM_JSON },
      ];
    }
    return [200, answer(v, index)];
  };
  const batchOf = async (items: BodyItem[], index: boolean): Promise<Answer> => {
    checkBatchSize(items.length, config.api.maxBatchItems);
    const started = performance.now();
    const outcomes = await withSpan('signatures', () => judgeBatch(items, index, { flow, pool, now }));
    const verdicts: EngineVerdict[] = [];
    const results = outcomes.map((o) => {
      if (o.ok) {
        verdicts.push(o.verdict);
        if (o.verdict.eventTimeClamped)
          logger?.warn({ id: o.verdict.id }, 'event time clamped (window.maxFutureSkewMs)');
        return answer(o.verdict, index);
      }
      metrics?.recordInvalid(profile, o.problem.code);
      return o.problem;
    });
    if (index && verdicts.length > 0)
      metrics?.recordVerdicts(profile, verdicts, (performance.now() - started) / 1000);
    logger?.debug({ items: items.length, verdicts: verdicts.length, indexed: index }, 'batch');
    return [200, { results }];
  };

  const routes: Route[] = [
    {
      method: 'POST',
      template: '/v1/check',
      pattern: /^\/v1\/check$/,
      handler: (req) => verdictOf(req, false),
    },
    {
      method: 'POST',
      template: '/v1/messages',
      pattern: /^\/v1\/messages$/,
      handler: (req) => verdictOf(req, true),
    },
    {
      method: 'GET',
      template: '/v1/messages/{id}',
      pattern: /^\/v1\/messages\/([^/]+)$/,
      handler: async (_req, [raw]) => {
        const id = decodeId(raw as string);
        const stored = await engine.store.verdict(id, { detail: true });
        if (!stored)
          throw new DoppelError(
            'NOT_FOUND',
            `message "${id}" is not in the index (never seen, undecided or expired)`,
          );
        return [
          200,
          {
            ...verdictOut(stored),
            clusterId: await engine.store.resolveCluster(stored.clusterId),
            clusterIdAtDecision: stored.clusterId,
          },
        ];
      },
    },
    {
      method: 'GET',
      template: '/v1/messages/{id}/why',
      pattern: /^\/v1\/messages\/([^/]+)\/why$/,
      handler: (_req, [raw]) => explainMessage(engine.store, decodeId(raw as string)),
    },
    {
      method: 'GET',
      template: '/v1/clusters',
      pattern: /^\/v1\/clusters$/,
      handler: (_req, _params, url) => listClusters(engine, config, url),
    },
    {
      method: 'GET',
      template: '/v1/clusters/{id}',
      pattern: /^\/v1\/clusters\/([^/]+)$/,
      handler: (_req, [raw], url) => getCluster(engine, config, decodeId(raw as string), url),
    },
    {
      method: 'GET',
      template: '/openapi.json',
      pattern: /^\/openapi\.json$/,
      handler: async () => [200, OPENAPI],
    },
  ];

  const auth = deps.token ? bearerCheck(deps.token) : null;
  const { requestTimeoutMs, accessLog } = config.api;

  const handle = (req: IncomingMessage, res: ServerResponse): Promise<void> | undefined => {
    const started = performance.now();
    let template = 'unmatched';
    let bodyRead = false;
    let settled = false;
    const finish = (status: number, body: unknown, headers: Record<string, string> = {}) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      // The client gone before the answer: its own outcome (499), neither a success nor a 5xx.
      const gone = !res.headersSent && (res.destroyed || req.socket?.destroyed);
      if (!gone && !res.headersSent) sendJson(res, status, body, headers);
      const seconds = (performance.now() - started) / 1000;
      metrics?.recordHttp(template, req.method ?? '', gone ? 499 : status, seconds);
      if (accessLog)
        logger?.info(
          {
            method: req.method,
            route: template,
            status: gone ? 499 : status,
            ms: Math.round(seconds * 1000 * 10) / 10,
            traceId: trace.getActiveSpan()?.spanContext().traceId,
          },
          'request',
        );
    };
    const fail = (thrown: unknown) => {
      const error = toDoppelError(thrown);
      // A message the API could not judge counts as an invalid input, as on the other entry points.
      if (isInputError(error)) metrics?.recordInvalid(profile, error.code);
      const status = httpStatus(error.code);
      const headers: Record<string, string> = {};
      let detail = error.message;
      let requestId: string | undefined;
      if (status >= 500 && status !== 499) {
        // The server's fault: its message (a file path, a store address) and the stack go to the
        // log under a request id; the client gets the code, a generic message and that id.
        requestId = randomUUID();
        logger?.error(
          { code: error.code, requestId, err: error.message, stack: stackOf(thrown), route: template },
          'request failed',
        );
        headers['x-request-id'] = requestId;
        detail = `${ERROR_CODES[error.code].description} (request ${requestId})`;
      }
      // The rest of an unread body (or a stalled client) is not worth keeping the connection for.
      if (!bodyRead || error.code === 'TOO_LARGE' || error.code === 'TIMEOUT') headers.connection = 'close';
      if (error.retryable) headers['retry-after'] = '1';
      if (error.code === 'UNAUTHORIZED') headers['www-authenticate'] = auth?.challenge(req) ?? 'Bearer';
      headers['content-type'] = PROBLEM_JSON;
      const body = problem(status, error.code, detail);
      finish(status, requestId === undefined ? body : { ...body, requestId }, headers);
    };
    // Our own clock: node's requestTimeout is only checked every connectionsCheckingInterval, and
    // not at all once the body has arrived and the handler (signing, the store) is running.
    const timer = setTimeout(() => {
      fail(
        bodyRead
          ? new DoppelError('TIMEOUT', `no answer within ${requestTimeoutMs} ms`)
          : new DoppelError('REQUEST_TIMEOUT', `the request was not received within ${requestTimeoutMs} ms`),
      );
    }, requestTimeoutMs);
    timer.unref();
    res.once('close', () => {
      if (!settled) finish(499, null);
    });

    const url = requestTarget(req);
    if (url === null) {
      fail(new DoppelError('BAD_REQUEST', 'the request target is not a valid URL or path'));
      return undefined;
    }
    if (deps.ops.handle(req, res, url.pathname) || handleWeb(req, res, url.pathname)) {
      settled = true;
      clearTimeout(timer);
      return undefined;
    }
    const path = originPath(req) ?? url.pathname;
    const matching = routes.filter((r) => r.pattern.test(path));
    const route = matching.find((r) => r.method === req.method);
    const run = async (): Promise<Answer> => {
      if (auth && (url.pathname.startsWith('/v1/') || path.startsWith('/v1/'))) auth.verify(req);
      if (matching.length === 0) throw new DoppelError('NOT_FOUND', `no route ${url.pathname}`);
      if (!route) {
        res.setHeader('allow', matching.map((r) => r.method).join(', '));
        throw new DoppelError(
          'METHOD_NOT_ALLOWED',
          `${url.pathname} takes ${matching.map((r) => r.method).join(', ')}`,
        );
      }
      template = route.template;
      const params = (route.pattern.exec(path) ?? []).slice(1);
      setHttpRoute(route.template);
      return route.handler(req, params, url);
    };
    if (req.method === 'GET' || req.method === 'HEAD') bodyRead = true;
    req.once('end', () => {
      bodyRead = true;
    });
    return run().then(([status, body, headers]) => finish(status, body, headers), fail);
  };

  const server = createServer(
    // A node:http request the listener never saw (bad headers, headersTimeout) is answered by node
    // itself (400, 408); this one's clock starts at the first byte of the headers.
    { connectionsCheckingInterval: Math.min(1_000, config.api.headersTimeoutMs) },
    safeListener(handle, (error) => {
      logger?.error({ code: 'INTERNAL', err: (error as Error)?.message }, 'request handler threw');
    }),
  );
  server.requestTimeout = requestTimeoutMs;
  server.headersTimeout = Math.min(config.api.headersTimeoutMs, requestTimeoutMs);
  return server;
}

/** Checks `authorization: Bearer <token>` against the configured token in constant time. */
function bearerCheck(token: string) {
  const expected = createHash('sha256').update(token).digest();
  return {
    verify(req: IncomingMessage): void {
      const header = req.headers.authorization ?? '';
      const match = /^Bearer[ \t]+(\S+)[ \t]*$/i.exec(header);
      // Both sides hashed to 32 bytes: the comparison takes as long whatever the given length.
      const given = createHash('sha256')
        .update(match?.[1] ?? '')
        .digest();
      if (!match || !timingSafeEqual(given, expected))
        throw new DoppelError(
          'UNAUTHORIZED',
          match ? 'the bearer token is not valid' : 'this route needs an Authorization: Bearer token',
        );
    },
    challenge(req: IncomingMessage): string {
      return req.headers.authorization
        ? 'Bearer realm="doppel", error="invalid_token"'
        : 'Bearer realm="doppel"';
    },
  };
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

/**
 * The path of an origin-form target (`/v1/messages/%2E?x`) as sent, before URL parsing removes
 * dot segments: an id "." or ".." (percent-encoded, as clients send it) names that message, not
 * the parent route. Null for other forms (`http://host/...`), which are routed by their URL.
 */
function originPath(req: IncomingMessage): string | null {
  const target = req.url ?? '';
  if (!target.startsWith('/') || target.startsWith('//')) return null;
  const end = target.search(/[?#]/);
  return end < 0 ? target : target.slice(0, end);
}

function stackOf(thrown: unknown): string | undefined {
  const cause = thrown instanceof Error && thrown.cause instanceof Error ? thrown.cause : thrown;
  return cause instanceof Error ? cause.stack : undefined;
}
