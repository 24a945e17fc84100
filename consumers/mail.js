#!/usr/bin/env node
// The mail consumer (deployable entry point). The code is TypeScript in src/kafka/ (this process:
// src/kafka/entry/mail.ts), compiled by `npm run build` to dist/; this file only starts it.
import module from 'node:module';

// V8's compiled code of the modules imported below, kept between restarts (docs/benchmarks.md,
// start-up): in the OS temp directory or NODE_COMPILE_CACHE, never in the package; off with
// NODE_DISABLE_COMPILE_CACHE=1, and quietly off where it cannot write.
module.enableCompileCache?.();
await import('../dist/kafka/entry/mail.js');
