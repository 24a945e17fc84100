import type { Logger } from 'pino';
import { isDoppelError } from '../errors.js';
import { createLogger, instrumentStore, OpsServer, startTelemetry } from '../telemetry/index.js';
import { loadConsumerConfig } from './config.js';
import { DoppelConsumer } from './consumer.js';
import { onStopSignal, stopRequested } from './signals.js';

/** Input topics when neither the config file nor DOPPEL_INPUT_TOPICS names any. */
export const DEFAULT_INPUTS = {
  news: [{ topic: 'news', format: 'json' }],
  mail: [{ topic: 'mail', format: 'mail' }],
} as const;

/**
 * The deployable consumer process: config from DOPPEL_CONFIG (a JSON file) and DOPPEL_*
 * environment variables, validated once; pino logs (JSON on stdout; never message bodies or
 * addresses); SIGTERM/SIGINT drain the current batch, commit and disconnect. Exit codes: 0 stopped,
 * 1 failed, 2 invalid configuration.
 */
export async function runConsumerProcess(profile: 'news' | 'mail'): Promise<number> {
  let config: ReturnType<typeof loadConsumerConfig>;
  try {
    config = loadConsumerConfig(process.env, {
      profile,
      inputs: DEFAULT_INPUTS[profile].map((i) => ({ ...i })),
    });
  } catch (error) {
    process.stderr.write(`doppel consumer: ${(error as Error).message}\n`);
    return 2;
  }
  // The same redacting logger as the API: message text, subjects, addresses and secrets (the
  // SASL password among them) never reach the log; ids, verdicts and error codes do.
  const logger = createLogger(
    { ...config.dedup.logging, level: config.consumer.logLevel },
    { name: `doppel-${config.consumer.profile}` },
  );
  // Telemetry (src/telemetry, docs/operations.md): metrics and traces, and the operations port
  // (/healthz, /readyz: joined and not paused, /metrics) on DOPPEL_METRICS_PORT (0: none).
  const profileName = config.consumer.profile;
  const telemetry = startTelemetry(config.dedup.telemetry, process.env, profileName);
  const hold = transactionHold(process.env.DOPPEL_TEST_HOLD_TRANSACTION_MS, logger);
  const consumer = new DoppelConsumer({
    config,
    logger,
    ...(hold ? { beforeTransactionCommit: hold } : {}),
    wrapStore: (store) => instrumentStore(store, telemetry.metrics),
    hooks: {
      onBatchEnd: (stats) => {
        telemetry.metrics.recordVerdicts(profileName, stats.verdicts, stats.engineMs / 1000);
        const clamped = stats.verdicts.filter((v) => v.eventTimeClamped).map((v) => v.id);
        if (clamped.length > 0)
          logger.warn(
            { ids: clamped.slice(0, 10), count: clamped.length },
            'event times clamped (window.maxFutureSkewMs)',
          );
        for (const code of stats.invalidCodes) telemetry.metrics.recordInvalid(profileName, code);
        const lag = Number(BigInt(stats.highWatermark) - BigInt(stats.lastOffset) - 1n);
        telemetry.metrics.setConsumerLag(
          stats.topic,
          stats.partition,
          Math.max(0, lag),
          config.consumer.groupId,
        );
      },
    },
  });
  const ops = new OpsServer({ prometheus: telemetry.prometheus });
  ops.addReadinessCheck('consumer', () => consumer.ready());
  ops.addReadinessCheck('redis', () => consumer.storeReady());
  const metricsPort = Number(process.env.DOPPEL_METRICS_PORT ?? config.dedup.telemetry.metricsPort);
  if (!Number.isInteger(metricsPort) || metricsPort < 0) {
    process.stderr.write(
      `doppel consumer: DOPPEL_METRICS_PORT: not a port: ${process.env.DOPPEL_METRICS_PORT}\n`,
    );
    return 2;
  }
  if (metricsPort > 0) {
    const port = await ops.listen(metricsPort);
    logger.info({ port }, 'operations port: /healthz /readyz /metrics');
  }
  const shutdown = async () => {
    await ops.close().catch(() => undefined);
    await telemetry.shutdown().catch(() => undefined);
  };
  let signalled = false;
  const onSignal = (signal: string) => {
    if (signalled) return;
    signalled = true;
    logger.info({ signal }, 'signal received');
    void consumer
      .stop()
      .catch((error: unknown) => logger.error({ err: (error as Error).message }, 'stop failed'));
  };
  if (stopRequested()) {
    logger.info('stop signal received during start-up; exiting');
    return 0;
  }
  onStopSignal(onSignal);
  try {
    // A stop signal while start() still connects ends the process too (done resolves first).
    await Promise.race([consumer.start(), consumer.done]);
    await consumer.done;
    await shutdown();
    return 0;
  } catch (error) {
    logger.fatal(
      { code: isDoppelError(error) ? error.code : 'INTERNAL', err: (error as Error).message },
      'consumer failed',
    );
    await consumer.stop().catch(() => undefined);
    await shutdown();
    return 1;
  }
}

/**
 * DOPPEL_TEST_HOLD_TRANSACTION_MS (tests only, exactly-once): each transaction logs "transaction
 * open" once its outputs are sent and waits that long before it commits, so that a test can kill
 * the process or fence its transactional id while a transaction is open. Unset: no wait.
 */
function transactionHold(value: string | undefined, logger: Logger): (() => Promise<void>) | null {
  const ms = Number(value ?? 0);
  if (!Number.isFinite(ms) || ms <= 0) return null;
  return async () => {
    logger.warn({ holdMs: ms }, 'transaction open');
    await new Promise((r) => setTimeout(r, ms));
  };
}

/** Runs the process for `profile` and exits with its code. */
export function main(profile: 'news' | 'mail'): void {
  runConsumerProcess(profile).then(
    (code) => {
      process.exit(code);
    },
    (error: unknown) => {
      process.stderr.write(`${String(error)}\n`);
      process.exit(1);
    },
  );
}
