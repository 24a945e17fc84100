import { availableParallelism } from 'node:os';
import { DedupEngine } from '../engine/engine.js';
import type { DedupStore, IndexRequest } from '../engine/types.js';
import { DoppelError, isInputError } from '../errors.js';
import { parseMessageLine, salvageId } from '../input/message.js';
import { invalidRecord, type VerdictRecord, verdictRecord } from '../output/verdict-record.js';
import { type CanonicalChunk, unpackCanonicalItem } from '../pipeline/canonical-wire.js';
import { MessageFlow } from '../pipeline/flow.js';
import { type PreparedChunk, unpackItem } from '../pipeline/prepared-wire.js';
import { packRawLines } from '../pipeline/raw-lines.js';
import { defaultDedupThreads, resolveThreads, SignPool, splitByStage } from '../pipeline/sign-pool.js';
import { Signer } from '../signatures/signer.js';
import { openStore } from '../store/open.js';
import { LANGUAGES } from '../text/language.js';
import { engineSetup, parseCommandArgs, parseLexiconFlags } from './common.js';
import {
  isBlankLine,
  isOutputClosed,
  LineWriter,
  OversizedLine,
  readLineBatches,
  readRawLineBatches,
} from './jsonl.js';
import { inputFileSize, knownInputSize, progressLine } from './progress.js';

export const DEDUP_USAGE = `usage: doppel dedup [--profile news|mail] [--config FILE] [--input FILE|-] [--output FILE|-]
                    [--store memory|redis://HOST:PORT[/DB]|redis+cluster://HOST:PORT,...] [--namespace NAME] [--stories FILE]
                    [--lexicon LANG=FILE ...] [--threads N] [--quiet]

Reads JSON Lines messages (the doppel sign input format, plus optional "ts") and writes exactly one
line per input line, in input order: {"id", "verdict", "clusterId", "duplicateOf"?, "similarity"?,
"method"?, "error"?}. Verdicts: unique, duplicate, near_duplicate, invalid. --stories writes the
cluster events (created, grown, merged) as JSON Lines. --threads N runs N threads: N - 1 workers decode
and sign while the main thread indexes, verifies and writes; with 2, the worker decodes and
canonicalizes and the main thread signs as well (default: the config's "threads", 0 = one per core,
except on 2 cores for an --input file under 32 MiB: one); 1 does everything on the main thread. The
verdicts do not depend on it.
Every 5 s a progress line goes to stderr (not with --quiet); on a terminal, with an --input file, it
shows the percent of the file read and an ETA.

examples:
  doppel dedup --input demo/feed.jsonl --stories stories.jsonl > verdicts.jsonl
  doppel dedup --profile mail --input mails.jsonl --quiet | grep '"near_duplicate"'
  doppel dedup --store redis://127.0.0.1:6379/0 --namespace news --input today.jsonl`;

const OPTIONS = {
  profile: { type: 'string', short: 'p', default: 'news' },
  config: { type: 'string', short: 'c' },
  input: { type: 'string', short: 'i', default: '-' },
  output: { type: 'string', short: 'o', default: '-' },
  store: { type: 'string', default: 'memory' },
  namespace: { type: 'string' },
  stories: { type: 'string' },
  lexicon: { type: 'string', multiple: true },
  quiet: { type: 'boolean', short: 'q' },
  threads: { type: 'string', short: 't' },
  help: { type: 'boolean', short: 'h' },
} as const;

interface Tally {
  messages: number;
  /** Verdicts whose event time was clamped (window.maxFutureSkewMs). */
  clamped: number;
  unique: number;
  duplicate: number;
  near_duplicate: number;
  invalid: number;
}

type Pending = { line: number; record: VerdictRecord } | { line: number; input: IndexRequest };

