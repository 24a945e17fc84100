/**
 * `npm run bench:dedup`: streams >= 100,000 messages (real texts from the evaluation corpus, new
 * articles spliced from their sentences, and near-duplicate variants from the benchmark
 * generator) through `doppel dedup` on the embedded store, as a user runs it, and prints messages
 * per second and peak memory. Two stream lengths with the same window show whether memory is
 * bounded by the window rather than by the stream.
 */
import { spawn } from 'node:child_process';
import { mkdirSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { SHARED_DATA_DIR, sharedDataAvailable } from './data.js';
import { newsSources, writeStream } from './stream.js';

const here = dirname(fileURLToPath(import.meta.url));
const ROOT = resolve(here, '../..');
const OUT = resolve(ROOT, '.bench-out');
const SIZES = (process.env.BENCH_SIZES ?? '100000,200000').split(',').map(Number);

interface RunResult {
  messages: number;
  seconds: number;
  peakRssMb: number;
  heapPerMessage: number;
  summary: string;
}

function runDedup(input: string): Promise<RunResult> {
  return new Promise((resolvePromise, reject) => {
    const started = performance.now();
    const child = spawn(
      process.execPath,
      // --expose-gc: the CLI then reports the live heap per windowed message after a full GC.
      ['--expose-gc', resolve(ROOT, 'bin/doppel.js'), 'dedup', '--input', input, '--output', '/dev/null'],
      {
        stdio: ['ignore', 'ignore', 'pipe'],
      },
    );
    let stderr = '';
    child.stderr.setEncoding('utf8').on('data', (d: string) => {
      stderr += d;
    });
    child.on('error', reject);
    child.on('close', (code) => {
      const seconds = (performance.now() - started) / 1000;
      if (code !== 0) return reject(new Error(`doppel dedup exited ${code}: ${stderr}`));
      const summary = stderr.trim().split('\n').pop() ?? '';
      const messages = Number(/(\d+) messages,/.exec(summary)?.[1] ?? 0);
      const peak = Number(/peak RSS (\d+) MB/.exec(summary)?.[1] ?? Number.NaN);
      const heap = Number(/heap (\d+) bytes per windowed message/.exec(summary)?.[1] ?? Number.NaN);
      resolvePromise({ messages, seconds, peakRssMb: peak, heapPerMessage: heap, summary });
    });
  });
}

async function main(): Promise<void> {
  if (!sharedDataAvailable()) {
    console.error(
      `bench:dedup needs the evaluation corpus (looked in ${SHARED_DATA_DIR}); set DOPPEL_SHARED_DATA`,
    );
    process.exitCode = 2;
    return;
  }
  mkdirSync(OUT, { recursive: true });
  const sources = newsSources();
  console.log(
    `bench:dedup: doppel dedup --profile news (3-day window), embedded store, one process; node ${process.version}`,
  );
  console.log(
    '| messages | stream span | wall s | messages/s | peak RSS MB | heap bytes per windowed message (after full GC) | summary |',
  );
  console.log('|---:|---:|---:|---:|---:|---:|---|');
  for (const size of SIZES) {
    // Same rate (10,000 messages a day), so a longer stream is a longer span, not a denser window.
    const days = size / 10_000;
    const input = resolve(OUT, `dedup-${size}.jsonl`);
    await writeStream(input, size, days, sources);
    const r = await runDedup(input);
    console.log(
      `| ${r.messages.toLocaleString('en-US')} | ${days} days | ${r.seconds.toFixed(1)} | ${Math.round(r.messages / r.seconds).toLocaleString('en-US')} | ${r.peakRssMb} | ${r.heapPerMessage} | ${r.summary.replace('doppel dedup: ', '')} |`,
    );
  }
}

await main();
