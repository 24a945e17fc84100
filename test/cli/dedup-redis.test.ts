import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { freePort, startLocalRedis } from '../../src/dev/redis-server.js';
import { DOPPEL_BIN, jsonLines, REPO_ROOT, repeatAcrossBatches, runCli } from '../support/cli.js';
import { rng, syntheticDoc } from '../support/engine.js';
import { redisUrl, uniqueNamespace } from '../support/redis.js';
import { duplicatePairs, missedPairs, splitFeed } from '../support/split-feed.js';

const feed = () => splitFeed(21, 60);

describe('doppel dedup --store redis://', () => {
  it('two processes on two halves of a stream flag every pair that one process alone flags', async () => {
    const { lines, halves } = feed();
    const alone = await runCli(
      ['dedup', '--quiet', '--store', redisUrl(), '--namespace', uniqueNamespace('alone')],
      `${lines.join('\n')}\n`,
    );
    expect(alone.code, alone.stderr).toBe(0);
    expect(jsonLines(alone.stdout)).toHaveLength(lines.length);
    const pairs = duplicatePairs(alone.stdout);
    expect(pairs.length).toBeGreaterThanOrEqual(100);

    const namespace = uniqueNamespace('halves');
    const [one, two] = await Promise.all(
      halves.map((half) =>
        runCli(['dedup', '--quiet', '--store', redisUrl(), '--namespace', namespace], `${half.join('\n')}\n`),
      ),
    );
    expect(one!.code, one!.stderr).toBe(0);
    expect(two!.code, two!.stderr).toBe(0);
    const { size, missed } = missedPairs(pairs, [one!.stdout, two!.stdout]);
    expect(size).toBe(lines.length);
    expect(missed).toEqual([]);
  });

  it('answers an id repeated after a batch boundary with its first verdict', async () => {
    const result = await runCli(
      ['dedup', '--quiet', '--store', redisUrl(), '--namespace', uniqueNamespace('repeat')],
      repeatAcrossBatches(),
    );
    expect(result.code, result.stderr).toBe(0);
    const lines = jsonLines(result.stdout);
    expect(lines).toHaveLength(303);
    expect(lines.slice(-2)).toEqual([
      { id: 'a', verdict: 'unique', clusterId: 'a', replay: true, conflict: true },
      { id: 'a', verdict: 'unique', clusterId: 'a', replay: true, conflict: true },
    ]);
  });

  it("writes a replay's story event (the cluster as it is now, marked replay) when a file runs again", async () => {
    const dir = mkdtempSync(join(tmpdir(), 'doppel-replay-'));
    const namespace = uniqueNamespace('replay');
    const input = `${feed().lines.slice(0, 6).join('\n')}\n`;
    const runs = [];
    for (const name of ['first', 'again']) {
      const stories = join(dir, `${name}.jsonl`);
      const run = await runCli(
        ['dedup', '--quiet', '--store', redisUrl(), '--namespace', namespace, '--stories', stories],
        input,
      );
      expect(run.code, run.stderr).toBe(0);
      runs.push({ verdicts: jsonLines(run.stdout), stories: jsonLines(readFileSync(stories, 'utf8')) });
    }
    const [first, again] = runs as [(typeof runs)[number], (typeof runs)[number]];
    // The first verdicts again (a replay carries no evidence: the store keeps none).
    expect(again.verdicts.map(({ replay, ...v }) => v)).toEqual(
      first.verdicts.map(({ evidence, ...v }) => v),
    );
    expect(again.verdicts.every((v) => v.replay === true)).toBe(true);
    // One event per replayed message, created for cluster roots and grown for the others.
    expect(again.stories).toHaveLength(6);
    expect(again.stories.every((e) => e.replay === true)).toBe(true);
    expect(again.stories.filter((e) => e.type === 'created').map((e) => e.messageId)).toEqual(
      first.verdicts.filter((v) => v.clusterId === v.id).map((v) => v.id),
    );
  });

  it('stops with a retryable STORE_UNAVAILABLE error, and no verdicts, when Redis is down', async () => {
    const port = await freePort();
    const result = await runCli(
      ['dedup', '--store', `redis://127.0.0.1:${port}`, '--namespace', 'down'],
      '{"id":"a","text":"one two three four"}\n',
    );
    expect(result.code).not.toBe(0);
    expect(result.stderr).toMatch(/STORE_UNAVAILABLE/);
    expect(result.stdout).toBe('');
  });

  it('exits 1 promptly, naming the failing call, when Redis is killed mid-run', async () => {
    const redis = await startLocalRedis();
    const dir = mkdtempSync(join(tmpdir(), 'doppel-kill-'));
    const input = join(dir, 'in.jsonl');
    const random = rng(5);
    const lines: string[] = [];
    for (let i = 0; i < 20_000; i++)
      lines.push(JSON.stringify({ id: `m${i}`, text: syntheticDoc(random, 40, 3000).join(' ') }));
    writeFileSync(input, `${lines.join('\n')}\n`);
    const child = spawn(
      process.execPath,
      [DOPPEL_BIN, 'dedup', '--store', redis.url, '--namespace', 'kill', '--input', input],
      { cwd: REPO_ROOT },
    );
    let stdout = '';
    let stderr = '';
    let killedAt = 0;
    child.stderr.setEncoding('utf8').on('data', (d: string) => {
      stderr += d;
    });
    child.stdout.setEncoding('utf8').on('data', (d: string) => {
      stdout += d;
      if (killedAt === 0) {
        killedAt = Date.now();
        process.kill(redis.pid, 'SIGKILL');
      }
    });
    const code = await new Promise<number | null>((resolve) => {
      const timer = setTimeout(() => child.kill('SIGKILL'), 30_000);
      child.on('close', (c) => {
        clearTimeout(timer);
        resolve(c);
      });
    });
    await redis.stop();
    expect(killedAt, stderr).toBeGreaterThan(0);
    expect(code, stderr).toBe(1);
    // Bounded by the store's retries (redis.maxRetries back-offs, ~3 s by default), not hanging.
    expect(Date.now() - killedAt).toBeLessThan(15_000);
    // Whichever per-batch call meets the dead server first is named (a script of the batch, a
    // story read, or the eviction policy re-check between batches); never the closing stats call.
    expect(stderr).toMatch(/STORE_UNAVAILABLE: Redis unavailable during (?!stats)[a-z]/);
    expect(stderr).not.toMatch(/during stats/);
    const written = jsonLines(stdout);
    expect(written.length).toBeGreaterThan(0);
    expect(written.length).toBeLessThan(lines.length);
  }, 60_000);
});
