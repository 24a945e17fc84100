import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { Worker } from 'node:worker_threads';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DOPPEL_BIN, REPO_ROOT } from '../support/cli.js';
import { encode, INPUT_ERROR_CODES, SAMPLES } from './support/hostile.js';

/**
 * Linear time on hostile shapes: a 4 MiB input line made of one repeated pattern (the inputs
 * that make a backtracking regex, a recursive parser or a quadratic loop blow up) is decided in
 * under 2 s, through the same steps as `doppel dedup` (parse, decode, canonicalize, sign, index
 * and decide on the memory store), and `doppel dedup` answers a file of them all. Each shape also
 * runs at 1 MiB: 4× the input must cost about 4× the time (a quadratic path costs 16×).
 *
 * Time is the CPU time (user + system) of the process deciding the line: on an idle core it is
 * the wall time, and on a machine shared with other work it does not grow with the load (wall
 * time is printed beside it). A shape still running after KILL_AFTER_MS of wall time is stopped.
 */

const MIB = 1024 * 1024;
/**
 * The guarantee: 2 s per 4 MiB line. DOPPEL_FAULTS_TIME_FACTOR scales it (and the stop time) on a
 * machine that is not doing one thing at a time; the figures in docs/reliability.md say which.
 */
const TIME_FACTOR = Number(process.env.DOPPEL_FAULTS_TIME_FACTOR ?? 1);
const LIMIT_MS = 2_000 * TIME_FACTOR;
/** The JSON around the content: `{"id":"...","text":""}` and a margin. */
const ENVELOPE = 200;

type Field = 'text' | 'html' | 'raw';
interface Shape {
  name: string;
  field: Field;
  /** The field's value for a line of about `bytes` bytes (its JSON encoding fits). */
  make: (bytes: number) => string;
}

/** `unit` repeated so that its JSON-escaped form fills `bytes`. */
function fill(unit: string, bytes: number): string {
  const cost = Buffer.byteLength(JSON.stringify(unit), 'utf8') - 2;
  return unit.repeat(Math.floor((bytes - ENVELOPE) / cost));
}

/** Base64 of a mail of about `bytes` once encoded (base64 costs 4 bytes per 3). */
function rawMail(bytes: number, build: (mailBytes: number) => string): string {
  return Buffer.from(build(Math.floor(((bytes - ENVELOPE) * 3) / 4)), 'latin1').toString('base64');
}

const MAIL_HEAD = 'From: a@example.com\r\nTo: b@example.org\r\nSubject: s\r\nMessage-ID: <m@x>\r\n';

