import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { PrometheusExporter } from '@opentelemetry/exporter-prometheus';
import { rejectMalformedTarget, requestTarget, safeListener, sendJson, sendProblem } from './http.js';

export { sendJson } from './http.js';

/** A readiness check: resolves true (or nothing) when ready; false or a rejection means not ready. */
export type ReadinessCheck = () => Promise<boolean | undefined> | boolean | undefined;

export interface OpsServerOptions {
  /** Renders /metrics; without it /metrics answers 404. */
  prometheus?: PrometheusExporter | null;
  /** A check slower than this counts as failed (a hung Redis must not hang the probe). */
  checkTimeoutMs?: number;
}

/**
 * /healthz (the process is alive and its event loop answers), /readyz (every readiness check
 * passes: connected to Kafka and Redis, consuming) and /metrics (Prometheus text). node:http, no
 * framework: three fixed GET paths. `doppel serve` mounts the same handler in front of its API;
 * the consumers run it on DOPPEL_METRICS_PORT.
 */
export class OpsServer {
  private readonly checks = new Map<string, ReadinessCheck>();
  private server: Server | null = null;
  private readonly checkTimeoutMs: number;

  constructor(private readonly options: OpsServerOptions = {}) {
    this.checkTimeoutMs = options.checkTimeoutMs ?? 2_000;
  }

  /** Adds (or replaces) a named readiness check, e.g. `redis` -> PING, `kafka` -> consumer joined. */
  addReadinessCheck(name: string, check: ReadinessCheck): void {
    this.checks.set(name, check);
  }

  removeReadinessCheck(name: string): void {
    this.checks.delete(name);
  }

  /** Runs every check; `ready` only when all pass. */
  async readiness(): Promise<{ ready: boolean; checks: Record<string, string> }> {
    const entries = await Promise.all(
      [...this.checks].map(async ([name, check]): Promise<[string, string]> => {
        let timer: NodeJS.Timeout | undefined;
        try {
          const timeout = new Promise<never>((_, reject) => {
            timer = setTimeout(
              () => reject(new Error(`timed out after ${this.checkTimeoutMs} ms`)),
              this.checkTimeoutMs,
            );
          });
          const ok = await Promise.race([Promise.resolve(check()), timeout]);
          return [name, ok === false ? 'not ready' : 'ok'];
        } catch (error) {
          return [name, `failed: ${error instanceof Error ? error.message : String(error)}`];
        } finally {
          clearTimeout(timer);
        }
      }),
    );
    const checks = Object.fromEntries(entries);
    return { ready: entries.every(([, status]) => status === 'ok'), checks };
  }

  /**
   * Serves the path if it is one of ours; false lets the caller route it (the API). `path` is the
   * caller's already parsed pathname; a target that is not a URL is never ours.
   */
  handle(req: IncomingMessage, res: ServerResponse, path = requestTarget(req)?.pathname): boolean {
    if (path !== '/healthz' && path !== '/readyz' && path !== '/metrics') return false;
    if (req.method !== 'GET' && req.method !== 'HEAD') {
      sendProblem(res, 405, 'METHOD_NOT_ALLOWED', `${path} takes GET`, { allow: 'GET, HEAD' });
      return true;
    }
    if (path === '/healthz') sendJson(res, 200, { status: 'ok' });
    else if (path === '/readyz') {
      this.readiness().then(
        (r) =>
          sendJson(res, r.ready ? 200 : 503, { status: r.ready ? 'ready' : 'not ready', checks: r.checks }),
        (error: unknown) => sendJson(res, 503, { status: 'not ready', error: String(error) }),
      );
    } else if (this.options.prometheus) this.options.prometheus.getMetricsRequestHandler(req, res);
    else sendProblem(res, 404, 'NOT_FOUND', 'metrics are not enabled');
    return true;
  }

  /** Listens on its own port (the consumers); resolves with the bound port (0 picks a free one). */
  listen(port: number, host = '0.0.0.0'): Promise<number> {
    const server = createServer(
      safeListener((req, res) => {
        if (rejectMalformedTarget(req, res)) return;
        if (!this.handle(req, res)) sendProblem(res, 404, 'NOT_FOUND', 'no such path');
      }),
    );
    this.server = server;
    return new Promise((resolve, reject) => {
      server.once('error', reject);
      server.listen(port, host, () => resolve((server.address() as AddressInfo).port));
    });
  }

  async close(): Promise<void> {
    const server = this.server;
    this.server = null;
    if (!server) return;
    await new Promise<void>((resolve) => server.close(() => resolve()));
    server.closeAllConnections();
  }
}
