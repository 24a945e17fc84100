import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  adjustedRandIndex,
  duplicateOfScores,
  goldPairCount,
  hfmAndSeparation,
  pairwiseScores,
  type ScoredPair,
  thresholdSweep,
} from '../../src/eval/metrics.js';

/** id -> label from a list of labels: ids are "0", "1", ... */
const partition = (labels: readonly (string | number)[]): Map<string, string> =>
  new Map(labels.map((label, i) => [String(i), String(label)]));

/** The O(n^2) definitions the O(n) implementation must agree with. */
function bruteForcePairs(gold: Map<string, string>, predicted: Map<string, string>) {
  const ids = [...gold.keys()];
  let n11 = 0; // together in both
  let n10 = 0; // together only in gold
  let n01 = 0; // together only in predicted
  let n00 = 0;
  for (let i = 0; i < ids.length; i++) {
    for (let j = i + 1; j < ids.length; j++) {
      const a = ids[i]!;
      const b = ids[j]!;
      const g = gold.get(a) === gold.get(b);
      const pa = predicted.get(a);
      const p = pa !== undefined && pa === predicted.get(b);
      if (g && p) n11++;
      else if (g) n10++;
      else if (p) n01++;
      else n00++;
    }
  }
  return { n11, n10, n01, n00 };
}

/** ARI from pair counts (Steinley 2004's form), an independent route to the same number. */
function ariFromPairCounts({ n11, n10, n01, n00 }: ReturnType<typeof bruteForcePairs>): number {
  const denominator = (n11 + n01) * (n01 + n00) + (n11 + n10) * (n10 + n00);
  return denominator === 0 ? 1 : (2 * (n11 * n00 - n01 * n10)) / denominator;
}

describe('pairwiseScores', () => {
  it('counts pairs on a hand-computed example', () => {
    // gold {a,b,c} {d,e}: pairs ab ac bc de; predicted {a,b} {c,d} {e}: pairs ab cd.
    const gold = new Map(Object.entries({ a: 'g1', b: 'g1', c: 'g1', d: 'g2', e: 'g2' }));
    const predicted = new Map(Object.entries({ a: 'x', b: 'x', c: 'y', d: 'y', e: 'z' }));
    const s = pairwiseScores(gold, predicted);
    expect(s).toMatchObject({ truePositives: 1, falsePositives: 1, falseNegatives: 3 });
    expect(s.precision).toBeCloseTo(0.5, 12);
    expect(s.recall).toBeCloseTo(0.25, 12);
    expect(s.f1).toBeCloseTo(1 / 3, 12);
  });

  it('is perfect on identical partitions with different label names', () => {
    const s = pairwiseScores(partition([1, 1, 2, 3, 3, 3]), partition(['a', 'a', 'b', 'c', 'c', 'c']));
    expect(s).toEqual({
      truePositives: 4,
      falsePositives: 0,
      falseNegatives: 0,
      precision: 1,
      recall: 1,
      f1: 1,
    });
  });

  it('treats an id missing from the prediction as a singleton and ignores ids gold does not know', () => {
    const gold = new Map(Object.entries({ a: 'g', b: 'g', c: 'g' }));
    const predicted = new Map(Object.entries({ a: 'p', b: 'p', z: 'p' }));
    expect(pairwiseScores(gold, predicted)).toMatchObject({
      truePositives: 1,
      falsePositives: 0,
      falseNegatives: 2,
    });
    // A missing id's singleton label can never collide with a real predicted label.
    const tricky = new Map(Object.entries({ a: 's:c', b: 's:c' }));
    expect(pairwiseScores(gold, tricky)).toMatchObject({ truePositives: 1, falsePositives: 0 });
  });

  it('uses vacuous precision 1 when nothing is predicted and recall 1 when nothing is to be found', () => {
    const singletons = partition([1, 2, 3]);
    expect(pairwiseScores(partition([1, 1, 2]), singletons)).toMatchObject({
      precision: 1,
      recall: 0,
      f1: 0,
    });
    expect(pairwiseScores(singletons, partition([1, 1, 2]))).toMatchObject({
      precision: 0,
      recall: 1,
      f1: 0,
    });
    expect(pairwiseScores(new Map(), new Map())).toMatchObject({ precision: 1, recall: 1, f1: 1 });
  });

  it('equals an O(n^2) brute force on random partitions', () => {
    fc.assert(
      fc.property(
        fc.array(fc.tuple(fc.integer({ min: 0, max: 6 }), fc.option(fc.integer({ min: 0, max: 6 }))), {
          maxLength: 40,
        }),
        (rows) => {
          const gold = new Map(rows.map(([g], i) => [`m${i}`, `g${g}`]));
          const predicted = new Map<string, string>();
          rows.forEach(([, p], i) => {
            if (p !== null) predicted.set(`m${i}`, `p${p}`);
          });
          const brute = bruteForcePairs(gold, predicted);
          const s = pairwiseScores(gold, predicted);
          expect(s.truePositives).toBe(brute.n11);
          expect(s.falseNegatives).toBe(brute.n10);
          expect(s.falsePositives).toBe(brute.n01);
          expect(goldPairCount(gold)).toBe(brute.n11 + brute.n10);
          expect(adjustedRandIndex(gold, predicted)).toBeCloseTo(ariFromPairCounts(brute), 9);
        },
      ),
      { numRuns: 300, seed: 20191120 },
    );
  });
});

