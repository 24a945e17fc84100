/**
 * Tests that may skip in CI (`CI=true`, which .ci/run exports). Any other skipped test fails the
 * run there (test/support/summary-reporter.ts): a suite that cannot run in CI must be listed here
 * with the reason, and test/README.md says why the list is what it is.
 *
 * Empty: CI has everything every suite needs (redis-server, a JDK with Maven and the Kafka jars,
 * Chromium, helm and kubeconform, the compiled dist/, and the evaluation corpus, DOPPEL_SHARED_DATA).
 */
export interface AllowedSkip {
  /** The test file, relative to the repository root (test/...). */
  file: string;
  /** Test names (full names, " > " between levels) that start with this; all of the file's when absent. */
  test?: string;
  reason: string;
}

export const ALLOWED_SKIPS_IN_CI: readonly AllowedSkip[] = [];

/** CI as vitest reads it (std-env): CI set to anything but "false" or "0". */
export function inCI(env: NodeJS.ProcessEnv = process.env): boolean {
  const ci = env.CI;
  return ci !== undefined && ci !== '' && ci !== 'false' && ci !== '0';
}

export function skipAllowed(
  file: string,
  fullName: string,
  allowed: readonly AllowedSkip[] = ALLOWED_SKIPS_IN_CI,
): boolean {
  return allowed.some((a) => a.file === file && (a.test === undefined || fullName.startsWith(a.test)));
}
