import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { jsonLines, REPO_ROOT, repeatAcrossBatches, runCli } from '../support/cli.js';

const demo = resolve(REPO_ROOT, 'demo/feed.jsonl');

describe('doppel dedup (the CLI, as a user runs it)', () => {
  it('folds the demo feed: exact duplicates across HTML and Persian letter forms, a syndicated near-duplicate, an invalid line', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'doppel-dedup-'));
    const stories = join(dir, 'stories.jsonl');
    const result = await runCli(['dedup', '--input', demo, '--stories', stories]);
    expect(result.code).toBe(0);
    const lines = jsonLines(result.stdout);
    const inputLines = readFileSync(demo, 'utf8')
      .split('\n')
      .filter((l) => l.trim() !== '').length;
    expect(lines).toHaveLength(inputLines);
    const byId = Object.fromEntries(lines.map((l) => [String(l.id), l]));
    expect(byId['wire-1']).toMatchObject({ verdict: 'unique', clusterId: 'wire-1' });
    expect(byId['portal-7']).toMatchObject({
      verdict: 'near_duplicate',
      clusterId: 'wire-1',
      duplicateOf: 'wire-1',
    });
    expect(byId['agg-3']).toMatchObject({ verdict: 'duplicate', duplicateOf: 'wire-2', method: 'exact' });
    expect(byId['fa-2']).toMatchObject({ verdict: 'duplicate', duplicateOf: 'fa-1' });
    expect(byId.broken).toMatchObject({
      verdict: 'invalid',
      clusterId: null,
      error: { code: 'MISSING_CONTENT' },
    });
    expect(result.stderr).toMatch(/7 messages, 3 unique, 2 duplicates, 1 near-duplicates, 1 invalid/);
    const events = jsonLines(readFileSync(stories, 'utf8'));
    expect(events.filter((e) => e.type === 'created').map((e) => e.clusterId)).toEqual([
      'wire-1',
      'wire-2',
      'fa-1',
    ]);
    expect(events.find((e) => e.messageId === 'portal-7')).toMatchObject({
      type: 'grown',
      clusterId: 'wire-1',
      size: 2,
    });
  });

  it('is deterministic: the same input gives the same output', async () => {
    const a = await runCli(['dedup', '--input', demo, '--quiet']);
    const b = await runCli(['dedup', '--input', demo, '--quiet']);
    expect(a.stdout).toBe(b.stdout);
    expect(a.stderr).toBe('');
  });

  it('answers a repeated id with its first verdict, marked as a replay', async () => {
    const text =
      'The central bank raised its key interest rate by half a percentage point on Friday, the third increase.';
    const input = [
      JSON.stringify({ id: 'a', text }),
      JSON.stringify({ id: 'b', text: `${text} More later.` }),
      JSON.stringify({ id: 'a', text: 'something else entirely now' }),
    ].join('\n');
    const lines = jsonLines((await runCli(['dedup', '--quiet'], input)).stdout);
    // Other content under a decided id: its first verdict, flagged as a conflict.
    expect(lines[2]).toMatchObject({
      id: 'a',
      verdict: 'unique',
      clusterId: 'a',
      replay: true,
      conflict: true,
    });
    const same = jsonLines(
      (await runCli(['dedup', '--quiet'], `${input}\n${JSON.stringify({ id: 'a', text })}`)).stdout,
    );
    expect(same[3]).toEqual({ id: 'a', verdict: 'unique', clusterId: 'a', replay: true });
  });

  it('answers an id repeated after a batch boundary with its first verdict', async () => {
    const result = await runCli(['dedup', '--quiet'], repeatAcrossBatches());
    expect(result.code, result.stderr).toBe(0);
    const lines = jsonLines(result.stdout);
    expect(lines).toHaveLength(303);
    // "again" is not the first content of "a": replays with the conflict flag.
    expect(lines.slice(-2)).toEqual([
      { id: 'a', verdict: 'unique', clusterId: 'a', replay: true, conflict: true },
      { id: 'a', verdict: 'unique', clusterId: 'a', replay: true, conflict: true },
    ]);
  });

  it('writes one invalid record per bad line and goes on', async () => {
    const input = [
      '{',
      JSON.stringify({ id: 'x' }),
      JSON.stringify({ id: 'y', text: 'fine text here' }),
      'null',
    ].join('\n');
    const result = await runCli(['dedup', '--quiet'], input);
    expect(result.code).toBe(0);
    expect(
      jsonLines(result.stdout).map((l) => [
        l.id,
        l.verdict,
        (l.error as { code?: string } | undefined)?.code,
      ]),
    ).toEqual([
      [null, 'invalid', 'INVALID_JSON'],
      ['x', 'invalid', 'MISSING_CONTENT'],
      ['y', 'unique', undefined],
      [null, 'invalid', 'INVALID_MESSAGE'],
    ]);
  });

  it('runs the mail profile and rejects bad configuration clearly', async () => {
    expect((await runCli(['dedup', '--profile', 'mail', '--input', demo, '--quiet'])).code).toBe(0);
    // A --profile that names no profile is a usage error (2); a bad config file is a failure (1).
    const unknown = await runCli(['dedup', '--profile', 'sms', '--input', demo]);
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toContain('unknown profile');
    const dir = mkdtempSync(join(tmpdir(), 'doppel-dedup-'));
    const config = join(dir, 'bad.json');
    writeFileSync(config, JSON.stringify({ decision: { nearDuplicate: { jaccard: 2 } } }));
    const bad = await runCli(['dedup', '--config', config, '--input', demo]);
    expect(bad.code).toBe(1);
    expect(bad.stderr).toContain('decision.nearDuplicate.jaccard');
  });
});
