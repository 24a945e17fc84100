import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from '../support/cli.js';
import {
  buildInput,
  type ExpectedLine,
  type HostileCase,
  INPUT_ERROR_CODES,
  sampleCases,
} from './support/hostile.js';
import { faultSeed } from './support/seed.js';

/**
 * `doppel sign` and `doppel dedup` on files of generated hostile lines (test/faults/support/hostile.ts):
 * random bytes, JSON that is not a message, messages with hostile fields, truncated JSON, deep
 * nesting, tag soup, broken MIME, every supported charset, an over-limit line. Whatever comes in:
 * exit 0, exactly one output line per non-empty input line and in input order, every invalid line
 * with an input error code (never INTERNAL), every valid line with its id.
 */

const CASES = Number(process.env.DOPPEL_FAULTS_CASES ?? 1200);
const SEED = faultSeed('cli fuzz', 20_261_212);

let dir: string;
beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'doppel-faults-cli-'));
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** Lines no generator makes on purpose: the size limit, blank lines, line-end variants. */
function fixedCases(prefix: string): HostileCase[] {
  const line = (s: string) => Buffer.from(s, 'utf8');
  const big = 'слово '.repeat(400_000); // 4.4 MB of UTF-8: over the 4 MiB line limit
  return [
    {
      kind: 'too-large',
      line: line(JSON.stringify({ id: `${prefix}-big`, text: big })),
      codes: ['TOO_LARGE'],
      mustFail: true,
    },
    {
      kind: 'large-valid',
      line: line(JSON.stringify({ id: `${prefix}-1mb`, text: 'word '.repeat(200_000) })),
    },
    { kind: 'blank', line: line('') },
    { kind: 'spaces', line: line(' \t  ') },
    {
      kind: 'crlf',
      line: line(`${JSON.stringify({ id: `${prefix}-crlf`, text: 'carriage return line' })}\r`),
    },
    // A lone CR is not a line end: one line, one answer.
    { kind: 'lone-cr', line: line(`{"id":"${prefix}-cr",\r"text":"one line\\rstill"}`) },
    {
      kind: 'bom',
      line: Buffer.concat([
        Buffer.from([0xef, 0xbb, 0xbf]),
        line(JSON.stringify({ id: `${prefix}-bom`, text: 'x' })),
      ]),
    },
    { kind: 'nul', line: Buffer.from([0x00, 0x00, 0x00]), codes: ['INVALID_JSON'], mustFail: true },
    { kind: 'lone-surrogate', line: line(`{"id":"${prefix}-sur","text":"\\ud800 text \\udfff"}`) },
  ];
}

interface OutputRecord {
  id: string | null;
  line?: number;
  verdict?: string;
  error?: { code: string; message: string };
  exact?: string;
  clusterId?: string | null;
}

function parseOutput(stdout: string): OutputRecord[] {
  const lines = stdout.split('\n');
  expect(lines.pop(), 'output ends with a newline').toBe('');
  return lines.map((l, i) => {
    try {
      return JSON.parse(l) as OutputRecord;
    } catch {
      throw new Error(`output line ${i + 1} is not JSON: ${l.slice(0, 200)}`);
    }
  });
}

function checkOutput(
  command: 'sign' | 'dedup',
  records: OutputRecord[],
  expected: ExpectedLine[],
): Map<string, { valid: number; invalid: number }> {
  expect(records.length, 'one output line per non-empty input line').toBe(expected.length);
  const byKind = new Map<string, { valid: number; invalid: number }>();
  for (let i = 0; i < expected.length; i++) {
    const want = expected[i]!;
    const got = records[i]!;
    const where = `${command} output ${i + 1} (input line ${want.line}, ${want.source.kind})`;
    const invalid = command === 'sign' ? got.error !== undefined : got.verdict === 'invalid';
    const tally = byKind.get(want.source.kind) ?? { valid: 0, invalid: 0 };
    byKind.set(want.source.kind, tally);
    if (invalid) {
      tally.invalid++;
      // In order: an error record names its input line.
      expect(got.line, where).toBe(want.line);
      expect(typeof got.error?.message, where).toBe('string');
      expect(INPUT_ERROR_CODES as readonly string[], `${where}: ${JSON.stringify(got.error)}`).toContain(
        got.error?.code,
      );
      if (want.source.codes)
        expect(want.source.codes, `${where}: ${JSON.stringify(got.error)}`).toContain(got.error?.code);
    } else {
      tally.valid++;
      expect(
        want.source.mustFail,
        `${where} should be invalid: ${JSON.stringify(got).slice(0, 300)}`,
      ).not.toBe(true);
      // In order: a valid record carries the id of its input line.
      expect(got.id, where).toBe(want.id);
      if (command === 'sign') expect(got.exact, where).toMatch(/^[0-9a-f]{16}$/);
      else {
        expect(['unique', 'duplicate', 'near_duplicate'], where).toContain(got.verdict);
        expect(typeof got.clusterId, where).toBe('string');
      }
    }
  }
  return byKind;
}

function report(label: string, byKind: Map<string, { valid: number; invalid: number }>, ms: number): void {
  const kinds = [...byKind]
    .sort(([a], [b]) => a.localeCompare(b))
    .map(([k, t]) => `${k} ${t.valid}/${t.invalid}`)
    .join(', ');
  process.stdout.write(
    `[faults] ${label} in ${(ms / 1000).toFixed(1)} s; valid/invalid per kind: ${kinds}\n`,
  );
}

describe.each([
  ['sign', SEED],
  ['dedup', SEED],
  ['dedup', SEED + 1_000_003],
] as const)('doppel %s on hostile input (seed %i)', (command, seed) => {
  it(`answers each of ${CASES} generated lines once, in order, with a code for every bad one, exit 0`, async () => {
    const cases = [...sampleCases(seed, CASES), ...fixedCases(`f${seed}`)];
    const { data, expected } = buildInput(cases);
    const input = join(dir, `${command}-${seed}.jsonl`);
    writeFileSync(input, data);
    const started = performance.now();
    const result = await runCli([command, '--input', input, ...(command === 'dedup' ? ['--quiet'] : [])]);
    const ms = performance.now() - started;
    expect(result.code, result.stderr.slice(-3000)).toBe(0);
    const byKind = checkOutput(command, parseOutput(result.stdout), expected);
    report(
      `doppel ${command}, seed ${seed}, ${expected.length} lines (${(data.length / 1048576).toFixed(1)} MB)`,
      byKind,
      ms,
    );
  }, 300_000);
});
