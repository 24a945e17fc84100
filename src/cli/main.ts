#!/usr/bin/env node
import { isDoppelError } from '../errors.js';
import { dedupCommand } from './dedup.js';
import { evalCommand } from './eval.js';
import { explainCommand } from './explain.js';
import { generateCommand } from './generate.js';
import { lexiconCommand } from './lexicon.js';
import { serveCommand } from './serve.js';
import { signCommand } from './sign.js';

const USAGE = `doppel: near-duplicate detection for message feeds

usage: doppel <command> [options]

commands:
  dedup      a verdict per message (unique, duplicate, near_duplicate, invalid) and story clusters
  explain    why two messages are (or are not) duplicates: canonical texts, signatures, every similarity
  eval       precision, recall, ARI, HFM of the engine and of single-method baselines on labelled data
  generate   the seeded near-duplicate benchmark generator (labelled variants of real texts)
  sign       signatures for each JSON Lines message (exact, SimHash, I-Match, MinHash)
  lexicon    build or inspect I-Match / idf lexicons
  serve      the HTTP check API (/v1/check, /v1/messages, /v1/clusters) with /healthz, /readyz, /metrics

Run "doppel <command> --help" for a command's options.`;

const COMMANDS: Record<string, (argv: string[]) => Promise<number>> = {
  dedup: dedupCommand,
  eval: evalCommand,
  explain: explainCommand,
  generate: generateCommand,
  sign: signCommand,
  lexicon: lexiconCommand,
  serve: (argv) => serveCommand(argv),
};

export async function main(argv: string[]): Promise<number> {
  const [name, ...rest] = argv;
  if (!name || name === '--help' || name === '-h' || name === 'help') {
    process.stdout.write(`${USAGE}\n`);
    return name ? 0 : 2;
  }
  const command = COMMANDS[name];
  if (!command) {
    process.stderr.write(`doppel: unknown command "${name}"\n\n${USAGE}\n`);
    return 2;
  }
  try {
    return await command(rest);
  } catch (error) {
    if (isDoppelError(error)) {
      process.stderr.write(`doppel ${name}: ${error.code}: ${error.message}\n`);
      return error.code === 'USAGE' ? 2 : 1;
    }
    throw error;
  }
}