const SHAPES: Shape[] = [
  { name: 'words (baseline)', field: 'text', make: (n) => fill('word ', n) },
  { name: 'newline run', field: 'text', make: (n) => fill('\n', n) },
  { name: 'CRLF run', field: 'text', make: (n) => fill('\r\n', n) },
  { name: 'hyphen + newline', field: 'text', make: (n) => fill('-\n', n) },
  { name: 'word, hyphen, newline', field: 'text', make: (n) => fill('сло-\nво ', n) },
  { name: 'soft hyphens', field: 'text', make: (n) => fill('a\u00ad', n) },
  { name: 'spaces', field: 'text', make: (n) => `a${fill(' ', n)}b` },
  { name: 'tabs and no-break spaces', field: 'text', make: (n) => `a${fill('\t\u00a0', n)}b` },
  // Read back word by word by the lexicon (spaced-segment.ts): every letter tries 24 words.
  { name: 'letters one space apart', field: 'text', make: (n) => fill('f r e e m o n e y n o w ', n) },
  { name: 'leet in every word', field: 'text', make: (n) => fill('7h3 qu1ck br0wn f0x ', n) },
  // Narrow spaces between letters (word-gaps.ts) and plain spaces inside words
  // (space-split-words.ts): every gap and every pair of pieces is a lexicon candidate.
  { name: 'letters one hair space apart', field: 'text', make: (n) => fill('a\u200a', n) },
  {
    name: 'words split by a thin space',
    field: 'text',
    make: (n) => fill('pr\u2009esident be\u00a0tter ', n),
  },
  { name: "'ab cd' pieces one space apart", field: 'text', make: (n) => fill('ab cd ', n) },
  { name: 'words split by a space', field: 'text', make: (n) => fill('pr esident go vernment ', n) },
  {
    name: 'Cyrillic leet in every word',
    field: 'text',
    make: (n) => fill('н@ 3аработок д0ход 4т0 3а3е3ка ', n),
  },
  {
    name: 'punctuation inside every word',
    field: 'text',
    make: (n) => fill('pr.esident gov-ernment mon|ey ', n),
  },
  { name: 'letters and dots', field: 'text', make: (n) => fill('ab.', n) },
  {
    name: 'long pieces between dots',
    field: 'text',
    make: (n) => fill('governmentgovernmentgovernmentgo.', n),
  },
  { name: "'@' run", field: 'text', make: (n) => fill('@', n) },
  { name: "'a@' run", field: 'text', make: (n) => fill('a@', n) },
  { name: "'.' run", field: 'text', make: (n) => fill('.', n) },
  { name: 'URL-ish run', field: 'text', make: (n) => fill('http://a', n) },
  { name: "'<' run in text", field: 'text', make: (n) => fill('<', n) },
  { name: 'no spaces (one 4 MiB word)', field: 'text', make: (n) => fill('w', n) },
  { name: 'combining marks', field: 'text', make: (n) => `a${fill('\u0301', n)}` },
  // Accents on the vowels of every word: the text reads as disguised, every token is looked up
  // with and without its accents and every letter folded (accented-text.ts).
  { name: 'accents on every word', field: 'text', make: (n) => fill('thé cómpány sáid résults ', n) },
  { name: 'stress marks in every word', field: 'text', make: (n) => fill('Президе́нт Росси́и сказа́л ', n) },
  // NFKC expansions: one character into 18 (U+FDFA), into 4 (U+3300), and among words.
  { name: 'NFKC expansion U+FDFA run', field: 'text', make: (n) => fill('\ufdfa', n) },
  { name: 'NFKC expansion U+3300 run', field: 'text', make: (n) => fill('\u3300', n) },
  { name: 'NFKC expansion U+FDFA between words', field: 'text', make: (n) => fill('\ufdfa word ', n) },
  { name: "'<' run in HTML", field: 'html', make: (n) => fill('<', n) },
  { name: 'nested unclosed tags', field: 'html', make: (n) => fill('<div>', n) },
  { name: 'unclosed attribute tags', field: 'html', make: (n) => fill('<a href="', n) },
  { name: 'unclosed comment', field: 'html', make: (n) => `<!--${fill('-', n)}` },
  { name: 'entity run', field: 'html', make: (n) => fill('&#x', n) },
  { name: 'tags and words', field: 'html', make: (n) => fill('<p>word <b>bold</b></p>', n) },
  {
    name: 'mail: one long header name',
    field: 'raw',
    make: (n) => rawMail(n, (m) => `${MAIL_HEAD}X-${'a'.repeat(m - 200)}: v\r\n\r\nbody text here\r\n`),
  },
  {
    name: 'mail: a long header value',
    field: 'raw',
    make: (n) => rawMail(n, (m) => `${MAIL_HEAD}X-Long: ${'v '.repeat((m - 200) / 2)}\r\n\r\nbody text\r\n`),
  },
  {
    name: 'mail: many headers',
    field: 'raw',
    make: (n) => rawMail(n, (m) => `${MAIL_HEAD}${'X-H: v\r\n'.repeat((m - 200) / 8)}\r\nbody text here\r\n`),
  },
  {
    name: 'mail: folded header continuation run',
    field: 'raw',
    make: (n) => rawMail(n, (m) => `${MAIL_HEAD}X-Fold: a${'\r\n b'.repeat((m - 200) / 4)}\r\n\r\nbody\r\n`),
  },
  {
    name: 'mail: encoded-word run in the subject',
    field: 'raw',
    make: (n) =>
      rawMail(
        n,
        (m) =>
          `From: a@example.com\r\nSubject: ${'=?utf-8?B?0L/RgA==?= '.repeat((m - 200) / 21)}\r\n\r\nbody\r\n`,
      ),
  },
  {
    name: 'mail: boundary run',
    field: 'raw',
    make: (n) =>
      rawMail(
        n,
        (m) =>
          `${MAIL_HEAD}Content-Type: multipart/mixed; boundary="b"\r\n\r\n${'--b\r\n'.repeat((m - 300) / 5)}--b--\r\n`,
      ),
  },
  {
    name: 'mail: newline-only body',
    field: 'raw',
    make: (n) => rawMail(n, (m) => `${MAIL_HEAD}\r\n${'\r\n'.repeat((m - 200) / 2)}`),
  },
  {
    name: 'legacy charset bytes (cp1251)',
    field: 'raw',
    make: (n) => {
      const bytes = encode(SAMPLES.ru, 'windows-1251');
      const target = Math.floor(((n - ENVELOPE) * 3) / 4);
      return Buffer.concat(Array.from({ length: Math.floor(target / bytes.length) }, () => bytes)).toString(
        'base64',
      );
    },
  },
];

