import { spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { DOPPEL_BIN, jsonLines, REPO_ROOT, runCli } from '../support/cli.js';

/** Field values and streams a hostile or unusual user hands `doppel` on the command line. */
const dir = mkdtempSync(join(tmpdir(), 'doppel-cli-hostile-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const FEED = [
  '{"id":"a","text":"one two three"}',
  '{"id":"p","lang":"constructor","text":"hello world"}',
  '{"id":"q","lang":"__proto__","text":"a different story altogether"}',
  '{"id":"r","lang":"constructor-RU","text":"привет всем кто читает"}',
  '{"id":"s","lang":"TOSTRING","text":"yet another line of words"}',
].join('\n');

describe('hostile field values through doppel dedup', () => {
  it('lang "constructor" is und, not fatal: every line gets its verdict, exit 0', async () => {
    const result = await runCli(['dedup', '--threads', '1'], `${FEED}\n`);
    expect(result.code, result.stderr).toBe(0);
    const records = jsonLines(result.stdout);
    expect(records.map((r) => [r.id, r.verdict])).toEqual([
      ['a', 'unique'],
      ['p', 'unique'],
      ['q', 'unique'],
      ['r', 'unique'],
      ['s', 'unique'],
    ]);
  });

  it('doppel sign names the language "und" for an Object.prototype tag, the letters\' one for a subtag', async () => {
    const result = await runCli(['sign'], `${FEED}\n`);
    expect(result.code, result.stderr).toBe(0);
    expect(jsonLines(result.stdout).map((r) => r.lang)).toEqual(['en', 'en', 'en', 'ru', 'en']);
  });

  it('doppel constructor is an unknown command (exit 2), not a TypeError', async () => {
    for (const name of ['constructor', '__proto__', 'toString']) {
      const result = await runCli([name]);
      expect(result.code, name).toBe(2);
      expect(result.stderr, name).toContain(`unknown command "${name}"`);
      expect(result.stderr, name).not.toContain('TypeError');
    }
  });

  it('numeric ids above 2^53 are refused, not merged into one', async () => {
    const input = [
      '{"id":12345678901234567890,"text":"the first story about one thing"}',
      '{"id":12345678901234567891,"text":"another story about something else"}',
      '{"id":1e400,"text":"x y z"}',
    ].join('\n');
    const result = await runCli(['dedup', '--threads', '1'], `${input}\n`);
    expect(result.code, result.stderr).toBe(0);
    const records = jsonLines(result.stdout);
    expect(records.map((r) => [r.id, r.verdict, (r.error as { code: string }).code])).toEqual([
      ['12345678901234567890', 'invalid', 'INVALID_MESSAGE'],
      ['12345678901234567891', 'invalid', 'INVALID_MESSAGE'],
      ['1e400', 'invalid', 'INVALID_MESSAGE'],
    ]);
  });
});

describe('streams', () => {
  const many = Array.from({ length: 20_000 }, (_, i) =>
    JSON.stringify({ id: `m${i}`, text: `story number ${i} about things` }),
  ).join('\n');

  it('doppel dedup | head -1 ends quietly with exit 0 on EPIPE', async () => {
    const file = join(dir, 'many.jsonl');
    writeFileSync(file, `${many}\n`);
    for (const args of [
      ['dedup', '--input', file, '--threads', '1'],
      ['sign', '--input', file],
    ]) {
      // The reader takes one line and closes the pipe, as head -1 does.
      const child = spawn(process.execPath, [DOPPEL_BIN, ...args], { cwd: REPO_ROOT });
      let stderr = '';
      child.stderr.setEncoding('utf8').on('data', (d: string) => {
        stderr += d;
      });
      await new Promise<void>((resolve) => {
        child.stdout.once('data', () => {
          child.stdout.destroy();
          resolve();
        });
      });
      const code = await new Promise<number | null>((resolve) => child.once('close', resolve));
      expect(code, `${args[0]}: ${stderr}`).toBe(0);
      expect(stderr, args[0]).not.toMatch(/EPIPE|Error|stopped after/);
    }
  });

  it('--input takes a named pipe (FIFO)', async () => {
    const fifo = join(dir, 'feed.fifo');
    expect(spawnSync('mkfifo', [fifo]).status).toBe(0);
    const writer = spawn('sh', ['-c', `cat > '${fifo}'`]);
    writer.stdin.end(`${FEED}\n`);
    const result = await runCli(['dedup', '--input', fifo, '--threads', '1']);
    expect(result.code, result.stderr).toBe(0);
    expect(jsonLines(result.stdout)).toHaveLength(5);
  });

  it('--input takes process substitution (a /dev/fd path)', () => {
    const file = join(dir, 'feed.jsonl');
    writeFileSync(file, `${FEED}\n`);
    const result = spawnSync(
      'bash',
      ['-c', `"${process.execPath}" "${DOPPEL_BIN}" dedup --threads 1 --input <(cat '${file}')`],
      { cwd: REPO_ROOT, encoding: 'utf8' },
    );
    expect(result.status, result.stderr).toBe(0);
    expect(jsonLines(result.stdout)).toHaveLength(5);
  });
});
