import { editWords, rng, syntheticDoc } from '../../support/engine.js';

/**
 * The chaos suite's stream: `originals` unique news stories (phase 1), then (phase 2, produced
 * once phase 1 is committed, so "first" is known) exact copies and near-duplicates of some of
 * them on other partitions, re-sends of originals under their own id (replays of a decided id),
 * and invalid records of every kind in both phases. Every record's key is its id.
 */
export interface ChaosMessage {
  id: string;
  partition: number;
  value: string | Buffer | null;
  expect:
    | { verdict: 'unique' }
    | { verdict: 'duplicate' | 'near_duplicate'; duplicateOf: string }
    | { verdict: 'replay'; of: string }
    | { verdict: 'invalid'; code: string };
}

export interface ChaosStream {
  phase1: ChaosMessage[];
  phase2: ChaosMessage[];
}

export interface ChaosStreamOptions {
  seed: number;
  prefix: string;
  originals: number;
  copies: number;
  nears: number;
  replays: number;
  invalid1: number;
  invalid2: number;
  partitions: number;
}

const INVALID: Array<[string, (id: string, random: () => number) => string | Buffer | null, string]> = [
  ['not-json', (id) => `{"id": "${id}", "text": `, 'INVALID_JSON'],
  ['no-content', (id) => JSON.stringify({ id, title: 'only a title' }), 'MISSING_CONTENT'],
  ['null', () => null, 'MISSING_CONTENT'],
  ['bad-base64', (id) => JSON.stringify({ id, raw: '%%%not base64%%%' }), 'INVALID_BASE64'],
  ['punctuation', (id) => JSON.stringify({ id, text: '... --- !!! ???' }), 'EMPTY_TEXT'],
  ['array', () => JSON.stringify(['a', 'b']), 'INVALID_MESSAGE'],
  [
    'binary',
    (_id, random) =>
      Buffer.from(Array.from({ length: 64 }, (_, i) => (i === 0 ? 0xff : Math.floor(random() * 256)))),
    'INVALID_JSON',
  ],
];

export function chaosStream(o: ChaosStreamOptions): ChaosStream {
  const random = rng(o.seed);
  const texts: string[][] = [];
  const phase1: ChaosMessage[] = [];
  const phase2: ChaosMessage[] = [];
  const invalid = (label: string, n: number, into: ChaosMessage[]) => {
    for (let i = 0; i < n; i++) {
      const [kind, make, code] = INVALID[i % INVALID.length]!;
      const id = `${o.prefix}-${label}${i}-${kind}`;
      into.push({
        id,
        partition: i % o.partitions,
        value: make(id, random),
        expect: { verdict: 'invalid', code },
      });
    }
  };
  for (let i = 0; i < o.originals; i++) {
    const words = syntheticDoc(random, 120, 50_000);
    texts.push(words);
    const id = `${o.prefix}-o${i}`;
    phase1.push({
      id,
      partition: i % o.partitions,
      value: JSON.stringify({ id, lang: 'en', text: words.join(' ') }),
      expect: { verdict: 'unique' },
    });
  }
  invalid('bad1-', o.invalid1, phase1);
  const other = (i: number) => (i + 1) % o.partitions;
  for (let k = 0; k < o.copies; k++) {
    const i = k % o.originals;
    const id = `${o.prefix}-x${k}`;
    phase2.push({
      id,
      partition: other(i),
      // The same canonical text: case and spacing differ.
      value: JSON.stringify({ id, lang: 'en', text: `  ${texts[i]!.join('  ').toUpperCase()} ` }),
      expect: { verdict: 'duplicate', duplicateOf: `${o.prefix}-o${i}` },
    });
  }
  for (let k = 0; k < o.nears; k++) {
    const i = (o.copies + k) % o.originals;
    const id = `${o.prefix}-n${k}`;
    phase2.push({
      id,
      partition: other(i),
      value: JSON.stringify({ id, lang: 'en', text: editWords(random, texts[i]!, 0.03).join(' ') }),
      expect: { verdict: 'near_duplicate', duplicateOf: `${o.prefix}-o${i}` },
    });
  }
  for (let k = 0; k < o.replays; k++) {
    const original = phase1[(o.copies + o.nears + k) % o.originals]!;
    phase2.push({
      id: original.id,
      partition: other(original.partition),
      value: original.value,
      expect: { verdict: 'replay', of: original.id },
    });
  }
  invalid('bad2-', o.invalid2, phase2);
  // Interleave phase 2's kinds, so that every fault meets a mix of them.
  for (let i = phase2.length - 1; i > 0; i--) {
    const j = Math.floor(random() * (i + 1));
    [phase2[i], phase2[j]] = [phase2[j]!, phase2[i]!];
  }
  return { phase1, phase2 };
}
