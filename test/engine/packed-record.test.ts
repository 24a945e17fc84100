import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { resolveDedupConfig } from '../../src/config/profiles.js';
import { RequestPreparer } from '../../src/engine/engine.js';
import { PackedRecord, storedRecord } from '../../src/engine/record.js';
import { parseMessageObject } from '../../src/input/message.js';
import { engineMessage } from '../../src/pipeline/flow.js';
import { signMessage } from '../../src/pipeline/sign.js';
import { createSigner } from '../../src/signatures/create.js';
import { RECORD_FIELDS } from '../support/record-fields.js';

describe('PackedRecord (the memory store keeps records packed only)', () => {
  it('gives back every field of the record it was made from', async () => {
    const engine = await createSigner();
    const preparer = new RequestPreparer(resolveDedupConfig('news', {}, 'profile'));
    const fixtures = readFileSync(resolve(import.meta.dirname, '../fixtures/articles.jsonl'), 'utf8')
      .split('\n')
      .filter((l) => l.trim() !== '');
    expect(fixtures.length).toBeGreaterThan(3);
    for (const line of fixtures) {
      const signed = await signMessage(parseMessageObject(JSON.parse(line)), engine);
      const { record } = preparer.indexRequest(engineMessage(signed, 0));
      const stored = storedRecord(record);
      expect(stored).toBeInstanceOf(PackedRecord);
      for (const field of RECORD_FIELDS) expect(stored[field], field).toEqual(record[field]);
      expect(stored.packed).toBe(record.packed);
      expect(record.shingles).toBeGreaterThan(0);
    }
  });

  it('leaves a record without a packed form (non-canonical fields) as it is', () => {
    const odd = {
      lang: 'en',
      tokens: 3,
      exact: 'not-hex',
      simhash: null,
      minhash: null,
      imatch: [],
      lexical: null,
      longest: null,
      heaviest: null,
      terms: null,
    };
    expect(storedRecord(odd)).toBe(odd);
  });
});
