import { defineConfig } from 'vitest/config';

/**
 * The fault suite (test/faults/README.md): hostile-input fuzzing of `doppel dedup`, `doppel sign`
 * and `doppel serve`, linear-time checks on 4 MiB lines, and Kafka / Redis chaos. Run with
 * `npm run test:faults` (builds first); `npm test` does not run it (vitest.config.ts excludes it).
 * The suites start their own redis-server and Kafka broker (they restart them), so there is no
 * global setup; files run one at a time because the timing checks must not share the 2 cores.
 */
export default defineConfig({
  test: {
    include: ['test/faults/**/*.test.ts'],
    reporters: ['default', './test/support/summary-reporter.ts'],
    testTimeout: 120_000,
    hookTimeout: 240_000,
    pool: 'forks',
    fileParallelism: false,
  },
});
