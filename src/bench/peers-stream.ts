/**
 * bench:peers' real-text stream (`.bench-out/peers-stream.jsonl`, written by `npm run
 * bench:peers`), which the per-stage, thread and hand-off benchmarks read, and the median they
 * report.
 */
import { existsSync, readFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const DEFAULT_STREAM = resolve(
  dirname(fileURLToPath(import.meta.url)),
  '../../.bench-out/peers-stream.jsonl',
);

/**
 * The stream named on the command line (or bench:peers' stream) and its non-empty lines; undefined,
 * after saying why and setting exit code 2, when the file is not there.
 */
export function readStream(
  bench: string,
  argument: string | undefined,
): { input: string; lines: string[] } | undefined {
  const input = resolve(argument ?? DEFAULT_STREAM);
  if (!existsSync(input)) {
    console.log(
      `${bench}: ${input} not found: run npm run bench:peers first (it writes the stream), or name a JSON Lines file`,
    );
    process.exitCode = 2;
    return undefined;
  }
  const lines = readFileSync(input, 'utf8')
    .split('\n')
    .filter((l) => l.trim() !== '');
  return { input, lines };
}

export function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2
    ? (sorted[mid] as number)
    : ((sorted[mid - 1] as number) + (sorted[mid] as number)) / 2;
}