const lineOf = (shape: Shape, bytes: number, id: string) =>
  JSON.stringify({ id, [shape.field]: shape.make(bytes) });

/**
 * One shape, timed in a worker thread on the built code (dist/): `doppel dedup`'s steps for the
 * 1 MiB line, then the 4 MiB line. A worker can be stopped mid-computation, so a quadratic shape
 * costs this suite its limit, not its quadratic time.
 */
const WORKER = `
const { parentPort, workerData } = require('node:worker_threads');
(async () => {
  const load = (m) => import(workerData.dist + m);
  const [{ resolveDedupConfig }, { DedupEngine }, { initHashing }, { parseMessageLine }, { LexiconSet }, { MessageFlow }, { Signer }, { MemoryStore }] =
    await Promise.all(['/config/profiles.js', '/engine/engine.js', '/hash/xxhash.js', '/input/message.js', '/lexicon/lexicon.js', '/pipeline/flow.js', '/signatures/signer.js', '/store/memory/store.js'].map(load));
  await initHashing();
  const config = resolveDedupConfig('news');
  const signer = new Signer(config.signatures, LexiconSet.defaults({}));
  const flow = new MessageFlow(new DedupEngine(config, new MemoryStore(config.window, config.index)), signer);
  const decide = async (line) => {
    const started = performance.now();
    const cpu = process.cpuUsage();
    let outcome;
    try {
      const message = parseMessageLine(line);
      const [verdict] = await flow.process([await flow.prepare(message, 1800000000000)]);
      outcome = verdict.verdict;
    } catch (error) {
      if (!error || error.name !== 'DoppelError') throw error;
      outcome = error.code;
    }
    const used = process.cpuUsage(cpu);
    return { ms: (used.user + used.system) / 1000, wallMs: performance.now() - started, outcome };
  };
  await decide(JSON.stringify({ id: 'warm', text: workerData.warm }));
  parentPort.postMessage({ step: 'small', ...(await decide(workerData.small)) });
  parentPort.postMessage({ step: 'large', ...(await decide(workerData.large)) });
})().catch((error) => parentPort.postMessage({ step: 'error', message: String(error && error.stack || error) }));
`;

interface Timing {
  /** CPU time of the worker's process (user + system) while deciding the line. */
  ms: number;
  wallMs: number;
  outcome: string;
}

function timeShape(
  small: string,
  large: string,
  killAfterMs: number,
): Promise<{ small?: Timing; large?: Timing; killed: boolean }> {
  return new Promise((resolve, reject) => {
    const worker = new Worker(WORKER, {
      eval: true,
      workerData: { dist: pathToFileURL(DIST).href, warm: `${SAMPLES.en} ${SAMPLES.ru}`, small, large },
    });
    const result: { small?: Timing; large?: Timing; killed: boolean } = { killed: false };
    let timer = setTimeout(() => stop(), 60_000);
    const stop = () => {
      result.killed = true;
      void worker.terminate();
    };
    worker.on(
      'message',
      (m: { step: string; ms: number; wallMs: number; outcome: string; message?: string }) => {
        if (m.step === 'error') reject(new Error(m.message));
        else if (m.step === 'small') {
          result.small = { ms: m.ms, wallMs: m.wallMs, outcome: m.outcome };
          clearTimeout(timer);
          timer = setTimeout(stop, killAfterMs);
        } else {
          result.large = { ms: m.ms, wallMs: m.wallMs, outcome: m.outcome };
          clearTimeout(timer);
          void worker.terminate();
        }
      },
    );
    worker.on('error', reject);
    worker.on('exit', () => {
      clearTimeout(timer);
      resolve(result);
    });
  });
}

