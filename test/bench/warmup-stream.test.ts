import { describe, expect, it } from 'vitest';
import { warmupLines } from '../../src/bench/warmup-stream.js';
import { createDoppel, type DoppelResult } from '../../src/embed.js';

// A small made-up stream: two stories, each with a syndicated copy and an edited copy.
const storyA =
  'The regional council approved the new tram line on Tuesday after a long debate about costs, ' +
  'routes and the closing of two old bus depots near the river harbour.';
const storyB =
  'Farmers in the northern valleys reported an early harvest this autumn, helped by a warm summer ' +
  'and steady rain in the spring months, while prices at the markets stayed low.';
const stream = [
  { id: 'a1', lang: 'en', ts: '2026-03-01T08:00:00Z', text: storyA },
  { id: 'b1', lang: 'en', ts: '2026-03-01T09:00:00Z', title: 'Early harvest', text: storyB },
  { id: 'a2', lang: 'en', ts: '2026-03-01T10:00:00Z', text: `CITY (Wire) - ${storyA}` },
  { id: 'b2', lang: 'en', ts: '2026-03-01T11:00:00Z', text: storyB.replace('steady', 'regular') },
  {
    id: 'a3',
    lang: 'en',
    ts: '2026-03-02T08:00:00Z',
    html: `<html><head><title>Tram line</title></head><body><p>${storyA}</p></body></html>`,
  },
].map((m) => JSON.stringify(m));

async function verdicts(lines: readonly string[]) {
  const doppel = await createDoppel({ profile: 'news' });
  try {
    return await doppel.process(lines.map((l) => JSON.parse(l)));
  } finally {
    await doppel.close();
  }
}

describe('bench:e2e warm-up stream', () => {
  it('is deterministic, has ids of its own and ends before the measured stream starts', async () => {
    const warm = await warmupLines(stream, 7);
    expect(warm).toEqual(await warmupLines(stream, 7));
    expect(warm).toHaveLength(7);
    const ids = warm.map((l) => (JSON.parse(l) as { id: string }).id);
    expect(new Set(ids).size).toBe(7);
    for (const id of ids) expect(stream.some((l) => l.includes(`"id":"${id}"`))).toBe(false);
    const first = Math.min(...stream.map((l) => Date.parse((JSON.parse(l) as { ts: string }).ts)));
    for (const l of warm) expect(Date.parse((JSON.parse(l) as { ts: string }).ts)).toBeLessThan(first);
  });

  it('swaps words for other words of the stream, outside HTML tags only', async () => {
    const warm = (await warmupLines(stream, 5)).map((l) => JSON.parse(l) as Record<string, string>);
    expect(warm[0]?.text).not.toBe(storyA);
    expect(warm[0]?.text?.split(' ').length).toBe(storyA.split(' ').length);
    expect(warm[4]?.html).toMatch(
      /^<html><head><title>[^<]+<\/title><\/head><body><p>[^<]+<\/p><\/body><\/html>$/,
    );
    expect(warm[4]?.html).not.toContain('regional council');
  });

  it('leaves the measured messages the verdicts they get without it, and keeps its own copies copies', async () => {
    const cold = await verdicts(stream);
    const warm = await warmupLines(stream, stream.length);
    const after = await verdicts([...warm, ...stream]);
    const pick = (r: DoppelResult | undefined) => [
      r?.id,
      r?.verdict,
      r && 'duplicateOf' in r ? r.duplicateOf : null,
    ];
    expect(after.slice(warm.length).map(pick)).toEqual(cold.map(pick));
    // The copies of the warm-up are copies of its own originals (the structure the measured one has).
    expect(pick(after[2]).slice(1)).toEqual(['near_duplicate', after[0]?.id]);
  });
});
