/**
 * The suite's seed: DOPPEL_FAULTS_SEED=<n> replays a run, DOPPEL_FAULTS_SEED=random draws a new
 * one; the default is fixed so CI runs the same cases each time. Every suite prints the seed it
 * used, so any failure can be replayed.
 */
export function faultSeed(label: string, fallback: number): number {
  const env = process.env.DOPPEL_FAULTS_SEED;
  const seed =
    env === 'random'
      ? Math.floor(Math.random() * 2 ** 31)
      : env !== undefined && env !== ''
        ? Number(env)
        : fallback;
  if (!Number.isSafeInteger(seed))
    throw new Error(`DOPPEL_FAULTS_SEED must be an integer or "random", not ${env}`);
  process.stdout.write(`[faults] ${label}: seed ${seed} (replay with DOPPEL_FAULTS_SEED=${seed})\n`);
  return seed;
}
