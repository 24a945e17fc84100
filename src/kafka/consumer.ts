import { context, type Span, SpanKind, trace } from '@opentelemetry/api';
import type { Admin, Consumer, EachBatchPayload, Kafka } from 'kafkajs';
import type { Logger } from 'pino';
import { DedupEngine, type EngineVerdict } from '../engine/engine.js';
import type { DedupStore } from '../engine/types.js';
import type { DoppelError } from '../errors.js';
import { initHashing } from '../hash/xxhash.js';
import { LexiconSet } from '../lexicon/lexicon.js';
import { MessageFlow } from '../pipeline/flow.js';
import { Signer } from '../signatures/signer.js';
import { openStore } from '../store/open.js';
import { tracingActive, withSpan } from '../telemetry/trace.js';
import { classifyError, createKafka, isFenced } from './client.js';
import type { ConsumerConfig, InputFormat, OutputTopics } from './config.js';
import type { InputRecord } from './input.js';
import { type PoolSigner, startPoolSigner } from './pool-signer.js';
import { BatchProcessor, type BatchResult, emptyCounts, type Slot, type VerdictCounts } from './processor.js';
import { OutputProducer } from './producer.js';
import { ensureTopics } from './topics.js';
import { batchSpanOptions, recordAttempt, stampTraceContext } from './tracing.js';

/** Which batch a hook call is about. */
export interface BatchInfo {
  topic: string;
  partition: number;
  firstOffset: string;
  lastOffset: string;
  size: number;
  /** The partition's end offset when the batch was fetched (lag = highWatermark - lastOffset - 1). */
  highWatermark: string;
}

export interface BatchStats extends BatchInfo {
  counts: VerdictCounts;
  /** The batch's verdicts (valid messages) and the error codes of its dead letters. */
  verdicts: readonly EngineVerdict[];
  invalidCodes: readonly string[];
  /** Decode + sign. */
  signMs: number;
  /** flow.process: the store round trips and verification. */
  engineMs: number;
  /** Producing the outputs and committing the offsets (or the transaction). */
  deliverMs: number;
  totalMs: number;
  /** Attempts it took (1 when nothing failed). */
  attempts: number;
}

/**
 * Hooks for telemetry (metrics, traces, health). All optional and synchronous; a hook that throws
 * is logged and ignored, never allowed to break a batch.
 */
export interface ConsumerHooks {
  onBatchStart?(info: BatchInfo): void;
  onBatchEnd?(stats: BatchStats): void;
  /** A failed attempt; `willRetry` false means the batch was given up (left uncommitted; the consumer stops unless it lost the partition or is stopping). */
  onError?(error: DoppelError, info: BatchInfo & { attempt: number; willRetry: boolean }): void;
  /** Partitions paused (the store or Kafka is unavailable) and resumed. */
  onPause?(reason: DoppelError): void;
  onResume?(): void;
  onStateChange?(state: ConsumerState): void;
}

export type ConsumerState = 'starting' | 'running' | 'paused' | 'stopping' | 'stopped' | 'failed';

export interface ConsumerStatus {
  state: ConsumerState;
  /** Joined the group, not paused: what a readiness probe reports. */
  ready: boolean;
  groupId: string;
  profile: string;
  mode: 'tag' | 'drop';
  exactlyOnce: boolean;
  inputs: string[];
  batches: number;
  messages: number;
  counts: VerdictCounts;
  lastBatchAt: number | null;
  /** Cumulative milliseconds in each stage (decode + sign, engine/store, produce + commit). */
  timeMs: { sign: number; engine: number; deliver: number };
  lastError: { code: string; message: string; at: number } | null;
  pausedSince: number | null;
}

export interface ConsumerDeps {
  config: ConsumerConfig;
  logger: Logger;
  hooks?: ConsumerHooks;
  /** Overrides (tests): a Kafka client and/or an open store. */
  kafka?: Kafka;
  store?: DedupStore;
  /** Wraps the store the consumer opens (telemetry: instrumentStore). */
  wrapStore?: (store: DedupStore) => DedupStore;
  /** Exactly-once: runs inside each transaction between its sent outputs and its commit. */
  beforeTransactionCommit?: () => Promise<void>;
}