describe('adjustedRandIndex', () => {
  it('is 1 for identical partitions, whatever the label names', () => {
    expect(adjustedRandIndex(partition([0, 0, 1, 1, 2]), partition([5, 5, 9, 9, 7]))).toBe(1);
    expect(adjustedRandIndex(partition([0, 0, 1, 1]), partition([1, 1, 0, 0]))).toBe(1);
  });

  it('matches the values scikit-learn documents', () => {
    // sklearn.metrics.adjusted_rand_score([0, 0, 1, 2], [0, 0, 1, 1]) == 0.57142857...
    expect(adjustedRandIndex(partition([0, 0, 1, 2]), partition([0, 0, 1, 1]))).toBeCloseTo(4 / 7, 12);
    expect(adjustedRandIndex(partition([0, 0, 1, 1]), partition([0, 0, 1, 2]))).toBeCloseTo(4 / 7, 12);
    // Worse than chance: adjusted_rand_score([0, 0, 1, 1], [0, 1, 0, 1]) == -0.5
    expect(adjustedRandIndex(partition([0, 0, 1, 1]), partition([0, 1, 0, 1]))).toBeCloseTo(-0.5, 12);
    // One cluster against all singletons: 0.
    expect(adjustedRandIndex(partition([0, 0, 0, 0]), partition([0, 1, 2, 3]))).toBe(0);
  });

  it('matches a hand-computed contingency table', () => {
    // gold {0,1,2} {3,4,5}; predicted {0,1} {2,3} {4,5}. Cells: 2,1 | 1,2 -> index = 1 + 1 = 2.
    // sum C(a,2) = 3 + 3 = 6, sum C(b,2) = 3, C(6,2) = 15: expected = 18/15 = 1.2, max = 4.5.
    // ARI = (2 - 1.2) / (4.5 - 1.2) = 8/33.
    expect(adjustedRandIndex(partition([1, 1, 1, 2, 2, 2]), partition([1, 1, 2, 2, 3, 3]))).toBeCloseTo(
      8 / 33,
      12,
    );
  });

  it('is 1 in the degenerate cases where both partitions are trivial and equal', () => {
    expect(adjustedRandIndex(partition([1, 2, 3]), partition([4, 5, 6]))).toBe(1);
    expect(adjustedRandIndex(partition([1, 1, 1]), partition([2, 2, 2]))).toBe(1);
    expect(adjustedRandIndex(partition([1]), partition([2]))).toBe(1);
  });
});

describe('hfmAndSeparation', () => {
  const gold = new Map(Object.entries({ a: 'x', b: 'x', c: 'y', d: 'y', e: 'z' }));

  it('finds the highest false match and the lowest true match', () => {
    const pairs: ScoredPair[] = [
      { a: 'a', b: 'b', score: 0.9 },
      { a: 'c', b: 'd', score: 0.7 },
      { a: 'a', b: 'c', score: 0.6 },
      { a: 'b', b: 'e', score: 0.4 },
    ];
    const r = hfmAndSeparation(pairs, gold);
    expect(r.hfm).toBe(0.6);
    expect(r.lowestTrue).toBe(0.7);
    expect(r.separation).toBeCloseTo(0.1, 12);
  });

  it('is negative when a false match outscores a true one, and counts a repeated pair once at its best', () => {
    const pairs: ScoredPair[] = [
      { a: 'a', b: 'b', score: 0.5 },
      { a: 'b', b: 'a', score: 0.8 },
      { a: 'd', b: 'e', score: 0.85 },
    ];
    expect(hfmAndSeparation(pairs, gold)).toEqual({
      hfm: 0.85,
      lowestTrue: 0.8,
      separation: expect.closeTo(-0.05, 12),
    });
  });

  it('returns null where there is no false or no true match', () => {
    expect(hfmAndSeparation([{ a: 'a', b: 'b', score: 1 }], gold)).toEqual({
      hfm: null,
      lowestTrue: 1,
      separation: null,
    });
    expect(hfmAndSeparation([{ a: 'a', b: 'e', score: 0.2 }], gold)).toEqual({
      hfm: 0.2,
      lowestTrue: null,
      separation: null,
    });
    expect(hfmAndSeparation([], gold)).toEqual({ hfm: null, lowestTrue: null, separation: null });
  });
});

