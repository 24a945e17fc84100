import { describe, expect, it } from 'vitest';
import { resolveDedupConfig } from '../../src/config/profiles.js';
import { chooseDuplicateOf, joinsOf } from '../../src/engine/choose.js';
import { matchLevel } from '../../src/engine/decide.js';
import type { Scored } from '../../src/engine/engine.js';
import type { Evidence } from '../../src/engine/types.js';
import { containmentOf } from '../../src/engine/verify.js';

const mail = resolveDedupConfig('mail').decision;
const news = resolveDedupConfig('news').decision;
const evidence = (e: Partial<Evidence>): Evidence => ({
  exact: false,
  hamming: 40,
  jaccard: 0,
  imatch: false,
  lexical: 0,
  cosine: 0,
  ...e,
});

const scored = (id: string, seq: number, e: Partial<Evidence>): Scored => {
  const ev = evidence(e);
  return {
    candidate: { id, seq, ts: 0, hits: 1, record: {} as Scored['candidate']['record'] },
    evidence: ev,
    level: matchLevel(ev, mail, 100, 100),
  };
};

describe('containment', () => {
  it('is the shared shingles over the smaller count, from Jaccard and both counts', () => {
    // 17 words all inside a 38-word copy: J = 17 / 38.
    expect(containmentOf(17 / 38, 17, 38)).toBeCloseTo(1, 3);
    expect(containmentOf(0.5, 30, 30)).toBeCloseTo(2 / 3, 3);
    expect(containmentOf(0.5, undefined, 30)).toBeNull();
    expect(containmentOf(null, 10, 30)).toBeNull();
  });

  it('makes a contained short mail a near-duplicate in the mail profile only', () => {
    const e = evidence({ jaccard: 0.45, containment: 0.97 });
    expect(matchLevel(e, mail, 30, 60)).toMatchObject({ level: 'near_duplicate', method: 'containment' });
    expect(matchLevel(e, news, 30, 60).method).not.toBe('containment');
    // The larger side mostly other text: not enough.
    expect(matchLevel(evidence({ jaccard: 0.2, containment: 1 }), mail, 30, 60).level).not.toBe(
      'near_duplicate',
    );
    // Records without shingle counts (written before them) have no containment.
    expect(matchLevel(evidence({ jaccard: 0.45 }), mail, 30, 60).level).not.toBe('near_duplicate');
  });
});

describe('chooseDuplicateOf (the documented duplicateOf)', () => {
  it('takes an exact copy over an earlier near-duplicate', () => {
    const s = [scored('near', 1, { jaccard: 0.9 }), scored('exact', 2, { exact: true })];
    expect(chooseDuplicateOf(s, mail.strongJaccard ?? 1)?.candidate.id).toBe('exact');
  });

  it('takes a strong near-duplicate over an earlier weak one, and the earliest within a tier', () => {
    const s = [
      scored('weak', 1, { jaccard: 0.55 }),
      scored('strong-late', 5, { jaccard: 0.95 }),
      scored('strong-early', 3, { jaccard: 0.75 }),
    ];
    expect(chooseDuplicateOf(s, 0.7)?.candidate.id).toBe('strong-early');
    // Without a strong level (1): the earliest near-duplicate, as before.
    expect(chooseDuplicateOf(s, 1)?.candidate.id).toBe('weak');
  });

  it('takes containment only when nothing closer matched, and joins only that cluster', () => {
    const contained = scored('contained', 1, { jaccard: 0.4, containment: 0.95 });
    const near = scored('near', 4, { jaccard: 0.55 });
    expect(contained.level.method).toBe('containment');
    expect(chooseDuplicateOf([contained, near], 0.7)?.candidate.id).toBe('near');
    expect(joinsOf([contained, near], null, near)).toEqual(['near']);
    const other = scored('other', 2, { jaccard: 0.35, containment: 0.9 });
    const chosen = chooseDuplicateOf([other, contained], 0.7);
    expect(chosen?.candidate.id).toBe('contained');
    expect(joinsOf([other, contained], null, chosen)).toEqual(['contained']);
  });

  it('ignores story-level matches', () => {
    expect(chooseDuplicateOf([scored('story', 1, { jaccard: 0.46 })], 0.7)).toBeNull();
  });
});
