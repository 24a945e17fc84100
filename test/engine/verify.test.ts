import { beforeAll, describe, expect, it } from 'vitest';
import { resolveDedupConfig } from '../../src/config/profiles.js';
import { matchLevel } from '../../src/engine/decide.js';
import { compactRecord, storedRecord } from '../../src/engine/record.js';
import type { SignatureRecord } from '../../src/engine/types.js';
import { copyEvidence, newEvidence, Verifier } from '../../src/engine/verify.js';
import { initHashing } from '../../src/hash/xxhash.js';
import { LexiconSet } from '../../src/lexicon/lexicon.js';
import { Signer } from '../../src/signatures/signer.js';
import { canonicalize } from '../../src/text/canonical.js';
import { rng, syntheticDoc } from '../support/engine.js';

const config = resolveDedupConfig('news');
let records: SignatureRecord[];

beforeAll(async () => {
  await initHashing();
  const signer = new Signer(config.signatures, LexiconSet.defaults());
  const random = rng(11);
  const base = syntheticDoc(random, 160);
  const texts = [
    base.join(' '),
    // A copy with a changed ending, a teaser of the first sentences, an unrelated text.
    [...base.slice(0, 140), ...syntheticDoc(random, 20)].join(' '),
    base.slice(0, 40).join(' '),
    syntheticDoc(random, 160).join(' '),
    'short text',
  ];
  records = texts.map((text) =>
    compactRecord(
      signer.compute(canonicalize({ text, kind: 'text' }, config.signatures.canonical, 'en')),
      'en',
    ),
  );
});

describe('Verifier.compareInto', () => {
  it('gives what compare gives, into one reused object, every field overwritten', () => {
    const scratch = newEvidence(true, 1, 1, true, 3, 1);
    scratch.contained = 1;
    scratch.containedSentences = 9;
    scratch.containedTokens = 99;
    scratch.containment = 1;
    const verifier = new Verifier();
    let matched = 0;
    for (const a of records) {
      verifier.load(a);
      // The stored (packed-only) form of the candidates too: compare reads either.
      for (const b of [...records, ...records.map(storedRecord)]) {
        const fresh = verifier.compare(b);
        expect(verifier.compareInto(b, scratch)).toBe(scratch);
        expect(scratch).toEqual(fresh);
        // A copy has the shape and JSON of a fresh one (a verdict's evidence is serialized).
        expect(JSON.stringify(copyEvidence(scratch))).toBe(JSON.stringify(fresh));
        if (matchLevel(scratch, config.decision, a.tokens, b.tokens).level !== 'none') matched++;
      }
    }
    // Matches and non-matches were both met.
    expect(matched).toBeGreaterThan(records.length);
    expect(matched).toBeLessThan(2 * records.length * records.length);
  });
});
