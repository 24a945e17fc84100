import type { DedupStore } from '../engine/types.js';
import type { DoppelMetrics } from './metrics.js';
import { withSpan } from './trace.js';

/**
 * The store with every call timed (doppel_store_round_trip_seconds{store,op}) and in a span
 * `store.<op>` under the caller's (the batch's) span. A wrapper, so the stores stay free of
 * telemetry and the engine is unchanged: `new DedupEngine(config, instrumentStore(store, m))`.
 */
export function instrumentStore(store: DedupStore, metrics: DoppelMetrics | null): DedupStore {
  metrics?.observeStore(store);
  const timed = <T>(op: string, call: () => Promise<T>): Promise<T> =>
    withSpan(
      `store.${op}`,
      async () => {
        const started = performance.now();
        try {
          return await call();
        } finally {
          metrics?.recordStoreCall(store.kind, op, (performance.now() - started) / 1000);
        }
      },
      { attributes: { 'doppel.store': store.kind } },
    );
  const wrapped: DedupStore = {
    kind: store.kind,
    index: (requests) => timed('index', () => store.index(requests)),
    query: (requests) => timed('query', () => store.query(requests)),
    commit: (decisions) => timed('commit', () => store.commit(decisions)),
    verdict: (id, options) => timed('verdict', () => store.verdict(id, options)),
    cluster: (id) => timed('cluster', () => store.cluster(id)),
    verdictsOf: (ids) => timed('verdicts', () => store.verdictsOf(ids)),
    clustersOf: (lookups) => timed('clusters', () => store.clustersOf(lookups)),
    resolveCluster: (id) => timed('resolve', () => store.resolveCluster(id)),
    clusterMembers: (id, after, limit) => timed('members', () => store.clusterMembers(id, after, limit)),
    listClusters: (query) => timed('clusters', () => store.listClusters(query)),
    stats: () => store.stats(),
    close: () => store.close(),
  };
  return wrapped;
}
