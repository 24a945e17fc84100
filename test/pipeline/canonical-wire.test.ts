import { beforeAll, describe, expect, it } from 'vitest';
import { resolveDedupConfig } from '../../src/config/profiles.js';
import { initHashing } from '../../src/hash/xxhash.js';
import { LexiconSet } from '../../src/lexicon/lexicon.js';
import {
  type CanonicalItem,
  packCanonicalChunk,
  unpackCanonicalItem,
} from '../../src/pipeline/canonical-wire.js';
import { Signer } from '../../src/signatures/signer.js';
import { type CanonicalDoc, canonicalize } from '../../src/text/canonical.js';
import { tokenEnd, tokenHash } from '../../src/text/tokenize.js';

const config = resolveDedupConfig('news', {}, 'profile');
let signer: Signer;

beforeAll(async () => {
  await initHashing();
  signer = new Signer(config.signatures, LexiconSet.defaults());
});

const canonical = (text: string, lang?: string): CanonicalDoc =>
  canonicalize({ text, kind: 'text' }, config.signatures.canonical, lang, signer.knownWords);

describe('canonical chunks (a sign worker split by stage)', () => {
  it('carries each canonical text whole: tokens, their hashes, sentences, language and display fields', () => {
    const docs = [
      canonical(
        'Россия экспортировала 17,5 миллиона тонн зерна. Об этом сообщает Минсельхоз.\nЗаголовок',
        'ru',
      ),
      canonical("The minister said on Monday that the plan would go ahead. It won't be cheap."),
      canonical('این یک خبر است. کتاب‌ها را خواندم'),
      // Symbols only: tokenized by symbols.ts, which hashes its tokens too.
      canonical('😀 ✓ ©'),
    ];
    expect(docs[3]?.tokenCount).toBe(3);
    expect(docs[3]?.tokenHashes.length).toBe(3);
    const items: CanonicalItem[] = [
      {
        status: 0,
        id: 'a',
        ts: 1_700_000_000_000,
        fields: { title: 'T', url: 'https://x.test/a', snippet: 'S' },
        doc: docs[0] as CanonicalDoc,
      },
      { status: 1, id: 'bad', error: { code: 'EMPTY_TEXT', message: 'no words' } },
      {
        status: 0,
        id: 'b',
        ts: undefined,
        fields: { truncatedParts: 2, url: 42 },
        doc: docs[1] as CanonicalDoc,
      },
      { status: 2, id: null, error: { code: 'INTERNAL', message: 'boom' } },
      { status: 0, id: 'c', ts: 5, fields: {}, doc: docs[2] as CanonicalDoc },
      { status: 0, id: 'd', ts: 6, fields: {}, doc: docs[3] as CanonicalDoc },
    ];
    const { chunk, transfer } = packCanonicalChunk(items);
    // As a worker sends it: the arrays moved, the rest cloned.
    const received = structuredClone(chunk, { transfer });
    expect(chunk.tokenStarts.length).toBe(0);

    const a = unpackCanonicalItem(received, 0);
    expect(a.ok).toBe(true);
    if (!a.ok) return;
    expect(a).toMatchObject({
      id: 'a',
      ts: 1_700_000_000_000,
      fields: { title: 'T', url: 'https://x.test/a', snippet: 'S' },
    });
    const b = unpackCanonicalItem(received, 2);
    expect(b).toMatchObject({ ok: true, id: 'b', ts: undefined, fields: { truncatedParts: 2, url: 42 } });
    expect(unpackCanonicalItem(received, 1)).toMatchObject({
      ok: false,
      id: 'bad',
      bug: false,
      error: { code: 'EMPTY_TEXT', message: 'no words' },
    });
    expect(unpackCanonicalItem(received, 3)).toMatchObject({ ok: false, id: null, bug: true });

    for (const [at, doc] of [
      [0, docs[0]],
      [2, docs[1]],
      [4, docs[2]],
      [5, docs[3]],
    ] as const) {
      const item = unpackCanonicalItem(received, at);
      if (!item.ok || !doc) throw new Error(`item ${at} did not unpack`);
      expect(item.doc.lang).toBe(doc.lang);
      expect(item.doc.canonical).toBe(doc.canonical);
      expect(Array.from(item.doc.tokenStarts)).toEqual(Array.from(doc.tokenStarts));
      expect(item.doc.sentenceEnds).toEqual(doc.sentenceEnds);
      const hashes = Array.from(item.doc.tokenHashes ?? []);
      expect(hashes).toEqual(
        Array.from({ length: doc.tokenCount }, (_, k) =>
          tokenHash(
            doc.canonical,
            doc.tokenStarts[k] as number,
            tokenEnd({ joined: doc.canonical, count: doc.tokenCount, starts: doc.tokenStarts }, k),
          ),
        ),
      );
      // Signed on the receiving side, the same signatures as where it was made.
      expect(signer.compute(item.doc)).toEqual(signer.compute(doc));
    }
  });

  it('carries no clean text: reading it is a bug, said so', () => {
    const { chunk } = packCanonicalChunk([
      { status: 0, id: 'a', ts: 1, fields: {}, doc: canonical('one two three') },
    ]);
    const item = unpackCanonicalItem(chunk, 0);
    if (!item.ok) throw new Error('did not unpack');
    expect(() => item.doc.cleanText).toThrow(/carries no clean text/);
  });

  it('packs an empty chunk', () => {
    const { chunk } = packCanonicalChunk([]);
    expect(chunk.status.length).toBe(0);
    expect(Array.from(chunk.tokenAt)).toEqual([0]);
  });
});
