import { readFileSync } from 'node:fs';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createApiServer } from '../api/server.js';
import { DedupEngine } from '../engine/engine.js';
import { DoppelError } from '../errors.js';
import { resolveThreads, SignPool } from '../pipeline/sign-pool.js';
import { Signer } from '../signatures/signer.js';
import { openStore } from '../store/open.js';
import { instrumentStore } from '../telemetry/instrument.js';
import { createLogger } from '../telemetry/log.js';
import { OpsServer } from '../telemetry/ops-server.js';
import { startTelemetry } from '../telemetry/sdk.js';
import { engineSetup, parseCommandArgs, parseLexiconFlags } from './common.js';

export const SERVE_USAGE = `usage: doppel serve [--profile news|mail] [--config FILE] [--store memory|redis://HOST:PORT[/DB]|redis+cluster://HOST:PORT,...]
                    [--namespace NAME] [--port N] [--host ADDR] [--lexicon LANG=FILE ...] [--threads N]

The HTTP check API: POST /v1/check (verdict, nothing indexed), POST /v1/messages (index and
verdict), GET /v1/messages/{id}, GET /v1/clusters (stories), GET /v1/clusters/{id}, /openapi.json,
/healthz, /readyz, /metrics, and the story desk web page at /.
Port and host default to DOPPEL_API_PORT and DOPPEL_API_HOST, then the config's api section (8080,
127.0.0.1: give --host 0.0.0.0 to listen on every interface; the container image sets
DOPPEL_API_HOST=0.0.0.0); DOPPEL_REDIS_URL is the store when --store is not given. With DOPPEL_API_TOKEN
(or DOPPEL_API_TOKEN_FILE, a file holding it) set, the /v1 routes need "Authorization: Bearer
<token>"; /, /healthz, /readyz, /metrics and /openapi.json stay open. Logs are JSON lines on
standard output; SIGTERM drains and exits. Bodies are signed in N worker threads (--threads,
default the config's "threads", 0 = one per core), so a large body does not stall other
requests; 1 signs on the event loop.

examples:
  doppel serve                                            # http://127.0.0.1:8080/ on the memory store
  doppel serve --store redis://127.0.0.1:6379/0 --namespace news --host 0.0.0.0
  curl -s -X POST http://127.0.0.1:8080/v1/check -H 'content-type: application/json' -d '{"id":"a","text":"..."}'`;

const OPTIONS = {
  profile: { type: 'string', short: 'p' },
  config: { type: 'string', short: 'c' },
  store: { type: 'string' },
  namespace: { type: 'string' },
  port: { type: 'string' },
  host: { type: 'string' },
  lexicon: { type: 'string', multiple: true },
  threads: { type: 'string', short: 't' },
  help: { type: 'boolean', short: 'h' },
} as const;

