import { expect } from 'vitest';

/** CPU time (user + system) this process spends while `work` runs, in milliseconds. */
export async function cpuMs(work: () => unknown): Promise<number> {
  const before = process.cpuUsage();
  await work();
  const used = process.cpuUsage(before);
  return (used.user + used.system) / 1000;
}

/**
 * Expects `work` to take less than `budgetMs` of CPU time. CPU time, not wall time: the machine's
 * other processes do not count (the 2 cores are shared). A run over the budget is measured again
 * once, as the fault suite does: a garbage collection or JIT tier-up of earlier tests can land in
 * one run; a quadratic path is over the budget both times. `work` must be repeatable.
 */
export async function expectCpuUnder(budgetMs: number, work: () => unknown, what = 'work'): Promise<number> {
  let ms = await cpuMs(work);
  if (ms >= budgetMs) ms = Math.min(ms, await cpuMs(work));
  expect(ms, `${what}: ${ms.toFixed(0)} ms of CPU, budget ${budgetMs} ms`).toBeLessThan(budgetMs);
  return ms;
}