function sleep(ms: number): Promise<void> {
  return new Promise((r) => setTimeout(r, ms));
}

/**
 * A doppel Kafka consumer: one consumer group per profile, eachBatch, the dedup engine on the
 * Redis store, outputs as docs/kafka.md describes them, offsets committed only after the outputs are acknowledged.
 */
export class DoppelConsumer {
  private readonly config: ConsumerConfig;
  private readonly logger: Logger;
  private readonly hooks: ConsumerHooks;
  private readonly kafka: Kafka;
  private store: DedupStore | undefined;
  private readonly wrapStore: (store: DedupStore) => DedupStore;
  private readonly beforeTransactionCommit: (() => Promise<void>) | undefined;
  private consumer: Consumer | undefined;
  private producer: OutputProducer | undefined;
  private processor: BatchProcessor | undefined;
  private pool: PoolSigner | null = null;
  private readonly formats = new Map<string, InputFormat>();
  private outputs = new Map<string, OutputTopics>();
  private state: ConsumerState = 'starting';
  private joined = false;
  private stopping = false;
  /** A batch failed for good: no batch may run (or commit past it) while the process stops. */
  private failed = false;
  private pausedSince: number | null = null;
  /** Exactly-once: partitions claimed (their transactional id taken) since the last group join. */
  private readonly claimed = new Set<string>();
  /** Exactly-once: partitions another process claimed (fenced) since the last group join. */
  private readonly lost = new Set<string>();
  /** Exactly-once: the committed offset read at a claim, until the partition's next batch. */
  private readonly floors = new Map<string, bigint>();
  /** Exactly-once: the assignment of the last group join, claimed at the first batch after it. */
  private assignment: Record<string, number[]> | null = null;
  private claiming: Promise<void> = Promise.resolve();
  /** Exactly-once: reads a partition's committed offset after a claim. */
  private admin: Admin | undefined;
  /** Partitions whose batch is failing and retrying; fetching resumes when none is. */
  private readonly failing = new Set<string>();
  private readonly stats = {
    batches: 0,
    messages: 0,
    counts: emptyCounts(),
    lastBatchAt: null as number | null,
    timeMs: { sign: 0, engine: 0, deliver: 0 },
    lastError: null as ConsumerStatus['lastError'],
  };
  private crashed: ((error: Error) => void) | undefined;
  private resolveDone: (() => void) | undefined;
  /** Resolves when the consumer stops for good (stop() or a crash kafkajs will not restart). */
  readonly done: Promise<void>;

  constructor(deps: ConsumerDeps) {
    this.config = deps.config;
    this.logger = deps.logger;
    this.hooks = deps.hooks ?? {};
    this.kafka = deps.kafka ?? createKafka(deps.config.kafka, deps.logger);
    this.store = deps.store;
    this.wrapStore = deps.wrapStore ?? ((store) => store);
    this.beforeTransactionCommit = deps.beforeTransactionCommit;
    for (const input of this.config.consumer.inputs) this.formats.set(input.topic, input.format);
    this.done = new Promise<void>((resolve, reject) => {
      this.crashed = reject;
      this.resolveDone = resolve;
    });
    this.done.catch(() => undefined);
  }

  status(): ConsumerStatus {
    const c = this.config.consumer;
    return {
      state: this.state,
      ready: this.ready(),
      groupId: c.groupId,
      profile: c.profile,
      mode: this.config.dedup.mode,
      exactlyOnce: c.exactlyOnce,
      inputs: c.inputs.map((i) => i.topic),
      batches: this.stats.batches,
      messages: this.stats.messages,
      counts: { ...this.stats.counts },
      lastBatchAt: this.stats.lastBatchAt,
      timeMs: {
        sign: Math.round(this.stats.timeMs.sign),
        engine: Math.round(this.stats.timeMs.engine),
        deliver: Math.round(this.stats.timeMs.deliver),
      },
      lastError: this.stats.lastError,
      pausedSince: this.pausedSince,
    };
  }

  ready(): boolean {
    return this.state === 'running' && this.joined;
  }

