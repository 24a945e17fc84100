/**
 * `npm run bench:stages`: CPU µs per message of each stage of `doppel dedup --threads 1` on a
 * stream (default: bench:peers' `.bench-out/peers-stream.jsonl`, real articles and their
 * variants; run `npm run bench:peers` first, or pass a JSON Lines file).
 *
 * How: the CLI runs under V8's sampling CPU profiler (`node --cpu-prof`, 250 µs interval); each
 * sample is charged to the nearest doppel module on its stack (a built-in such as JSON.parse, or
 * a dependency such as htmlparser2, counts for the doppel function that called it), modules map
 * to stages (STAGES below), and the garbage collector is a stage of its own. Samples with no
 * doppel module on the stack before the first message are start-up (module loading); the
 * process's start-up CPU on an empty input is measured apart (an empty file). The
 * profiler samples wall time, so each stage is printed as its share of the samples times the
 * process's own user + system CPU (`/usr/bin/time`) per message.
 * `BENCH_ROUNDS` (default 3) runs alternate with nothing between; the table is the median per
 * stage.
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { median, readStream } from './peers-stream.js';

const here = dirname(fileURLToPath(import.meta.url));
const ROOT = resolve(here, '../..');
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);

/** dist-relative module path prefix -> stage. First match wins. */
const STAGES: ReadonlyArray<readonly [string, string]> = [
  ['cli/jsonl.', 'read + parse'],
  ['input/message.', 'read + parse'],
  ['json.', 'read + parse'],
  ['input/decode-message.', 'decode'],
  ['text/decode/', 'decode'],
  ['text/', 'canonicalize (normalize, tokenize)'],
  ['signatures/vocabulary.', 'vocabulary lookup (shared by the signatures)'],
  ['signatures/signer.', 'signer: content words, counts (shared)'],
  ['hash/xxhash.', 'exact (xxh64)'],
  ['signatures/simhash.', 'simhash-64'],
  ['signatures/minhash', 'minhash + super/mega shingles'],
  ['hash/set-hash.', 'i-match'],
  ['signatures/imatch.', 'i-match'],
  ['signatures/terms.', 'term vector'],
  ['signatures/lexical.', 'lexical signatures'],
  ['signatures/facts.', 'facts (dates)'],
  ['lexicon/', 'lexicon loading'],
  ['pipeline/', 'sign stage glue'],
  ['engine/index-keys.', 'index keys'],
  ['engine/record', 'stored record'],
  ['store/', 'candidates (index, buckets, ranking)'],
  ['engine/verify.', 'verification'],
  ['engine/story.', 'story rule'],
  ['engine/', 'decision + engine'],
  ['output/', 'output'],
  ['cli/dedup.', 'output'],
];

interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string };
  children?: number[];
}

interface Profile {
  nodes: ProfileNode[];
  samples: number[];
  timeDeltas: number[];
}

function stageOf(url: string): string | null {
  const at = url.indexOf('/dist/');
  if (at < 0 || url.includes('/node_modules/')) return null;
  const path = url.slice(at + '/dist/'.length);
  for (const [prefix, stage] of STAGES) if (path.startsWith(prefix)) return stage;
  return 'other doppel code';
}

/** Microseconds of samples per stage. */
function attribute(profile: Profile): Map<string, number> {
  const byId = new Map<number, ProfileNode>();
  const parent = new Map<number, number>();
  for (const node of profile.nodes) {
    byId.set(node.id, node);
    for (const child of node.children ?? []) parent.set(child, node.id);
  }
  const stageOfNode = new Map<number, string>();
  const resolveNode = (id: number): string => {
    const known = stageOfNode.get(id);
    if (known !== undefined) return known;
    const node = byId.get(id) as ProfileNode;
    const name = node.callFrame.functionName;
    let stage: string;
    if (name === '(garbage collector)') stage = 'GC';
    else if (name === '(idle)') stage = 'idle';
    else if (name === '(program)') stage = 'V8 / runtime (unattributed)';
    else {
      const own = stageOf(node.callFrame.url);
      const up = parent.get(id);
      stage = own ?? (up === undefined ? 'start-up, module loading, event loop' : resolveNode(up));
      if (stage === 'root') stage = 'start-up, module loading, event loop';
    }
    stageOfNode.set(id, stage);
    return stage;
  };
  const out = new Map<string, number>();
  for (let i = 0; i < profile.samples.length; i++) {
    const stage = resolveNode(profile.samples[i] as number);
    out.set(stage, (out.get(stage) ?? 0) + (profile.timeDeltas[i] as number));
  }
  out.delete('idle');
  return out;
}

