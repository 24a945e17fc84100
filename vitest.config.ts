import { defineConfig } from 'vitest/config';

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
  },
});
