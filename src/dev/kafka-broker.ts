import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { createConnection } from 'node:net';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { freePort } from './redis-server.js';

/**
 * A local single-node KRaft Apache Kafka broker (combined broker + controller) for tests,
 * benchmarks and development, assembled from Maven Central jars (tools/kafka/pom.xml; `mvn
 * package` copies the runtime classpath to tools/kafka/target/libs) and started with `java`: a
 * free loopback port, a fresh temporary log dir, a small heap. No Docker, no Kafka download.
 */

const here = dirname(fileURLToPath(import.meta.url));
/** tools/kafka from src/dev (vitest) or dist/dev (compiled): both are two levels below the root. */
export const KAFKA_TOOLS_DIR = resolve(here, '../../tools/kafka');
export const KAFKA_LIBS_DIR = join(KAFKA_TOOLS_DIR, 'target', 'libs');

/** Any base64 UUID; the log dir is fresh each start, so one fixed id is fine. */
const CLUSTER_ID = '4L6g3nShT-eMCtK--X86sw';
const DEFAULT_JAVA_OPTS = [
  '-Xms128m',
  '-Xmx512m',
  '-XX:+UseSerialGC',
  '-XX:TieredStopAtLevel=1',
  '-XX:MaxMetaspaceSize=192m',
  '-Xss512k',
  '-Djava.awt.headless=true',
];

export interface LocalKafka {
  /** `127.0.0.1:<port>` */
  broker: string;
  port: number;
  /** The KRaft controller listener (a restart on the same `dir` must use it again). */
  controllerPort: number;
  pid: number;
  dir: string;
  /** SIGTERM (a controlled shutdown), then SIGKILL after 20 s. */
  stop(): Promise<void>;
  /** SIGKILL: an unclean shutdown (the next start on the same `dir` recovers the logs). */
  kill(): Promise<void>;
}

export interface LocalKafkaOptions {
  port?: number;
  controllerPort?: number;
  /** JVM options; default a 512 MB heap, serial GC, C1 only (`KAFKA_JAVA_OPTS` overrides). */
  javaOpts?: string[];
  /** Ready timeout (ms). */
  timeoutMs?: number;
  /**
   * A directory of its own that outlives the broker: `stop()` leaves it, and a start on the same
   * directory, port and controller port is a restart with the topics, data and committed offsets
   * of the last run (the fault suite restarts its broker this way). Default: a fresh temporary
   * directory, deleted by `stop()`.
   */
  dir?: string;
}

export function javaAvailable(): boolean {
  return spawnSync('java', ['-version'], { encoding: 'utf8' }).status === 0;
}

export function kafkaLibsPresent(): boolean {
  return existsSync(KAFKA_LIBS_DIR) && readdirSync(KAFKA_LIBS_DIR).some((f) => f.startsWith('kafka_2.13-'));
}

/** Runs `mvn -B -q package` in tools/kafka when the jars are missing (Maven Central; cached in ~/.m2). */
export function ensureKafkaLibs(): void {
  if (kafkaLibsPresent()) return;
  const result = spawnSync('mvn', ['-B', '-q', '-f', join(KAFKA_TOOLS_DIR, 'pom.xml'), 'package'], {
    stdio: 'inherit',
  });
  if (result.status !== 0 || !kafkaLibsPresent()) {
    throw new Error(`mvn package in ${KAFKA_TOOLS_DIR} failed (status ${String(result.status)})`);
  }
}

function canConnect(port: number): Promise<boolean> {
  return new Promise((resolvePromise) => {
    const socket = createConnection({ host: '127.0.0.1', port });
    socket.once('error', () => resolvePromise(false));
    socket.once('connect', () => {
      socket.destroy();
      resolvePromise(true);
    });
  });
}

