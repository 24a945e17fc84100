import { beforeAll, describe, expect, it } from 'vitest';
import { resolveDedupConfig } from '../../src/config/profiles.js';
import { compactRecord } from '../../src/engine/record.js';
import { decodeRecord, encodeRecord, RecordFormatError } from '../../src/engine/record-bytes.js';
import { initHashing } from '../../src/hash/xxhash.js';
import { LexiconSet } from '../../src/lexicon/lexicon.js';
import { Signer } from '../../src/signatures/signer.js';
import { canonicalize } from '../../src/text/canonical.js';
import { rng, syntheticDoc } from '../support/engine.js';

const config = resolveDedupConfig('news');
let signer: Signer;
beforeAll(async () => {
  await initHashing();
  signer = new Signer(config.signatures, LexiconSet.defaults());
});

const sign = (text: string) =>
  signer.compute(canonicalize({ text, kind: 'text' }, config.signatures.canonical, 'en'));

describe('the record binary form', () => {
  it('encodes and decodes a compact record without loss', () => {
    const random = rng(7);
    for (let n = 0; n < 20; n++) {
      const s = sign(syntheticDoc(random, 40 + n * 10).join(' '));
      const record = compactRecord(s, 'en');
      const bytes = encodeRecord(record);
      expect(decodeRecord(bytes)).toEqual(record);
      // The Redis store's budget: a news-sized record stays well under 350 bytes (300 before the
      // lead passages: 4 bytes each, about 12 for the first 96 tokens).
      expect(bytes.length).toBeLessThan(350);
    }
  });

  it('rejects truncated bytes and unknown versions with a typed error', () => {
    const bytes = encodeRecord(compactRecord(sign('one two three four five six seven'), 'en'));
    expect(() => decodeRecord(bytes.subarray(0, bytes.length - 3))).toThrow(RecordFormatError);
    const other = bytes.slice();
    other[0] = 99;
    expect(() => decodeRecord(other)).toThrow(/unknown record version/);
  });
});
