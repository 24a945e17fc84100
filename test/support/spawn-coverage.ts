/**
 * Set up in each test worker when coverage is collected (vitest.config.ts): the processes a test
 * spawns with the worker's environment (the CLI, doppel serve, the consumers) write V8 coverage
 * to this directory when they exit (NODE_V8_COVERAGE), for scripts/coverage-report.mjs. Set here,
 * not in the workers' own environment: the workers are measured by vitest already.
 */
const dir = process.env.DOPPEL_SPAWN_COVERAGE_DIR;
if (dir) process.env.NODE_V8_COVERAGE = dir;
