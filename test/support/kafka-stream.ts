import { editWords, rng, syntheticDoc } from './engine.js';

/**
 * A known news stream for the Kafka suites. Phase 1: originals (each unique; each its own
 * cluster). Phase 2 (produced after phase 1 is processed, so "first" is known): exact copies,
 * near-duplicate edits, story members (same event, different wording: they join the original's
 * cluster with a `unique` verdict), and bad records. Messages go to explicit partitions, so that
 * copies and story members land on other partitions than their originals.
 */
export interface StreamMessage {
  /** The id the consumer should give it. */
  id: string;
  partition: number;
  key?: string;
  value: string | Buffer | null;
  expect:
    | { verdict: 'unique'; cluster: string; story?: boolean }
    | { verdict: 'duplicate' | 'near_duplicate'; duplicateOf: string; cluster: string }
    | { verdict: 'invalid'; code: string };
}

export interface KnownStream {
  phase1: StreamMessage[];
  phase2: StreamMessage[];
}

/** Words of one "event": a few rare names repeated, which dominate the tf*idf topic vector. */
function storyWords(random: () => number, names: readonly string[], length: number): string[] {
  const words = syntheticDoc(random, length, 50_000);
  for (let i = 0; i < words.length; i += 6) words[i] = names[Math.floor(random() * names.length)] as string;
  return words;
}

export function knownStream(
  options: { originals?: number; partitions?: number; seed?: number; prefix?: string } = {},
): KnownStream {
  const originals = options.originals ?? 60;
  const partitions = options.partitions ?? 4;
  const prefix = options.prefix ?? 'm';
  const random = rng(options.seed ?? 7);
  const phase1: StreamMessage[] = [];
  const phase2: StreamMessage[] = [];
  const texts: string[][] = [];
  const names: string[][] = [];
  for (let i = 0; i < originals; i++) {
    const eventNames = [0, 1, 2, 3].map((k) => `n${i}q${k}z${Math.floor(random() * 1e6).toString(36)}`);
    names.push(eventNames);
    const words = storyWords(random, eventNames, 140);
    texts.push(words);
    const id = `${prefix}-o${i}`;
    phase1.push({
      id,
      partition: i % partitions,
      value: JSON.stringify({ id, lang: 'en', text: words.join(' ') }),
      expect: { verdict: 'unique', cluster: id },
    });
  }
  const other = (i: number) => (i + 1) % partitions;
  for (let i = 0; i < originals; i++) {
    const original = `${prefix}-o${i}`;
    const words = texts[i] as string[];
    const kind = i % 4;
    if (kind === 0) {
      // Exact copy after canonicalization (case and spacing differ); id from the Kafka key.
      const id = `${prefix}-x${i}`;
      phase2.push({
        id,
        key: id,
        partition: other(i),
        value: JSON.stringify({ lang: 'en', text: `  ${words.join('  ').toUpperCase()} ` }),
        expect: { verdict: 'duplicate', duplicateOf: original, cluster: original },
      });
    } else if (kind === 1) {
      const id = `${prefix}-n${i}`;
      phase2.push({
        id,
        partition: other(i),
        value: JSON.stringify({ id, lang: 'en', text: editWords(random, words, 0.04).join(' ') }),
        expect: { verdict: 'near_duplicate', duplicateOf: original, cluster: original },
      });
    } else if (kind === 2) {
      // The same event in other words: the rare names again, everything else new.
      const id = `${prefix}-s${i}`;
      phase2.push({
        id,
        partition: other(i),
        value: JSON.stringify({
          id,
          lang: 'en',
          text: storyWords(random, names[i] as string[], 140).join(' '),
        }),
        expect: { verdict: 'unique', cluster: original, story: true },
      });
    }
  }
  // Bad records: each one a different reason, none of them may stop the consumer.
  const bad: Array<[string, string | Buffer | null, string]> = [
    ['not-json', `{"id": "${prefix}-bad-1", "text": `, 'INVALID_JSON'],
    ['no-content', JSON.stringify({ id: `${prefix}-bad-2`, title: 'only a title' }), 'MISSING_CONTENT'],
    ['empty', null, 'MISSING_CONTENT'],
    ['array', JSON.stringify(['a', 'b']), 'INVALID_MESSAGE'],
    ['bad-base64', JSON.stringify({ id: `${prefix}-bad-5`, raw: '%%%not base64%%%' }), 'INVALID_BASE64'],
    ['punctuation', JSON.stringify({ id: `${prefix}-bad-6`, text: '... --- !!! ???' }), 'EMPTY_TEXT'],
    ['latin1-json', Buffer.from([0x7b, 0xff, 0xfe, 0x7d]), 'INVALID_JSON'],
  ];
  bad.forEach(([name, value, code], i) => {
    const key = `${prefix}-badkey-${name}`;
    // The payload's id when it can be salvaged, else the key.
    const idFromPayload = typeof value === 'string' ? (/"id":\s*"([^"]+)"/.exec(value)?.[1] ?? key) : key;
    phase2.push({
      id: idFromPayload,
      key,
      partition: i % partitions,
      value,
      expect: { verdict: 'invalid', code },
    });
  });
  return { phase1, phase2 };
}