  /**
   * The store answers one cheap read (a readiness check): a Redis outage with no batch in flight
   * would otherwise go unseen until the next batch pauses the consumer.
   */
  async storeReady(): Promise<boolean> {
    if (!this.store) return false;
    await this.store.resolveCluster('readyz');
    return true;
  }

  private setState(state: ConsumerState): void {
    if (this.state === state) return;
    this.state = state;
    this.hook('onStateChange', () => this.hooks.onStateChange?.(state));
  }

  private hook(name: string, call: () => void): void {
    try {
      call();
    } catch (error) {
      this.logger.warn({ hook: name, err: (error as Error).message }, 'hook failed');
    }
  }

  /** Topics, store, producer, consumer group; returns once the consumer runs. */
  async start(): Promise<void> {
    const { consumer: c, dedup } = this.config;
    const admin = this.kafka.admin();
    await admin.connect();
    try {
      this.outputs = await ensureTopics(admin, c, this.logger);
    } finally {
      await admin.disconnect();
    }
    await initHashing();
    this.store ??= this.wrapStore(
      await openStore(
        c.redisUrl,
        c.namespace ? { config: dedup, namespace: c.namespace } : { config: dedup },
      ),
    );
    const flow = new MessageFlow(
      new DedupEngine(dedup, this.store),
      new Signer(dedup.signatures, LexiconSet.defaults()),
    );
    this.pool = await startPoolSigner(c.signThreads, dedup);
    this.processor = new BatchProcessor(flow, {
      ...(this.pool ? { pool: this.pool } : {}),
      mode: dedup.mode,
      formatOf: (topic) => this.formats.get(topic) ?? 'json',
      outputsOf: (topic) => this.outputs.get(topic) as OutputTopics,
      maxMessageBytes: c.maxMessageBytes,
    });
    this.producer = new OutputProducer(this.kafka, {
      exactlyOnce: c.exactlyOnce,
      transactionalId: c.transactionalId,
      groupId: c.groupId,
      ...(this.beforeTransactionCommit ? { beforeCommit: this.beforeTransactionCommit } : {}),
    });
    await this.producer.connect();
    if (c.exactlyOnce) {
      this.admin = this.kafka.admin();
      await this.admin.connect();
    }

    const consumer = this.kafka.consumer({
      groupId: c.groupId,
      sessionTimeout: c.sessionTimeoutMs,
      heartbeatInterval: Math.max(1000, Math.floor(c.sessionTimeoutMs / 10)),
      maxBytesPerPartition: c.maxBytesPerPartition,
      readUncommitted: false,
    });
    this.consumer = consumer;
    consumer.on(consumer.events.GROUP_JOIN, (e) => {
      this.joined = true;
      // A new generation: every assigned partition is claimed again at the first batch.
      this.claimed.clear();
      this.lost.clear();
      this.floors.clear();
      this.assignment = e.payload.memberAssignment;
      this.logger.info({ memberAssignment: e.payload.memberAssignment }, 'joined the consumer group');
    });
    consumer.on(consumer.events.CRASH, (e) => {
      const error = classifyError(e.payload.error);
      this.stats.lastError = { code: error.code, message: error.message, at: Date.now() };
      this.logger.error(
        { code: error.code, err: error.message, restart: e.payload.restart },
        'consumer crashed',
      );
      if (!e.payload.restart && !this.stopping) {
        this.setState('failed');
        this.crashed?.(error);
      }
    });
    await consumer.connect();
    if (this.stopping) return;
    await consumer.subscribe({ topics: c.inputs.map((i) => i.topic), fromBeginning: c.fromBeginning });
    await consumer.run({
      autoCommit: false,
      eachBatchAutoResolve: false,
      partitionsConsumedConcurrently: c.concurrency,
      eachBatch: (payload) => this.eachBatch(payload),
    });
    this.setState('running');
    this.logger.info(
      {
        groupId: c.groupId,
        inputs: c.inputs,
        mode: dedup.mode,
        exactlyOnce: c.exactlyOnce,
        concurrency: c.concurrency,
        store: this.store.kind,
      },
      'consumer started',
    );
  }

