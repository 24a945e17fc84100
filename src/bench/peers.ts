/**
 * `npm run bench:peers`: doppel dedup (threads 1 and one per core), rensa and datasketch (MinHash
 * LSH from PyPI, streaming query-then-insert, 128 permutations) on the SAME stream in one run:
 * messages/s of each, doppel/rensa ratios, and how the flagged sets agree (with each other and
 * with the generator's gold clusters).
 *
 * The stream is real text: every news article of the evaluation corpus (ru, en, fa, uk) as an original,
 * plus `doppel generate` variants of each (syndication, edits, truncation, HTML, legacy
 * charsets), in time order. Without the corpus it says why and falls back to demo/feed.jsonl.
 * The peers get doppel's decoded text (they do not decode HTML or charsets themselves).
 * Python and the two packages: a venv under .bench-out/peers-venv, made on first use
 * (`pip install rensa datasketch`); BENCH_PYTHON names another interpreter that has them.
 */
import { execFileSync, spawn } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { availableParallelism, loadavg } from 'node:os';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { generateVariants, type SourceDoc } from '../eval/generate.js';
import { decodeMessage } from '../input/decode-message.js';
import { parseMessageObject } from '../input/message.js';
import { readJsonl, SHARED_DATA_DIR, sharedDataAvailable } from './data.js';

const here = dirname(fileURLToPath(import.meta.url));
const ROOT = resolve(here, '../..');
const OUT = resolve(ROOT, '.bench-out');
const VARIANTS = Number(process.env.BENCH_VARIANTS ?? 3);

interface Labeled {
  line: string;
  id: string;
  cluster: string;
}

function buildStream(): { stream: Labeled[]; source: string } {
  if (!sharedDataAvailable()) {
    console.log(
      `bench:peers: no evaluation corpus (looked in ${SHARED_DATA_DIR}): using demo/feed.jsonl, which is too small for rates`,
    );
    const lines = readFileSync(resolve(ROOT, 'demo/feed.jsonl'), 'utf8')
      .split('\n')
      .filter((l) => l.trim() !== '');
    return {
      stream: lines.map((line) => {
        const id = String((JSON.parse(line) as { id?: unknown }).id ?? '');
        return { line, id, cluster: id };
      }),
      source: 'demo/feed.jsonl',
    };
  }
  const docs: SourceDoc[] = [];
  for (const file of ['news-ru.jsonl', 'news-en.jsonl', 'news-fa.jsonl', 'news-uk.jsonl'])
    for (const d of readJsonl(file))
      if (d.text.trim() !== '') docs.push({ id: d.id, lang: d.lang ?? 'und', text: d.text });
  const messages = generateVariants(docs, { seed: 14, variantsPerDoc: VARIANTS }).sort((a, b) =>
    a.ts < b.ts ? -1 : a.ts > b.ts ? 1 : 0,
  );
  return {
    stream: messages.map((m) => {
      const { cluster, variant: _v, charset: _c, ...message } = m;
      return { line: JSON.stringify(message), id: m.id, cluster };
    }),
    source: `${docs.length} real news articles (evaluation corpus: news-ru/en/fa/uk) + ${VARIANTS} generator variants each`,
  };
}

function python(): string {
  if (process.env.BENCH_PYTHON) return process.env.BENCH_PYTHON;
  const venv = resolve(OUT, 'peers-venv');
  const bin = resolve(venv, 'bin/python');
  if (!existsSync(bin)) {
    console.log(`bench:peers: making ${venv} (pip install rensa datasketch)`);
    execFileSync('python3', ['-m', 'venv', venv], { stdio: 'inherit' });
  }
  try {
    execFileSync(bin, ['-c', 'import rensa, datasketch'], { stdio: 'ignore' });
  } catch {
    execFileSync(bin, ['-m', 'pip', 'install', '-q', 'rensa', 'datasketch'], { stdio: 'inherit' });
  }
  return bin;
}