export async function dedupCommand(argv: string[]): Promise<number> {
  const { values } = parseCommandArgs(argv, OPTIONS);
  if (values.help) {
    process.stdout.write(`${DEDUP_USAGE}\n`);
    return 0;
  }
  const threadsFlag = values.threads === undefined ? undefined : Number(values.threads);
  if (threadsFlag !== undefined && !(Number.isInteger(threadsFlag) && threadsFlag >= 0 && threadsFlag <= 256))
    throw new DoppelError('USAGE', `--threads takes 0 (one per core) to 256, not ${values.threads}`);
  const { config, lexicons } = await engineSetup(values);
  const requestedThreads = threadsFlag ?? config.threads;
  // Unset (0): one per core, but no lone sign worker for a short file (defaultDedupThreads).
  const threads =
    requestedThreads > 0
      ? resolveThreads(requestedThreads)
      : defaultDedupThreads(availableParallelism(), inputFileSize(values.input));
  const signer = new Signer(config.signatures, lexicons);
  const store: DedupStore = await openStore(
    values.store,
    values.namespace === undefined ? { config } : { config, namespace: values.namespace },
  );
  const flow = new MessageFlow(new DedupEngine(config, store), signer);
  // --threads N: this thread reads, indexes, verifies and writes; with N > 2, N - 1 workers
  // decode and sign; with 2, the worker decodes and canonicalizes and this thread signs
  // (splitByStage); with 1, this thread does everything. The workers start with the first chunk
  // of lines: an empty input does not pay for loading them.
  let pool = null as SignPool | null;
  const workers = threads - 1;
  const startPool = async (): Promise<SignPool> => {
    pool ??= await SignPool.start({
      threads: workers,
      config,
      lexicons: parseLexiconFlags(values.lexicon),
    });
    return pool;
  };
  // Memory per windowed message (bench:dedup runs node --expose-gc): live heap after a full GC,
  // before the first message and after the last, over the messages then in the window.
  const gc = (globalThis as { gc?: () => void }).gc;
  // Signing here, the lexicons (~25 MB, read on a language's first message) would count as window
  // memory: a fixed cost, so they are read before the baseline.
  if (gc) for (const lang of LANGUAGES) lexicons.get(lang);
  const heapAtStart = gc ? liveHeap(gc) : 0;
  const out = new LineWriter(values.output);
  const stories = values.stories ? new LineWriter(values.stories) : null;
  const tally: Tally = { messages: 0, clamped: 0, unique: 0, duplicate: 0, near_duplicate: 0, invalid: 0 };
  const started = performance.now();
  const runStart = Date.now();
  let lastTs: number | null = null;
  let lastProgress = started;
  // Percent and ETA on a terminal when the input is a file of known size (bytes read / size).
  const totalBytes = values.quiet ? null : knownInputSize(values.input, process.stderr.isTTY === true);
  const read = { bytes: 0 };
  let lineNo = 0;
  let batch: Pending[] = [];

  const flush = async () => {
    const inputs: IndexRequest[] = [];
    for (const p of batch) if ('input' in p) inputs.push(p.input);
    const verdicts = await flow.process(inputs);
    let v = 0;
    let due = false;
    for (const p of batch) {
      const record = 'record' in p ? p.record : verdictRecord(verdicts[v++]!);
      if ('input' in p && stories) {
        // A replay's event (the cluster as it is now, DedupEngine.process) says so, as on Kafka.
        const verdict = verdicts[v - 1]!;
        for (const e of verdict.events)
          await stories.write(JSON.stringify(verdict.replay ? { ...e, replay: true } : e));
      }
      tally[record.verdict]++;
      if (record.eventTimeClamped) tally.clamped++;
      // Flushed once per batch: an await per line was a promise and a microtask per message.
      if (out.add(JSON.stringify(record))) due = true;
    }
    if (due) await out.flush();
    tally.messages += batch.length;
    batch = [];
    const now = performance.now();
    if (!values.quiet && now - lastProgress > 5000) {
      lastProgress = now;
      const state = {
        messages: tally.messages,
        elapsedMs: now - started,
        rssBytes: process.memoryUsage.rss(),
        bytesRead: read.bytes,
        totalBytes,
      };
      process.stderr.write(`${progressLine(state)}\n`);
    }
  };

  // Event time: the message's own, else the latest seen (so a file without times never expires
  // anything mid-run), else the time the run started. In input order, whoever signed it.
  const eventTime = (own: number | undefined): number => {
    const ts = own ?? lastTs ?? runStart;
    if (own !== undefined && (lastTs === null || own > lastTs)) lastTs = own;
    return ts;
  };

  // With workers: lines go out in chunks, each worker CHUNKS_PER_WORKER deep, and come back prepared
  // (or, split by stage, canonical: this thread signs them); they are admitted in submission order,
  // so batches (and verdicts) are those of one thread. With two or more workers this thread signs
  // nothing: signing here too warmed up a second copy of the signing code and learned every new
  // word twice (each isolate has its own JIT and vocabulary), which cost more CPU than it took off
  // the workers (docs/benchmarks.md, "Threads").
  const byStage = splitByStage(workers);
  const CHUNK_LINES = 64;
  // Three rather than two: a worker then still has two chunks (~40 ms of signing) queued while this
  // thread indexes, verifies and writes a batch (docs/benchmarks.md, "Speed on real text"). Split by
  // stage, six: this thread then signs too, and takes longer over a batch (docs/benchmarks.md,
  // "Threads split by stage").
  const CHUNKS_PER_WORKER = byStage ? 6 : 3;
  const inflight: Array<{
    lineNos: number[];
    prepared: Promise<PreparedChunk | CanonicalChunk>;
    ready: boolean;
  }> = [];
  let atWorkers = 0;
  // Lines as the bytes read: the workers decode them (this thread decoded ~9% of its busy time).
  let chunkLines: Buffer[] = [];
  let chunkLineNos: number[] = [];
  const submit = async () => {
    if (chunkLines.length === 0 || threads <= 1) return;
    // Workers full: admit what they answered, else wait for an answer; then hand this chunk out
    // before admitting more. Admitting first (index, verify, and at each batch the store and the
    // output: tens of milliseconds) left a worker with less than a chunk queued, and it ran dry.
    while (atWorkers >= CHUNKS_PER_WORKER * workers) {
      if (inflight[0]?.ready) await admitOldest();
      else await oldestAtWorkers();
    }
    atWorkers++;
    const started = await startPool();
    const lines = packRawLines(chunkLines);
    const prepared = byStage ? started.canonicalRawLines(lines) : started.prepareRawLines(lines);
    const entry = { lineNos: chunkLineNos, prepared, ready: false };
    // Registered first, so it runs before admitOldest's await resumes. A failed pool rejects every
    // chunk in flight; the first one awaited reports it.
    prepared.then(
      () => {
        atWorkers--;
        entry.ready = true;
      },
      () => undefined,
    );
    inflight.push(entry);
    chunkLines = [];
    chunkLineNos = [];
    // This thread's own work: admit (index, verify, write) what the workers have answered. Split by
    // stage, one chunk between two hand-outs: admitting there means signing, and admitting every
    // answered chunk at once left the worker without lines for as long (idle 28% of the run).
    if (byStage) {
      if (inflight[0]?.ready) await admitOldest();
    } else while (inflight[0]?.ready) await admitOldest();
  };
  // Waits for the oldest chunk still at a worker. A failed pool rejects every chunk in flight:
  // the chunks answered before it are admitted, then the first failed one throws the failure.
  const oldestAtWorkers = async () => {
    const pending = inflight.find((e) => !e.ready);
    if (!pending) return;
    try {
      await pending.prepared;
    } catch {
      while (inflight.length > 0) await admitOldest();
    }
  };
  const admitOldest = async () => {
    const next = inflight.shift();
    if (!next) return;
    const chunk = await next.prepared;
    if (byStage) return admitCanonical(next.lineNos, chunk as CanonicalChunk);
    for (let i = 0; i < next.lineNos.length; i++) {
      const line = next.lineNos[i] as number;
      const item = unpackItem(chunk as PreparedChunk, i);
      if (item.ok) batch.push({ line, input: { ...item.request, ts: eventTime(item.ts) } });
      else if (item.bug) throw new Error(`signing line ${line} failed: ${item.error.message}`);
      else batch.push({ line, record: invalidRecord(item.id, line, item.error) });
      if (batch.length >= config.batchSize) await flush();
    }
  };

  // Split by stage: the worker's canonical texts are signed and prepared here, as flow.prepare does.
  const admitCanonical = async (lineNos: number[], chunk: CanonicalChunk) => {
    for (let i = 0; i < lineNos.length; i++) {
      const line = lineNos[i] as number;
      const item = unpackCanonicalItem(chunk, i);
      if (!item.ok) {
        if (item.bug) throw new Error(`signing line ${line} failed: ${item.error.message}`);
        batch.push({ line, record: invalidRecord(item.id, line, item.error) });
      } else {
        try {
          const signatures = signer.compute(item.doc);
          const input = flow.engine.indexRequest({
            id: item.id,
            signatures,
            lang: item.doc.lang,
            ts: item.ts ?? lastTs ?? runStart,
            ...item.fields,
          });
          // As on one thread: the latest time moves on only once the message is prepared.
          eventTime(item.ts);
          batch.push({ line, input });
        } catch (error) {
          if (!isInputError(error)) throw error;
          batch.push({ line, record: invalidRecord(item.id, line, error) });
        }
      }
      if (batch.length >= config.batchSize) await flush();
    }
  };

  // A line over the size limit: an invalid record, in input order (the lines before it still at
  // the workers are admitted first).
  const oversized = async (line: OversizedLine) => {
    await submit();
    while (inflight.length > 0) await admitOldest();
    batch.push({ line: lineNo, record: invalidRecord(salvageId(line.head), lineNo, line.error()) });
    if (batch.length >= config.batchSize) await flush();
  };

  try {
    if (threads > 1) {
      for await (const lines of readRawLineBatches(values.input, process.stdin, { counter: read }))
        for (const line of lines) {
          lineNo++;
          if (line instanceof OversizedLine) await oversized(line);
          else if (!isBlankLine(line)) {
            chunkLines.push(line);
            chunkLineNos.push(lineNo);
            if (chunkLines.length >= CHUNK_LINES) await submit();
          }
        }
    } else {
      for await (const lines of readLineBatches(values.input, process.stdin, { counter: read }))
        for (const line of lines) {
          lineNo++;
          if (typeof line !== 'string') {
            await oversized(line);
            continue;
          }
          if (line.trim() === '') continue;
          let id: string | null = null;
          try {
            const message = parseMessageLine(line);
            id = message.id;
            // Prepared now, so the batch holds keys and records, not texts (DedupEngine.indexRequest);
            // a text message without a promise. The latest time moves on only once it is prepared.
            const prepared = flow.prepare(message, message.ts ?? lastTs ?? runStart);
            const input = prepared instanceof Promise ? await prepared : prepared;
            eventTime(message.ts);
            batch.push({ line: lineNo, input });
          } catch (error) {
            // Input errors become invalid records; anything else is a bug and stops the run.
            if (!isInputError(error)) throw error;
            batch.push({ line: lineNo, record: invalidRecord(id ?? salvageId(line), lineNo, error) });
          }
          if (batch.length >= config.batchSize) await flush();
        }
    }
    await submit();
    while (inflight.length > 0) await admitOldest();
    await flush();
  } catch (error) {
    // The error that stopped the run is the one reported: cleanup failures (a dead store's
    // stats, an output that cannot flush) must neither hide it nor keep the process alive.
    await closeQuietly(async () => {
      await out.close();
      await stories?.close();
    });
    await closeQuietly(() => store.close());
    await closeQuietly(async () => pool?.close());
    if (!values.quiet && !isOutputClosed(error))
      process.stderr.write(
        `doppel dedup: stopped after ${tally.messages} messages (their verdicts are written)\n`,
      );
    throw error;
  }
  try {
    await out.close();
    await stories?.close();
    if (!values.quiet) {
      const seconds = (performance.now() - started) / 1000;
      const stats = await store.stats();
      const heap =
        gc && stats.messages > 0
          ? `; heap ${Math.round((liveHeap(gc) - heapAtStart) / stats.messages)} bytes per windowed message (after full GC)`
          : '';
      process.stderr.write(
        `doppel dedup: ${tally.messages} messages, ${tally.unique} unique, ${tally.duplicate} duplicates, ` +
          `${tally.near_duplicate} near-duplicates, ${tally.invalid} invalid; ${stats.clusters} clusters; ` +
          (tally.clamped > 0
            ? `${tally.clamped} event times clamped (past the clock + window.maxFutureSkewMs); `
            : '') +
          `${stats.hotBuckets} hot buckets (${stats.hotBucketEvents} messages past their cap); ${stats.messages} messages in the window; ` +
          `${Math.round(tally.messages / Math.max(seconds, 1e-9))} messages/s; ` +
          `peak RSS ${Math.round(process.resourceUsage().maxRSS / 1024)} MB${heap}\n`,
      );
    }
  } finally {
    await pool?.close();
    await store.close();
  }
  return 0;
}

function liveHeap(gc: () => void): number {
  gc();
  gc();
  const m = process.memoryUsage();
  // Typed arrays' backing stores live outside the V8 heap: counted too.
  return m.heapUsed + m.arrayBuffers;
}

async function closeQuietly(close: () => Promise<void>): Promise<void> {
  try {
    await close();
  } catch {
    // Already failing: the first error is the one to report.
  }
}