  private async eachBatch(payload: EachBatchPayload): Promise<void> {
    const { batch, isRunning, isStale } = payload;
    if (batch.messages.length === 0 || !isRunning() || isStale() || this.failed) return;
    const started = performance.now();
    if (this.config.consumer.exactlyOnce) {
      const key = `${batch.topic}/${batch.partition}`;
      if (this.lost.has(key)) {
        // Fenced: another process owns the partition until this one rejoins the group.
        await sleep(200);
        return;
      }
      // Every assigned partition at once: the open transactions a previous owner left are
      // aborted now, not when each partition's next batch comes (an open transaction holds back
      // read_committed readers of the output partitions it wrote to).
      // (Batches of other partitions, consumed concurrently, wait for the same claims.)
      const assigned = this.assignment;
      this.assignment = null;
      if (assigned) {
        this.claiming = (async () => {
          for (const [topic, partitions] of Object.entries(assigned))
            for (const partition of partitions) await this.claimOrWait(topic, partition);
        })();
      }
      await this.claiming;
      if (!this.claimed.has(key) && !(await this.claimOrWait(batch.topic, batch.partition))) return;
      const floor = this.floors.get(key);
      this.floors.delete(key);
      // Fetched from an offset read before the claim: a previous owner committed past it since.
      // Consume again from the committed offset.
      if (floor !== undefined && floor > BigInt(batch.firstOffset() ?? batch.lastOffset())) {
        this.consumer?.seek({ topic: batch.topic, partition: batch.partition, offset: floor.toString() });
        return;
      }
    }
    const records: InputRecord[] = batch.messages.map((m) => ({
      topic: batch.topic,
      partition: batch.partition,
      offset: m.offset,
      key: m.key ?? null,
      value: m.value ?? null,
      timestamp: m.timestamp,
    }));
    const last = batch.lastOffset();
    const info: BatchInfo = {
      topic: batch.topic,
      partition: batch.partition,
      firstOffset: batch.firstOffset() ?? last,
      lastOffset: last,
      size: records.length,
      highWatermark: batch.highWatermark,
    };
    this.hook('onBatchStart', () => this.hooks.onBatchStart?.(info));
    // One span per batch; decode, signatures, store.* (instrumentStore) and produce nest under it
    // because withSpan makes it the active context for everything awaited inside.
    const traced = tracingActive();
    const meta = { profile: this.config.consumer.profile, groupId: this.config.consumer.groupId };
    await withSpan(
      'doppel.batch',
      (span) => this.runBatch(payload, records, info, started, span, traced),
      batchSpanOptions(info, meta, batch.messages, traced),
    );
  }

