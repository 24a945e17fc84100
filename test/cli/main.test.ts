import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { REPO_ROOT, runCli } from '../support/cli.js';

/** The doppel command as a user meets it: version, exit codes, what a failure prints. */
const dir = mkdtempSync(join(tmpdir(), 'doppel-cli-main-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const demo = resolve(REPO_ROOT, 'demo/feed.jsonl');
const missing = join(dir, 'no-such-file.jsonl');

describe('doppel --version', () => {
  it('prints the package version for --version and -V', async () => {
    const { version } = JSON.parse(readFileSync(resolve(REPO_ROOT, 'package.json'), 'utf8')) as {
      version: string;
    };
    for (const flag of ['--version', '-V']) {
      const result = await runCli([flag]);
      expect(result.code, flag).toBe(0);
      expect(result.stdout, flag).toBe(`${version}\n`);
      expect(result.stderr, flag).toBe('');
    }
  });
});

describe('usage errors exit 2 with the usage on stderr, in every command', () => {
  // [argv, the usage line that must follow the error]
  const cases: Array<[string[], string]> = [
    [[], 'usage: doppel <command>'],
    [['frobnicate'], 'usage: doppel <command>'],
    [['dedup', '--bogus'], 'usage: doppel dedup'],
    [['dedup', '--profile', 'sms', '--input', demo], 'usage: doppel dedup'],
    [['dedup', demo], 'usage: doppel dedup'],
    [['dedup', '--input'], 'usage: doppel dedup'],
    [['dedup', '--store', 'foo://x', '--input', demo], 'usage: doppel dedup'],
    [['dedup', '--lexicon', 'xx=file.json', '--input', demo], 'usage: doppel dedup'],
    [['sign', '--bogus'], 'usage: doppel sign'],
    [['sign', demo], 'usage: doppel sign'],
    [['sign', '--lexicon', 'ru'], 'usage: doppel sign'],
    [['eval', '--bogus'], 'usage: doppel eval'],
    [['eval'], 'usage: doppel eval'],
    [['eval', '--profile', 'sms', '--input', demo], 'usage: doppel eval'],
    [['explain', '--bogus', 'a', 'b'], 'usage: doppel explain'],
    [['explain', 'a.json'], 'usage: doppel explain'],
    [['explain', '--profile', 'sms', 'a.json', 'b.json'], 'usage: doppel explain'],
    [['generate', '--seed', 'x', demo], 'usage: doppel generate'],
    [['generate', '--bogus', demo], 'usage: doppel generate'],
    [['generate'], 'usage: doppel generate'],
    [['serve', '--bogus'], 'usage: doppel serve'],
    [['serve', '--profile', 'sms'], 'usage: doppel serve'],
    [['serve', '--port', 'abc'], 'usage: doppel serve'],
    [['serve', 'extra'], 'usage: doppel serve'],
    [['lexicon', 'build', '--bogus'], 'usage: doppel lexicon'],
    [['lexicon', 'import-frequencies', '--lang', 'ru'], 'usage: doppel lexicon'],
  ];

  it.each(cases)('doppel %j', async (argv, usage) => {
    const result = await runCli(argv);
    expect(result.code).toBe(2);
    expect(result.stderr).toContain(usage);
    // The reason comes first, on the first line, and nothing goes to standard output.
    expect(result.stderr.split('\n')[0]).toMatch(/^doppel/);
    expect(result.stdout).toBe('');
  });

  it('a bad profile in a config file is a failed run (1), not a usage error', async () => {
    const config = join(dir, 'sms.json');
    writeFileSync(config, JSON.stringify({ profile: 'sms' }));
    const result = await runCli(['dedup', '--config', config, '--input', demo]);
    expect(result.code).toBe(1);
    expect(result.stderr).toContain('unknown profile "sms"');
    expect(result.stderr).not.toContain('usage:');
  });
});

describe('a missing input file', () => {
  it.each([['dedup'], ['sign'], ['eval']])('doppel %s prints only the error and exits 1', async (command) => {
    const output = join(dir, `${command}-out.jsonl`);
    const result = await runCli(
      [command, '--input', missing, '--output', output].slice(0, command === 'eval' ? 3 : 5),
    );
    expect(result.code).toBe(1);
    expect(result.stderr).toBe(
      `doppel ${command}: IO: cannot read ${missing}: ENOENT: no such file or directory, ${command === 'sign' ? 'open' : 'stat'} '${missing}'\n`,
    );
    expect(result.stdout).toBe('');
    if (command === 'dedup') expect(existsSync(output)).toBe(false);
  });

  it('a directory as input is an error too, not an empty run', async () => {
    const result = await runCli(['dedup', '--input', dir]);
    expect(result.code).toBe(1);
    expect(result.stderr).toBe(`doppel dedup: IO: cannot read ${dir}: not a file or a pipe\n`);
  });

  it('a device is read like a file: --input /dev/null is an empty run', async () => {
    const result = await runCli(['dedup', '--threads', '2', '--input', '/dev/null']);
    expect(result.code).toBe(0);
    expect(result.stdout).toBe('');
    expect(result.stderr).toContain('doppel dedup: 0 messages,');
  });
});
