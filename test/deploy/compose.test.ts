import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { REPO_ROOT } from '../support/cli.js';
import { spawnServe } from '../support/serve-process.js';

/**
 * compose.yaml, checked without a Docker engine: tools/compose-check (built by
 * scripts/ensure-k8s-tools.sh from compose-go, the loader `docker compose` uses) validates it
 * against the Compose Specification, resolves anchors and merge keys and checks consistency; the
 * tests then assert on the resolved model that the services agree with each other and with what
 * the code reads.
 */
const COMPOSE_CHECK = resolve(REPO_ROOT, 'tools/bin/compose-check');
const COMPOSE_FILE = resolve(REPO_ROOT, 'compose.yaml');

interface Service {
  image?: string;
  build?: { context: string };
  command?: string[];
  entrypoint?: string[];
  environment?: Record<string, string | null>;
  ports?: Array<{ host_ip?: string; target: number; published: string }>;
  depends_on?: Record<string, { condition: string }>;
  healthcheck?: { test: string[] };
  profiles?: string[];
  volumes?: Array<{ source: string; target: string }>;
}

function load(file: string, ...args: string[]): { services: Record<string, Service> } {
  const r = spawnSync(COMPOSE_CHECK, [file, ...args], {
    cwd: REPO_ROOT,
    encoding: 'utf8',
    env: { PATH: process.env.PATH },
  });
  if (r.error) throw r.error;
  if (r.status !== 0) throw new Error(`compose-check ${file} exited ${r.status}: ${r.stderr}`);
  return JSON.parse(r.stdout);
}

function service(project: { services: Record<string, Service> }, name: string): Service {
  const found = project.services[name];
  if (!found) throw new Error(`compose.yaml has no service ${name}`);
  return found;
}

/** Every DOPPEL_* name the sources read. */
function envNamesRead(): Set<string> {
  const names = new Set<string>();
  const walk = (dir: string) => {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      const path = join(dir, entry.name);
      if (entry.isDirectory()) walk(path);
      else if (entry.name.endsWith('.ts'))
        for (const m of readFileSync(path, 'utf8').matchAll(/DOPPEL_[A-Z0-9_]+/g)) names.add(m[0]);
    }
  };
  walk(resolve(REPO_ROOT, 'src'));
  return names;
}

describe('compose.yaml', () => {
  it('is a valid Compose file (compose-go) and the checker refuses a broken one', () => {
    expect(existsSync(COMPOSE_CHECK), `${COMPOSE_CHECK} is built by scripts/ensure-k8s-tools.sh`).toBe(true);
    const project = load(COMPOSE_FILE);
    expect(Object.keys(project.services).sort()).toEqual(['api', 'kafka', 'news-consumer', 'redis']);
    expect(Object.keys(load(COMPOSE_FILE, '--profile', 'demo').services)).toContain('feed');
    const dir = mkdtempSync(join(tmpdir(), 'doppel-compose-'));
    const broken = join(dir, 'compose.yaml');
    writeFileSync(
      broken,
      readFileSync(COMPOSE_FILE, 'utf8').replace('    image: redis:7.4-alpine', '    imag: redis:7.4-alpine'),
    );
    expect(() => load(broken)).toThrow(/imag/);
    const dangling = join(dir, 'dangling.yaml');
    writeFileSync(dangling, 'services:\n  a:\n    image: x\n    depends_on: [missing]\n');
    expect(() => load(dangling)).toThrow(/missing/);
  });

  it('runs Redis with AOF and noeviction, Kafka as one KRaft node the consumer can reach', () => {
    const project = load(COMPOSE_FILE);
    const redis = service(project, 'redis').command ?? [];
    const flag = (name: string) => redis[redis.indexOf(name) + 1];
    expect([flag('--appendonly'), flag('--appendfsync'), flag('--maxmemory-policy')]).toEqual([
      'yes',
      'everysec',
      'noeviction',
    ]);
    const kafka = service(project, 'kafka').environment ?? {};
    expect(kafka.KAFKA_PROCESS_ROLES).toBe('broker,controller');
    expect(kafka.KAFKA_CONTROLLER_QUORUM_VOTERS).toBe(`${kafka.KAFKA_NODE_ID}@kafka:9093`);
    const consumer = service(project, 'news-consumer');
    expect(kafka.KAFKA_ADVERTISED_LISTENERS).toBe(
      `PLAINTEXT://${consumer.environment?.DOPPEL_KAFKA_BROKERS}`,
    );
    expect(consumer.command).toEqual(['consumers/news.js']);
    expect(consumer.depends_on?.kafka?.condition).toBe('service_healthy');
    expect(consumer.depends_on?.redis?.condition).toBe('service_healthy');
  });

  it('the API and the consumer share one Redis namespace; the API is published on loopback only', () => {
    const project = load(COMPOSE_FILE);
    const api = service(project, 'api');
    const consumer = service(project, 'news-consumer');
    expect(api.environment?.DOPPEL_REDIS_URL).toBe(consumer.environment?.DOPPEL_REDIS_URL);
    const command = api.command ?? [];
    expect(command.slice(0, 2)).toEqual(['bin/doppel.js', 'serve']);
    expect(command[command.indexOf('--namespace') + 1]).toBe(consumer.environment?.DOPPEL_NAMESPACE);
    expect(api.ports).toEqual([
      expect.objectContaining({ host_ip: '127.0.0.1', target: 8080, published: '8080' }),
    ]);
    // Both doppel services are built from this repository's Dockerfile.
    expect(api.build?.context).toBe('.');
    expect(consumer.image).toBe(api.image);
  });

  it('names only environment variables that doppel reads', () => {
    const read = envNamesRead();
    const { services } = load(COMPOSE_FILE);
    const used = new Set<string>();
    for (const service of Object.values(services))
      for (const name of Object.keys(service.environment ?? {}))
        if (name.startsWith('DOPPEL_')) used.add(name);
    expect(used.size).toBeGreaterThan(4);
    expect([...used].filter((name) => !read.has(name))).toEqual([]);
  });
});

describe('the container image listens on every interface', () => {
  it('sets DOPPEL_API_HOST=0.0.0.0, which doppel serve honours', async () => {
    expect(readFileSync(resolve(REPO_ROOT, 'Dockerfile'), 'utf8')).toMatch(
      /^ENV DOPPEL_API_HOST=0\.0\.0\.0$/m,
    );
    // No --port: DOPPEL_API_PORT and DOPPEL_API_HOST decide, as in the image.
    const serve = await spawnServe({
      port: null,
      args: ['--threads', '1'],
      env: { DOPPEL_API_HOST: '0.0.0.0', DOPPEL_API_PORT: '0' },
    });
    try {
      expect(serve.line?.host).toBe('0.0.0.0');
      expect(serve.line?.port).toBeGreaterThan(0);
      expect((await fetch(`http://127.0.0.1:${serve.line?.port}/healthz`)).status).toBe(200);
    } finally {
      await serve.stop();
    }
  }, 30_000);
});