  /** The batch under its span: decode, sign, decide (store), deliver, with retries. */
  private async runBatch(
    payload: EachBatchPayload,
    records: readonly InputRecord[],
    info: BatchInfo,
    started: number,
    span: Span,
    traced: boolean,
  ): Promise<void> {
    const { batch, resolveOffset, heartbeat, isRunning, isStale, commitOffsetsIfNecessary } = payload;
    const processor = this.processor as BatchProcessor;
    const producer = this.producer as OutputProducer;
    const last = info.lastOffset;
    let slots: Slot[] | null = null;
    let signMs = 0;
    const next = { topic: batch.topic, partition: batch.partition, offset: (BigInt(last) + 1n).toString() };
    let result: BatchResult | null = null;
    let deliverMs = 0;
    let attempt = 0;
    let failures = 0;
    const key = `${batch.topic}/${batch.partition}`;
    try {
      for (;;) {
        attempt++;
        try {
          if (slots === null) {
            const signStarted = performance.now();
            const decoded = await withSpan('decode', () => processor.decode(records));
            slots = await withSpan('signatures', () => processor.sign(decoded));
            signMs = performance.now() - signStarted;
          }
          const ready = slots;
          // Decide once: a retry after the store committed would replay (same verdicts, no story
          // events), so only the delivery is retried once verdicts exist.
          result ??= await processor.run(ready, signMs);
          const t = performance.now();
          const outputs = result.outputs;
          // Downstream continues the batch's trace (span context computed once per batch).
          if (traced) stampTraceContext(outputs, trace.setSpan(context.active(), span));
          // Exactly-once, after a failed attempt: the partition is claimed again, and a commit
          // that went through although its answer was lost is not made twice.
          if (this.config.consumer.exactlyOnce && !this.claimed.has(key)) {
            if ((await this.claim(batch.topic, batch.partition)) >= BigInt(next.offset)) break;
          }
          await withSpan(
            'produce',
            () =>
              producer
                .deliver(outputs, next, (o) =>
                  commitOffsetsIfNecessary({
                    topics: [{ topic: o.topic, partitions: [{ partition: o.partition, offset: o.offset }] }],
                  }),
                )
                // Classified here too, so the produce span carries the error code.
                .catch((e: unknown) => Promise.reject(classifyError(e))),
            { kind: SpanKind.PRODUCER },
          );
          deliverMs = performance.now() - t;
          break;
        } catch (e) {
          const error = classifyError(e);
          this.stats.lastError = { code: error.code, message: error.message, at: Date.now() };
          const fenced = isFenced(error);
          const gone = this.stopping || this.failed || !isRunning() || isStale() || fenced;
          if (this.config.consumer.exactlyOnce) {
            // A new producer (and a new claim) for the next attempt; none when fenced: another
            // process owns the partition now and consumes the batch again.
            this.claimed.delete(key);
            if (fenced) this.lost.add(key);
            await producer.release(batch.topic, batch.partition);
          }
          // Unavailability (retryable) pauses and waits, however long. A failure waiting does not
          // fix (a bug, a store or Kafka error) is retried maxFailedAttempts times, then the
          // process stops; a lost namespace at once (no retry brings it back). Never a dead
          // letter: the dlq is for invalid input only.
          if (!error.retryable) failures++;
          // Wrong credentials are configuration: no retry fixes them either; nor being fenced
          // (exactly-once: another process took the transactional id and aborted this batch's
          // transaction; that process consumes the batch again).
          const limit =
            error.code === 'STORE_DATA_LOST' ||
            error.code === 'STORE_CORRUPT' ||
            error.code === 'STORE_AUTH' ||
            fenced
              ? 1
              : this.config.consumer.maxFailedAttempts;
          const willRetry = !gone && failures < limit;
          this.hook('onError', () => this.hooks.onError?.(error, { ...info, attempt, willRetry }));
          recordAttempt(span, error, attempt, willRetry);
          if (!willRetry) {
            // Not committed: the batch is consumed again (here or by the partition's new owner).
            this.logger.warn(
              { ...info, code: error.code, err: error.message, attempt, ...(fenced ? { fenced } : {}) },
              'batch left uncommitted',
            );
            if (!gone) this.fail(error, info);
            return;
          }
          const delay = Math.min(
            this.config.consumer.retryMaxMs,
            this.config.consumer.retryInitialMs * 2 ** (attempt - 1),
          );
          this.logger.warn(
            { ...info, code: error.code, err: error.message, attempt, delayMs: delay },
            'batch failed; retrying',
          );
          this.failing.add(key);
          this.pause(error);
          await this.backoff(delay, heartbeat);
        }
      }
    } finally {
      // Resume fetching when no partition of this process is failing any more.
      this.failing.delete(key);
      if (this.failing.size === 0) this.resume();
    }
    resolveOffset(last);
    const counts = (result as BatchResult).counts;
    this.stats.batches++;
    this.stats.messages += records.length;
    this.stats.lastBatchAt = Date.now();
    this.stats.timeMs.sign += signMs;
    this.stats.timeMs.engine += (result as BatchResult).engineMs;
    this.stats.timeMs.deliver += deliverMs;
    for (const k of Object.keys(counts) as Array<keyof VerdictCounts>) this.stats.counts[k] += counts[k];
    const stats: BatchStats = {
      ...info,
      counts,
      verdicts: (result as BatchResult).verdicts,
      invalidCodes: (result as BatchResult).invalidCodes,
      signMs,
      engineMs: (result as BatchResult).engineMs,
      deliverMs,
      totalMs: performance.now() - started,
      attempts: attempt,
    };
    if (this.logger.isLevelEnabled('debug')) {
      const { verdicts: _v, invalidCodes: _c, ...summary } = stats;
      this.logger.debug(summary, 'batch done');
    }
    this.hook('onBatchEnd', () => this.hooks.onBatchEnd?.(stats));
  }

