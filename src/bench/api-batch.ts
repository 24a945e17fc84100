/**
 * `npm run bench:api-batch`: the CPU time `doppel serve` (memory store) spends on N messages
 * POSTed to /v1/messages one per request, against the same N in one batch request (a JSON
 * array). The server's CPU time (user + system, from /proc/<pid>/stat, its sign threads
 * included) is measured, not the client's and not wall time, in alternating runs, each on a
 * fresh server. Messages are synthetic (seeded): a quarter are near copies of earlier ones.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { mulberry32 } from '../eval/random.js';

const here = dirname(fileURLToPath(import.meta.url));
const BIN = resolve(here, '../../bin/doppel.js');
const N = Number(process.env.BENCH_MESSAGES ?? 1000);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);
const THREADS = (process.env.BENCH_THREADS ?? '1,2').split(',').map(Number);
const TICKS = 100; // USER_HZ on Linux

/** N messages of ~80 words from a 3,000-word made-up vocabulary; every fourth a near copy. */
function messages(n: number): Array<{ id: string; title: string; text: string }> {
  const next = mulberry32(42);
  const syllables = ['ka', 'lo', 'mi', 'ren', 'sa', 'tu', 'vo', 'ne', 'ri', 'da', 'po', 'gel'];
  const words = Array.from({ length: 3000 }, () => {
    let w = '';
    for (let i = 0, k = 2 + Math.floor(next() * 3); i < k; i++)
      w += syllables[Math.floor(next() * syllables.length)];
    return w;
  });
  const out: Array<{ id: string; title: string; text: string }> = [];
  for (let i = 0; i < n; i++) {
    let text: string[];
    if (i % 4 === 3 && out.length > 0) {
      const source = (out[Math.floor(next() * out.length)] as { text: string }).text.split(' ');
      text = source.map((w) => (next() < 0.05 ? (words[Math.floor(next() * words.length)] as string) : w));
    } else text = Array.from({ length: 80 }, () => words[Math.floor(next() * words.length)] as string);
    out.push({ id: `m-${i}`, title: text.slice(0, 6).join(' '), text: `${text.join(' ')}.` });
  }
  return out;
}

function cpuSeconds(pid: number): number {
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return (Number(fields[11]) + Number(fields[12])) / TICKS;
}

async function startServer(threads: number): Promise<{ child: ChildProcess; url: string }> {
  const child = spawn(process.execPath, [BIN, 'serve', '--port', '0', '--threads', String(threads)], {
    stdio: ['ignore', 'pipe', 'inherit'],
    env: { ...process.env, DOPPEL_LOG_LEVEL: 'info' },
  });
  const port = await new Promise<number>((resolvePort, reject) => {
    let out = '';
    child.stdout?.on('data', (chunk: Buffer) => {
      out += chunk.toString();
      const line = out.split('\n').find((l) => l.includes('doppel serve listening'));
      if (line) resolvePort((JSON.parse(line) as { port: number }).port);
    });
    child.on('exit', (code) => reject(new Error(`doppel serve exited ${code}`)));
  });
  return { child, url: `http://127.0.0.1:${port}` };
}

async function post(url: string, body: unknown): Promise<unknown> {
  const res = await fetch(`${url}/v1/messages`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  if (res.status !== 200) throw new Error(`POST answered ${res.status}: ${await res.text()}`);
  return res.json();
}

async function run(mode: 'single' | 'batch', threads: number, feed: ReturnType<typeof messages>) {
  const { child, url } = await startServer(threads);
  try {
    // Warm-up on other ids, so that JIT and lexicon loading are not in the measurement.
    await post(
      url,
      feed.slice(0, 50).map((m) => ({ ...m, id: `warm-${m.id}` })),
    );
    const pid = child.pid as number;
    const before = cpuSeconds(pid);
    const started = performance.now();
    let flagged = 0;
    if (mode === 'single') {
      for (const m of feed) if (((await post(url, m)) as { verdict: string }).verdict !== 'unique') flagged++;
    } else {
      const { results } = (await post(url, feed)) as { results: Array<{ verdict: string }> };
      flagged = results.filter((r) => r.verdict !== 'unique').length;
    }
    const wall = (performance.now() - started) / 1000;
    return { cpu: cpuSeconds(pid) - before, wall, flagged };
  } finally {
    child.kill('SIGTERM');
    await new Promise((r) => child.once('exit', r));
  }
}

const feed = messages(N);
console.log(`bench:api-batch: ${N} messages to POST /v1/messages, ${ROUNDS} alternating rounds`);
for (const threads of THREADS) {
  const cpu = { single: [] as number[], batch: [] as number[] };
  for (let round = 0; round < ROUNDS; round++) {
    for (const mode of ['single', 'batch'] as const) {
      const r = await run(mode, threads, feed);
      cpu[mode].push(r.cpu);
      console.log(
        `  --threads ${threads} ${mode.padEnd(6)} round ${round + 1}: server CPU ${r.cpu.toFixed(2)} s (${((r.cpu / N) * 1e6).toFixed(0)} µs/message), wall ${r.wall.toFixed(2)} s, ${r.flagged} flagged`,
      );
    }
  }
  const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] as number;
  const single = median(cpu.single);
  const batch = median(cpu.batch);
  console.log(
    `--threads ${threads}: median server CPU per message: one per request ${((single / N) * 1e6).toFixed(0)} µs, one batch ${((batch / N) * 1e6).toFixed(0)} µs (${(single / batch).toFixed(1)}x less)`,
  );
}
