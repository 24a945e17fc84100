#!/usr/bin/env node
// Line and branch coverage of src/ over the test run, the processes the tests spawn included.
//
// `vitest run --coverage` (the v8 provider, vitest.config.ts) measures the code that runs inside
// the test workers and writes coverage/coverage-final.json. The CLI, `doppel serve` and the Kafka
// consumer processes the tests start run dist/ in processes of their own; the config gives them
// NODE_V8_COVERAGE=coverage/spawned, so each writes V8's raw coverage when it exits (a process
// killed with SIGKILL writes none). This script maps those dist/*.js ranges back to src/*.ts
// through the build's source maps (ast-v8-to-istanbul, the converter the v8 provider uses; it,
// @bcoe/v8-coverage and istanbul-lib-coverage come with @vitest/coverage-v8),
// merges both, prints the summary and the modules under 50% of lines, and writes
// coverage/merged/coverage-summary.json. Without coverage/coverage-final.json it does nothing.
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import v8Coverage from '@bcoe/v8-coverage';
import convert from 'ast-v8-to-istanbul';
import libCoverage from 'istanbul-lib-coverage';
import { parseAst } from 'rollup/parseAst';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const COVERAGE = join(ROOT, 'coverage');
const FINAL = join(COVERAGE, 'coverage-final.json');
const SPAWNED = join(COVERAGE, 'spawned');
const DIST = `${pathToFileURL(join(ROOT, 'dist')).href}/`;
/** Not shipped, not measured: benchmarks, local server launchers, declarations. */
const SKIP = /^dist\/(bench|dev|types)\//;
/** A module under this share of its lines is listed. */
const LOW = 0.5;

// `npm test` calls this with --when-collected: only CI (or DOPPEL_COVERAGE=1) collects coverage
// there, and an older run's files must not be reported as this one's.
const ci = !['', 'false', '0', undefined].includes(process.env.CI);
if (process.argv.includes('--when-collected') && !ci && process.env.DOPPEL_COVERAGE !== '1') process.exit(0);
if (!existsSync(FINAL)) {
  console.log('coverage: no coverage/coverage-final.json (run vitest with --coverage)');
  process.exit(0);
}
const map = libCoverage.createCoverageMap(JSON.parse(readFileSync(FINAL, 'utf8')));
const inWorkers = summarize(map);

// Raw V8 dumps: one file per spawned process, each with every script it ran. The same dist
// file is in many of them: their counts are merged first (@bcoe/v8-coverage, as c8 does), then
// each file is converted once.
const dumps = existsSync(SPAWNED) ? readdirSync(SPAWNED).filter((f) => f.endsWith('.json')) : [];
const byFile = new Map();
let processes = 0;
for (const name of dumps) {
  let dump;
  try {
    dump = JSON.parse(readFileSync(join(SPAWNED, name), 'utf8'));
  } catch {
    continue; // a process that died while writing
  }
  let ours = false;
  for (const script of dump.result ?? []) {
    if (!script.url.startsWith(DIST) || !script.url.endsWith('.js')) continue;
    const file = fileURLToPath(script.url);
    if (SKIP.test(relative(ROOT, file)) || !existsSync(`${file}.map`)) continue;
    ours = true;
    byFile.set(file, [...(byFile.get(file) ?? []), { result: [script] }]);
  }
  if (ours) processes++;
}
for (const [file, covs] of byFile) {
  const [script] = v8Coverage.mergeProcessCovs(covs).result;
  const code = readFileSync(file, 'utf8');
  const sourceMap = JSON.parse(readFileSync(`${file}.map`, 'utf8'));
  sourceMap.sources = sourceMap.sources.map((s) => resolve(dirname(file), sourceMap.sourceRoot ?? '', s));
  sourceMap.sourceRoot = undefined;
  map.merge(
    await convert({
      code,
      ast: parseAst(code),
      sourceMap,
      coverage: { url: script.url, functions: script.functions },
    }),
  );
}

const total = summarize(map);
const pct = (s) => `${((100 * s.lines.covered) / Math.max(1, s.lines.total)).toFixed(1)}%`;
console.log(
  `\ncoverage of src/: lines ${pct(total)} (${total.lines.covered}/${total.lines.total}), branches ${(
    (100 * total.branches.covered) / Math.max(1, total.branches.total)
  ).toFixed(
    1,
  )}%, functions ${((100 * total.functions.covered) / Math.max(1, total.functions.total)).toFixed(1)}%` +
    ` - test workers alone: lines ${pct(inWorkers)}; with ${processes} spawned processes (CLI, serve, consumers)`,
);
const low = [];
for (const file of map.files().sort()) {
  const s = map.fileCoverageFor(file).toSummary();
  if (s.lines.total > 0 && s.lines.covered / s.lines.total < LOW)
    low.push(`  ${relative(ROOT, file)}: ${s.lines.pct}% of ${s.lines.total} lines`);
}
console.log(`modules under ${LOW * 100}% of lines (${low.length}; test/README.md says why):`);
for (const line of low) console.log(line);
mkdirSync(join(COVERAGE, 'merged'), { recursive: true });
const perFile = Object.fromEntries(
  map.files().map((f) => [relative(ROOT, f), map.fileCoverageFor(f).toSummary().toJSON()]),
);
writeFileSync(
  join(COVERAGE, 'merged', 'coverage-summary.json'),
  `${JSON.stringify({ total: total.toJSON(), files: perFile }, null, 1)}\n`,
);

function summarize(coverageMap) {
  const summary = libCoverage.createCoverageSummary();
  for (const file of coverageMap.files()) summary.merge(coverageMap.fileCoverageFor(file).toSummary());
  return summary;
}
