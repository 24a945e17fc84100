import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createApiServer } from '../api/server.js';
import { DedupEngine } from '../engine/engine.js';
import { DoppelError } from '../errors.js';
import { Signer } from '../signatures/signer.js';
import { openStore } from '../store/open.js';
import { instrumentStore } from '../telemetry/instrument.js';
import { createLogger } from '../telemetry/log.js';
import { OpsServer } from '../telemetry/ops-server.js';
import { startTelemetry } from '../telemetry/sdk.js';
import { engineSetup, parseCommandArgs } from './common.js';

export const SERVE_USAGE = `usage: doppel serve [--profile news|mail] [--config FILE] [--store memory|redis://HOST:PORT[/DB]]
                    [--namespace NAME] [--port N] [--host ADDR] [--lexicon LANG=FILE ...]

The HTTP check API: POST /v1/check (verdict, nothing indexed), POST /v1/messages (index and
verdict), GET /v1/messages/{id}, GET /v1/clusters/{id}, /openapi.json, /healthz, /readyz, /metrics.
Port and host default to the config's api section (8080, 0.0.0.0); DOPPEL_REDIS_URL is the store
when --store is not given. Logs are JSON lines on standard output; SIGTERM drains and exits.`;

const OPTIONS = {
  profile: { type: 'string', short: 'p' },
  config: { type: 'string', short: 'c' },
  store: { type: 'string' },
  namespace: { type: 'string' },
  port: { type: 'string' },
  host: { type: 'string' },
  lexicon: { type: 'string', multiple: true },
  help: { type: 'boolean', short: 'h' },
} as const;

export async function serveCommand(argv: string[], env: NodeJS.ProcessEnv = process.env): Promise<number> {
  const { values } = parseCommandArgs(argv, OPTIONS);
  if (values.help) {
    process.stdout.write(`${SERVE_USAGE}\n`);
    return 0;
  }
  const profile = values.profile ?? env.DOPPEL_PROFILE ?? 'news';
  const { config, lexicons } = await engineSetup({ ...values, profile });
  const port = values.port === undefined ? config.api.port : Number(values.port);
  if (!Number.isInteger(port) || port < 0 || port > 65_535)
    throw new DoppelError('USAGE', `--port takes 0 to 65535, not ${values.port}`);
  const logger = createLogger(config.logging, { name: 'doppel-api', env });
  const telemetry = startTelemetry(config.telemetry, env, config.profile);
  const spec = values.store ?? env.DOPPEL_REDIS_URL ?? 'memory';
  const store = await openStore(
    spec,
    values.namespace === undefined ? { config } : { config, namespace: values.namespace },
  );
  const engine = new DedupEngine(config, instrumentStore(store, telemetry.metrics));
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
    ops,
    metrics: telemetry.metrics,
    logger,
  });
  const host = values.host ?? config.api.host;
  await listen(server, port, host);
  const bound = (server.address() as AddressInfo).port;
  logger.info({ port: bound, host, store: store.kind, profile: config.profile }, 'doppel serve listening');

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
