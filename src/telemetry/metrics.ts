import {
  type Attributes,
  type Counter,
  type Histogram,
  type Meter,
  type ObservableCounter,
  type ObservableGauge,
  ValueType,
} from '@opentelemetry/api';
import type { EngineVerdict } from '../engine/engine.js';
import type { DedupStore } from '../engine/types.js';

/**
 * Every instrument doppel records, by its OpenTelemetry name. Prometheus (/metrics) shows
 * counters with `_total` appended (doppel_messages -> doppel_messages_total); OTLP carries the
 * names as they are here. The names and labels are a contract (docs/operations.md lists them,
 * dashboards and alerts use them): add, never rename.
 */
export const METRIC_NAMES = {
  messages: 'doppel_messages',
  invalidInputs: 'doppel_invalid_inputs',
  decisionDuration: 'doppel_decision_duration_seconds',
  candidates: 'doppel_candidates',
  storeRoundTrip: 'doppel_store_round_trip_seconds',
  hotBuckets: 'doppel_hot_buckets',
  hotBucketsFilled: 'doppel_hot_buckets_filled',
  eventTimeClamped: 'doppel_event_time_clamped',
  clustersCreated: 'doppel_clusters_created',
  clustersMerged: 'doppel_clusters_merged',
  consumerLag: 'doppel_consumer_lag',
  httpRequests: 'doppel_http_requests',
  httpDuration: 'doppel_http_request_duration_seconds',
} as const;

// Seconds: a batch decides in milliseconds on memory, tens of ms on Redis; seconds mean trouble.
const LATENCY_BUCKETS = [0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];
// Candidates per message are capped by index.maxCandidates (24 by default).
const CANDIDATE_BUCKETS = [0, 1, 2, 4, 8, 16, 24, 32, 64, 128];

interface ProfileAttributes {
  base: Attributes;
  unique: Attributes;
  duplicate: Attributes;
  near_duplicate: Attributes;
}

export class DoppelMetrics {
  private readonly messages: Counter;
  private readonly invalid: Counter;
  private readonly decision: Histogram;
  private readonly candidates: Histogram;
  private readonly storeRoundTrip: Histogram;
  private readonly hot: Counter;
  private readonly clamped: Counter;
  private readonly created: Counter;
  private readonly merged: Counter;
  private readonly httpRequests: Counter;
  private readonly httpDuration: Histogram;
  private readonly lagGauge: ObservableGauge;
  private readonly filled: ObservableCounter;
  /** Stores whose filled (hot) buckets are reported at each collection. */
  private readonly stores = new Set<DedupStore>();
  /** Latest lag per `topic|partition|group`, reported at each collection. */
  private readonly lag = new Map<string, { value: number; attributes: Attributes }>();
  /** The attribute sets of recordVerdicts, per profile. */
  private readonly profileAttributes = new Map<string, ProfileAttributes>();

  constructor(meter: Meter) {
    this.messages = meter.createCounter(METRIC_NAMES.messages, {
      valueType: ValueType.INT,
      description: 'Messages decided, by verdict (unique, duplicate, near_duplicate, invalid) and profile',
    });
    this.clamped = meter.createCounter(METRIC_NAMES.eventTimeClamped, {
      valueType: ValueType.INT,
      description:
        'Messages whose event time was past the clock plus window.maxFutureSkewMs (judged as that bound)',
    });
    this.invalid = meter.createCounter(METRIC_NAMES.invalidInputs, {
      valueType: ValueType.INT,
      description: 'Inputs that could not be decoded or parsed, by error code and profile',
    });
    this.decision = meter.createHistogram(METRIC_NAMES.decisionDuration, {
      description: 'Time from the start of a batch (or request) to its verdicts, per message',
      unit: 's',
      advice: { explicitBucketBoundaries: LATENCY_BUCKETS },
    });
    this.candidates = meter.createHistogram(METRIC_NAMES.candidates, {
      valueType: ValueType.INT,
      description: 'Candidates verified per message',
      advice: { explicitBucketBoundaries: CANDIDATE_BUCKETS },
    });
    this.storeRoundTrip = meter.createHistogram(METRIC_NAMES.storeRoundTrip, {
      description: 'Store call time (index, query, commit, read), by store kind and operation',
      unit: 's',
      advice: { explicitBucketBoundaries: LATENCY_BUCKETS },
    });
    this.hot = meter.createCounter(METRIC_NAMES.hotBuckets, {
      valueType: ValueType.INT,
      description:
        "Full (hot) buckets met by messages: campaigns, syndication, boilerplate; each newcomer replaces the oldest of the bucket's recent members",
    });
    this.filled = meter.createObservableCounter(METRIC_NAMES.hotBucketsFilled, {
      valueType: ValueType.INT,
      description: 'Buckets that became full (hot): a campaign or a widely copied story, by store kind',
    });
    this.filled.addCallback(async (result) => {
      const byKind = new Map<string, number>();
      for (const store of this.stores) {
        const stats = await store.stats().catch(() => null);
        if (stats) byKind.set(store.kind, (byKind.get(store.kind) ?? 0) + stats.hotBuckets);
      }
      for (const [kind, value] of byKind) result.observe(value, { store: kind });
    });
    this.created = meter.createCounter(METRIC_NAMES.clustersCreated, {
      valueType: ValueType.INT,
      description: 'Story clusters created',
    });
    this.merged = meter.createCounter(METRIC_NAMES.clustersMerged, {
      valueType: ValueType.INT,
      description: 'Story clusters merged into an older one (one per absorbed cluster)',
    });
    this.httpRequests = meter.createCounter(METRIC_NAMES.httpRequests, {
      valueType: ValueType.INT,
      description: 'HTTP API requests by route, method and status',
    });
    this.httpDuration = meter.createHistogram(METRIC_NAMES.httpDuration, {
      description: 'HTTP API request time by route',
      unit: 's',
      advice: { explicitBucketBoundaries: LATENCY_BUCKETS },
    });
    this.lagGauge = meter.createObservableGauge(METRIC_NAMES.consumerLag, {
      valueType: ValueType.INT,
      description: 'Messages between the committed offset and the high watermark, per topic partition',
    });
    this.lagGauge.addCallback((result) => {
      for (const { value, attributes } of this.lag.values()) result.observe(value, attributes);
    });
  }

