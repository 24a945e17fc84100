import { describe, expect, it } from 'vitest';
import { jsonLines, runCli } from '../support/cli.js';
import { redisUrl, uniqueNamespace } from '../support/redis.js';

/**
 * Defect 2 (hostile input, round 3): a message dated far in the future must not expire the window.
 * Its time is clamped to the clock plus window.maxFutureSkewMs (flagged `eventTimeClamped`) and it
 * moves no store clock; a time no Date holds is INVALID_MESSAGE.
 */
const TEXT =
  'The city council approved the new tram line on Tuesday after a long debate about its cost, its route through the old town and the years of building work it will bring.';
const OTHER =
  'Heavy snow closed the mountain pass for the second day, and the road authority said it would stay shut until the avalanche risk had been assessed by its experts.';

const feed = [
  { id: 'a', ts: '2026-01-05T10:00:00Z', text: TEXT },
  { id: 'evil', ts: '9999-12-31T00:00:00Z', text: OTHER },
  { id: 'copy', ts: '2026-01-05T10:10:00Z', text: TEXT },
  { id: 'huge', ts: 1e300, text: OTHER },
]
  .map((m) => JSON.stringify(m))
  .join('\n');

async function dedup(store: string[]): Promise<Record<string, unknown>[]> {
  const result = await runCli(['dedup', '--threads', '1', ...store], `${feed}\n`);
  expect(result.code).toBe(0);
  return jsonLines(result.stdout);
}

describe('defect 2: a far-future event time does not wipe the window', () => {
  it.each([
    ['memory', () => []],
    ['redis', () => ['--store', redisUrl(), '--namespace', uniqueNamespace('time')]],
  ])(
    'on the %s store: the copy 10 minutes later is still a duplicate; 1e300 is invalid',
    async (_, store) => {
      const lines = await dedup(store());
      expect(lines.map((l) => [l.id, l.verdict])).toEqual([
        ['a', 'unique'],
        ['evil', 'unique'],
        ['copy', 'duplicate'],
        ['huge', 'invalid'],
      ]);
      expect(lines[1]).toMatchObject({ eventTimeClamped: true });
      expect(lines[2]).toMatchObject({ duplicateOf: 'a' });
      expect(lines[2]).not.toHaveProperty('eventTimeClamped');
      expect(lines[3]).toMatchObject({ error: { code: 'INVALID_MESSAGE' } });
    },
  );
});
