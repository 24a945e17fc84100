import { type ChildProcess, spawn } from 'node:child_process';
import { DOPPEL_BIN, REPO_ROOT } from './cli.js';

/** The line `doppel serve` logs (at level info) once it listens. */
export interface ListeningLine {
  host: string;
  port: number;
  auth: 'bearer' | 'none';
  store: string;
  profile: string;
  signThreads: number;
}

export interface ServeOptions {
  /** Flags after `serve` (and after the --port this helper passes). */
  args?: readonly string[];
  /** Added to the test process's environment; OTEL_EXPORTER_OTLP_ENDPOINT is '' unless set here. */
  env?: Record<string, string>;
  /**
   * `--port`. 0 (the default): the system picks one and the listening line names it. A fixed port
   * (from freePort): ready when /healthz answers 200, so that a log level above info, which hides
   * the listening line, still works. null: no --port (DOPPEL_API_PORT or the config decides), ready
   * on the listening line.
   */
  port?: number | null;
  /** Start-up longer than this kills the process and fails with its output: 30 s by default. */
  startTimeoutMs?: number;
}

export interface ServeProcess {
  child: ChildProcess;
  /** `http://127.0.0.1:<port>` (loopback also reaches a server listening on 0.0.0.0). */
  url: string;
  port: number;
  /** The listening line; null when start-up was judged by /healthz (a fixed port). */
  line: ListeningLine | null;
  /** Standard output and error so far, interleaved (the last 4 MiB at most). */
  output: () => string;
  /** SIGTERM (SIGKILL 10 s later if it is still running), then the exit code (null after a kill). */
  stop: () => Promise<number | null>;
}

const KEEP_OUTPUT = 4 * 1024 * 1024;
const STOP_GRACE_MS = 10_000;

/** `doppel serve` (the built CLI) as its own process, once it is ready for requests. */
export async function spawnServe(options: ServeOptions = {}): Promise<ServeProcess> {
  const port = options.port === undefined ? 0 : options.port;
  const portArgs = port === null ? [] : ['--port', String(port)];
  const child = spawn(process.execPath, [DOPPEL_BIN, 'serve', ...portArgs, ...(options.args ?? [])], {
    cwd: REPO_ROOT,
    env: { ...process.env, OTEL_EXPORTER_OTLP_ENDPOINT: '', ...options.env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  const keep = (text: string) => {
    out += text;
    if (out.length > KEEP_OUTPUT) out = out.slice(-KEEP_OUTPUT);
  };
  // Standard output is also read line by line on its own: a chunk of standard error must not
  // split the listening line.
  let partial = '';
  let line: ListeningLine | null = null;
  let onLine: (() => void) | undefined;
  child.stdout?.setEncoding('utf8').on('data', (d: string) => {
    keep(d);
    const lines = (partial + d).split('\n');
    partial = lines.pop() ?? '';
    const found = lines.find((l) => l.includes('doppel serve listening'));
    if (found && !line) {
      line = JSON.parse(found) as ListeningLine;
      onLine?.();
    }
  });
  child.stderr?.setEncoding('utf8').on('data', keep);
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));

  const stop = async (): Promise<number | null> => {
    if (child.exitCode === null && child.signalCode === null) {
      child.kill('SIGTERM');
      const timer = setTimeout(() => child.kill('SIGKILL'), STOP_GRACE_MS);
      const code = await exited;
      clearTimeout(timer);
      return code;
    }
    return exited;
  };

  const timeoutMs = options.startTimeoutMs ?? 30_000;
  const started = Date.now();
  const failed = (why: string) => new Error(`doppel serve ${why}:\n${out}`);
  try {
    await new Promise<void>((resolve, reject) => {
      const timer = setTimeout(() => reject(failed(`not ready after ${timeoutMs} ms`)), timeoutMs);
      const ready = () => {
        clearTimeout(timer);
        resolve();
      };
      void exited.then((code) => {
        clearTimeout(timer);
        reject(failed(`exited ${code} before it was ready`));
      });
      if (port === null || port === 0) {
        onLine = ready;
        if (line) ready();
      } else {
        void pollHealth(port, () => child.exitCode !== null || Date.now() - started > timeoutMs).then(
          (ok) => ok && ready(),
        );
      }
    });
  } catch (error) {
    await stop();
    throw error;
  }
  const bound = (line as ListeningLine | null)?.port ?? (port as number);
  return {
    child,
    url: `http://127.0.0.1:${bound}`,
    port: bound,
    line,
    output: () => out,
    stop,
  };
}

/** GET /healthz every 100 ms until it answers 200 (true) or `giveUp` says so (false). */
async function pollHealth(port: number, giveUp: () => boolean): Promise<boolean> {
  while (!giveUp()) {
    try {
      if ((await fetch(`http://127.0.0.1:${port}/healthz`)).status === 200) return true;
    } catch {
      // Not listening yet.
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  return false;
}
