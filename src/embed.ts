import type { z } from 'zod';
import type { DedupConfig, dedupConfigSchema, ProfileName } from './config/dedup.js';
import { resolveDedupConfig } from './config/profiles.js';
import { DedupEngine, type EngineVerdict } from './engine/engine.js';
import type { ClusterListPage, ClusterListQuery, ClusterView, IndexRequest } from './engine/types.js';
import { DoppelError, type ErrorCode, isInputError, toDoppelError } from './errors.js';
import { initHashing } from './hash/xxhash.js';
import { parseMessageObject } from './input/message.js';
import { LexiconSet } from './lexicon/lexicon.js';
import { MessageFlow } from './pipeline/flow.js';
import { Signer } from './signatures/signer.js';
import { openStore } from './store/open.js';

/** Every key optional, at every depth (arrays are taken whole). */
export type DeepPartial<T> = T extends readonly unknown[]
  ? T
  : T extends object
    ? { [K in keyof T]?: DeepPartial<T[K]> }
    : T;

/**
 * A message as `doppel dedup` reads it (docs/formats.md): `id` and one of text, html, raw. The
 * JSON Lines format also passes unknown fields through; here they are a type error in an object
 * literal, so that a misspelled field is caught at compile time.
 */
export interface DoppelInput {
  id: string | number;
  text?: string;
  title?: string;
  html?: string;
  /** Base64 of raw bytes: text in a legacy charset, an HTML page, or an RFC 822 mail. */
  raw?: string;
  /** BCP 47 tag (ru, uk, en, fa, ...); detected from the text when absent. */
  lang?: string;
  /** Event time: ISO 8601 or epoch milliseconds; default the time of the call. */
  ts?: string | number;
}

/** Any part of the config file (docs/configuration.md), merged over the profile's defaults. */
export type DoppelConfigInput = DeepPartial<z.input<typeof dedupConfigSchema>>;

export interface CreateDoppelOptions {
  /** `news` (default) or `mail`. */
  profile?: ProfileName;
  config?: DoppelConfigInput;
  /** `memory` (default), a redis:// / rediss:// URL, or redis+cluster://host:port,... */
  store?: string;
  /** The store namespace; default the config's `redis.namespace`. */
  namespace?: string;
}

/** A message doppel could not judge (bad input): the `invalid` record of `doppel dedup`. */
export interface InvalidResult {
  /** The input's id when it had a usable one. */
  id: string | null;
  verdict: 'invalid';
  clusterId: null;
  error: { code: ErrorCode; message: string; retryable: boolean };
}

/** One result per input message, in input order. */
export type DoppelResult = EngineVerdict | InvalidResult;

/** A page of stories; pass `next` as the next query's `cursor` (null: the last page). */
export type StoriesPage = Omit<ClusterListPage, 'keys'>;

export interface StoriesQuery {
  /** `size` (default: largest first) or `recent` (latest activity first). */
  order?: ClusterListQuery['order'];
  /** Only stories active at or after this time (epoch ms or ISO 8601); default all in the window. */
  since?: number | string;
  /** The `next` of the previous page. */
  cursor?: ClusterListPage['next'];
  /** Stories per page, 1 to 500; default 20. */
  limit?: number;
}

/** A ready engine: messages in (the JSON Lines input format as objects), verdicts out. */
export interface Doppel {
  config: DedupConfig;
  engine: DedupEngine;
  signer: Signer;
  /**
   * Signs, indexes and decides a batch: one result per message, in order. A message doppel cannot
   * judge gets an `invalid` result with its error and the others are judged as usual; a store
   * failure (Redis down) rejects the whole call.
   */
  process(messages: readonly DoppelInput[]): Promise<DoppelResult[]>;
  /** The results the messages would get, nothing indexed. */
  check(messages: readonly DoppelInput[]): Promise<DoppelResult[]>;
  /** Live stories (clusters of two or more messages), a page at a time. */
  stories(query?: StoriesQuery): Promise<StoriesPage>;
  /** A story by its id or any earlier id it was merged from; null when unknown or expired. */
  story(id: string): Promise<ClusterView | null>;
  close(): Promise<void>;
}

/** What `doppel dedup` and `doppel serve` set up, for a Node service that embeds doppel. */
export async function createDoppel(options: CreateDoppelOptions = {}): Promise<Doppel> {
  const config = resolveDedupConfig(options.profile ?? 'news', options.config ?? {});
  await initHashing();
  const signer = new Signer(config.signatures, LexiconSet.defaults({}));
  const store = await openStore(
    options.store ?? 'memory',
    options.namespace ? { config, namespace: options.namespace } : { config },
  );
  const engine = new DedupEngine(config, store);
  const flow = new MessageFlow(engine, signer);

  const judge = async (
    messages: readonly DoppelInput[],
    decide: (requests: readonly IndexRequest[]) => Promise<EngineVerdict[]>,
  ): Promise<DoppelResult[]> => {
    const results: Array<DoppelResult | undefined> = new Array(messages.length);
    const requests: IndexRequest[] = [];
    const positions: number[] = [];
    await Promise.all(
      messages.map(async (json, i) => {
        try {
          const message = parseMessageObject(json);
          requests[i] = await flow.prepare(message, message.ts ?? Date.now());
        } catch (error) {
          if (!isInputError(error)) throw toDoppelError(error);
          results[i] = invalidResult(json, error);
        }
      }),
    );
    // Input order, so that "first" among the batch's own copies is the earlier message.
    const valid: IndexRequest[] = [];
    requests.forEach((request, i) => {
      if (request) {
        valid.push(request);
        positions.push(i);
      }
    });
    const verdicts = valid.length > 0 ? await decide(valid) : [];
    verdicts.forEach((verdict, k) => {
      results[positions[k] as number] = verdict;
    });
    return results as DoppelResult[];
  };

  return {
    config,
    engine,
    signer,
    process: (messages) => judge(messages, (requests) => flow.process(requests)),
    check: (messages) => judge(messages, (requests) => flow.check(requests)),
    stories: async (query = {}) => {
      const { items, next } = await store.listClusters({
        order: query.order ?? 'size',
        since: query.since === undefined ? 0 : epochMs(query.since),
        after: query.cursor ?? null,
        limit: Math.max(1, Math.min(500, Math.floor(query.limit ?? 20))),
      });
      return { items, next };
    },
    story: async (id) => store.cluster(await store.resolveCluster(id)),
    close: () => store.close(),
  };
}

function invalidResult(
  json: unknown,
  error: { code: ErrorCode; message: string; retryable: boolean },
): InvalidResult {
  const raw = typeof json === 'object' && json !== null ? (json as { id?: unknown }).id : undefined;
  const id =
    typeof raw === 'string' && raw !== ''
      ? raw
      : typeof raw === 'number' && Number.isSafeInteger(raw)
        ? String(raw)
        : null;
  return {
    id,
    verdict: 'invalid',
    clusterId: null,
    error: { code: error.code, message: error.message, retryable: error.retryable },
  };
}

function epochMs(value: number | string): number {
  const ms = typeof value === 'number' ? value : Date.parse(value);
  if (!Number.isFinite(ms))
    throw new DoppelError(
      'USAGE',
      `stories: since takes epoch milliseconds or ISO 8601, not ${String(value)}`,
    );
  return ms;
}
