import { beforeAll, describe, expect, it } from 'vitest';
import type { IndexMethod } from '../../src/config/dedup.js';
import { resolveDedupConfig } from '../../src/config/profiles.js';
import { IndexKeyBuilder, indexKey, keyHex, keyNumber, methodOfTable } from '../../src/engine/index-keys.js';
import type { Signer } from '../../src/signatures/signer.js';
import { signText, testEngine } from '../support/engine.js';

let engine: Signer;
const config = resolveDedupConfig('news');
beforeAll(async () => {
  engine = await testEngine(undefined, config.signatures);
});

const text =
  'The central bank raised its key interest rate by half a percentage point on Friday, the third increase this year, saying inflation was still running above target.';

describe('index keys', () => {
  it('gives one key per table of every method, with stable table names', () => {
    const all = new IndexKeyBuilder(
      config.signatures,
      new Set<IndexMethod>(['exact', 'simhash', 'imatch', 'mega', 'bands', 'lexical', 'topic']),
      5,
    );
    const keys = all.keys(signText(engine, text, 'en'));
    const count = (m: IndexMethod) => keys.filter((k) => methodOfTable(k.table) === m).length;
    expect(count('exact')).toBe(1);
    expect(count('simhash')).toBe(20);
    expect(count('bands')).toBe(20);
    expect(count('mega')).toBe(15);
    expect(count('topic')).toBe(5);
    expect(count('lexical')).toBe(0); // lexical signatures are off in the news profile
    for (const k of keys) expect(keyHex(k)).toMatch(/^[0-9a-f]{16}$/);
  });

  it('indexes only the configured methods (news default: exact, bands, topic, sentences)', () => {
    const keys = new IndexKeyBuilder(
      config.signatures,
      new Set(config.index.methods),
      config.index.topicKeys,
    ).keys(signText(engine, text, 'en'));
    expect(new Set(keys.map((k) => methodOfTable(k.table)))).toEqual(
      new Set(['exact', 'bands', 'topic', 'sentences']),
    );
  });

  it('is deterministic and shares most keys between near-duplicates', () => {
    const b = new IndexKeyBuilder(config.signatures, new Set(config.index.methods), 5);
    const a1 = b.keys(signText(engine, text, 'en')).map((k) => `${k.table}:${keyHex(k)}`);
    const a2 = b.keys(signText(engine, text, 'en')).map((k) => `${k.table}:${keyHex(k)}`);
    expect(a2).toEqual(a1);
    const near = new Set(
      b.keys(signText(engine, `${text} Read more.`, 'en')).map((k) => `${k.table}:${keyHex(k)}`),
    );
    expect(a1.filter((k) => near.has(k)).length).toBeGreaterThan(10);
  });

  it('maps keys to 31-bit numbers (unboxed in memory)', () => {
    for (const k of [
      { table: 'x', hi: 0xffffffff, lo: 0xffffffff },
      { table: 'x', hi: 0, lo: 1 },
    ]) {
      const n = keyNumber(k);
      expect(Number.isInteger(n) && n >= 0 && n < 2 ** 31).toBe(true);
    }
  });

  it('holds each half as a signed 32-bit integer, every slot of the array filled', () => {
    const all = new IndexKeyBuilder(
      config.signatures,
      new Set<IndexMethod>(['exact', 'simhash', 'imatch', 'mega', 'bands', 'lexical', 'topic', 'sentences']),
      5,
    );
    const keys = all.keys(signText(engine, text, 'en'));
    expect(keys.length).toBeGreaterThan(60);
    // Array.prototype.every skips holes: count the filled slots by index.
    let filled = 0;
    for (let i = 0; i < keys.length; i++) if (keys[i] !== undefined) filled++;
    expect(filled).toBe(keys.length);
    for (const k of keys) {
      expect(k.hi).toBe(k.hi | 0);
      expect(k.lo).toBe(k.lo | 0);
    }
    // Some half has its top bit set, so the signed form is what is being checked.
    expect(keys.some((k) => k.hi < 0 || k.lo < 0)).toBe(true);
  });

  it('gives a signed key the hex, number and bucket of its unsigned form', () => {
    const unsigned = { table: 'b3', hi: 0xfedcba98, lo: 0x80000001 };
    const signed = indexKey('b3', unsigned.hi, unsigned.lo);
    expect(signed).toEqual({ table: 'b3', hi: 0xfedcba98 | 0, lo: 0x80000001 | 0 });
    expect(keyHex(signed)).toBe('fedcba9880000001');
    expect(keyNumber(signed)).toBe(keyNumber(unsigned));
  });
});
