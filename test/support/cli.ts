import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { resolve } from 'node:path';

export const REPO_ROOT = resolve(import.meta.dirname, '../..');
export const DOPPEL_BIN = resolve(REPO_ROOT, 'bin/doppel.js');

export interface CliResult {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** Runs the built CLI (`npm test` builds dist/ first) with `input` on standard input. */
export function runCli(args: string[], input = '', env: NodeJS.ProcessEnv = {}): Promise<CliResult> {
  if (!existsSync(resolve(REPO_ROOT, 'dist/cli/main.js'))) {
    throw new Error('dist/ is missing: run `npm run build` (npm test does it first)');
  }
  return runNodeScript(DOPPEL_BIN, args, input, env);
}

/** Runs a Node script (a path from the repository root or absolute) with `input` on standard input. */
export function runNodeScript(
  script: string,
  args: string[],
  input = '',
  env: NodeJS.ProcessEnv = {},
): Promise<CliResult> {
  return new Promise((resolvePromise, reject) => {
    const child = spawn(process.execPath, [resolve(REPO_ROOT, script), ...args], {
      env: { ...process.env, ...env },
      cwd: REPO_ROOT,
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
    child.on('close', (code) => resolvePromise({ code, stdout, stderr }));
    child.stdin.end(input);
  });
}

export function jsonLines(text: string): Record<string, unknown>[] {
  return text
    .split('\n')
    .filter((l) => l.trim() !== '')
    .map((l) => JSON.parse(l) as Record<string, unknown>);
}

/** A repeated id across batches: id `a`, 300 fillers (past the default batch of 256), then `a` twice more. */
export function repeatAcrossBatches(): string {
  const lines = [{ id: 'a', text: 'first story' }];
  for (let i = 0; i < 300; i++) lines.push({ id: `f${i}`, text: `filler story ${i}` });
  lines.push({ id: 'a', text: 'again' }, { id: 'a', text: 'again' });
  return `${lines.map((l) => JSON.stringify(l)).join('\n')}\n`;
}
