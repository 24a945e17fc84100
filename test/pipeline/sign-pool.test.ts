import { mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { availableParallelism, tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { resolveDedupConfig } from '../../src/config/profiles.js';
import { RequestPreparer } from '../../src/engine/engine.js';
import { keyArray, PackedKeys } from '../../src/engine/index-keys.js';
import { storedRecord } from '../../src/engine/record.js';
import { generateVariants } from '../../src/eval/generate.js';
import { initHashing } from '../../src/hash/xxhash.js';
import { parseMessageLine } from '../../src/input/message.js';
import { LexiconSet } from '../../src/lexicon/lexicon.js';
import { unpackCanonicalItem } from '../../src/pipeline/canonical-wire.js';
import { engineMessage } from '../../src/pipeline/flow.js';
import { unpackItem } from '../../src/pipeline/prepared-wire.js';
import { packRawLines } from '../../src/pipeline/raw-lines.js';
import { signMessage } from '../../src/pipeline/sign.js';
import {
  defaultDedupThreads,
  LONE_WORKER_MIN_INPUT_BYTES,
  SignPool,
  splitByStage,
} from '../../src/pipeline/sign-pool.js';
import { Signer } from '../../src/signatures/signer.js';
import { REPO_ROOT, runCli } from '../support/cli.js';
import { RECORD_FIELDS } from '../support/record-fields.js';

const demo = resolve(REPO_ROOT, 'demo/feed.jsonl');

/**
 * A stream that exercises every path of the pool: several batches (256) and chunks (64), text,
 * HTML and legacy-charset (raw) variants, messages without ts, invalid lines, blank lines and a
 * repeated id.
 */
function generatedStream(): string {
  const demoLines = readFileSync(demo, 'utf8')
    .split('\n')
    .filter((l) => l.trim() !== '');
  const docs = demoLines
    .map((l) => JSON.parse(l) as { id: string; lang?: string; text?: string })
    .filter((d) => d.text !== undefined && d.lang !== undefined)
    .map((d) => ({ id: d.id, lang: d.lang as string, text: d.text as string }));
  const lines: string[] = [];
  for (let round = 0; round < 40; round++) {
    const variants = generateVariants(
      docs.map((d) => ({
        ...d,
        id: `${d.id}-r${round}`,
        text: `${d.text} Round ${round} word${round * 7}.`,
      })),
      { seed: 1000 + round, variantsPerDoc: 3 },
    );
    for (const [i, v] of variants.entries()) {
      const { cluster: _c, variant: _v, charset: _cs, ...message } = v;
      // Every fifth message without its time (it takes the latest seen; the first has one, or the run's start time would differ between runs).
      lines.push(JSON.stringify(i % 5 === 4 ? { ...message, ts: undefined } : message));
    }
    lines.push('{"id": "broken-' + round + '", "text": 5}', 'not json', '');
  }
  lines.push(...demoLines, demoLines[0] as string);
  return `${lines.join('\n')}\n`;
}

describe('sign pool (doppel dedup --threads)', () => {
  let dir: string;
  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), 'doppel-pool-'));
  });

  it('gives the same verdict lines and story events, byte for byte, with 1, 2 and 3 threads (generated stream)', async () => {
    const input = join(dir, 'stream.jsonl');
    const text = generatedStream();
    writeFileSync(input, text);
    const outputs: string[] = [];
    const stories: string[] = [];
    for (const threads of ['1', '2', '3']) {
      const storyFile = join(dir, `stories-${threads}.jsonl`);
      const r = await runCli(['dedup', '--threads', threads, '--input', input, '--stories', storyFile]);
      expect(r.code, r.stderr).toBe(0);
      outputs.push(r.stdout);
      stories.push(readFileSync(storyFile, 'utf8'));
    }
    const lines = outputs[0]?.trim().split('\n') ?? [];
    // One line per non-blank input line, and the stream has every kind of verdict.
    expect(lines.length).toBe(text.split('\n').filter((l) => l.trim() !== '').length);
    const kinds = new Set(lines.map((l) => (JSON.parse(l) as { verdict: string }).verdict));
    expect([...kinds].sort()).toEqual(['duplicate', 'invalid', 'near_duplicate', 'unique']);
    expect(lines.some((l) => l.includes('"replay":true'))).toBe(true);
    expect(outputs[1]).toBe(outputs[0]);
    expect(outputs[2]).toBe(outputs[0]);
    expect(stories[1]).toBe(stories[0]);
    expect(stories[2]).toBe(stories[0]);
  }, 120_000);

  it('hands every chunk of 64 lines to a worker, which answers it (signed, or with one worker canonical)', async () => {
    const input = join(dir, 'chunks.jsonl');
    const text = generatedStream();
    writeFileSync(input, text);
    const lines = text.split('\n').filter((l) => l.trim() !== '').length;
    for (const threads of [2, 3]) {
      // The bench's preload (dist/bench/thread-cpu.js) counts each worker's answers, its ready included.
      const out = join(dir, `cpu-${threads}`);
      const r = await runCli(['dedup', '--quiet', '--threads', String(threads), '--input', input], '', {
        NODE_OPTIONS: `--import ${resolve(REPO_ROOT, 'dist/bench/thread-cpu.js')}`,
        DOPPEL_THREAD_CPU_OUT: out,
      });
      expect(r.code, r.stderr).toBe(0);
      const files = readdirSync(dir).filter((f) => f.startsWith(`cpu-${threads}-worker-`));
      expect(files.length).toBe(threads - 1);
      let answered = 0;
      for (const f of files)
        answered += (JSON.parse(readFileSync(join(dir, f), 'utf8')) as { answers: number }).answers - 1;
      expect(answered).toBe(Math.ceil(lines / 64));
    }
  }, 120_000);

  it('starts no lone worker for a short file when the thread count is the default', async () => {
    const input = join(dir, 'default-threads.jsonl');
    const text = generatedStream();
    writeFileSync(input, text);
    const expected = defaultDedupThreads(availableParallelism(), Buffer.byteLength(text)) - 1;
    const workersOf = async (args: string[], stdin: string, tag: string) => {
      const out = join(dir, `cpu-default-${tag}`);
      const r = await runCli(['dedup', '--quiet', ...args], stdin, {
        NODE_OPTIONS: `--import ${resolve(REPO_ROOT, 'dist/bench/thread-cpu.js')}`,
        DOPPEL_THREAD_CPU_OUT: out,
      });
      expect(r.code, r.stderr).toBe(0);
      return {
        stdout: r.stdout,
        workers: readdirSync(dir).filter((f) => f.startsWith(`cpu-default-${tag}-worker-`)).length,
      };
    };
    const file = await workersOf(['--input', input], '', 'file');
    expect(file.workers).toBe(expected);
    // Standard input's length is not known before it is read: one worker per core but one.
    const piped = await workersOf([], text, 'stdin');
    expect(piped.workers).toBe(availableParallelism() - 1);
    // --threads names the count: the workers start whatever the input's size.
    const named = await workersOf(['--threads', '2', '--input', input], '', 'named');
    expect(named.workers).toBe(1);
    expect(file.stdout).toBe(named.stdout);
    expect(piped.stdout).toBe(named.stdout);
  }, 120_000);

  it('gives the demo feed the same verdicts with --threads 2 as with --threads 1', async () => {
    const one = await runCli(['dedup', '--threads', '1', '--input', demo]);
    const two = await runCli(['dedup', '--threads', '2', '--input', demo]);
    expect(one.code).toBe(0);
    expect(two.code).toBe(0);
    expect(two.stdout).toBe(one.stdout);
    expect(two.stderr).toMatch(/7 messages, 3 unique, 2 duplicates, 1 near-duplicates, 1 invalid/);
  });

  it('rejects a --threads that is not a count (usage error)', async () => {
    const r = await runCli(['dedup', '--threads', 'many', '--input', demo]);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/--threads takes/);
  });
});

