import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { inCI, skipAllowed } from './allowed-skips.js';

/**
 * What CI (`CI=true`, exported by .ci/run) refuses: a skipped test not on the allowed list
 * (test/support/allowed-skips.ts) and a missing golden file (written, not compared, outside CI).
 * Runs vitest on the small fixture project test/fixtures/ci-guard with the main suite's reporter.
 */
const ROOT = resolve(import.meta.dirname, '../..');
const VITEST = resolve(ROOT, 'node_modules/vitest/vitest.mjs');
const CONFIG = 'test/fixtures/ci-guard/vitest.config.ts';
const dir = mkdtempSync(join(tmpdir(), 'doppel-ci-guard-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function vitest(filter: string, env: Record<string, string | undefined>) {
  const childEnv: NodeJS.ProcessEnv = { ...process.env, ...env };
  for (const [k, v] of Object.entries(env)) if (v === undefined) delete childEnv[k];
  // The vitest worker marks its environment; the fixture run must start clean.
  delete childEnv.VITEST;
  delete childEnv.VITEST_POOL_ID;
  delete childEnv.VITEST_WORKER_ID;
  delete childEnv.VITEST_MODE;
  delete childEnv.TEST;
  delete childEnv.NODE_ENV;
  const run = spawnSync(process.execPath, [VITEST, 'run', '--config', CONFIG, filter], {
    cwd: ROOT,
    env: childEnv,
    encoding: 'utf8',
    timeout: 60_000,
  });
  return { code: run.status, output: `${run.stdout}${run.stderr}` };
}

describe('CI refuses silent skips and missing golden files', () => {
  it('reads CI as vitest does', () => {
    expect(inCI({ CI: 'true' })).toBe(true);
    expect(inCI({ CI: '1' })).toBe(true);
    expect(inCI({ CI: 'false' })).toBe(false);
    expect(inCI({})).toBe(false);
    expect(skipAllowed('test/a.test.ts', 'x > y', [{ file: 'test/a.test.ts', reason: 'r' }])).toBe(true);
    expect(skipAllowed('test/a.test.ts', 'x > y', [{ file: 'test/a.test.ts', test: 'z', reason: 'r' }])).toBe(
      false,
    );
    expect(skipAllowed('test/b.test.ts', 'x > y')).toBe(false);
  });

  it('a skipped test passes outside CI and fails the run in CI, named', () => {
    const local = vitest('skipped', { CI: undefined });
    expect(local.code, local.output).toBe(0);
    expect(local.output).toContain('vitest: 1 passed, 0 failed, 1 skipped');
    const ci = vitest('skipped', { CI: 'true' });
    expect(ci.code, ci.output).toBe(1);
    expect(ci.output).toContain('not on the allowed list');
    expect(ci.output).toContain('skips: its prerequisite is missing');
  }, 90_000);

  it('a missing golden file fails in CI and is not written; outside CI it is written', () => {
    const golden = join(dir, 'golden.txt');
    const ci = vitest('snapshot', { CI: 'true', DOPPEL_GUARD_SNAPSHOT: golden });
    expect(ci.code, ci.output).toBe(1);
    expect(existsSync(golden)).toBe(false);
    const local = vitest('snapshot', { CI: undefined, DOPPEL_GUARD_SNAPSHOT: golden });
    expect(local.code, local.output).toBe(0);
    expect(existsSync(golden)).toBe(true);
    // A golden file that differs fails everywhere.
    writeFileSync(golden, 'another line\n');
    expect(vitest('snapshot', { CI: undefined, DOPPEL_GUARD_SNAPSHOT: golden }).code).toBe(1);
  }, 120_000);
});