export async function serveCommand(argv: string[], env: NodeJS.ProcessEnv = process.env): Promise<number> {
  const { values } = parseCommandArgs(argv, OPTIONS);
  if (values.help) {
    process.stdout.write(`${SERVE_USAGE}\n`);
    return 0;
  }
  const token = apiToken(env);
  const profile = values.profile ?? env.DOPPEL_PROFILE ?? 'news';
  const threadsFlag = values.threads === undefined ? undefined : Number(values.threads);
  if (threadsFlag !== undefined && !(Number.isInteger(threadsFlag) && threadsFlag >= 0 && threadsFlag <= 256))
    throw new DoppelError('USAGE', `--threads takes 0 (one per core) to 256, not ${values.threads}`);
  const { config, lexicons } = await engineSetup({ ...values, profile });
  const threads = resolveThreads(threadsFlag ?? config.threads);
  const portText = values.port ?? env.DOPPEL_API_PORT;
  const port = portText === undefined ? config.api.port : Number(portText);
  if (!Number.isInteger(port) || port < 0 || port > 65_535)
    throw new DoppelError('USAGE', `--port (or DOPPEL_API_PORT) takes 0 to 65535, not ${portText}`);
  const logger = createLogger(config.logging, { name: 'doppel-api', env });
  const telemetry = startTelemetry(config.telemetry, env, config.profile);
  const spec = values.store ?? env.DOPPEL_REDIS_URL ?? 'memory';
  const store = await openStore(
    spec,
    values.namespace === undefined ? { config } : { config, namespace: values.namespace },
  );
  const engine = new DedupEngine(config, instrumentStore(store, telemetry.metrics));
  const pool =
    threads > 1
      ? await SignPool.start({ threads, config, lexicons: parseLexiconFlags(values.lexicon) })
      : null;
  const ops = new OpsServer({ prometheus: telemetry.prometheus });
  // A cheap store read: fails while Redis is unreachable (the memory store is always ready).
  ops.addReadinessCheck('store', async () => {
    await store.resolveCluster('readyz');
    return true;
  });
  const server = createApiServer({
    config,
    engine,
    signer: new Signer(config.signatures, lexicons),
    pool,
    ops,
    metrics: telemetry.metrics,
    logger,
    token,
  });
  // A container's loopback is unreachable from outside it: the image sets DOPPEL_API_HOST=0.0.0.0.
  const host = values.host ?? (env.DOPPEL_API_HOST || undefined) ?? config.api.host;
  await listen(server, port, host);
  const bound = (server.address() as AddressInfo).port;
  logger.info(
    {
      port: bound,
      host,
      store: store.kind,
      profile: config.profile,
      auth: token ? 'bearer' : 'none',
      signThreads: pool?.threads ?? 0,
    },
    'doppel serve listening',
  );
  if (!token && !isLoopback(host))
    logger.warn({ host }, 'the API listens beyond loopback without a token (DOPPEL_API_TOKEN_FILE)');

  await new Promise<void>((resolve) => {
    const stop = (signal: string) => {
      logger.info({ signal }, 'shutting down');
      resolve();
    };
    process.once('SIGTERM', () => stop('SIGTERM'));
    process.once('SIGINT', () => stop('SIGINT'));
  });
  // Finish in-flight requests (the Service stops sending new ones once the pod is terminating).
  await new Promise<void>((resolve) => server.close(() => resolve()));
  server.closeIdleConnections();
  await pool?.close();
  await store.close();
  await telemetry.shutdown();
  logger.flush();
  return 0;
}

function listen(server: Server, port: number, host: string): Promise<void> {
  return new Promise((resolve, reject) => {
    server.once('error', (error) =>
      reject(new DoppelError('IO', `cannot listen on ${host}:${port}: ${error.message}`)),
    );
    server.listen(port, host, () => resolve());
  });
}

/**
 * The API token: DOPPEL_API_TOKEN, or the contents of the file DOPPEL_API_TOKEN_FILE names (a
 * mounted Secret; surrounding white space, such as a final newline, is dropped). Neither: null.
 */
export function apiToken(env: NodeJS.ProcessEnv): string | null {
  const inline = env.DOPPEL_API_TOKEN;
  const file = env.DOPPEL_API_TOKEN_FILE;
  if (inline && file)
    throw new DoppelError('INVALID_CONFIG', 'set DOPPEL_API_TOKEN or DOPPEL_API_TOKEN_FILE, not both');
  let token: string;
  if (file) {
    try {
      token = readFileSync(file, 'utf8').trim();
    } catch (error) {
      throw new DoppelError('IO', `DOPPEL_API_TOKEN_FILE: cannot read ${file}: ${(error as Error).message}`);
    }
  } else if (inline !== undefined && inline !== '') token = inline.trim();
  else return null;
  if (token.length < 16 || /\s/.test(token))
    throw new DoppelError(
      'INVALID_CONFIG',
      `the API token (${file ? 'DOPPEL_API_TOKEN_FILE' : 'DOPPEL_API_TOKEN'}) must be at least 16 characters without white space`,
    );
  return token;
}

function isLoopback(host: string): boolean {
  return host === 'localhost' || host === '::1' || host.startsWith('127.');
}
