import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { jsonLines, runCli } from '../support/cli.js';
import { eventShape, expectedMergeEvents, mergeMessages } from '../support/story-merge.js';

const dir = mkdtempSync(join(tmpdir(), 'doppel-merge-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('doppel dedup --stories: a message that joins two stories merges them', () => {
  it('writes a merged event with mergedFrom, then the grown one; the replay re-emits grown', async () => {
    const input = join(dir, 'merge.jsonl');
    const stories = join(dir, 'stories.jsonl');
    writeFileSync(
      input,
      `${mergeMessages()
        .map((m) => JSON.stringify(m))
        .join('\n')}\n`,
    );
    const result = await runCli(['dedup', '--input', input, '--stories', stories, '--threads', '1']);
    expect(result.code, result.stderr).toBe(0);
    const verdicts = jsonLines(result.stdout);
    expect(verdicts.map((v) => [v.id, v.verdict, v.clusterId, v.replay ?? false])).toEqual([
      ['p1', 'unique', 'p1', false],
      ['p2', 'unique', 'p2', false],
      ['both', 'near_duplicate', 'p1', false],
      ['both', 'near_duplicate', 'p1', true],
    ]);
    const events = jsonLines(readFileSync(stories, 'utf8'));
    expect(events.map(eventShape)).toEqual(expectedMergeEvents());
    // The merged cluster keeps the older story's first message, times and title.
    expect(events[2]).toMatchObject({ representative: 'p1', firstSeen: Date.parse('2026-11-20T08:00:00Z') });
    expect(events[2]!.lastSeen).toBe(Date.parse('2026-11-20T08:20:00Z'));
  });
});
