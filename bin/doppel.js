#!/usr/bin/env node
import module from 'node:module';

// V8's compiled code of the modules imported below, kept between runs: about a tenth of the
// start-up CPU (docs/benchmarks.md). Node.js keeps it in the OS temp directory (or in
// NODE_COMPILE_CACHE; NODE_DISABLE_COMPILE_CACHE=1 turns it off), never in the package, and goes
// on without it where it cannot write there.
module.enableCompileCache?.();
const { main } = await import('../dist/cli/main.js');

main(process.argv.slice(2)).then(
  (code) => {
    process.exitCode = code;
  },
  (error) => {
    console.error(error);
    process.exitCode = 1;
  },
);