describe('thresholdSweep', () => {
  // Gold pairs: ab ac bc (cluster x of three) and de: 4 in all.
  const gold = new Map(Object.entries({ a: 'x', b: 'x', c: 'x', d: 'y', e: 'y', f: 'z' }));
  const pairs: ScoredPair[] = [
    { a: 'a', b: 'b', score: 0.95 },
    { a: 'd', b: 'e', score: 0.8 },
    { a: 'a', b: 'f', score: 0.7 },
    { a: 'b', b: 'c', score: 0.5 },
    { a: 'c', b: 'b', score: 0.3 }, // the same pair again: counts once, at 0.5
  ];

  it('gives precision among the candidates and recall over every gold pair', () => {
    expect(thresholdSweep(pairs, gold, [1, 0.9, 0.75, 0.6, 0.5, 0])).toEqual([
      { threshold: 1, precision: 1, recall: 0 },
      { threshold: 0.9, precision: 1, recall: 0.25 },
      { threshold: 0.75, precision: 1, recall: 0.5 },
      { threshold: 0.6, precision: 2 / 3, recall: 0.5 },
      { threshold: 0.5, precision: 3 / 4, recall: 0.75 },
      { threshold: 0, precision: 3 / 4, recall: 0.75 },
    ]);
  });

  it('takes the number of gold pairs from the caller when the gold map is partial', () => {
    const [row] = thresholdSweep(pairs, gold, [0.9], 10);
    expect(row).toEqual({ threshold: 0.9, precision: 1, recall: 0.1 });
  });

  it('agrees with a direct count on random scores', () => {
    fc.assert(
      fc.property(
        fc.array(fc.integer({ min: 0, max: 4 }), { minLength: 2, maxLength: 14 }),
        fc.array(fc.tuple(fc.nat(), fc.nat(), fc.double({ min: 0, max: 1, noNaN: true })), { maxLength: 30 }),
        fc.double({ min: 0, max: 1, noNaN: true }),
        (labels, raw, t) => {
          const g = partition(labels);
          const n = labels.length;
          const candidates = raw
            .map(([i, j, score]) => ({ a: String(i % n), b: String(j % n), score }))
            .filter((p) => p.a !== p.b);
          // Direct definition: distinct unordered pairs, best score each.
          const best = new Map<string, { a: string; b: string; score: number }>();
          for (const p of candidates) {
            const key = [p.a, p.b].sort().join('|');
            if ((best.get(key)?.score ?? -1) < p.score) best.set(key, p);
          }
          const accepted = [...best.values()].filter((p) => p.score >= t);
          const tp = accepted.filter((p) => g.get(p.a) === g.get(p.b)).length;
          const [row] = thresholdSweep(candidates, g, [t]);
          const total = goldPairCount(g);
          expect(row!.precision).toBeCloseTo(accepted.length === 0 ? 1 : tp / accepted.length, 12);
          expect(row!.recall).toBeCloseTo(total === 0 ? 1 : tp / total, 12);
        },
      ),
      { numRuns: 200, seed: 7 },
    );
  });
});

describe('duplicateOfScores', () => {
  const gold = new Map(Object.entries({ a1: 'A', a2: 'A', a3: 'A', b1: 'B', b2: 'B', c1: 'C', d1: 'D' }));

  it('scores each decision against the earlier messages of its gold cluster', () => {
    const s = duplicateOfScores(gold, [
      { id: 'a1' }, // first of A: nothing to find
      { id: 'a2', duplicateOf: 'a1' }, // TP
      { id: 'b1' },
      { id: 'b2' }, // FN: b1 came earlier
      { id: 'c1', duplicateOf: 'a1' }, // FP: C had nothing earlier
      { id: 'a3', duplicateOf: 'b1' }, // FP, misattributed: a1 was there to be found
      { id: 'd1' },
      { id: 'unknown', duplicateOf: 'a1' }, // FP: no gold label
    ]);
    expect(s).toMatchObject({ truePositives: 1, falsePositives: 3, falseNegatives: 1, misattributed: 1 });
    expect(s.precision).toBeCloseTo(0.25, 12);
    expect(s.recall).toBeCloseTo(0.5, 12);
    expect(s.f1).toBeCloseTo(1 / 3, 12);
  });

  it('is perfect for the decisions gold itself implies', () => {
    const order = ['a1', 'b1', 'a2', 'c1', 'b2', 'a3', 'd1'];
    const firstOf = new Map<string, string>();
    const decisions = order.map((id) => {
      const cluster = gold.get(id)!;
      const first = firstOf.get(cluster);
      if (first === undefined) {
        firstOf.set(cluster, id);
        return { id };
      }
      return { id, duplicateOf: first };
    });
    expect(duplicateOfScores(gold, decisions)).toMatchObject({
      precision: 1,
      recall: 1,
      f1: 1,
      truePositives: 3,
    });
  });
});