function runCli(args: string[], nodeFlags: string[]): Promise<{ cpuS: number; stderr: string }> {
  return new Promise((resolvePromise, reject) => {
    const child = spawn(
      '/usr/bin/time',
      ['-f', 'CPU %U %S', process.execPath, ...nodeFlags, resolve(ROOT, 'bin/doppel.js'), ...args],
      { stdio: ['ignore', 'ignore', 'pipe'] },
    );
    let stderr = '';
    child.stderr.setEncoding('utf8').on('data', (d: string) => {
      stderr += d;
    });
    child.on('error', reject);
    child.on('close', (code) => {
      if (code !== 0) return reject(new Error(`doppel exited ${code}: ${stderr}`));
      const cpu = /CPU ([\d.]+) ([\d.]+)/.exec(stderr);
      resolvePromise({ cpuS: cpu ? Number(cpu[1]) + Number(cpu[2]) : Number.NaN, stderr });
    });
  });
}

async function main(): Promise<void> {
  const stream = readStream('bench:stages', process.argv[2]);
  if (stream === undefined) return;
  const { input } = stream;
  const messages = stream.lines.length;
  console.log(
    `bench:stages: ${messages} messages from ${input}; load average ${loadavg()
      .map((l) => l.toFixed(2))
      .join(' ')}`,
  );
  const perStage = new Map<string, number[]>();
  const processCpu: number[] = [];
  const startup: number[] = [];
  const profiled: number[] = [];
  for (let round = 0; round < ROUNDS; round++) {
    const dir = mkdtempSync(join(tmpdir(), 'doppel-stages-'));
    try {
      const nothing = join(dir, 'empty.jsonl');
      writeFileSync(nothing, '');
      const empty = await runCli(
        ['dedup', '--quiet', '--threads', '1', '--input', nothing, '--output', '/dev/null'],
        [],
      );
      startup.push(empty.cpuS);
      const run = await runCli(
        ['dedup', '--quiet', '--threads', '1', '--input', input, '--output', '/dev/null'],
        ['--cpu-prof', '--cpu-prof-interval', '250', '--cpu-prof-dir', dir],
      );
      processCpu.push(run.cpuS);
      const file = readdirSync(dir).find((f) => f.endsWith('.cpuprofile'));
      if (!file) throw new Error('no profile written');
      const stages = attribute(JSON.parse(readFileSync(join(dir, file), 'utf8')) as Profile);
      let total = 0;
      for (const [stage, us] of stages) {
        total += us;
        const list = perStage.get(stage) ?? [];
        list.push(us / messages);
        perStage.set(stage, list);
      }
      profiled.push(total / messages);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }
  // The profiler samples wall time (a busy machine stretches it) and adds its own cost: each
  // stage is reported as its share of the profile times the process's measured CPU per message.
  const cpuPerMessage = (1e6 * median(processCpu)) / messages;
  const scale = cpuPerMessage / median(profiled);
  const rows = [...perStage.entries()]
    .map(([stage, list]) => [stage, median(list) * scale] as const)
    .sort((a, b) => b[1] - a[1]);
  console.log('| stage | CPU µs per message | share |');
  console.log('|---|---:|---:|');
  for (const [stage, us] of rows)
    console.log(`| ${stage} | ${us.toFixed(1)} | ${((100 * us) / cpuPerMessage).toFixed(1)}% |`);
  console.log(`| **whole process (user + sys)** | **${cpuPerMessage.toFixed(0)}** | 100% |`);
  console.log(
    `process CPU of the profiled run: ${median(processCpu).toFixed(2)} s (median of ${ROUNDS}), start-up included; start-up alone (empty input): ${median(startup).toFixed(2)} s = ${((1e6 * median(startup)) / messages).toFixed(0)} µs per message of this stream; profile/CPU ratio ${(1 / scale).toFixed(2)}; load average after ${loadavg()
      .map((l) => l.toFixed(2))
      .join(' ')}`,
  );
}

await main();