function run(cmd: string, args: string[]): Promise<{ stdout: string; stderr: string; cpuS: number }> {
  return new Promise((resolvePromise, reject) => {
    const child = spawn('/usr/bin/time', ['-f', 'CPU %U %S', cmd, ...args], {
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (d: string) => {
      stdout += d;
    });
    child.stderr.setEncoding('utf8').on('data', (d: string) => {
      stderr += d;
    });
    child.on('error', reject);
    child.on('close', (code) => {
      if (code !== 0) return reject(new Error(`${cmd} exited ${code}: ${stderr}`));
      const cpu = /CPU ([\d.]+) ([\d.]+)/.exec(stderr);
      resolvePromise({ stdout, stderr, cpuS: cpu ? Number(cpu[1]) + Number(cpu[2]) : Number.NaN });
    });
  });
}

interface Result {
  tool: string;
  rate: number;
  flagged: Set<string>;
  cpuS: number;
  note: string;
}

async function doppel(input: string, threads: number): Promise<Result> {
  const r = await run(process.execPath, [
    '--expose-gc',
    resolve(ROOT, 'bin/doppel.js'),
    'dedup',
    '--threads',
    String(threads),
    '--input',
    input,
  ]);
  const summary = r.stderr.split('\n').find((l) => l.includes(' messages/s;')) ?? '';
  const flagged = new Set<string>();
  for (const line of r.stdout.split('\n')) {
    if (!line) continue;
    const v = JSON.parse(line) as { id: string; verdict: string };
    if (v.verdict === 'duplicate' || v.verdict === 'near_duplicate') flagged.add(v.id);
  }
  const heap = /heap (\d+) bytes per windowed message/.exec(summary)?.[1];
  return {
    tool: `doppel --threads ${threads}`,
    rate: Number(/(\d+) messages\/s/.exec(summary)?.[1] ?? Number.NaN),
    flagged,
    cpuS: r.cpuS,
    note: heap ? `${heap} B heap per windowed message` : '',
  };
}

function gold(stream: Labeled[]): Set<string> {
  const seen = new Set<string>();
  const out = new Set<string>();
  for (const m of stream) {
    if (seen.has(m.cluster)) out.add(m.id);
    seen.add(m.cluster);
  }
  return out;
}

function pct(x: number): string {
  return `${(100 * x).toFixed(1)}%`;
}

async function main(): Promise<void> {
  mkdirSync(OUT, { recursive: true });
  const { stream, source } = buildStream();
  const input = resolve(OUT, 'peers-stream.jsonl');
  const peerInput = resolve(OUT, 'peers-text.jsonl');
  writeFileSync(input, `${stream.map((m) => m.line).join('\n')}\n`);
  const texts: string[] = [];
  for (const m of stream) {
    let text = '';
    try {
      text = (await decodeMessage(parseMessageObject(JSON.parse(m.line)))).text;
    } catch {
      // Invalid for doppel too: the peers see an empty text.
    }
    texts.push(JSON.stringify({ id: m.id, text }));
  }
  writeFileSync(peerInput, `${texts.join('\n')}\n`);
  const py = python();
  const cores = availableParallelism();
  const before = loadavg();
  console.log(
    `bench:peers: ${stream.length} messages: ${source}; ${cores} cores; load average ${before.map((l) => l.toFixed(2)).join(' ')}`,
  );

  const results: Result[] = [];
  results.push(await doppel(input, 1));
  results.push(await doppel(input, cores));
  for (const tool of ['rensa', 'datasketch']) {
    const r = await run(py, [resolve(ROOT, 'tools/bench/peers.py'), peerInput, tool]);
    const o = JSON.parse(r.stdout.trim().split('\n').pop() as string) as {
      messages: number;
      seconds: number;
      flagged: string[];
    };
    results.push({ tool, rate: o.messages / o.seconds, flagged: new Set(o.flagged), cpuS: r.cpuS, note: '' });
  }
  const after = loadavg();
  const truth = gold(stream);
  const rensa = results.find((r) => r.tool === 'rensa') as Result;
  const reference = results[0] as Result;
  console.log(
    '| tool | messages/s | / rensa | process CPU s | flagged | agreement with doppel --threads 1 | precision | recall | note |',
  );
  console.log('|---|---:|---:|---:|---:|---:|---:|---:|---|');
  for (const r of results) {
    let agree = 0;
    let tp = 0;
    for (const m of stream) {
      if (r.flagged.has(m.id) === reference.flagged.has(m.id)) agree++;
      if (r.flagged.has(m.id) && truth.has(m.id)) tp++;
    }
    console.log(
      `| ${r.tool} | ${Math.round(r.rate).toLocaleString('en-US')} | ${(r.rate / rensa.rate).toFixed(2)} | ${r.cpuS.toFixed(1)} | ${r.flagged.size} | ${pct(agree / stream.length)} | ${pct(tp / Math.max(1, r.flagged.size))} | ${pct(tp / Math.max(1, truth.size))} | ${r.note} |`,
    );
  }
  console.log(
    `gold: ${truth.size} of ${stream.length} messages repeat an earlier message's story (generator clusters); load average after: ${after.map((l) => l.toFixed(2)).join(' ')}`,
  );
  console.log(
    "messages/s: doppel's own rate (from reading the first line, start-up excluded), the peers' query+insert loop (text already decoded and in memory). Process CPU: user + system of the whole process, start-up included.",
  );
}

await main();
