import { describe, expect, it } from 'vitest';
import { leadApplies, leadOnly, reordered, reorderedPart } from '../../../src/eval/generator/partial.js';
import { parseBody, renderBody, sentenceSlots } from '../../../src/eval/generator/text.js';
import { Random } from '../../../src/eval/random.js';

const SENTENCES = [
  'The regional council approved a new budget for public transport on Tuesday after a long debate.',
  'The plan adds four tram lines and replaces the oldest buses with electric ones over five years.',
  'Opposition members said the cost estimates were far too optimistic and asked for a review.',
  'Ticket prices will stay the same until the end of next year, the council said in a statement.',
  'Construction of the first new line is expected to begin in the spring, once land is bought.',
  'Local businesses along the planned routes have asked for compensation for months of roadworks.',
  'The transport union welcomed the plan but warned that more drivers would have to be hired.',
  'A final vote on the tram contracts is planned for the council meeting in February.',
];
const body = parseBody(`${SENTENCES.slice(0, 4).join(' ')}\n\n${SENTENCES.slice(4).join(' ')}`, 'en');
const sentencesOf = (text: string) => {
  const b = parseBody(text, 'en');
  return sentenceSlots(b).map(({ p, s }) => b.paragraphs[p]![s]!.text.trim());
};

describe('partial and reordered copies', () => {
  it('lead-only: the first sentences, 30 words or more, much shorter than the text', () => {
    expect(leadApplies(body)).toBe(true);
    for (let seed = 1; seed <= 10; seed++) {
      const lead = leadOnly(body, 'en', Random.from(seed, 'lead-test'))!;
      const [text] = lead.split('\n');
      const got = sentencesOf(text!);
      expect(got.length).toBeGreaterThanOrEqual(2);
      expect(got).toEqual(SENTENCES.slice(0, got.length));
      expect(text!.split(/\s+/).length).toBeGreaterThanOrEqual(30);
      expect(text!.length).toBeLessThan(0.6 * renderBody(body).length);
    }
    expect(leadApplies(parseBody(SENTENCES.slice(0, 3).join(' '), 'en'))).toBe(false);
  });

  it('reordered: every sentence once, in another order', () => {
    const text = reordered(body, Random.from(2, 'reorder-test'))!;
    const got = sentencesOf(text);
    expect([...got].sort()).toEqual([...SENTENCES].sort());
    expect(got).not.toEqual(SENTENCES);
  });

  it('reordered part: a run of 40-70% of the sentences, reordered', () => {
    for (let seed = 1; seed <= 10; seed++) {
      const got = sentencesOf(reorderedPart(body, Random.from(seed, 'part-test'))!);
      expect(got.length).toBeGreaterThanOrEqual(3);
      expect(got.length).toBeLessThanOrEqual(Math.ceil(0.7 * SENTENCES.length));
      const at = got.map((s) => SENTENCES.indexOf(s)).sort((a, b) => a - b);
      expect(at[0]).toBeGreaterThanOrEqual(0);
      // One run of consecutive sentences of the source.
      expect(at[at.length - 1]! - at[0]!).toBe(at.length - 1);
    }
  });
});
