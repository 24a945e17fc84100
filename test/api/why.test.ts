import { describe, expect, it } from 'vitest';
import { evidenceInWords, explainMessage, markPassages } from '../../src/api/why.js';
import { encodeDetail } from '../../src/engine/detail.js';
import { MemoryStore } from '../../src/store/memory/store.js';
import { request } from '../store/conformance.js';

const HOUR = 3_600_000;
const T0 = Date.UTC(2026, 10, 1);

describe('GET /v1/messages/{id}/why', () => {
  it('marks the runs of three or more words both snippets share, and nothing else', () => {
    const a = 'Storm cuts power to forty thousand homes on the coast, the utility said.';
    const b = 'A storm cut power to forty thousand homes along the coast overnight.';
    const passages = markPassages(a, b);
    expect(passages.map((p) => p.text).join('')).toBe(a);
    expect(passages.filter((p) => p.match).map((p) => p.text)).toEqual(['power to forty thousand homes']);
    expect(markPassages(a, undefined)).toEqual([{ text: a, match: false }]);
    expect(markPassages('', b)).toEqual([]);
  });

  it('says a story-rule join is a join of the story, with the member it matched, not a low-similarity unique', async () => {
    const store = new MemoryStore(
      { windowMs: 10 * HOUR, generationMs: HOUR, maxMessages: 0 },
      {
        maxBucketSize: 8,
        maxCandidates: 16,
      },
    );
    const [a, b] = await store.index([request('wire-1', ['b0=1']), request('blog-9', ['b0=1'])]);
    if (a?.status !== 'new' || b?.status !== 'new') throw new Error('expected new');
    const evidence = { exact: false, hamming: 21, jaccard: 0.06, imatch: false, lexical: 0, cosine: 0.62 };
    await store.commit([
      {
        id: 'wire-1',
        seq: a.seq,
        ts: T0,
        verdict: 'unique',
        joins: [],
        title: 'Bridge closed for repairs',
        detail: encodeDetail({
          lang: 'en',
          snippet: 'Engineers closed the suspension bridge for emergency repairs.',
        }),
      },
      {
        id: 'blog-9',
        seq: b.seq,
        ts: T0,
        verdict: 'unique',
        joins: ['wire-1'],
        similarity: 0.477,
        method: 'story:cosine',
        detail: encodeDetail({
          lang: 'en',
          url: 'https://blog.example/bridge',
          snippet: 'Commuters face a long detour: engineers closed the suspension bridge on Monday.',
          evidence,
          via: 'wire-1',
        }),
      },
    ]);
    const [status, why] = await explainMessage(store, 'blog-9');
    expect(status).toBe(200);
    expect(why).toMatchObject({
      relation: 'story',
      verdict: 'unique',
      similarity: 0.477,
      method: 'story:cosine',
      story: { id: 'wire-1', size: 2, title: 'Bridge closed for repairs' },
      message: { id: 'blog-9', url: 'https://blog.example/bridge' },
      other: { id: 'wire-1', title: 'Bridge closed for repairs' },
      evidence,
    });
    expect(why.summary).toMatch(/^Joined story "Bridge closed for repairs": not a copy/);
    expect(why.reasons[0]).toMatch(/story rule linked it to wire-1/);
    expect(why.reasons.join(' ')).toMatch(/cosine 0\.62/);
    expect(why.message.passages.filter((p) => p.match).map((p) => p.text)).toEqual([
      'engineers closed the suspension bridge',
    ]);
    const [, own] = await explainMessage(store, 'wire-1');
    expect(own).toMatchObject({ relation: 'own_story', other: null, reasons: [] });
    await expect(explainMessage(store, 'nope')).rejects.toMatchObject({ code: 'NOT_FOUND' });
  });

  it('puts the evidence in words, strongest first, leaving out what did not match', () => {
    const words = evidenceInWords({
      exact: false,
      hamming: 2,
      jaccard: 0.81,
      imatch: true,
      lexical: 2,
      cosine: 0.97,
      containment: 0.95,
    });
    expect(words[0]).toBe(
      'About 81% of their overlapping word sequences (shingles) are shared (MinHash Jaccard estimate 0.81).',
    );
    expect(words).toContain(
      "95% of the shorter text's shingles are in the longer one: one text contains most of the other.",
    );
    expect(words.join(' ')).toMatch(/differ in 2 of 64 bits: nearly the same wording/);
    expect(words.join(' ')).not.toMatch(/exact hashes/);
    expect(
      evidenceInWords({ exact: true, hamming: 0, jaccard: 1, imatch: true, lexical: 3, cosine: 1 })[0],
    ).toMatch(/^The same text after normalization/);
  });
});
