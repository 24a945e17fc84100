#!/usr/bin/env node
import { readFileSync } from 'node:fs';
import { isDoppelError } from '../errors.js';
import { isOutputClosed } from './jsonl.js';
import { closest } from './suggest.js';

const USAGE = `doppel: near-duplicate detection for message feeds

usage: doppel <command> [options]
       doppel --version

commands:
  dedup      a verdict per message (unique, duplicate, near_duplicate, invalid) and story clusters
  explain    why two messages are (or are not) duplicates: canonical texts, signatures, every similarity
  eval       precision, recall, ARI, HFM of the engine and of single-method baselines on labelled data
  generate   the seeded near-duplicate benchmark generator (labelled variants of real texts)
  sign       signatures for each JSON Lines message (exact, SimHash, I-Match, MinHash)
  lexicon    build or inspect I-Match / idf lexicons
  serve      the HTTP check API (/v1/check, /v1/messages, /v1/clusters) with /healthz, /readyz, /metrics

Run "doppel <command> --help" for a command's options.
Exit codes: 0 done, 1 failed (input, files, store), 2 usage error (flags, arguments).`;

interface Command {
  run: (argv: string[]) => Promise<number>;
  /** Printed after a usage error; lexicon prints its own. */
  usage?: string;
}

// Each command's module is imported when that command runs: `doppel dedup` on the memory store
// does not load the HTTP server, OpenTelemetry, the generator or the lexicon builder (start-up
// is CPU that every CLI run, test and consumer restart pays; docs/benchmarks.md).
// A Map: the command name is user input, and an object would find "constructor" on its prototype.
const COMMANDS: ReadonlyMap<string, () => Promise<Command>> = new Map<string, () => Promise<Command>>([
  [
    'dedup',
    async () => {
      const m = await import('./dedup.js');
      return { run: m.dedupCommand, usage: m.DEDUP_USAGE };
    },
  ],
  [
    'eval',
    async () => {
      const m = await import('./eval.js');
      return { run: m.evalCommand, usage: m.EVAL_USAGE };
    },
  ],
  [
    'explain',
    async () => {
      const m = await import('./explain.js');
      return { run: m.explainCommand, usage: m.EXPLAIN_USAGE };
    },
  ],
  [
    'generate',
    async () => {
      const m = await import('./generate.js');
      return { run: m.generateCommand, usage: m.GENERATE_USAGE };
    },
  ],
  [
    'sign',
    async () => {
      const m = await import('./sign.js');
      return { run: m.signCommand, usage: m.SIGN_USAGE };
    },
  ],
  [
    'lexicon',
    async () => {
      const m = await import('./lexicon.js');
      return { run: (argv) => m.lexiconCommand(argv) };
    },
  ],
  [
    'serve',
    async () => {
      const m = await import('./serve.js');
      return { run: (argv) => m.serveCommand(argv), usage: m.SERVE_USAGE };
    },
  ],
]);

/** The version of the installed package (package.json sits two levels above src/cli and dist/cli). */
export function packageVersion(): string {
  const pkg = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as {
    version: string;
  };
  return pkg.version;
}

export async function main(argv: string[]): Promise<number> {
  const [name, ...rest] = argv;
  if (name === '--help' || name === '-h' || name === 'help') {
    process.stdout.write(`${USAGE}\n`);
    return 0;
  }
  if (name === '--version' || name === '-V') {
    process.stdout.write(`${packageVersion()}\n`);
    return 0;
  }
  if (!name) {
    process.stderr.write(`${USAGE}\n`);
    return 2;
  }
  const load = COMMANDS.get(name);
  if (!load) {
    const guess = closest(name, [...COMMANDS.keys()]);
    process.stderr.write(
      `doppel: unknown command "${name}"${guess ? ` (did you mean "doppel ${guess}"?)` : ''}\n\n${USAGE}\n`,
    );
    return 2;
  }
  const command = await load();
  try {
    return await command.run(rest);
  } catch (error) {
    // `doppel dedup | head -1`: the reader has what it wanted.
    if (isOutputClosed(error)) return 0;
    if (isDoppelError(error)) {
      if (error.code === 'USAGE') {
        process.stderr.write(
          `doppel ${name}: USAGE: ${error.message}\n${command.usage ? `\n${command.usage}\n` : ''}`,
        );
        return 2;
      }
      process.stderr.write(`doppel ${name}: ${error.code}: ${error.message}\n`);
      return 1;
    }
    throw error;
  }
}
