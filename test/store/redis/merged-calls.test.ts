import { describe, expect, it } from 'vitest';
import { MergedCalls } from '../../../src/store/redis/merged-calls.js';

/** A MergedCalls whose calls answer each item with its double, recording what each call carried. */
function doubling(maxItems: number, fail?: (items: readonly number[]) => boolean) {
  const sent: number[][] = [];
  const calls = new MergedCalls<number, number>(async (items) => {
    sent.push([...items]);
    if (fail?.(items)) throw new Error('the call failed');
    return items.map((x) => 2 * x);
  }, maxItems);
  return { calls, sent };
}

describe('MergedCalls', () => {
  it('sends the calls made in one turn as one call, in order, and gives each its own results', async () => {
    const { calls, sent } = doubling(100);
    const results = await Promise.all([calls.call([1, 2]), calls.call([3]), calls.call([4, 5, 6])]);
    expect(sent).toEqual([[1, 2, 3, 4, 5, 6]]);
    expect(results).toEqual([[2, 4], [6], [8, 10, 12]]);
  });

  it('sends calls of later turns apart', async () => {
    const { calls, sent } = doubling(100);
    expect(await calls.call([1])).toEqual([2]);
    expect(await calls.call([2, 3])).toEqual([4, 6]);
    expect(sent).toEqual([[1], [2, 3]]);
  });

  it('sends what waits before a call that would pass maxItems, and a larger call alone', async () => {
    const { calls, sent } = doubling(4);
    const results = await Promise.all([
      calls.call([1, 2]),
      calls.call([3, 4]),
      calls.call([5]),
      calls.call([6, 7, 8, 9, 10]),
      calls.call([11]),
    ]);
    expect(sent).toEqual([[1, 2, 3, 4], [5], [6, 7, 8, 9, 10], [11]]);
    expect(results.flat()).toEqual([2, 4, 6, 8, 10, 12, 14, 16, 18, 20, 22]);
  });

  it('sends what waits at once on flush, before anything the caller sends next', async () => {
    const { calls, sent } = doubling(100);
    const first = calls.call([1]);
    const second = calls.call([2]);
    calls.flush();
    expect(sent).toEqual([[1, 2]]);
    const third = calls.call([3]);
    expect(await Promise.all([first, second, third])).toEqual([[2], [4], [6]]);
    expect(sent).toEqual([[1, 2], [3]]);
    calls.flush();
    expect(sent).toHaveLength(2);
  });

  it('fails every call of a merged call that failed, and only those', async () => {
    const { calls } = doubling(100, (items) => items.includes(2));
    const merged = [calls.call([1]), calls.call([2])].map((p) =>
      p.then(
        () => 'resolved',
        (e: Error) => e.message,
      ),
    );
    expect(await Promise.all(merged)).toEqual(['the call failed', 'the call failed']);
    expect(await calls.call([3])).toEqual([6]);
  });

  it('fails the calls when sending throws before the call is made', async () => {
    const calls = new MergedCalls<number, number>(() => {
      throw new Error('cannot encode');
    }, 10);
    await expect(calls.call([1])).rejects.toThrow('cannot encode');
  });
});