const DIST = resolve(REPO_ROOT, 'dist');
let dir: string;
beforeAll(() => {
  if (!existsSync(join(DIST, 'cli/main.js')))
    throw new Error('dist/ is missing: run npm run build (npm run test:faults does)');
  dir = mkdtempSync(join(tmpdir(), 'doppel-faults-linear-'));
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const results: string[] = [];
afterAll(() => {
  process.stdout.write(`[faults] linear time (4 MiB line / 1 MiB line):\n${results.join('\n')}\n`);
});

/** A shape still running at this many times the limit is stopped (and fails). */
const KILL_AFTER_MS = 8 * LIMIT_MS;

describe('a 4 MiB line of any shape is decided in under 2 s (dedup steps, built code)', () => {
  for (const [n, shape] of SHAPES.entries()) {
    it(shape.name, async () => {
      const big = lineOf(shape, 4 * MIB, `big-${n}`);
      expect(Buffer.byteLength(big)).toBeLessThanOrEqual(4 * MIB);
      expect(Buffer.byteLength(big)).toBeGreaterThan(4 * MIB - 64 * 1024);
      const small1MiB = lineOf(shape, MIB, `small-${n}`);
      let { small, large, killed } = await timeShape(small1MiB, big, KILL_AFTER_MS);
      const fmt = (t: Timing | undefined) =>
        t ? `${t.ms.toFixed(0)} ms (wall ${t.wallMs.toFixed(0)})` : 'not reached';
      const ratioOk = (s?: Timing, l?: Timing) => !s || !l || l.ms <= LIMIT_MS / 2 || l.ms / s.ms < 12;
      // Timings on a shared machine are noisy: a shape that misses is timed once more and the
      // faster run counts. A quadratic path misses both times.
      let retried = false;
      if (!killed && (large!.ms >= LIMIT_MS || !ratioOk(small, large))) {
        retried = true;
        const again = await timeShape(small1MiB, big, KILL_AFTER_MS);
        if (!again.killed) {
          if (again.small && again.small.ms < small!.ms) small = again.small;
          if (again.large && again.large.ms < large!.ms) large = again.large;
        }
      }
      results.push(
        `  ${shape.name.padEnd(40)} ${killed ? `> ${KILL_AFTER_MS} ms (stopped)` : fmt(large)} / ${fmt(small)}  (${large?.outcome ?? small?.outcome ?? '-'})${retried ? ' (timed twice)' : ''}`,
      );
      expect(killed, `${shape.name}: still running after ${KILL_AFTER_MS} ms (1 MiB: ${fmt(small)})`).toBe(
        false,
      );
      for (const t of [small, large]) {
        if (!/^[a-z_]+$/.test(t!.outcome))
          expect(INPUT_ERROR_CODES as readonly string[]).toContain(t!.outcome);
      }
      expect(large!.ms, `${shape.name}: ${fmt(large)} for 4 MiB`).toBeLessThan(LIMIT_MS);
      // Linear: 4× the input, about 4× the time; quadratic work gives 16×. Only checked when the
      // 4 MiB line takes more than half the limit: below that, timer, JIT and GC noise on a
      // shared machine decide the ratio (a combining-mark run measured 526 / 26 ms under load and
      // 113 / 33 ms alone).
      expect(ratioOk(small, large), `${shape.name}: ${fmt(large)} vs ${fmt(small)}`).toBe(true);
    }, 120_000);
  }
});

describe('the same lines through the CLI', () => {
  it('doppel dedup: every shape in one file, one answer per line, within a ceiling (2 s per line, 2× for a shared machine)', async () => {
    const file = join(dir, 'shapes.jsonl');
    const lines = SHAPES.map((shape, n) => lineOf(shape, 4 * MIB, `cli-${n}`));
    writeFileSync(file, `${lines.join('\n')}\n`);
    // Start-up (module loading, lexicons) is not the lines' time: allowed once. Wall time, with a
    // margin of 2× for a shared machine: the per-line guarantee is checked above, this is the
    // ceiling that catches a hang.
    const limit = 2 * (5_000 + LIMIT_MS * SHAPES.length);
    const { code, stdout, stderr, ms } = await runWithLimit(['dedup', '--quiet', '--input', file], limit);
    results.push(
      `  doppel dedup: ${SHAPES.length} lines of 4 MiB in ${(ms / 1000).toFixed(1)} s (start-up included; limit ${limit / 1000} s)`,
    );
    expect(code, `${stderr.slice(-2000)} after ${ms.toFixed(0)} ms`).toBe(0);
    const out = stdout
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as { id: string | null; line?: number });
    expect(out.length).toBe(SHAPES.length);
    out.forEach((record, i) => {
      if (record.line !== undefined) expect(record.line).toBe(i + 1);
      else expect(record.id).toBe(`cli-${i}`);
    });
  }, 300_000);
});

function runWithLimit(
  args: string[],
  limitMs: number,
): Promise<{ code: number | null; stdout: string; stderr: string; ms: number }> {
  return new Promise((resolve, reject) => {
    const started = performance.now();
    const child = spawn(process.execPath, [DOPPEL_BIN, ...args], { cwd: REPO_ROOT });
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (d: string) => {
      stdout += d;
    });
    child.stderr.setEncoding('utf8').on('data', (d: string) => {
      stderr += d;
    });
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      stderr += `\n[killed after ${limitMs} ms]`;
    }, limitMs);
    child.on('error', reject);
    child.on('close', (code) => {
      clearTimeout(timer);
      resolve({ code, stdout, stderr, ms: performance.now() - started });
    });
  });
}
