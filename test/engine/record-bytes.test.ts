import { beforeAll, describe, expect, it } from 'vitest';
import { resolveDedupConfig } from '../../src/config/profiles.js';
import { compactRecord, PackedRecord, storedRecord } from '../../src/engine/record.js';
import {
  decodePackedRecord,
  decodeRecord,
  encodedSizeBound,
  encodeRecord,
  encodeRecordInto,
  RecordFormatError,
} from '../../src/engine/record-bytes.js';
import type { SignatureRecord } from '../../src/engine/types.js';
import { initHashing } from '../../src/hash/xxhash.js';
import { LexiconSet } from '../../src/lexicon/lexicon.js';
import { Signer } from '../../src/signatures/signer.js';
import { canonicalize } from '../../src/text/canonical.js';
import { rng, syntheticDoc } from '../support/engine.js';
import { RECORD_SIGNATURE_FIELDS } from '../support/record-fields.js';

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

describe('the record binary form, byte for byte', () => {
  // Every section, values at their edges (tokens and shingles past 16 bits, a date past 16 bits,
  // a short hex value read zero-padded, a negative SimHash half): the bytes the Redis store keeps.
  const full: SignatureRecord = {
    lang: 'uk',
    tokens: 70000,
    exact: '89abcdef01234567',
    simhash: { hi: -0x76543211, lo: 0x12345678 },
    minhash: Uint8Array.from([1, 2, 250, 255]),
    imatch: ['0:00ff00ff00ff00ff', '12:fedcba9876543210'],
    lexical: 'abc',
    longest: '0000000000000001',
    heaviest: 'ffffffffffffffff',
    terms: { hashes: Uint32Array.from([0x123456, 0xabcdef]), weights: Float32Array.from([0.5, 1]) },
    dates: [1, 0x1ffff],
    shingles: 70000,
    sentences: Uint32Array.from([0x12345614, 0xfedcba98]),
    sentenceCut: 0xabcdef01,
  };
  const bare: SignatureRecord = {
    ...full,
    tokens: 3,
    simhash: null,
    minhash: null,
    imatch: [],
    lexical: null,
    longest: null,
    heaviest: null,
    terms: null,
    dates: undefined,
    shingles: undefined,
    sentences: undefined,
    sentenceCut: undefined,
  };
  const expected = [
    [
      full,
      '01ffffff02756befcdab8967452301efcdab8978563412040102faff0200ff00ff00ff00ff000c98badcfe10325476' +
        '00000000bc0a00000000000001000000ffffffffffffffff0256341280efcdabff020100ffffffff0201efcdab14' +
        '56341298badcfe',
    ],
    [bare, '0100030002756befcdab896745230100'],
  ] as const;

  it('encodes the same bytes as version 1 always did', () => {
    for (const [record, hex] of expected) expect(Buffer.from(encodeRecord(record)).toString('hex')).toBe(hex);
  });

  it('encodes into a shared buffer at any offset, within its size bound', () => {
    const out = new Uint8Array(7 + encodedSizeBound(full) + encodedSizeBound(bare)).fill(0xee);
    const middle = encodeRecordInto(full, out, 7);
    const end = encodeRecordInto(bare, out, middle);
    expect(middle - 7).toBeLessThanOrEqual(encodedSizeBound(full));
    expect(Buffer.from(out.subarray(0, 7)).toString('hex')).toBe('ee'.repeat(7));
    expect(Buffer.from(out.subarray(7, middle)).toString('hex')).toBe(expected[0][1]);
    expect(Buffer.from(out.subarray(middle, end)).toString('hex')).toBe(expected[1][1]);
  });

  it('rejects a value that is not hex as before', () => {
    expect(() => encodeRecord({ ...bare, exact: 'not hex at all!!' })).toThrow(/not a 64-bit hex value/);
  });
});

/** What a decoder gives for `bytes`: its record, or the class of what it threw (the byte it names may differ). */
function outcome(decode: (bytes: Uint8Array) => SignatureRecord, bytes: Uint8Array): unknown {
  try {
    return decode(bytes);
  } catch (error) {
    return { threw: (error as Error).constructor.name };
  }
}

describe('decodePackedRecord', () => {
  const records = (): SignatureRecord[] => {
    const random = rng(11);
    const out: SignatureRecord[] = [];
    for (let n = 0; n < 12; n++)
      out.push(compactRecord(sign(syntheticDoc(random, 20 + n * 25).join(' ')), 'en'));
    // Every optional section, and the high bits of every word set (signed 32-bit halves).
    out.push({
      lang: 'uk',
      tokens: 70000,
      exact: 'ffffffff80000001',
      simhash: { hi: 0xfedcba98, lo: 0x80000000 },
      minhash: Uint8Array.from([255, 0, 128, 7, 1]),
      imatch: ['0:8000000000000000', '3:ffffffffffffffff'],
      lexical: 'a0b1c2d3e4f50617',
      longest: '0000000000000001',
      heaviest: 'ffffffff00000000',
      terms: {
        hashes: Uint32Array.from([0xffffff, 1, 0x800000]),
        weights: Float32Array.from([0.9, 0.3, 0.1]),
      },
      dates: [3, 17000, 65535],
      shingles: 65535,
      sentences: Uint32Array.from([1, 0x80000000, 0xffffffff]),
      sentenceCut: 0x90000000,
    });
    // No optional section at all, and a language that is not a short ASCII code.
    out.push({
      lang: 'zh-Hant',
      tokens: 0,
      exact: '0000000000000000',
      simhash: null,
      minhash: null,
      imatch: [],
      lexical: null,
      longest: null,
      heaviest: null,
      terms: null,
    });
    return out;
  };

  it('gives what the store kept of decodeRecord: the same packed record, the same fields', () => {
    for (const record of records()) {
      const bytes = encodeRecord(record);
      const viaRecord = storedRecord(decodeRecord(bytes));
      const direct = decodePackedRecord(bytes);
      expect(direct).toBeInstanceOf(PackedRecord);
      expect(direct).toEqual(viaRecord);
      // The fields rebuilt from the packed words are the full decoder's.
      const full = decodeRecord(bytes);
      for (const field of RECORD_SIGNATURE_FIELDS) expect(direct[field]).toEqual(full[field]);
    }
  });

  it('agrees with decodeRecord on every truncation and on an unknown version', () => {
    for (const record of records().slice(-3)) {
      const bytes = encodeRecord(record);
      for (let end = 0; end < bytes.length; end++) {
        const cut = bytes.slice(0, end);
        const full = outcome((b) => storedRecord(decodeRecord(b)), cut);
        expect(outcome(decodePackedRecord, cut), `cut at ${end}`).toEqual(full);
      }
      const other = bytes.slice();
      other[0] = 2;
      expect(() => decodePackedRecord(other)).toThrow(/unknown record version 2/);
    }
  });
});
