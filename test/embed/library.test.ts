import { describe, expect, it } from 'vitest';
import { createDoppel, type DoppelInput, type DoppelResult } from '../../src/embed.js';

const TEXT =
  'The city council voted on Tuesday to extend the northern tram line by four stops, a project that will cost 120 million and should open in 2029, the mayor said after the meeting.';

function verdictOf(result: DoppelResult | undefined): string | undefined {
  return result?.verdict;
}

describe('createDoppel: typed input, per-item results, stories', () => {
  it('one invalid message gets an invalid result; the others are judged and indexed', async () => {
    const doppel = await createDoppel({ profile: 'news' });
    try {
      const batch: DoppelInput[] = [
        { id: 'a', text: TEXT, title: 'Tram line to grow', ts: '2026-11-20T08:00:00Z' },
        { id: 'empty', text: '  ...  ' },
        { id: 'b', text: `CITY (Wire) - ${TEXT}`, title: 'Tram line extended', ts: '2026-11-20T08:05:00Z' },
      ];
      const results = await doppel.process(batch);
      expect(results.map(verdictOf)).toEqual(['unique', 'invalid', 'near_duplicate']);
      const invalid = results[1];
      expect(invalid).toMatchObject({
        id: 'empty',
        clusterId: null,
        error: { code: 'EMPTY_TEXT', retryable: false },
      });
      // The valid ones were indexed: a check of an exact copy of "a" now finds it.
      const [again] = await doppel.check([{ id: 'c', text: TEXT, ts: '2026-11-20T09:00:00Z' }]);
      expect(again).toMatchObject({ verdict: 'duplicate', duplicateOf: 'a' });
      // A message that is not an object at all is invalid too, never a thrown batch.
      const odd = await doppel.process([{ id: 'x' }, { id: 'd', text: TEXT, ts: '2026-11-20T09:00:00Z' }]);
      expect(odd.map(verdictOf)).toEqual(['invalid', 'duplicate']);
      expect(odd[0]).toMatchObject({ id: 'x', error: { code: 'MISSING_CONTENT' } });
    } finally {
      await doppel.close();
    }
  });

  it('stories() and story(id) list and read stories without reaching into the store', async () => {
    const doppel = await createDoppel({ profile: 'news', config: { decision: { storyClustering: true } } });
    try {
      await doppel.process([
        { id: 'wire-1', title: 'Tram line to grow', text: TEXT, ts: '2026-11-20T08:00:00Z' },
        {
          id: 'portal-7',
          title: 'Tram line extended',
          text: `CITY (Wire) - ${TEXT}`,
          ts: '2026-11-20T08:20:00Z',
        },
      ]);
      const page = await doppel.stories({ order: 'size', limit: 5 });
      expect(page.items.map((s) => [s.id, s.size, s.title])).toEqual([['wire-1', 2, 'Tram line to grow']]);
      expect(page.next).toBeNull();
      expect(await doppel.stories({ since: '2030-01-01T00:00:00Z' })).toEqual({ items: [], next: null });
      expect((await doppel.story('wire-1'))?.size).toBe(2);
      expect(await doppel.story('no-such-story')).toBeNull();
      await expect(doppel.stories({ since: 'yesterday' })).rejects.toMatchObject({ code: 'USAGE' });
    } finally {
      await doppel.close();
    }
  });

  it('types: profile is news or mail, config keys are checked, input fields are typed', async () => {
    // These lines are compiled by `npm run typecheck`: each @ts-expect-error must stay an error.
    const compileOnly = async () => {
      // @ts-expect-error: no such profile
      await createDoppel({ profile: 'newz' });
      // @ts-expect-error: a misspelled config key
      await createDoppel({ config: { decision: { storyClusterng: true } } });
      // @ts-expect-error: a threshold is a number
      await createDoppel({ config: { decision: { nearDuplicate: { jaccard: 'high' } } } });
      const doppel = await createDoppel({ profile: 'mail', config: { window: { windowMs: 3_600_000 } } });
      // @ts-expect-error: a misspelled message field
      await doppel.process([{ id: 'a', txt: 'hello' }]);
    };
    expect(typeof compileOnly).toBe('function');
  });
});
