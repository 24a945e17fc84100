import type { ClusterView, StoredVerdict } from '../engine/types.js';

/** 0000-01-01T00:00:00.000Z and 9999-12-31T23:59:59.999Z: the range RFC 3339 can write. */
// Date.UTC reads years 0-99 as 1900-1999, so the start of year 0 is written out.
const EARLIEST = -62_167_219_200_000;
const LATEST = Date.UTC(9999, 11, 31, 23, 59, 59, 999);

/**
 * Epoch milliseconds as an RFC 3339 UTC date-time (`2026-11-20T08:00:00.000Z`), what the API
 * answers with; the stores keep numbers. A time outside years 0000-9999 (a message may carry
 * any finite `ts`) is written as the nearest end of that range.
 */
export function rfc3339(ms: number): string {
  const bounded = Math.min(LATEST, Math.max(EARLIEST, ms));
  return new Date(Number.isFinite(bounded) ? bounded : 0).toISOString();
}

/** A story as the API answers it: firstSeen and lastSeen as RFC 3339. */
export type ClusterOut<C extends ClusterView> = Omit<C, 'firstSeen' | 'lastSeen'> & {
  firstSeen: string;
  lastSeen: string;
};

export function clusterOut<C extends ClusterView>(cluster: C): ClusterOut<C> {
  return { ...cluster, firstSeen: rfc3339(cluster.firstSeen), lastSeen: rfc3339(cluster.lastSeen) };
}

/** A stored verdict as the API answers it: ts as RFC 3339. */
export type VerdictOut<V extends StoredVerdict> = Omit<V, 'ts'> & { ts: string };

export function verdictOut<V extends StoredVerdict>(verdict: V): VerdictOut<V> {
  return { ...verdict, ts: rfc3339(verdict.ts) };
}
