import type { Reporter, TestModule } from 'vitest/node';

/**
 * Prints one plain closing line, "vitest: N passed, N failed, N skipped", that CI reads
 * whatever the runner. Skipped tests are listed with their names so that none is silent.
 */
export default class SummaryReporter implements Reporter {
  onTestRunEnd(testModules: ReadonlyArray<TestModule>): void {
    let passed = 0;
    let failed = 0;
    let skipped = 0;
    const skippedNames: string[] = [];
    for (const mod of testModules) {
      for (const test of mod.children.allTests()) {
        const state = test.result().state;
        if (state === 'passed') passed++;
        else if (state === 'failed') failed++;
        else {
          skipped++;
          skippedNames.push(`${mod.moduleId.replace(process.cwd() + '/', '')} > ${test.fullName}`);
        }
      }
      if (mod.state() === 'failed' && [...mod.children.allTests()].length === 0) failed++;
    }
    if (skippedNames.length > 0) {
      console.log(`\nskipped tests (${skippedNames.length}); the reason is printed above by each suite:`);
      for (const name of skippedNames.slice(0, 50)) console.log(`  - ${name}`);
    }
    console.log(`\nvitest: ${passed} passed, ${failed} failed, ${skipped} skipped`);
  }
}
