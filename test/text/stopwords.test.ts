import lists from 'stopword';
import { eng, fas, rus, ukr } from 'stopword/dist/stopword.esm.min.mjs';
import { describe, expect, it } from 'vitest';
import { stopWords } from '../../src/text/stopwords.js';

describe('stop words', () => {
  it("the package's ES module build has the same lists as its default entry", () => {
    expect(eng).toEqual(lists.eng);
    expect(rus).toEqual(lists.rus);
    expect(ukr).toEqual(lists.ukr);
    expect(fas).toEqual(lists.fas);
    expect(eng.length).toBeGreaterThan(100);
  });

  it('are function words of each language, in canonical form', () => {
    expect(stopWords('en').has('the')).toBe(true);
    expect(stopWords('en').has('white')).toBe(false);
    expect(stopWords('ru').has('и')).toBe(true);
    expect(stopWords('uk').has('і')).toBe(true);
    // Persian, with the Arabic yeh folded to the Persian one (normalized as document text is).
    expect(stopWords('fa').has('این')).toBe(true);
    expect(stopWords('und').size).toBe(0);
  });
});
