import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { resolve } from 'node:path';

export const NEWS_ENTRY = resolve(import.meta.dirname, '../../consumers/news.js');

export interface ConsumerProcess {
  child: ChildProcess;
  /** stdout and stderr so far (pino JSON lines). */
  output: () => string;
  exited: Promise<number | null>;
}

export interface ConsumerProcessOptions {
  /**
   * Keep only the last this many characters of output: for long runs that read the output only
   * for failure messages. Everything by default (log lines are counted: countLogLines).
   */
  keepOutput?: number;
}

/**
 * The deployable news consumer (`npm run build` output) as its own process: log level info and an
 * ops server on a free port unless `env` says otherwise.
 */
export function spawnConsumer(
  env: Record<string, string>,
  options: ConsumerProcessOptions = {},
): ConsumerProcess {
  if (!existsSync(NEWS_ENTRY)) throw new Error(`${NEWS_ENTRY} is missing: run npm run build (npm test does)`);
  const child = spawn(process.execPath, [NEWS_ENTRY], {
    env: { ...process.env, DOPPEL_LOG_LEVEL: 'info', DOPPEL_METRICS_PORT: '0', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const { keepOutput } = options;
  let output = '';
  const keep = (c: Buffer) => {
    output += c.toString();
    if (keepOutput !== undefined && output.length > keepOutput) output = output.slice(-keepOutput);
  };
  child.stdout?.on('data', keep);
  child.stderr?.on('data', keep);
  const exited = new Promise<number | null>((r) => child.once('exit', (code) => r(code)));
  return { child, output: () => output, exited };
}

/** How many log lines of `run` carry `"msg":"<msg>"`. */
export function countLogLines(run: ConsumerProcess, msg: string): number {
  return run.output().split(`"msg":"${msg}"`).length - 1;
}

/**
 * Waits until `run` has logged `"msg":"<msg>"` at least `times` times; fails with the process's
 * last output when it exits first or the time runs out.
 */
export async function waitForLog(
  run: ConsumerProcess,
  msg: string,
  times = 1,
  timeoutMs = 45_000,
): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (countLogLines(run, msg) < times) {
    if (run.child.exitCode !== null || run.child.signalCode !== null)
      throw new Error(
        `consumer exited (${run.child.exitCode}) before "${msg}" x${times}\n${run.output().slice(-3000)}`,
      );
    if (Date.now() > deadline)
      throw new Error(`no "${msg}" x${times} within ${timeoutMs} ms\n${run.output().slice(-3000)}`);
    await new Promise((r) => setTimeout(r, 20));
  }
}