describe('defaultDedupThreads (no --threads, config threads 0)', () => {
  it('is one per core, but one thread in all on 2 cores for a file under the threshold', () => {
    expect(defaultDedupThreads(2, 17_000_000)).toBe(1);
    expect(defaultDedupThreads(2, 0)).toBe(1);
    expect(defaultDedupThreads(2, LONE_WORKER_MIN_INPUT_BYTES - 1)).toBe(1);
    expect(defaultDedupThreads(2, LONE_WORKER_MIN_INPUT_BYTES)).toBe(2);
    // Size unknown (standard input, a pipe): the worker starts.
    expect(defaultDedupThreads(2, null)).toBe(2);
    // Several workers split the signing: they start whatever the size.
    expect(defaultDedupThreads(3, 1000)).toBe(3);
    expect(defaultDedupThreads(8, 1000)).toBe(8);
    expect(defaultDedupThreads(1, null)).toBe(1);
  });
});

describe('SignPool (in process)', () => {
  let pool: SignPool;
  const config = resolveDedupConfig('news', {}, 'profile');
  beforeAll(async () => {
    pool = await SignPool.start({ threads: 2, config });
  });
  afterAll(async () => {
    await pool.close();
  });

  it('prepares messages exactly as the engine does on the calling thread (keys, record, title)', async () => {
    await initHashing();
    const signer = new Signer(config.signatures, LexiconSet.defaults());
    const preparer = new RequestPreparer(config);
    const lines = readFileSync(demo, 'utf8')
      .split('\n')
      .filter((l) => l.trim() !== '');
    const chunk = await pool.prepareMessages(
      lines.flatMap((l) => {
        try {
          return [parseMessageLine(l)];
        } catch {
          return [];
        }
      }),
    );
    let compared = 0;
    for (const [i, line] of lines.entries()) {
      let message: ReturnType<typeof parseMessageLine>;
      try {
        message = parseMessageLine(line);
      } catch {
        continue;
      }
      const local = preparer.indexRequest(engineMessage(await signMessage(message, signer), 1));
      const item = unpackItem(chunk, compared++);
      expect(item.ok, `line ${i}`).toBe(true);
      if (!item.ok) continue;
      // Packed on the way (one object, the chunk's arrays), the same keys in the same order.
      expect(item.request.keys).toBeInstanceOf(PackedKeys);
      expect(keyArray(item.request.keys)).toEqual(local.keys);
      // The display title (GET /v1/clusters) crosses the thread boundary too.
      expect(item.request.title).toBe(local.title);
      // The main thread gets the record in the packed form a store keeps, with every field of the local one.
      const remote = item.request.record;
      expect(remote).toEqual(storedRecord(local.record));
      for (const field of [...RECORD_FIELDS, 'sentences', 'sentenceCut'] as const)
        expect(remote[field], field).toEqual(local.record[field]);
      expect(remote.packed).toEqual(local.record.packed);
    }
    expect(compared).toBe(6);
  });

  it('split by stage, answers canonical texts that sign here exactly as messages signed here', async () => {
    await initHashing();
    const signer = new Signer(config.signatures, LexiconSet.defaults());
    const preparer = new RequestPreparer(config);
    const lines = [
      ...readFileSync(demo, 'utf8')
        .split('\n')
        .filter((l) => l.trim() !== ''),
      '{"id":"empty","text":"!!! ..."}',
      '{"id": "broken", oops',
    ];
    const chunk = await pool.canonicalRawLines(packRawLines(lines.map((l) => Buffer.from(l))));
    let signed = 0;
    for (const [i, line] of lines.entries()) {
      const item = unpackCanonicalItem(chunk, i);
      let local: Awaited<ReturnType<typeof signMessage>>;
      try {
        local = await signMessage(parseMessageLine(line), signer);
      } catch (error) {
        // Refused here, refused there: the same code, with the id salvaged from the line.
        expect(item.ok, `line ${i}`).toBe(false);
        if (!item.ok) expect(item.error.code).toBe((error as { code: string }).code);
        continue;
      }
      expect(item.ok, `line ${i}`).toBe(true);
      if (!item.ok) continue;
      expect(item.doc.canonical).toBe(local.doc.canonical);
      // Signed and prepared on this side: the request the calling thread makes of the whole message.
      const remote = preparer.indexRequest({
        id: item.id,
        signatures: signer.compute(item.doc),
        lang: item.doc.lang,
        ts: 1,
        ...item.fields,
      });
      const here = preparer.indexRequest(engineMessage(local, 1));
      expect(keyArray(remote.keys)).toEqual(keyArray(here.keys));
      expect(remote.record).toEqual(here.record);
      expect([remote.title, remote.url, remote.snippet]).toEqual([here.title, here.url, here.snippet]);
      signed++;
    }
    expect(signed).toBe(6);
    expect(unpackCanonicalItem(chunk, lines.length - 2)).toMatchObject({ ok: false, id: 'empty' });
    expect(unpackCanonicalItem(chunk, lines.length - 1)).toMatchObject({
      ok: false,
      id: 'broken',
      error: { code: 'INVALID_JSON' },
    });
  });

  it('splits by stage with exactly one worker', () => {
    expect([0, 1, 2, 3].map(splitByStage)).toEqual([false, true, false, false]);
  });

  it('answers chunks in submission order when many are in flight', async () => {
    const jobs = Array.from({ length: 12 }, (_, j) =>
      pool.prepareLines(
        Array.from({ length: 1 + ((j * 7) % 20) }, (_, k) =>
          JSON.stringify({ id: `j${j}-${k}`, text: `story ${j} ${k}` }),
        ),
      ),
    );
    const chunks = await Promise.all(jobs);
    chunks.forEach((c, j) => {
      expect(c.ids[0]).toBe(`j${j}-0`);
      expect(c.ids.length).toBe(1 + ((j * 7) % 20));
    });
  });

  it('turns bad input into input errors with a salvaged id, not failures', async () => {
    const chunk = await pool.prepareLines([
      '{"id":"x1","text":""}',
      '{"id": "x2", oops',
      '{"id":"x3","text":"fine"}',
    ]);
    const items = [0, 1, 2].map((i) => unpackItem(chunk, i));
    expect(items.map((i) => i.ok)).toEqual([false, false, true]);
    expect(items[0]).toMatchObject({ id: 'x1', bug: false, error: { code: 'MISSING_CONTENT' } });
    expect(items[1]).toMatchObject({ id: 'x2', bug: false, error: { code: 'INVALID_JSON' } });
  });
});