  /**
   * One engine batch: verdicts, candidates, hot buckets, cluster events and decision latency.
   * Counters are added once per batch and attribute sets are made once per profile and verdict:
   * the per-message part is the two histogram records, which the API has no count for.
   */
  recordVerdicts(profile: string, verdicts: readonly EngineVerdict[], seconds: number): void {
    const attrs = this.attributesOf(profile);
    const byVerdict = { unique: 0, duplicate: 0, near_duplicate: 0 };
    let clamped = 0;
    let hot = 0;
    let created = 0;
    let merged = 0;
    for (const v of verdicts) {
      byVerdict[v.verdict]++;
      this.decision.record(seconds, attrs.base);
      if (v.eventTimeClamped) clamped++;
      if (v.replay) continue;
      this.candidates.record(v.candidates, attrs.base);
      hot += v.hotBuckets;
      for (const e of v.events) {
        if (e.type === 'created') created++;
        else if (e.type === 'merged') merged += e.mergedFrom?.length ?? 1;
      }
    }
    for (const verdict of ['unique', 'duplicate', 'near_duplicate'] as const)
      if (byVerdict[verdict] > 0) this.messages.add(byVerdict[verdict], attrs[verdict]);
    if (clamped > 0) this.clamped.add(clamped, attrs.base);
    if (hot > 0) this.hot.add(hot, attrs.base);
    if (created > 0) this.created.add(created, attrs.base);
    if (merged > 0) this.merged.add(merged, attrs.base);
  }

  private attributesOf(profile: string): ProfileAttributes {
    let attrs = this.profileAttributes.get(profile);
    if (!attrs) {
      attrs = {
        base: { profile },
        unique: { verdict: 'unique', profile },
        duplicate: { verdict: 'duplicate', profile },
        near_duplicate: { verdict: 'near_duplicate', profile },
      };
      this.profileAttributes.set(profile, attrs);
    }
    return attrs;
  }

  /** Reports the store's filled (hot) buckets (doppel_hot_buckets_filled) from now on. */
  observeStore(store: DedupStore): void {
    this.stores.add(store);
  }

  /** An input that became an `invalid` verdict (counted in doppel_messages too). */
  recordInvalid(profile: string, code: string): void {
    this.invalid.add(1, { code, profile });
    this.messages.add(1, { verdict: 'invalid', profile });
  }

  recordStoreCall(store: string, op: string, seconds: number): void {
    this.storeRoundTrip.record(seconds, { store, op });
  }

  recordHttp(route: string, method: string, status: number, seconds: number): void {
    this.httpRequests.add(1, { route, method, status });
    this.httpDuration.record(seconds, { route, method });
  }

  /** Consumer lag of one partition (the Kafka consumer calls this on each fetch or heartbeat). */
  setConsumerLag(topic: string, partition: number, lag: number, group = ''): void {
    this.lag.set(`${topic}|${partition}|${group}`, {
      value: lag,
      attributes: group ? { topic, partition, group } : { topic, partition },
    });
  }
}
