import { type ChildProcess, spawn } from 'node:child_process';
import { DOPPEL_BIN, REPO_ROOT } from './cli.js';

export interface ServeProcess {
  child: ChildProcess;
  url: string;
  /** The start-up line ("doppel serve listening"): host, port, auth. */
  line: { host: string; port: number; auth: string };
  output: () => string;
  /** SIGTERM, then the exit code. */
  stop: () => Promise<number | null>;
}

/** `doppel serve --port 0 ...args` as its own process, once it says where it listens. */
export async function spawnServe(
  args: readonly string[],
  env: Record<string, string>,
): Promise<ServeProcess> {
  const child = spawn(process.execPath, [DOPPEL_BIN, 'serve', '--port', '0', ...args], {
    cwd: REPO_ROOT,
    env: { ...process.env, OTEL_EXPORTER_OTLP_ENDPOINT: '', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  child.stderr?.on('data', (d: Buffer) => {
    out += d.toString();
  });
  const exited = new Promise<number | null>((r) => child.once('exit', (code) => r(code)));
  const line = await new Promise<ServeProcess['line']>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`no listening line: ${out}`)), 30_000);
    child.stdout?.on('data', (d: Buffer) => {
      out += d.toString();
      const found = out.split('\n').find((l) => l.includes('doppel serve listening'));
      if (found) {
        clearTimeout(timer);
        resolve(JSON.parse(found));
      }
    });
    void exited.then((code) => {
      clearTimeout(timer);
      reject(new Error(`doppel serve exited ${code}: ${out}`));
    });
  });
  return {
    child,
    url: `http://127.0.0.1:${line.port}`,
    line,
    output: () => out,
    stop: () => {
      if (child.exitCode === null) child.kill('SIGTERM');
      return exited;
    },
  };
}
