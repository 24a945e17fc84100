import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { createConnection, createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/**
 * A local redis-server (Debian's package) on 127.0.0.1 for tests and benchmarks: a free port, a
 * temporary directory, no persistence. These settings are the ones docs/redis.md recommends for
 * doppel: hashes stay in the compact listpack encoding up to 512 entries of up to 512 bytes, which
 * is what keeps Redis memory per message low (the store packs buckets and records into small
 * hashes).
 */
export const RECOMMENDED_REDIS_SETTINGS: Readonly<Record<string, string>> = {
  'hash-max-listpack-entries': '512',
  'hash-max-listpack-value': '512',
};

export interface LocalRedis {
  url: string;
  port: number;
  pid: number;
  stop(): Promise<void>;
}

export interface LocalRedisOptions {
  port?: number;
  /** Extra or overriding server settings (`name value`). */
  settings?: Record<string, string>;
  /** Binary to run; default `redis-server` on PATH. */
  binary?: string;
}

export function redisServerAvailable(binary = 'redis-server'): boolean {
  const probe = spawnSync(binary, ['--version'], { encoding: 'utf8' });
  return probe.status === 0;
}

export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      server.close(() => resolve(port));
    });
  });
}

function ping(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = createConnection({ host: '127.0.0.1', port });
    let reply = '';
    socket.once('error', () => resolve(false));
    socket.on('data', (chunk) => {
      reply += chunk.toString('latin1');
      if (reply.includes('\r\n')) {
        socket.destroy();
        resolve(reply.startsWith('+PONG'));
      }
    });
    socket.once('connect', () => socket.write('PING\r\n'));
  });
}

export async function startLocalRedis(options: LocalRedisOptions = {}): Promise<LocalRedis> {
  const binary = options.binary ?? 'redis-server';
  if (!redisServerAvailable(binary)) {
    throw new Error(
      `${binary} not found: install Debian's redis-server (apt-get install -y redis-server); npm test does this when run as root`,
    );
  }
  const port = options.port ?? (await freePort());
  const dir = mkdtempSync(join(tmpdir(), 'doppel-redis-'));
  const settings: Record<string, string> = {
    port: String(port),
    bind: '127.0.0.1',
    'protected-mode': 'yes',
    save: '',
    appendonly: 'no',
    dir,
    logfile: '',
    ...RECOMMENDED_REDIS_SETTINGS,
    ...options.settings,
  };
  const args: string[] = [];
  for (const [name, value] of Object.entries(settings)) args.push(`--${name}`, value);
  const child: ChildProcess = spawn(binary, args, { stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  child.stdout?.on('data', (chunk: Buffer) => {
    if (output.length < 20_000) output += chunk.toString();
  });
  child.stderr?.on('data', (chunk: Buffer) => {
    if (output.length < 20_000) output += chunk.toString();
  });
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  const deadline = Date.now() + 10_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`redis-server exited (${child.exitCode}):\n${output}`);
    if (await ping(port)) break;
    if (Date.now() > deadline) {
      child.kill('SIGKILL');
      throw new Error(`redis-server did not answer PING on 127.0.0.1:${port} within 10 s:\n${output}`);
    }
    await new Promise((r) => setTimeout(r, 25));
  }
  return {
    url: `redis://127.0.0.1:${port}`,
    port,
    pid: child.pid ?? -1,
    async stop() {
      if (child.exitCode === null) {
        child.kill('SIGTERM');
        const timer = setTimeout(() => child.kill('SIGKILL'), 5_000);
        await exited;
        clearTimeout(timer);
      }
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** `node dist/dev/redis-server.js [PORT]`: runs a local server in the foreground until Ctrl-C. */
async function main(): Promise<void> {
  const port = process.argv[2] ? Number(process.argv[2]) : 6379;
  const redis = await startLocalRedis({ port });
  process.stdout.write(`redis-server on ${redis.url} (pid ${redis.pid}); Ctrl-C stops it\n`);
  const stop = () => {
    void redis.stop().then(() => process.exit(0));
  };
  process.once('SIGINT', stop);
  process.once('SIGTERM', stop);
}

if (import.meta.url === `file://${process.argv[1]}`) void main();
