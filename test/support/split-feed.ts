import { jsonLines } from './cli.js';
import { editWords, rng, syntheticDoc } from './engine.js';

/**
 * A JSON Lines feed of stories and two near-duplicate copies each, for the suites that run two
 * `doppel dedup` processes on a shared store: copies of a story alternate between the two halves.
 */
export function splitFeed(seed: number, stories: number): { lines: string[]; halves: [string[], string[]] } {
  const random = rng(seed);
  const lines: string[] = [];
  const halves: [string[], string[]] = [[], []];
  const t0 = Date.UTC(2026, 10, 1);
  for (let s = 0; s < stories; s++) {
    const base = syntheticDoc(random, 150, 3000);
    const copies = [base, editWords(random, base, 0.04), editWords(random, base, 0.08)];
    copies.forEach((words, c) => {
      const line = JSON.stringify({
        id: `st${s}-${c}`,
        text: words.join(' '),
        lang: 'en',
        ts: new Date(t0 + (s * 3 + c) * 60_000).toISOString(),
      });
      lines.push(line);
      halves[(s + c) % 2]!.push(line);
    });
  }
  return { lines, halves };
}

/** id -> whether `doppel dedup` output flagged it (a duplicate or near-duplicate). */
export const flagged = (out: string) =>
  new Map(jsonLines(out).map((v) => [String(v.id), v.verdict !== 'unique' && v.verdict !== 'invalid']));

/** The [duplicateOf, id] pairs of `doppel dedup` output. */
export const duplicatePairs = (out: string) =>
  jsonLines(out)
    .filter((v) => v.duplicateOf)
    .map((v) => [String(v.duplicateOf), String(v.id)] as const);

/**
 * The pairs neither of the two processes' outputs flags. For each pair, whichever of the two was
 * indexed second saw the first: one of them is flagged, so this is empty when the store is right.
 */
export function missedPairs(pairs: ReadonlyArray<readonly [string, string]>, outputs: readonly string[]) {
  const both = new Map(outputs.flatMap((out) => [...flagged(out)]));
  return { size: both.size, missed: pairs.filter(([a, b]) => !both.get(a) && !both.get(b)) };
}
