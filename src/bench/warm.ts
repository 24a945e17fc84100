/**
 * `npm run build && node dist/bench/warm.js [STREAM.jsonl]`: CPU per message of the whole
 * per-message path (decode, canonicalize, sign, prepare, index, verify, decide, commit; memory
 * store, news profile) over a stream, pass after pass in one process, each pass on a fresh
 * engine and store. The first pass pays V8's warm-up (code run unoptimized while the optimizing
 * compilers, on their own threads, compile it) and the lexicons' loading; the later passes are
 * the steady state a long-running process (a consumer, the API) reaches. CPU is the process's
 * (process.cpuUsage: every thread, GC and compiler threads included); start-up (module loading)
 * is not in any pass. Default stream: bench:peers' `.bench-out/peers-stream.jsonl`.
 * `BENCH_ROUNDS` passes (default 4). `BENCH_HEAP=1` adds the bytes allocated per message, from V8's
 * sampling heap profiler with collected objects kept in the sample (all garbage, not only what
 * survives); the profiler costs CPU of its own, so take CPU figures from a run without it.
 * `BENCH_STAGES=1` times each message's stages apart (parse, decode, canonicalize, sign, prepare;
 * index and verify per batch) and prints their CPU µs per message after each pass: where the
 * threads of `doppel dedup --threads 2` split the work (the per-stage clock reads cost a few µs).
 */
import { readFileSync } from 'node:fs';
import { Session } from 'node:inspector/promises';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { resolveDedupConfig } from '../config/profiles.js';
import { DedupEngine } from '../engine/engine.js';
import type { IndexRequest } from '../engine/types.js';
import { isInputError } from '../errors.js';
import { initHashing } from '../hash/xxhash.js';
import { decodeMessage } from '../input/decode-message.js';
import { type Message, parseMessageLine } from '../input/message.js';
import { LexiconSet } from '../lexicon/lexicon.js';
import { engineMessage, MessageFlow } from '../pipeline/flow.js';
import { Signer } from '../signatures/signer.js';
import { MemoryStore } from '../store/memory/store.js';
import { canonicalize } from '../text/canonical.js';

const here = dirname(fileURLToPath(import.meta.url));
const input = resolve(process.argv[2] ?? resolve(here, '../../.bench-out/peers-stream.jsonl'));
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 4);
const BATCH = 256;
const HEAP = process.env.BENCH_HEAP === '1';
const STAGES = process.env.BENCH_STAGES === '1';
/** `BENCH_HEAP_TOP=N` (with BENCH_HEAP=1): the N functions that allocate the most, per message, after each pass. */
const TOP = Number(process.env.BENCH_HEAP_TOP ?? 0);
let lastSites = new Map<string, number>();

interface SamplingNode {
  selfSize: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
  children: SamplingNode[];
}

const sampledBytes = (node: SamplingNode): number =>
  node.children.reduce((sum, child) => sum + sampledBytes(child), node.selfSize);

/** Sampled bytes allocated by each function itself (name, file and line), summed over its call sites. */
function bytesBySite(node: SamplingNode, into = new Map<string, number>()): Map<string, number> {
  if (node.selfSize > 0) {
    const { functionName, url, lineNumber } = node.callFrame;
    const site = `${functionName || '(anonymous)'} ${url.replace(/^.*\/dist\//, '')}:${lineNumber + 1}`;
    into.set(site, (into.get(site) ?? 0) + node.selfSize);
  }
  for (const child of node.children) bytesBySite(child, into);
  return into;
}

/** Runs `work` under the sampling heap profiler; the bytes it allocated (sampled), garbage included. */
async function allocated(work: () => Promise<void>): Promise<number> {
  const session = new Session();
  session.connect();
  await session.post('HeapProfiler.enable');
  await session.post('HeapProfiler.startSampling', {
    samplingInterval: 4096,
    includeObjectsCollectedByMajorGC: true,
    includeObjectsCollectedByMinorGC: true,
  });
  await work();
  const { profile } = (await session.post('HeapProfiler.stopSampling')) as {
    profile: { head: SamplingNode };
  };
  session.disconnect();
  if (TOP > 0) lastSites = bytesBySite(profile.head);
  return sampledBytes(profile.head);
}

const cpuMicros = (): number => {
  const u = process.cpuUsage();
  return u.user + u.system;
};

