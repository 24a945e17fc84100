import { beforeAll, describe, expect, it } from 'vitest';
import { resolveDedupConfig } from '../../src/config/profiles.js';
import { compactRecord, jaccardEstimate, PackedRecord, storedRecord } from '../../src/engine/record.js';
import { decodeRecord, encodeRecord } from '../../src/engine/record-bytes.js';
import { compareRecords } from '../../src/engine/verify.js';
import { initHashing } from '../../src/hash/xxhash.js';
import { LexiconSet } from '../../src/lexicon/lexicon.js';
import { isPassage } from '../../src/signatures/sentences.js';
import { Signer } from '../../src/signatures/signer.js';
import { termCosine } from '../../src/signatures/terms.js';
import { canonicalize } from '../../src/text/canonical.js';
import { editWords, rng, syntheticDoc } from '../support/engine.js';

const config = resolveDedupConfig('news');
let signer: Signer;
beforeAll(async () => {
  await initHashing();
  signer = new Signer(config.signatures, LexiconSet.defaults());
});

const sign = (text: string) =>
  signer.compute(canonicalize({ text, kind: 'text' }, config.signatures.canonical, 'en'));

describe('signature record', () => {
  it('keeps the distinct shingle count, and decodes records written without it', () => {
    const s = sign('one two three four five six seven eight nine ten one two three');
    const record = compactRecord(s, 'en');
    // The sentence section follows the shingle count: this test is about the count alone.
    delete record.sentences;
    expect(record.shingles).toBe(s.shingles);
    expect(s.shingles).toBeGreaterThan(0);
    const bytes = encodeRecord(record);
    expect(decodeRecord(bytes).shingles).toBe(record.shingles);
    // A record from before the field: the same bytes without the flag (128) and the last two.
    const old = bytes.slice(0, bytes.length - 2);
    old[1] = (old[1] as number) & ~128;
    const decoded = decodeRecord(old);
    expect(decoded.shingles).toBeUndefined();
    expect(compareRecords(decoded, record).containment).toBeUndefined();
    expect(compareRecords(record, record).containment).toBe(1);
  });

  it('keeps the sentence fingerprints, and decodes records written without them', () => {
    const s = sign(
      'The central bank raised its key interest rate by half a point on Friday. ' +
        'It was the third increase this year, and more may follow soon. Short line.',
    );
    expect(s.sentences).not.toBeNull();
    // Two sentences of 8+ tokens; "Short line." is too short to be fingerprinted. The rest of
    // the array are lead passages (low byte 0).
    expect(s.sentences!.values.filter((v) => !isPassage(v)).length).toBe(2);
    expect(s.sentences!.values.filter(isPassage).length).toBeGreaterThan(0);
    const record = compactRecord(s, 'en');
    const bytes = encodeRecord(record);
    const decoded = decodeRecord(bytes);
    expect([...decoded.sentences!]).toEqual([...s.sentences!.values]);
    expect(compareRecords(decoded, record).contained).toBe(1);
    // A record from before the section: the same bytes without it (count, cut, 4 bytes a value).
    const old = decodeRecord(bytes.slice(0, bytes.length - (5 + 4 * s.sentences!.values.length)));
    expect(old.sentences).toBeUndefined();
    expect(old.shingles).toBe(record.shingles);
    expect(compareRecords(old, record).contained).toBeUndefined();
  });

  it('keeps the evidence of the full signatures within the quantization error', () => {
    const random = rng(11);
    const base = syntheticDoc(random, 300);
    for (const share of [0.02, 0.1, 0.3, 0.6]) {
      const a = sign(base.join(' '));
      const b = sign(editWords(random, base, share).join(' '));
      let equal = 0;
      for (let i = 0; i < a.minhash!.length; i++) if (a.minhash![i] === b.minhash![i]) equal++;
      const full = equal / a.minhash!.length;
      const e = compareRecords(compactRecord(a, 'en'), compactRecord(b, 'en'));
      expect(Math.abs(e.jaccard! - full)).toBeLessThan(0.05);
      const cosine = termCosine(a.terms!, b.terms!);
      expect(Math.abs(e.cosine! - cosine)).toBeLessThan(0.03);
    }
  });

  it('corrects b-bit chance agreement: unrelated documents estimate near 0, equal ones 1', () => {
    expect(jaccardEstimate(84, 84)).toBe(1);
    expect(jaccardEstimate(0, 84)).toBe(0);
    expect(jaccardEstimate(1, 84)).toBeLessThan(1 / 84);
    const random = rng(3);
    const a = compactRecord(sign(syntheticDoc(random, 200).join(' ')), 'en');
    const b = compactRecord(sign(syntheticDoc(random, 200).join(' ')), 'en');
    expect(compareRecords(a, b).jaccard!).toBeLessThan(0.05);
  });

  it('gives the same evidence from the packed form as from the fields', () => {
    const random = rng(19);
    const base = syntheticDoc(random, 250);
    const records = [0, 0.02, 0.1, 0.3, 0.6, 1].map((share) =>
      compactRecord(sign(editWords(random, base, share).join(' ')), 'en'),
    );
    // Odd shapes: no min-hashes, an odd min-hash length, no terms, no lexical, several I-Matches.
    const first = records[0]!;
    records.push({ ...first, packed: undefined, minhash: null, terms: null, lexical: null });
    records.push({ ...first, packed: undefined, minhash: first.minhash!.slice(0, 83) });
    records.push({ ...first, packed: undefined, imatch: ['1:00000000000000ff', ...first.imatch] });
    const unpacked = (r: (typeof records)[number]) => ({ ...r, packed: null });
    for (const a of records)
      for (const b of records) expect(compareRecords(a, b)).toEqual(compareRecords(unpacked(a), unpacked(b)));
    // The message's record kept packed only (as the store keeps it, and as the main thread gets
    // it from a sign worker): its terms are read from the packed words, a repeated hash included.
    const t = first.terms!;
    records.push({
      ...first,
      packed: undefined,
      terms: {
        hashes: Uint32Array.from([t.hashes[0]!, ...t.hashes]),
        weights: Float32Array.from([0.5, ...t.weights]),
      },
    });
    for (const a of records) {
      const kept = storedRecord(a);
      expect(kept).toBeInstanceOf(PackedRecord);
      for (const b of records)
        expect(compareRecords(kept, b)).toEqual(compareRecords(unpacked(a), unpacked(b)));
    }
    // A field not in canonical form has no packed form: the fields are compared.
    expect({ ...first, packed: undefined, exact: 'not hex' }).toSatisfy(
      (r: typeof first) => compareRecords(r, r).exact && r.packed === null,
    );
  });
});

describe('signature record: facts (dates)', () => {
  it('keeps the dates a message names through encode and decode', () => {
    const record = compactRecord(
      sign('the inquest on 16 november heard that on november 8 the ride stopped'),
      'en',
    );
    expect(record.dates).toEqual([11 * 32 + 8, 11 * 32 + 16]);
    expect(decodeRecord(encodeRecord(record))).toEqual(record);
  });

  it('decodes a record written before dates existed (no flag, no section) with no dates', () => {
    const record = compactRecord(sign('one two three four five six seven eight nine'), 'en');
    expect(record.dates).toBeUndefined();
    const bytes = encodeRecord(record);
    // Flag bit 64 (dates) is clear, so the bytes are those of the format before the field.
    expect((bytes[1] as number) & 64).toBe(0);
    const decoded = decodeRecord(bytes);
    expect(decoded.dates).toBeUndefined();
    expect(decoded).toEqual(record);
  });
});
