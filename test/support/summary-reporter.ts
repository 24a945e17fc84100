import type { Reporter, TestModule } from 'vitest/node';
import { inCI, skipAllowed } from './allowed-skips.js';

/**
 * Prints one plain closing line, "vitest: N passed, N failed, N skipped", that CI reads
 * whatever the runner. Skipped tests are listed with their names so that none is silent. In CI
 * (`CI=true`) a skipped test that test/support/allowed-skips.ts does not list fails the run: a
 * suite that cannot run there (no Chromium, no evaluation corpus) must not pass as green.
 */
export default class SummaryReporter implements Reporter {
  onTestRunEnd(testModules: ReadonlyArray<TestModule>): void {
    let passed = 0;
    let failed = 0;
    let skipped = 0;
    const skippedNames: string[] = [];
    const refused: string[] = [];
    for (const mod of testModules) {
      const file = mod.moduleId.replace(`${process.cwd()}/`, '');
      for (const test of mod.children.allTests()) {
        const state = test.result().state;
        if (state === 'passed') passed++;
        else if (state === 'failed') failed++;
        else {
          skipped++;
          skippedNames.push(`${file} > ${test.fullName}`);
          if (!skipAllowed(file, test.fullName)) refused.push(`${file} > ${test.fullName}`);
        }
      }
      if (mod.state() === 'failed' && [...mod.children.allTests()].length === 0) failed++;
    }
    if (skippedNames.length > 0) {
      console.log(`\nskipped tests (${skippedNames.length}); the reason is printed above by each suite:`);
      for (const name of skippedNames.slice(0, 50)) console.log(`  - ${name}`);
    }
    console.log(`\nvitest: ${passed} passed, ${failed} failed, ${skipped} skipped`);
    if (inCI() && refused.length > 0) {
      console.log(
        `\nCI: ${refused.length} skipped tests are not on the allowed list (test/support/allowed-skips.ts); failing the run:`,
      );
      for (const name of refused.slice(0, 50)) console.log(`  - ${name}`);
      process.exitCode = 1;
    }
  }
}