/** One pass: every message through a fresh engine; returns CPU µs per message and the verdicts' digest. */
async function pass(messages: readonly Message[]): Promise<{ micros: number; flagged: number }> {
  const config = resolveDedupConfig('news', {});
  const store = new MemoryStore(config.window, config.index);
  const flow = new MessageFlow(
    new DedupEngine(config, store),
    new Signer(config.signatures, LexiconSet.defaults({})),
  );
  let flagged = 0;
  const start = cpuMicros();
  for (let i = 0; i < messages.length; i += BATCH) {
    const requests: IndexRequest[] = [];
    for (const message of messages.slice(i, i + BATCH)) {
      try {
        requests.push(await flow.prepare(message, message.ts ?? 0));
      } catch (error) {
        if (!isInputError(error)) throw error;
      }
    }
    for (const verdict of await flow.process(requests)) if (verdict.verdict !== 'unique') flagged++;
  }
  const micros = (cpuMicros() - start) / messages.length;
  await store.close();
  return { micros, flagged };
}

/** One pass with each stage timed apart; parses the lines itself. Returns CPU µs per message per stage. */
async function stagedPass(lines: readonly string[]): Promise<Record<string, number>> {
  const config = resolveDedupConfig('news', {});
  const store = new MemoryStore(config.window, config.index);
  const engine = new DedupEngine(config, store);
  const signer = new Signer(config.signatures, LexiconSet.defaults({}));
  const t = { parse: 0, decode: 0, canonicalize: 0, sign: 0, prepare: 0, 'index + verify': 0 };
  for (let i = 0; i < lines.length; i += BATCH) {
    const requests: IndexRequest[] = [];
    for (const line of lines.slice(i, i + BATCH)) {
      try {
        let a = cpuMicros();
        const message = parseMessageLine(line);
        let b = cpuMicros();
        t.parse += b - a;
        const pending = decodeMessage(message, config.signatures.canonical);
        const decoded = pending instanceof Promise ? await pending : pending;
        a = cpuMicros();
        t.decode += a - b;
        const doc = canonicalize(decoded, config.signatures.canonical, message.lang, signer.knownWords);
        b = cpuMicros();
        t.canonicalize += b - a;
        const signatures = signer.compute(doc);
        a = cpuMicros();
        t.sign += a - b;
        requests.push(
          engine.indexRequest(engineMessage({ message, decoded, doc, signatures }, message.ts ?? 0)),
        );
        t.prepare += cpuMicros() - a;
      } catch (error) {
        if (!isInputError(error)) throw error;
      }
    }
    const a = cpuMicros();
    await engine.process(requests);
    t['index + verify'] += cpuMicros() - a;
  }
  await store.close();
  return Object.fromEntries(Object.entries(t).map(([k, v]) => [k, v / lines.length]));
}

await initHashing();
if (STAGES) {
  const lines = readFileSync(input, 'utf8')
    .split('\n')
    .filter((line) => line.trim() !== '');
  console.log(`bench:warm: ${lines.length} messages from ${input}; ${ROUNDS} passes, stages timed apart`);
  for (let round = 1; round <= ROUNDS; round++) {
    const stages = await stagedPass(lines);
    const total = Object.values(stages).reduce((a, b) => a + b, 0);
    console.log(
      `pass ${round}: ${Object.entries(stages)
        .map(([stage, micros]) => `${stage} ${micros.toFixed(0)}`)
        .join(', ')}; all ${total.toFixed(0)} µs per message`,
    );
  }
  process.exit(0);
}
const messages = readFileSync(input, 'utf8')
  .split('\n')
  .filter((line) => line.trim() !== '')
  .map((line) => parseMessageLine(line));
console.log(`bench:warm: ${messages.length} messages from ${input}; ${ROUNDS} passes, a fresh engine each`);
console.log(`| pass | CPU µs per message | flagged |${HEAP ? ' bytes allocated per message |' : ''}`);
console.log(`|---:|---:|---:|${HEAP ? '---:|' : ''}`);
const results: number[] = [];
for (let round = 1; round <= ROUNDS; round++) {
  let outcome = { micros: 0, flagged: 0 };
  const bytes = HEAP
    ? await allocated(async () => {
        outcome = await pass(messages);
      })
    : 0;
  if (!HEAP) outcome = await pass(messages);
  results.push(outcome.micros);
  console.log(
    `| ${round} | ${outcome.micros.toFixed(0)} | ${outcome.flagged} |${HEAP ? ` ${Math.round(bytes / messages.length)} |` : ''}`,
  );
  if (HEAP && TOP > 0) {
    const top = [...lastSites].sort((a, b) => b[1] - a[1]).slice(0, TOP);
    for (const [site, siteBytes] of top)
      console.log(`    ${Math.round(siteBytes / messages.length)} B  ${site}`);
  }
}
const steady = results.slice(1);
if (steady.length > 0) {
  const mean = steady.reduce((a, b) => a + b, 0) / steady.length;
  console.log(
    `steady state (passes 2-${ROUNDS}): ${mean.toFixed(0)} µs per message; warm-up in pass 1: ${((results[0] as number) - mean).toFixed(0)} µs per message`,
  );
}