  /**
   * claim(), keeping the committed offset for the partition's next batch; false when Kafka is
   * unavailable (logged; the partition is claimed again at its next batch).
   */
  private async claimOrWait(topic: string, partition: number): Promise<boolean> {
    try {
      this.floors.set(`${topic}/${partition}`, await this.claim(topic, partition));
      return true;
    } catch (e) {
      const error = classifyError(e);
      this.stats.lastError = { code: error.code, message: error.message, at: Date.now() };
      this.logger.warn({ topic, partition, code: error.code, err: error.message }, 'partition claim failed');
      await sleep(500);
      return false;
    }
  }

  /**
   * Exactly-once: claims the partition's transactional id (fencing its previous owner and
   * aborting that one's open transaction), then returns its committed offset (0 when none).
   */
  private async claim(topic: string, partition: number): Promise<bigint> {
    await (this.producer as OutputProducer).claim(topic, partition);
    const [offsets] = await (this.admin as Admin).fetchOffsets({
      groupId: this.config.consumer.groupId,
      topics: [topic],
    });
    const committed = BigInt(offsets?.partitions.find((p) => p.partition === partition)?.offset ?? '-1');
    // Claimed once the offset is known: a claim that failed half-way is made again.
    this.claimed.add(`${topic}/${partition}`);
    this.logger.info({ topic, partition, committed: String(committed) }, 'partition claimed');
    return committed < 0n ? 0n : committed;
  }

  /**
   * A batch failed for good: nothing more is processed or committed (the failed batch stays
   * uncommitted, so no later offset may be), and `done` rejects: the process exits 1 and
   * Kubernetes restarts it, which consumes the batch again.
   */
  private fail(error: DoppelError, info: BatchInfo): void {
    if (this.failed) return;
    this.failed = true;
    this.consumer?.pause(this.config.consumer.inputs.map((i) => ({ topic: i.topic })));
    this.logger.error(
      { ...info, code: error.code, err: error.message },
      'batch failed for good; stopping (it stays uncommitted)',
    );
    this.setState('failed');
    this.crashed?.(error);
  }

  /** Back-pressure: no more fetches while the store (or Kafka) is failing; this batch retries. */
  private pause(reason: DoppelError): void {
    if (this.pausedSince !== null) return;
    this.pausedSince = Date.now();
    this.consumer?.pause(this.config.consumer.inputs.map((i) => ({ topic: i.topic })));
    this.setState('paused');
    this.logger.warn({ code: reason.code }, 'paused input partitions');
    this.hook('onPause', () => this.hooks.onPause?.(reason));
  }

  private resume(): void {
    if (this.pausedSince === null || this.failed) return;
    this.logger.info({ pausedMs: Date.now() - this.pausedSince }, 'resumed input partitions');
    this.pausedSince = null;
    this.consumer?.resume(this.config.consumer.inputs.map((i) => ({ topic: i.topic })));
    if (!this.stopping && this.state !== 'failed') this.setState('running');
    this.hook('onResume', () => this.hooks.onResume?.());
  }

  /** Sleeps `ms`, heartbeating so the group keeps the partition while the store is down. */
  private async backoff(ms: number, heartbeat: () => Promise<void>): Promise<void> {
    const until = Date.now() + ms;
    while (!this.stopping && Date.now() < until) {
      await sleep(Math.min(1000, until - Date.now()));
      await heartbeat().catch(() => undefined);
    }
  }

  /**
   * Graceful stop (SIGTERM): the batch in progress finishes (outputs sent, offsets committed) or,
   * when it is still retrying, is left uncommitted; then consumer, producer and store disconnect.
   */
  async stop(): Promise<void> {
    if (this.stopping) return this.done;
    this.stopping = true;
    this.setState('stopping');
    this.logger.info('stopping: draining the current batch');
    try {
      await this.consumer?.disconnect();
      await this.producer?.disconnect();
      await this.admin?.disconnect();
      await this.store?.close();
      await this.pool?.close();
      this.setState('stopped');
      this.logger.warn(this.status(), 'stopped');
      this.resolveDone?.();
    } catch (error) {
      this.setState('failed');
      this.crashed?.(error as Error);
      throw error;
    }
  }
}