export async function startLocalKafka(options: LocalKafkaOptions = {}): Promise<LocalKafka> {
  if (!javaAvailable())
    throw new Error('java not found: install a JDK 17 (apt-get install -y openjdk-17-jdk)');
  ensureKafkaLibs();
  const port = options.port ?? (await freePort());
  let controllerPort = options.controllerPort ?? (await freePort());
  while (controllerPort === port) controllerPort = await freePort();
  const keep = options.dir !== undefined;
  const dir = options.dir ?? mkdtempSync(join(tmpdir(), 'doppel-kafka-'));
  const data = join(dir, 'data');
  mkdirSync(data, { recursive: true });
  const remove = () => {
    if (!keep) rmSync(dir, { recursive: true, force: true });
  };
  const properties = join(dir, 'server.properties');
  writeFileSync(
    properties,
    readFileSync(join(KAFKA_TOOLS_DIR, 'server.properties.in'), 'utf8')
      .replaceAll('@PORT@', String(port))
      .replaceAll('@CPORT@', String(controllerPort))
      .replaceAll('@DATA@', data),
  );
  const classpath = `${KAFKA_LIBS_DIR}/*`;
  const log4j = `-Dlog4j.configuration=file:${join(KAFKA_TOOLS_DIR, 'log4j.properties')}`;
  const format = spawnSync(
    'java',
    [
      '-Xmx256m',
      '-XX:TieredStopAtLevel=1',
      '-cp',
      classpath,
      log4j,
      'kafka.tools.StorageTool',
      'format',
      '-t',
      CLUSTER_ID,
      '-c',
      properties,
      '--ignore-formatted',
    ],
    { encoding: 'utf8' },
  );
  if (format.status !== 0) {
    remove();
    throw new Error(`kafka storage format failed:\n${format.stdout}\n${format.stderr}`);
  }
  const javaOpts =
    options.javaOpts ?? (process.env.KAFKA_JAVA_OPTS?.split(/\s+/).filter(Boolean) || DEFAULT_JAVA_OPTS);
  const child: ChildProcess = spawn(
    'java',
    [
      ...javaOpts,
      '-cp',
      classpath,
      log4j,
      `-Dkafka.logs.dir=${join(dir, 'logs')}`,
      'kafka.Kafka',
      properties,
    ],
    { stdio: ['ignore', 'pipe', 'pipe'] },
  );
  let output = '';
  const collect = (chunk: Buffer) => {
    output += chunk.toString();
    if (output.length > 40_000) output = output.slice(-20_000);
  };
  child.stdout?.on('data', collect);
  child.stderr?.on('data', collect);
  const exited = new Promise<number | null>((r) => child.once('exit', (code) => r(code)));
  const deadline = Date.now() + (options.timeoutMs ?? 120_000);
  for (;;) {
    if (child.exitCode !== null || child.signalCode !== null) {
      remove();
      throw new Error(`kafka broker exited (${String(child.exitCode ?? child.signalCode)}):\n${output}`);
    }
    if (output.includes('Kafka Server started') && (await canConnect(port))) break;
    if (Date.now() > deadline) {
      child.kill('SIGKILL');
      remove();
      throw new Error(`kafka broker not ready on 127.0.0.1:${port}:\n${output}`);
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  return {
    broker: `127.0.0.1:${port}`,
    port,
    controllerPort,
    pid: child.pid ?? -1,
    dir,
    async stop() {
      if (child.exitCode === null && child.signalCode === null) {
        child.kill('SIGTERM');
        const timer = setTimeout(() => child.kill('SIGKILL'), 20_000);
        await exited;
        clearTimeout(timer);
      }
      remove();
    },
    async kill() {
      if (child.exitCode === null && child.signalCode === null) {
        child.kill('SIGKILL');
        await exited;
      }
      remove();
    },
  };
}

/** `node dist/dev/kafka-broker.js [PORT]` (`npm run kafka`): a broker in the foreground until Ctrl-C. */
async function main(): Promise<void> {
  const arg = process.argv[2];
  if (arg === 'libs') {
    ensureKafkaLibs();
    return;
  }
  const port = arg ? Number(arg) : 9092;
  const kafka = await startLocalKafka({ port });
  process.stdout.write(
    `kafka broker on ${kafka.broker} (pid ${kafka.pid}, data ${kafka.dir}); Ctrl-C stops it\n`,
  );
  const stop = () => {
    void kafka.stop().then(() => process.exit(0));
  };
  process.once('SIGINT', stop);
  process.once('SIGTERM', stop);
}

if (import.meta.url === `file://${process.argv[1]}`) void main();
