import { describe, expect, it } from 'vitest';
import { closest, editDistance } from '../../src/cli/suggest.js';
import { runCli } from '../support/cli.js';

describe('did you mean', () => {
  it('edit distance counts a swap of neighbours as one edit and stops past the limit', () => {
    expect(editDistance('stroies', 'stories', 2)).toBe(1);
    expect(editDistance('thread', 'threads', 2)).toBe(1);
    expect(editDistance('kitten', 'sitting', 5)).toBe(3);
    expect(editDistance('a', 'abcdef', 2)).toBe(3);
  });

  it('suggests the closest known name only when it is close', () => {
    const flags = ['threads', 'stories', 'store', 'input', 'output', 'quiet'];
    expect(closest('thread', flags)).toBe('threads');
    expect(closest('stroies', flags)).toBe('stories');
    expect(closest('inptu', flags)).toBe('input');
    expect(closest('zzzzzz', flags)).toBeNull();
    expect(closest('ser', ['serve', 'sign'])).toBe('serve');
  });

  it('doppel names the flag and the command the user probably meant (exit 2)', async () => {
    const flag = await runCli(['dedup', '--thread', '2']);
    expect(flag.code).toBe(2);
    expect(flag.stderr).toContain('unknown option --thread: did you mean --threads?');
    const command = await runCli(['dedpu']);
    expect(command.code).toBe(2);
    expect(command.stderr).toContain('unknown command "dedpu" (did you mean "doppel dedup"?)');
    const far = await runCli(['sign', '--zzzzzz']);
    expect(far.code).toBe(2);
    expect(far.stderr).toContain('unknown option --zzzzzz');
    expect(far.stderr).not.toContain('did you mean');
  });
});

describe('help pages', () => {
  it('every command prints usage with examples that name the command itself', async () => {
    for (const command of ['dedup', 'sign', 'serve', 'eval', 'explain', 'generate', 'lexicon']) {
      const help = await runCli([command, '--help']);
      expect(help.code, command).toBe(0);
      const examples = help.stdout.split('\nexamples:\n')[1] ?? '';
      const lines = examples.split('\n').filter((l) => l.trim() !== '');
      expect(lines.length, `${command} --help has examples`).toBeGreaterThanOrEqual(2);
      expect(lines[0]?.trim().startsWith(`doppel ${command}`), `${command}: ${lines[0]}`).toBe(true);
    }
  });
});
