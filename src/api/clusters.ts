import type { z } from 'zod';
import type { DedupConfig } from '../config/dedup.js';
import type { DedupEngine } from '../engine/engine.js';
import type { ClusterView } from '../engine/types.js';
import { DoppelError } from '../errors.js';
import { memberCursor, parseMemberCursor, parseStoryCursor, storyCursor } from './cursor.js';
import { clusterListQuerySchema, pageQuerySchema } from './schemas.js';
import { clusterOut, verdictOut } from './times.js';

/** The story routes of the HTTP API: GET /v1/clusters and GET /v1/clusters/{id}. */

export function parseQuery<S extends z.ZodObject>(schema: S, url: URL): z.output<S> {
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

/** Stories looked at per filtered list request at most: a page may come back short, with `next`. */
export const MAX_SCANNED = 5000;

/** Lower case, accents dropped, words: what title search compares. */
export function searchWords(text: string): string[] {
  return text
    .normalize('NFKD')
    .replace(/\p{M}+/gu, '')
    .toLowerCase()
    .split(/[^\p{L}\p{N}]+/u)
    .filter((w) => w.length > 0);
}

function storyFilter(q: z.output<typeof clusterListQuerySchema>): ((c: ClusterView) => boolean) | null {
  const words = q.q === undefined ? [] : searchWords(q.q);
  const phrase = q.q?.trim() ?? '';
  if (words.length === 0 && phrase === '' && q.minSize === undefined && q.until === undefined) return null;
  return (c) => {
    if (q.minSize !== undefined && c.size < q.minSize) return false;
    if (q.until !== undefined && c.lastSeen >= q.until) return false;
    if (phrase === '' || c.id === phrase) return true;
    const title = searchWords(c.title ?? '').join(' ');
    return words.length > 0 && words.every((w) => title.includes(w));
  };
}

export async function listClusters(
  engine: DedupEngine,
  config: DedupConfig,
  url: URL,
): Promise<[number, unknown]> {
  const q = parseQuery(clusterListQuerySchema, url);
  const order = q.order ?? 'recent';
  const limit = pageLimit(q.limit, config.api.maxPageSize);
  let after = q.cursor === undefined ? null : parseStoryCursor(q.cursor, order);
  const since = q.since ?? 0;
  const keep = storyFilter(q);
  if (!keep) {
    const page = await engine.store.listClusters({ order, since, after, limit });
    return [200, { items: page.items.map(clusterOut), next: page.next && storyCursor(order, page.next) }];
  }
  // Filters the store does not know: pages of the store's order are read and filtered here, up to
  // MAX_SCANNED stories; the cursor is then the last story looked at, matching or not.
  const items: ClusterView[] = [];
  let scanned = 0;
  while (items.length < limit && scanned < MAX_SCANNED) {
    const chunk = Math.min(500, MAX_SCANNED - scanned);
    const page = await engine.store.listClusters({ order, since, after, limit: chunk });
    let i = 0;
    for (; i < page.items.length && items.length < limit; i++) {
      const story = page.items[i] as ClusterView;
      if (keep(story)) items.push(story);
    }
    scanned += i;
    if (i > 0) after = page.keys[i - 1] ?? after;
    const exhausted = i === page.items.length && page.next === null;
    if (exhausted) return [200, { items: items.map(clusterOut), next: null }];
  }
  return [200, { items: items.map(clusterOut), next: after && storyCursor(order, after) }];
}

export async function getCluster(
  engine: DedupEngine,
  config: DedupConfig,
  id: string,
  url: URL,
): Promise<[number, unknown]> {
  const q = parseQuery(pageQuerySchema, url);
  const limit = pageLimit(q.limit, config.api.maxPageSize);
  const after = q.cursor === undefined ? 0 : parseMemberCursor(q.cursor);
  const cluster = await engine.store.cluster(id);
  if (!cluster)
    throw new DoppelError('NOT_FOUND', `cluster "${id}" is not in the index (unknown or expired)`);
  const page = await engine.store.clusterMembers(cluster.id, after, limit);
  const members = page
    ? {
        members: page.members.map(verdictOut),
        next: page.next === null ? null : memberCursor(page.next),
        total: page.total,
      }
    : { members: [], next: null, total: 0 };
  return [200, { ...clusterOut(cluster), members }];
}
