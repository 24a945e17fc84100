import { resolve } from 'node:path';
import { defineConfig } from 'vitest/config';
import { inCI } from './test/support/allowed-skips.js';

/**
 * Coverage (`npm run test:coverage`, and `npm test` in CI): the v8 provider measures src/ in the
 * test workers; the processes the tests spawn (CLI, doppel serve, Kafka consumers: dist/) write
 * V8 coverage to coverage/spawned through NODE_V8_COVERAGE, which test/support/spawn-coverage.ts
 * sets in each worker for its children. scripts/coverage-report.mjs merges both and prints the
 * summary.
 */
const coverage = inCI() || process.env.DOPPEL_COVERAGE === '1';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    // test/faults runs on its own: `npm run test:faults` (vitest.faults.config.ts).
    exclude: ['test/heavy/**', 'test/faults/**', 'node_modules/**'],
    reporters: ['default', './test/support/summary-reporter.ts'],
    testTimeout: 30_000,
    hookTimeout: 120_000,
    pool: 'forks',
    globalSetup: ['./test/support/global-redis.ts', './test/support/global-kafka.ts'],
    env: coverage ? { DOPPEL_SPAWN_COVERAGE_DIR: resolve(import.meta.dirname, 'coverage/spawned') } : {},
    setupFiles: coverage ? ['./test/support/spawn-coverage.ts'] : [],
    coverage: {
      enabled: coverage,
      provider: 'v8',
      include: ['src/**/*.ts'],
      // Not shipped: benchmarks, the local server launchers, declarations.
      exclude: ['src/bench/**', 'src/dev/**', 'src/types/**'],
      reporter: ['text-summary', 'json'],
      reportsDirectory: 'coverage',
    },
  },
});
