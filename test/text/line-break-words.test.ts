import { describe, expect, it } from 'vitest';
import { joinLineBrokenWords } from '../../src/text/line-break-words.js';
import { codesOf, lexiconOf, textOf } from '../support/lexicon-fixture.js';

// idf values of the shape the default lexicons have: fragments and letters are in them, rare.
const known = lexiconOf({
  next: 1.97,
  ext: 7.81,
  n: 3.18,
  working: 2.51,
  wor: 8.5,
  king: 3.14,
  example: 2.9,
  exam: 4.2,
  end: 2.0,
  start: 2.2,
  вместе: 2.01,
  месте: 2.69,
  привет: 3.0,
  // Two rarer words whose joined form is a word too: at a real line end in a list of names.
  far: 4.7,
  amin: 4.3,
  faramin: 7.0,
});
const stops = new Set(['the', 'he', 'в', 'и']);
const join = (text: string): string => {
  const codes = codesOf(text);
  return textOf(codes, joinLineBrokenWords(codes, codes.length, known, stops));
};

describe('line breaks inside words', () => {
  it('joins pieces that make a known word cheaper than the pieces', () => {
    expect(join('the n\next one')).toBe('the next one');
    expect(join('wor\nking hard')).toBe('working hard');
    expect(join('an exam\nple')).toBe('an example');
    expect(join('t\nhe end')).toBe('the end');
    expect(join('при\nвет')).toBe('привет');
    expect(join('wor\nking and n\next')).toBe('working and next');
  });
  it('leaves real line ends: an unknown joined form, or two words cheaper than the joined one', () => {
    expect(join('the end\nstart here')).toBe('the end\nstart here');
    expect(join('и\nв')).toBe('и\nв');
    expect(join('reza far\namin said')).toBe('reza far\namin said');
    expect(join('в\nместе')).toBe('в\nместе');
    expect(join('line one\n\nline two')).toBe('line one\n\nline two');
    expect(join('end\n start')).toBe('end\n start');
  });
  it('joins only letters of one script', () => {
    expect(join('wor\nкing')).toBe('wor\nкing');
  });
});
