/**
 * `node dist/bench/handoff.js [STREAM]` (after `npm run build`): what crossing from a sign worker
 * to the main thread costs per message, on one thread, CPU time: packing a chunk of prepared
 * messages (`packChunk`: keys and the record's binary form into typed arrays), the structured
 * clone `postMessage` makes of it (`structuredClone` with the same transfer list: the buffers are
 * moved, the ids, titles, urls and snippets copied), and unpacking on the main thread
 * (`unpackItem`: the keys left packed, `decodePackedRecord`). For comparison, the structured clone of the same
 * prepared messages as objects (what a worker would post without packing).
 *
 * Stream: default bench:peers' `.bench-out/peers-stream.jsonl`, its first `BENCH_MESSAGES` (4,096)
 * messages, prepared once (news profile) in chunks of 64 lines as `doppel dedup` sends them; then
 * `BENCH_ROUNDS` (5) rounds of each step, alternating, after one warm-up round. Median µs per message.
 */
import { loadavg } from 'node:os';
import { resolveDedupConfig } from '../config/profiles.js';
import { RequestPreparer } from '../engine/engine.js';
import { initHashing } from '../hash/xxhash.js';
import { LexiconSet } from '../lexicon/lexicon.js';
import { prepareLines } from '../pipeline/prepare-lines.js';
import { type PreparedChunk, type PreparedItem, packChunk, unpackItem } from '../pipeline/prepared-wire.js';
import { Signer } from '../signatures/signer.js';
import { median, readStream } from './peers-stream.js';

const MESSAGES = Number(process.env.BENCH_MESSAGES ?? 4096);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 5);
const CHUNK_LINES = 64;

function cpuMicros(): number {
  const u = process.cpuUsage();
  return u.user + u.system;
}

async function main(): Promise<void> {
  const stream = readStream('bench:handoff', process.argv[2]);
  if (stream === undefined) return;
  const { input } = stream;
  const lines = stream.lines.slice(0, MESSAGES);
  await initHashing();
  const config = resolveDedupConfig('news');
  const signer = new Signer(config.signatures, LexiconSet.defaults());
  const preparer = new RequestPreparer(config);
  const chunks: PreparedItem[][] = [];
  for (let i = 0; i < lines.length; i += CHUNK_LINES)
    chunks.push(await prepareLines(lines.slice(i, i + CHUNK_LINES), signer, preparer));
  const n = lines.length;

  // Each step over every chunk; the result of each is kept until the round ends, so none is
  // optimized away, then dropped.
  const steps: Record<string, () => void> = {
    'pack (packChunk)': () => {
      const kept: PreparedChunk[] = [];
      for (const items of chunks) kept.push(packChunk(items).chunk);
    },
    'structured clone of the packed chunk (buffers transferred)': () => {
      const kept: PreparedChunk[] = [];
      for (const items of chunks) {
        const { chunk, transfer } = packChunk(items);
        kept.push(structuredClone(chunk, { transfer }));
      }
    },
    'unpack on the main thread (unpackItem)': () => {
      let keys = 0;
      for (const items of chunks) {
        const chunk = packChunk(items).chunk;
        for (let i = 0; i < items.length; i++) {
          const item = unpackItem(chunk, i);
          if (item.ok) keys += item.request.keys.length;
        }
      }
      if (keys < 0) throw new Error('unreachable');
    },
    'structured clone of the prepared objects (no packing)': () => {
      const kept: PreparedItem[][] = [];
      for (const items of chunks) kept.push(structuredClone(items));
    },
  };
  // The clone and unpack steps pack first: their own cost is theirs minus the pack step's.
  const times = new Map<string, number[]>(Object.keys(steps).map((k) => [k, []]));
  for (let round = 0; round <= ROUNDS; round++)
    for (const [name, step] of Object.entries(steps)) {
      const t0 = cpuMicros();
      step();
      const us = (cpuMicros() - t0) / n;
      if (round > 0) times.get(name)?.push(us);
    }
  const pack = median(times.get('pack (packChunk)') ?? []);
  console.log(
    `bench:handoff: ${n} messages of ${input} in ${chunks.length} chunks of ${CHUNK_LINES}; ${ROUNDS} rounds; load average ${loadavg()
      .map((l) => l.toFixed(2))
      .join(' ')}`,
  );
  console.log('| step | CPU µs per message |');
  console.log('|---|---:|');
  for (const [name, list] of times) {
    const own =
      name.startsWith('structured clone of the packed') || name.startsWith('unpack')
        ? median(list) - pack
        : median(list);
    console.log(`| ${name} | ${own.toFixed(1)} |`);
  }
}

await main();
