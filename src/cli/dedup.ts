import { DedupEngine } from '../engine/engine.js';
import type { DedupStore, IndexRequest } from '../engine/types.js';
import { isInputError } from '../errors.js';
import { decodeTextMessage } from '../input/decode-message.js';
import { parseMessageLine, salvageId } from '../input/message.js';
import { invalidRecord, type VerdictRecord, verdictRecord } from '../output/verdict-record.js';
import { signDecoded, signMessage } from '../pipeline/sign.js';
import { SignatureEngine } from '../signatures/compute.js';
import { openStore } from '../store/open.js';
import { engineSetup, parseCommandArgs } from './common.js';
import { LineWriter, readLineBatches } from './jsonl.js';

export const DEDUP_USAGE = `usage: doppel dedup [--profile news|mail] [--config FILE] [--input FILE|-] [--output FILE|-]
                    [--store memory|redis://HOST:PORT[/DB]|redis+cluster://HOST:PORT,...] [--namespace NAME] [--stories FILE]
                    [--lexicon LANG=FILE ...] [--quiet]

Reads JSON Lines messages (the doppel sign input format, plus optional "ts") and writes exactly one
line per input line, in input order: {"id", "verdict", "clusterId", "duplicateOf"?, "similarity"?,
"method"?, "error"?}. Verdicts: unique, duplicate, near_duplicate, invalid. --stories writes the
cluster events (created, grown, merged) as JSON Lines.`;

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
  help: { type: 'boolean', short: 'h' },
} as const;

interface Tally {
  messages: number;
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
  const { config, lexicons } = await engineSetup(values);
  const signer = new SignatureEngine(config.signatures, lexicons);
  const store: DedupStore = await openStore(
    values.store,
    values.namespace === undefined ? { config } : { config, namespace: values.namespace },
  );
  const engine = new DedupEngine(config, store);
  const out = new LineWriter(values.output);
  const stories = values.stories ? new LineWriter(values.stories) : null;
  const tally: Tally = { messages: 0, unique: 0, duplicate: 0, near_duplicate: 0, invalid: 0 };
  const started = performance.now();
  const runStart = Date.now();
  let lastTs: number | null = null;
  let lastProgress = started;
  let lineNo = 0;
  let batch: Pending[] = [];

  const flush = async () => {
    const inputs: IndexRequest[] = [];
    for (const p of batch) if ('input' in p) inputs.push(p.input);
    const verdicts = inputs.length > 0 ? await engine.processPrepared(inputs) : [];
    let v = 0;
    let due = false;
    for (const p of batch) {
      const record = 'record' in p ? p.record : verdictRecord(verdicts[v++]!);
      if ('input' in p && stories)
        for (const e of verdicts[v - 1]!.events) await stories.write(JSON.stringify(e));
      tally[record.verdict]++;
      // Flushed once per batch: an await per line was a promise and a microtask per message.
      if (out.add(JSON.stringify(record))) due = true;
    }
    if (due) await out.flush();
    tally.messages += batch.length;
    batch = [];
    const now = performance.now();
    if (!values.quiet && now - lastProgress > 5000) {
      lastProgress = now;
      process.stderr.write(
        `doppel dedup: ${tally.messages} messages, ${Math.round(tally.messages / ((now - started) / 1000))}/s, ` +
          `RSS ${Math.round(process.memoryUsage.rss() / 1048576)} MB\n`,
      );
    }
  };

  try {
    for await (const lines of readLineBatches(values.input))
      for (const line of lines) {
        lineNo++;
        if (line.trim() === '') continue;
        let id: string | null = null;
        try {
          const message = parseMessageLine(line);
          id = message.id;
          const text = decodeTextMessage(message);
          const signed = text ? signDecoded(message, text, signer) : await signMessage(message, signer);
          // Event time: the message's own, else the latest seen (so a file without times never
          // expires anything mid-run), else the time the run started.
          const ts = message.ts ?? lastTs ?? runStart;
          if (message.ts !== undefined && (lastTs === null || message.ts > lastTs)) lastTs = message.ts;
          // Prepared now, so the batch holds keys and records, not texts (see DedupEngine.prepare).
          batch.push({ line: lineNo, input: engine.prepare({ signed, ts }) });
        } catch (error) {
          // Input errors become invalid records; anything else is a bug and stops the run.
          if (!isInputError(error)) throw error;
          batch.push({ line: lineNo, record: invalidRecord(id ?? salvageId(line), lineNo, error) });
        }
        if (batch.length >= config.batchSize) await flush();
      }
    await flush();
  } catch (error) {
    // The error that stopped the run is the one reported: cleanup failures (a dead store's
    // stats, an output that cannot flush) must neither hide it nor keep the process alive.
    await closeQuietly(async () => {
      await out.close();
      await stories?.close();
    });
    await closeQuietly(() => store.close());
    if (!values.quiet)
      process.stderr.write(
        `doppel dedup: stopped after ${tally.messages} messages (their verdicts are written)\n`,
      );
    throw error;
  }
  try {
    await out.close();
    await stories?.close();
    if (!values.quiet) {
      const stats = await store.stats();
      const seconds = (performance.now() - started) / 1000;
      process.stderr.write(
        `doppel dedup: ${tally.messages} messages, ${tally.unique} unique, ${tally.duplicate} duplicates, ` +
          `${tally.near_duplicate} near-duplicates, ${tally.invalid} invalid; ${stats.clusters} clusters; ` +
          `${stats.hotBucketEvents} hot-bucket skips; ${stats.messages} messages in the window; ` +
          `${Math.round(tally.messages / Math.max(seconds, 1e-9))} messages/s; ` +
          `peak RSS ${Math.round(process.resourceUsage().maxRSS / 1024)} MB\n`,
      );
    }
  } finally {
    await store.close();
  }
  return 0;
}

async function closeQuietly(close: () => Promise<void>): Promise<void> {
  try {
    await close();
  } catch {
    // Already failing: the first error is the one to report.
  }
}
