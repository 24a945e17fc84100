import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type LocalRedisCluster, startLocalRedisCluster } from '../../src/dev/redis-cluster.js';
import { jsonLines, runCli } from '../support/cli.js';
import { editWords, rng, syntheticDoc } from '../support/engine.js';
import { redisUrl, uniqueNamespace } from '../support/redis.js';

let cluster: LocalRedisCluster;
beforeAll(async () => {
  cluster = await startLocalRedisCluster(3);
});
afterAll(async () => {
  await cluster?.stop();
});

/** Stories and near-duplicate copies; copies of a story alternate between the two halves. */
function feed(): { lines: string[]; halves: [string[], string[]] } {
  const random = rng(33);
  const lines: string[] = [];
  const halves: [string[], string[]] = [[], []];
  const t0 = Date.UTC(2026, 10, 1);
  for (let s = 0; s < 80; s++) {
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

const flagged = (out: string) =>
  new Map(jsonLines(out).map((v) => [String(v.id), v.verdict !== 'unique' && v.verdict !== 'invalid']));

describe('doppel dedup --store redis+cluster://', () => {
  it('one process: the same output as on one Redis', async () => {
    const { lines } = feed();
    const input = `${lines.join('\n')}\n`;
    const [single, spread] = await Promise.all([
      runCli(['dedup', '--quiet', '--store', redisUrl(), '--namespace', uniqueNamespace('one')], input),
      runCli(['dedup', '--quiet', '--store', cluster.url, '--namespace', uniqueNamespace('one')], input),
    ]);
    expect(single.code, single.stderr).toBe(0);
    expect(spread.code, spread.stderr).toBe(0);
    expect(jsonLines(spread.stdout)).toEqual(jsonLines(single.stdout));
    expect(jsonLines(spread.stdout).filter((v) => v.duplicateOf).length).toBeGreaterThanOrEqual(100);
  });

  it('two processes on two halves of a stream lose no pair that one process alone flags', async () => {
    const { lines, halves } = feed();
    const alone = await runCli(
      ['dedup', '--quiet', '--store', cluster.url, '--namespace', uniqueNamespace('alone')],
      `${lines.join('\n')}\n`,
    );
    expect(alone.code, alone.stderr).toBe(0);
    const pairs = jsonLines(alone.stdout)
      .filter((v) => v.duplicateOf)
      .map((v) => [String(v.duplicateOf), String(v.id)] as const);
    expect(pairs.length).toBeGreaterThanOrEqual(100);
    const namespace = uniqueNamespace('halves');
    // Small batches: many batches of the two processes race for the same shards.
    const config = join(mkdtempSync(join(tmpdir(), 'doppel-cluster-')), 'small-batches.json');
    writeFileSync(config, JSON.stringify({ batchSize: 8 }));
    const [one, two] = await Promise.all(
      halves.map((half) =>
        runCli(
          ['dedup', '--quiet', '--config', config, '--store', cluster.url, '--namespace', namespace],
          `${half.join('\n')}\n`,
        ),
      ),
    );
    expect(one!.code, one!.stderr).toBe(0);
    expect(two!.code, two!.stderr).toBe(0);
    const both = new Map([...flagged(one!.stdout), ...flagged(two!.stdout)]);
    expect(both.size).toBe(lines.length);
    const missed = pairs.filter(([a, b]) => !both.get(a) && !both.get(b));
    expect(missed).toEqual([]);
  });

  it('a malformed cluster URL is a usage error naming the form, without the password', async () => {
    const result = await runCli(
      ['dedup', '--store', 'redis+cluster://:s3cret@nohostport'],
      '{"id":"a","text":"x"}\n',
    );
    expect(result.code).toBe(2);
    expect(result.stderr).toContain('redis+cluster://host:port,host:port');
    expect(result.stderr).not.toContain('s3cret');
  });
});
