/**
 * `node dist/bench/threads.js [STREAM]` (after `npm run build`): where the CPU of `doppel dedup
 * --threads N` goes, thread by thread, on a stream (default: bench:peers'
 * `.bench-out/peers-stream.jsonl`; `npm run bench:peers` writes it).
 *
 * Each run is the CLI with `dist/bench/thread-cpu.js` preloaded: the main thread's CPU and each
 * sign worker's (`process.threadCpuUsage`, the worker's start-up apart), the process's (user +
 * system); the rest is V8's own threads (the optimizing compiler, concurrent GC). Runs of the
 * thread counts alternate (`BENCH_THREADS`, default `1,2`; `BENCH_ROUNDS` rounds, default 3) and
 * the table is the median of each column. The verdict lines of every run are compared byte for
 * byte with the first run's.
 *
 * On a shared machine wall time says nothing, so the rate N idle cores would give is bounded from
 * the CPU: a run cannot take less than its busiest thread, nor less than its whole CPU spread over
 * the cores. "Bound on C cores" is max(main, busiest worker, process / C) seconds, and the speed-up
 * is that of `--threads 1` on the same cores over it.
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { median, readStream } from './peers-stream.js';

const here = dirname(fileURLToPath(import.meta.url));
const ROOT = resolve(here, '../..');
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);
const THREADS = (process.env.BENCH_THREADS ?? '1,2').split(',').map(Number);

interface Run {
  process: number;
  main: number;
  workers: number[];
  workerStart: number[];
  answers: number;
  output: Buffer;
}

function runOnce(input: string, threads: number, dir: string): Promise<Run> {
  const prefix = join(dir, `t${threads}`);
  for (const f of readdirSync(dir)) if (f.startsWith(`t${threads}-`)) rmSync(join(dir, f));
  const output = join(dir, `verdicts-${threads}.jsonl`);
  return new Promise((resolvePromise, reject) => {
    const child = spawn(
      process.execPath,
      [
        '--import',
        resolve(here, 'thread-cpu.js'),
        resolve(ROOT, 'bin/doppel.js'),
        'dedup',
        '--quiet',
        '--threads',
        String(threads),
        '--input',
        input,
        '--output',
        output,
      ],
      { stdio: ['ignore', 'ignore', 'pipe'], env: { ...process.env, DOPPEL_THREAD_CPU_OUT: prefix } },
    );
    let stderr = '';
    child.stderr.setEncoding('utf8').on('data', (d: string) => {
      stderr += d;
    });
    child.on('error', reject);
    child.on('close', (code) => {
      if (code !== 0) return reject(new Error(`doppel dedup --threads ${threads} exited ${code}: ${stderr}`));
      const main = JSON.parse(readFileSync(`${prefix}-main.json`, 'utf8')) as {
        thread: number;
        process: number;
      };
      const workers: number[] = [];
      const workerStart: number[] = [];
      let answers = 0;
      for (const f of readdirSync(dir).filter((n) => n.startsWith(`t${threads}-worker-`))) {
        const w = JSON.parse(readFileSync(join(dir, f), 'utf8')) as {
          thread: number;
          ready: number;
          answers: number;
        };
        workers.push(w.thread);
        workerStart.push(w.ready);
        answers += w.answers - 1;
      }
      resolvePromise({
        process: main.process,
        main: main.thread,
        workers,
        workerStart,
        answers,
        output: readFileSync(output),
      });
    });
  });
}

function bound(r: { main: number; busiest: number; process: number }, cores: number): number {
  return Math.max(r.main, r.busiest, r.process / cores);
}

async function main(): Promise<void> {
  const stream = readStream('bench:threads', process.argv[2]);
  if (stream === undefined) return;
  const { input } = stream;
  const messages = stream.lines.length;
  console.log(
    `bench:threads: ${messages} messages from ${input}; --threads ${THREADS.join(' and ')} in ${ROUNDS} alternating rounds; load average ${loadavg()
      .map((l) => l.toFixed(2))
      .join(' ')}`,
  );
  const dir = mkdtempSync(join(tmpdir(), 'doppel-threads-'));
  const runs = new Map<number, Run[]>(THREADS.map((t) => [t, []]));
  let reference: Buffer | null = null;
  let identical = true;
  try {
    for (let round = 0; round < ROUNDS; round++)
      for (const threads of THREADS) {
        const run = await runOnce(input, threads, dir);
        reference ??= run.output;
        if (!run.output.equals(reference)) identical = false;
        runs.get(threads)?.push(run);
      }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
  const rows = THREADS.map((threads) => {
    const list = runs.get(threads) ?? [];
    const sum = (xs: number[]) => xs.reduce((a, b) => a + b, 0);
    const row = {
      threads,
      process: median(list.map((r) => r.process)),
      main: median(list.map((r) => r.main)),
      workers: median(list.map((r) => sum(r.workers))),
      busiest: median(list.map((r) => Math.max(0, ...r.workers))),
      workerStart: median(list.map((r) => sum(r.workerStart))),
      answers: median(list.map((r) => r.answers)),
    };
    return { ...row, other: row.process - row.main - row.workers };
  });
  const one = rows.find((r) => r.threads === 1);
  console.log(
    '| `--threads` | process CPU s | main thread | sign workers (of it start-up) | V8 compiler + GC threads | µs per message | chunks answered | bound on 2 cores s | on 3 cores | speed-up on 2 / 3 cores |',
  );
  console.log('|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|');
  for (const r of rows) {
    const speed = (cores: number) => (one ? (bound(one, cores) / bound(r, cores)).toFixed(2) : '–');
    console.log(
      `| ${r.threads} | ${r.process.toFixed(2)} | ${r.main.toFixed(2)} | ${r.workers.toFixed(2)} (${r.workerStart.toFixed(2)}) | ${r.other.toFixed(2)} | ${Math.round((1e6 * r.process) / messages)} | ${r.answers} | ${bound(r, 2).toFixed(2)} | ${bound(r, 3).toFixed(2)} | ${speed(2)} / ${speed(3)} |`,
    );
  }
  console.log(
    `verdict lines identical across every run: ${identical ? 'yes' : 'NO'}; load average after ${loadavg()
      .map((l) => l.toFixed(2))
      .join(' ')}`,
  );
  if (!identical) process.exitCode = 1;
}

await main();
