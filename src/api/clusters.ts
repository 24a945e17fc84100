import type { z } from 'zod';
import type { DedupConfig } from '../config/dedup.js';
import type { DedupEngine } from '../engine/engine.js';
import { DoppelError } from '../errors.js';
import { clusterListQuerySchema, pageQuerySchema } from './schemas.js';

/** The story routes of the HTTP API: GET /v1/clusters and GET /v1/clusters/{id}. */

function parseQuery<S extends z.ZodObject>(schema: S, url: URL): z.output<S> {
  const raw: Record<string, string> = {};
  for (const key of Object.keys(schema.shape)) {
    const value = url.searchParams.get(key);
    if (value !== null) raw[key] = value;
  }
  const parsed = schema.safeParse(raw);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    throw new DoppelError(
      'BAD_REQUEST',
      `${issue?.path.join('.') || 'query'}: ${issue?.message ?? 'invalid'}`,
    );
  }
  return parsed.data;
}

function pageLimit(limit: number | undefined, max: number): number {
  if (limit === undefined) return Math.min(50, max);
  if (limit > max) throw new DoppelError('BAD_REQUEST', `limit must be an integer from 1 to ${max}`);
  return limit;
}

export async function listClusters(
  engine: DedupEngine,
  config: DedupConfig,
  url: URL,
): Promise<[number, unknown]> {
  const q = parseQuery(clusterListQuerySchema, url);
  const page = await engine.store.listClusters({
    order: q.order ?? 'recent',
    since: q.since ?? 0,
    cursor: q.cursor ?? 0,
    limit: pageLimit(q.limit, config.api.maxPageSize),
  });
  return [200, page];
}

export async function getCluster(
  engine: DedupEngine,
  config: DedupConfig,
  id: string,
  url: URL,
): Promise<[number, unknown]> {
  const q = parseQuery(pageQuerySchema, url);
  const limit = pageLimit(q.limit, config.api.maxPageSize);
  const cluster = await engine.store.cluster(id);
  if (!cluster)
    throw new DoppelError('NOT_FOUND', `cluster "${id}" is not in the index (unknown or expired)`);
  const members = await engine.store.clusterMembers(cluster.id, q.cursor ?? 0, limit);
  return [200, { ...cluster, members: members ?? { items: [], members: [], next: null, total: 0 } }];
}
