import type { Redis } from 'ioredis';
import { SCRIPT_NAMES, scriptSource } from '../store/redis/scripts.js';

/**
 * Where a redis-server's time goes during a benchmark pass, for bench:e2e and bench:redis:
 * - Redis CPU (INFO cpu: user + system of the server process), the figure to compare builds by;
 * - commands per message by name (INFO commandstats; the commands a script calls are counted on
 *   their own too): the call counts do not depend on the machine's load;
 * - each doppel script's calls and time (the slow log with a 20 µs threshold, which takes every
 *   script call and few of the commands inside them; its times are wall time inside Redis, so on a
 *   loaded machine they split Redis CPU into shares rather than measure it).
 */
export interface RedisPassStats {
  cpuSeconds: number;
  commands: { name: string; calls: number; usec: number }[];
  scripts: { name: string; calls: number; usec: number }[];
}

function infoNumber(text: string, field: string): number {
  const m = new RegExp(`^${field}:([\\d.]+)`, 'm').exec(text);
  return m ? Number(m[1]) : Number.NaN;
}

async function cpuSeconds(client: Redis): Promise<number> {
  const text = await client.info('cpu');
  return infoNumber(text, 'used_cpu_user') + infoNumber(text, 'used_cpu_sys');
}

const SLOWLOG_THRESHOLD_US = 20;

/** Starts a pass: counters reset, the slow log set to take script calls. Returns the CPU so far. */
export async function startRedisPass(
  client: Redis,
): Promise<{ cpuBefore: number; restore: () => Promise<void> }> {
  const [, threshold] = (await client.config('GET', 'slowlog-log-slower-than')) as string[];
  const [, length] = (await client.config('GET', 'slowlog-max-len')) as string[];
  await client.config('SET', 'slowlog-log-slower-than', String(SLOWLOG_THRESHOLD_US));
  await client.config('SET', 'slowlog-max-len', '1000000');
  await client.slowlog('RESET');
  await client.config('RESETSTAT');
  return {
    cpuBefore: await cpuSeconds(client),
    restore: async () => {
      await client.config('SET', 'slowlog-log-slower-than', threshold ?? '10000');
      await client.config('SET', 'slowlog-max-len', length ?? '128');
    },
  };
}

/** Ends a pass started by `startRedisPass`: what Redis did since. */
export async function endRedisPass(client: Redis, cpuBefore: number): Promise<RedisPassStats> {
  const cpu = (await cpuSeconds(client)) - cpuBefore;
  const commands = [
    ...(await client.info('commandstats')).matchAll(/^cmdstat_(\w+):calls=(\d+),usec=(\d+)/gm),
  ]
    .map(([, name, calls, usec]) => ({ name: name as string, calls: Number(calls), usec: Number(usec) }))
    .sort((a, b) => b.usec - a.usec);
  const names = new Map<string, string>(SCRIPT_NAMES.map((n) => [scriptSource(n).sha, n]));
  const byScript = new Map<string, { calls: number; usec: number }>();
  const log = (await client.slowlog('GET', 1_000_000)) as [number, number, number, (string | Buffer)[]][];
  for (const [, , usec, args] of log) {
    const command = String(args[0]).toLowerCase();
    if (command !== 'evalsha' && command !== 'eval') continue;
    const name = command === 'evalsha' ? (names.get(String(args[1])) ?? 'other') : 'eval (first load)';
    const s = byScript.get(name) ?? { calls: 0, usec: 0 };
    s.calls++;
    s.usec += Number(usec);
    byScript.set(name, s);
  }
  const scripts = [...byScript].map(([name, s]) => ({ name, ...s })).sort((a, b) => b.usec - a.usec);
  return { cpuSeconds: cpu, commands, scripts };
}

/** The pass as lines: Redis CPU per message, each script's share of it, commands per message. */
export function formatRedisPass(stats: RedisPassStats, messages: number): string {
  const scriptUsec = stats.scripts.reduce((s, x) => s + x.usec, 0);
  const perMessage = (stats.cpuSeconds * 1e6) / messages;
  const scripts = stats.scripts
    .map(
      (s) =>
        `${s.name} ${s.calls} calls (${(messages / s.calls).toFixed(0)} messages a call), ${((perMessage * s.usec) / (scriptUsec || 1)).toFixed(1)} µs`,
    )
    .join('; ');
  const fromScripts = stats.commands.filter((c) => c.name !== 'evalsha' && c.name !== 'eval');
  const total = fromScripts.reduce((sum, c) => sum + c.calls, 0);
  const commands = fromScripts
    .filter((c) => c.calls / messages >= 0.01)
    .map((c) => `${c.name} ${(c.calls / messages).toFixed(2)}`)
    .join(', ');
  return (
    `Redis CPU ${perMessage.toFixed(1)} µs per message (INFO cpu); by script (calls in the pass, and share of that CPU per message): ${scripts}\n` +
    `Redis commands per message (INFO commandstats, from scripts and clients, script calls not counted): ${(total / messages).toFixed(2)}: ${commands}\n`
  );
}
