import { describe, expect, it } from 'vitest';
import { resolveDedupConfig } from '../../src/config/profiles.js';
import { matchLevel } from '../../src/engine/decide.js';
import { joinsOf, type Scored } from '../../src/engine/engine.js';
import type { Evidence } from '../../src/engine/types.js';

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

describe('matchLevel (news profile)', () => {
  it('a sentence match needs shared vocabulary: a fingerprint collision alone is no containment', () => {
    // Two unrelated one-sentence texts of 120 tokens whose 24-bit sentence hashes collided: the
    // sentence evidence says "all contained", every other measure says nothing in common.
    const collision = { contained: 1, containedSentences: 1, containedTokens: 120, jaccard: 0, cosine: 0 };
    expect(matchLevel(evidence(collision), news, 120, 120).level).toBe('none');
    // A teaser of an article: few equal min-hashes (the article is long), its words in the article's.
    const teaser = { contained: 1, containedSentences: 3, containedTokens: 61, jaccard: 0.04, cosine: 0.42 };
    expect(matchLevel(evidence(teaser), news, 61, 700)).toMatchObject({
      level: 'near_duplicate',
      method: 'containment',
    });
    expect(matchLevel(evidence({ ...teaser, jaccard: 0 }), news, 61, 700).level).toBe('near_duplicate');
    expect(matchLevel(evidence({ ...teaser, jaccard: 0, cosine: 0.05 }), news, 61, 700).level).toBe('none');
  });

  it('calls equal canonical texts duplicates whatever the length', () => {
    expect(matchLevel(evidence({ exact: true }), news, 2, 2)).toEqual({
      level: 'duplicate',
      method: 'exact',
      similarity: 1,
    });
  });

  it('never calls short texts near-duplicates', () => {
    expect(matchLevel(evidence({ jaccard: 0.9 }), news, 5, 100).level).toBe('none');
  });

  it('accepts Jaccard alone at the threshold', () => {
    expect(matchLevel(evidence({ jaccard: news.nearDuplicate.jaccard }), news, 100, 100)).toMatchObject({
      level: 'near_duplicate',
      method: 'minhash',
    });
  });

  it('needs Jaccard corroboration for SimHash, I-Match and cosine', () => {
    const t = news.nearDuplicate;
    expect(
      matchLevel(evidence({ hamming: t.hamming, jaccard: t.hammingMinJaccard }), news, 100, 100),
    ).toMatchObject({
      level: 'near_duplicate',
      method: 'simhash',
    });
    expect(
      matchLevel(evidence({ hamming: t.hamming, jaccard: t.hammingMinJaccard - 0.01 }), news, 100, 100).level,
    ).not.toBe('near_duplicate');
    expect(matchLevel(evidence({ imatch: true, jaccard: t.imatchMinJaccard }), news, 100, 100).method).toBe(
      'imatch',
    );
    expect(matchLevel(evidence({ imatch: true, jaccard: 0.01 }), news, 100, 100).level).not.toBe(
      'near_duplicate',
    );
    expect(
      matchLevel(evidence({ cosine: t.cosine!, jaccard: t.cosineMinJaccard }), news, 100, 100).method,
    ).toBe('cosine');
    expect(matchLevel(evidence({ cosine: 0.99, jaccard: 0.1 }), news, 100, 100).level).toBe('story');
  });

  it('falls back to the story level, and to none below it', () => {
    expect(matchLevel(evidence({ cosine: news.story.cosine!, jaccard: 0 }), news, 100, 100)).toMatchObject({
      level: 'story',
      method: 'cosine',
    });
    expect(matchLevel(evidence({ cosine: news.story.cosine! - 0.01 }), news, 100, 100).level).toBe('none');
    const noStories = { ...news, storyClustering: false };
    expect(matchLevel(evidence({ cosine: 0.9, jaccard: 0 }), noStories, 100, 100).level).toBe('none');
  });

  it('does not use cosine when the level has none (mail story level)', () => {
    const mail = resolveDedupConfig('mail').decision;
    expect(mail.story.cosine).toBeNull();
    expect(matchLevel(evidence({ cosine: 1, jaccard: 0 }), mail, 100, 100).level).toBe('none');
  });

  it('treats missing signatures as no evidence rather than as a match', () => {
    const none = evidence({ hamming: null, jaccard: null, cosine: null });
    expect(matchLevel(none, news, 100, 100).level).toBe('none');
  });
});

describe('joinsOf (which clusters a message joins)', () => {
  const scored = (
    id: string,
    level: 'duplicate' | 'near_duplicate' | 'story',
    similarity: number,
  ): Scored => ({
    candidate: { id, seq: 1, ts: 0, hits: 1, record: {} as Scored['candidate']['record'] },
    evidence: evidence({}),
    level: { level, method: 'minhash', similarity },
  });

  it('joins every duplicate and near-duplicate match (their clusters merge)', () => {
    const s = [scored('a', 'near_duplicate', 0.6), scored('b', 'duplicate', 1), scored('c', 'story', 0.9)];
    expect(joinsOf(s, null)).toEqual(['a', 'b']);
  });

  it('joins only the best story match when there is no closer one', () => {
    const best = scored('c', 'story', 0.9);
    expect(joinsOf([scored('d', 'story', 0.4), best], best)).toEqual(['c']);
    expect(joinsOf([], null)).toEqual([]);
  });
});
