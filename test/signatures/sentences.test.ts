import { beforeAll, describe, expect, it } from 'vitest';
import { resolveDedupConfig } from '../../src/config/profiles.js';
import { initHashing } from '../../src/hash/xxhash.js';
import { LexiconSet } from '../../src/lexicon/lexicon.js';
import {
  emptySentenceContainment,
  isPassage,
  NO_CUT,
  passageTokens,
  type SentenceContainment,
  sentenceContainment,
} from '../../src/signatures/sentences.js';
import { Signer } from '../../src/signatures/signer.js';
import { canonicalize } from '../../src/text/canonical.js';

const config = resolveDedupConfig('news').signatures;
let signer: Signer;
beforeAll(async () => {
  await initHashing();
  signer = new Signer(config, LexiconSet.defaults());
});

function fingerprints(text: string): Uint32Array {
  const s = signer.compute(canonicalize({ text, kind: 'text' }, config.canonical, 'en')).sentences;
  if (s === null) throw new Error('sentence fingerprints are on in the news profile');
  return s.values;
}
const passages = (text: string) => [...fingerprints(text)].filter(isPassage);
const sentencesOf = (text: string) => [...fingerprints(text)].filter((v) => !isPassage(v));

const SENTENCES = [
  'The harbour authority said on Tuesday that the northern pier would close for repairs until spring.',
  'Ferries to the islands will leave from the southern terminal instead, with two extra crossings a day.',
  'Local traders worried that fewer visitors would walk past their shops during the winter months.',
  'The council promised a shuttle bus between the old town and the new departure point.',
  'Engineers found cracks in the concrete supports after the storms of last November.',
  'Repairs are expected to cost about four million euros, shared by the port and the region.',
];

function containment(a: string, b: string): SentenceContainment {
  const out = emptySentenceContainment();
  const fa = fingerprints(a);
  const fb = fingerprints(b);
  return sentenceContainment(fa, NO_CUT, a.split(' ').length, fb, NO_CUT, b.split(' ').length, out);
}

describe('lead passages', () => {
  it('depend on the words only: punctuation, glued sentences and line breaks cut them alike', () => {
    const plain = SENTENCES.join(' ');
    const glued = SENTENCES.join('');
    const lines = SENTENCES.map((s) => s.replace(/\.$/, '')).join('\n\n');
    expect(passages(plain).length).toBeGreaterThan(5);
    expect(passages(glued)).toEqual(passages(plain));
    expect(passages(lines)).toEqual(passages(plain));
    // The sentence fingerprints do differ: glued, the text is one sentence.
    expect(sentencesOf(glued)).not.toEqual(sentencesOf(plain));
  });

  it('are told from sentence fingerprints by their low byte and weigh 3-15 tokens', () => {
    for (const v of passages(SENTENCES.join(' '))) {
      expect(v & 0xff).toBe(0);
      expect(passageTokens(v)).toBeGreaterThanOrEqual(3);
      expect(passageTokens(v)).toBeLessThanOrEqual(15);
    }
    for (const v of sentencesOf(SENTENCES.join(' '))) expect(v & 0xff).toBeGreaterThan(0);
  });

  it('cover only the first leadTokens tokens', () => {
    const long = [...SENTENCES, ...SENTENCES.map((s) => s.replace('The', 'A'))].join(' ');
    const few = new Signer(
      resolveDedupConfig('news', { signatures: { sentences: { leadTokens: 20 } } }).signatures,
      LexiconSet.defaults(),
    );
    const s = few.compute(canonicalize({ text: long, kind: 'text' }, config.canonical, 'en')).sentences;
    const tokens = [...(s?.values ?? [])].filter(isPassage).reduce((a, v) => a + passageTokens(v), 0);
    expect(tokens).toBeGreaterThan(0);
    expect(tokens).toBeLessThanOrEqual(20);
  });

  it('measure a glued teaser cut at a word limit as contained in its article, sentences do not', () => {
    const article = SENTENCES.join(' ');
    const teaser = `${SENTENCES.join('').split(' ').slice(0, 44).join(' ')}... Read more`;
    const c = containment(teaser, article);
    // The news profile's threshold is 0.6: the "Read more" tail falls in an unshared passage.
    expect(c.leadShare).toBeGreaterThanOrEqual(0.6);
    expect(c.leadTokens).toBeGreaterThanOrEqual(20);
    expect(c.share).toBeLessThan(c.leadShare);
  });

  it('give a text of a few words none (its runs cannot end: a run end needs 2 tokens after it)', () => {
    for (const text of ['Ferries', 'Ferries move', 'Ferries move south', 'Ferries move south tonight'])
      expect(passages(text)).toEqual([]);
    // Six words: at most one run, of 3 tokens or more.
    for (const v of passages('Ferries move south tonight after repairs'))
      expect(passageTokens(v)).toBeGreaterThanOrEqual(3);
  });

  it('come after the sentence values, in reading order: a cut teaser holds the first ones', () => {
    const article = SENTENCES.join(' ');
    const values = [...fingerprints(article)];
    const firstPassage = values.findIndex(isPassage);
    expect(firstPassage).toBeGreaterThan(0);
    expect(values.slice(firstPassage).every(isPassage)).toBe(true);
    const sentenceValues = values.slice(0, firstPassage);
    expect(sentenceValues).toEqual([...sentenceValues].sort((x, y) => x - y));
    // Cut at 30 words, the teaser's passages are the article's first ones, its last run left out.
    const cut = passages(article.split(' ').slice(0, 30).join(' '));
    expect(cut.length).toBeGreaterThan(3);
    expect(cut).toEqual(passages(article).slice(0, cut.length));
  });

  it('fall into step with the article a few words after a lead-in, a dateline or a headline', () => {
    const article = SENTENCES.join(' ');
    const own = passages(article);
    for (const prefix of [
      'Breaking:',
      'LONDON, Nov 3 (Reuters) -',
      'Harbour pier to close for winter repairs\n',
      'UPDATE 2 - Ferries moved to the southern terminal, traders worried -',
    ]) {
      const theirs = passages(`${prefix} ${article}`);
      // Only the article's first run may differ (the prefix's last words decide where the run
      // before it ends) and, the article being ~95 tokens, its last one, which falls outside
      // the prefixed text's 96-token window; every run between is shared, in the same order.
      const later = own.slice(1, -1);
      expect(later.every((v) => theirs.includes(v))).toBe(true);
      expect(theirs.filter((v) => later.includes(v))).toEqual(later);
    }
  });

  it('leave an unshared start out of a teaser’s share when the shared part is larger', () => {
    const article = SENTENCES.join(' ');
    const lead = SENTENCES.slice(0, 3).join(' ');
    const headline = 'Northern pier closes for the winter, ferries move south';
    const withHeadline = containment(`${headline}\n${lead}`, article);
    expect(withHeadline.leadShare).toBe(1);
    expect(withHeadline.leadTokens).toBeGreaterThanOrEqual(25);
    // The same with a "Related" list after the lead instead.
    const related = `${lead}\n\nRelated:\n- Storm damage along the coast\n- New timetable for buses`;
    expect(containment(related, article).leadShare).toBe(1);
    // An own start longer than the shared part counts: one shared sentence is not the text.
    const ownStart = [
      'A spokesperson for the fishing cooperative declined to comment on the closure or its cost.',
      'Boats registered in the harbour will moor along the river quay while the work goes on.',
      'The cooperative expects its members to lose a third of their winter catch this year.',
    ].join(' ');
    expect(containment(`${ownStart} ${SENTENCES[0]}`, article).leadShare).toBeLessThan(0.6);
  });

  it('keep an own start in the share when what follows it is not the article word for word', () => {
    const article = SENTENCES.join(' ');
    const headline = 'Northern pier closes for the winter, ferries move south';
    const edit = (s: string, at: number[]) =>
      s
        .split(' ')
        .map((w, i) => (at.includes(i) ? `changed${i}` : w))
        .join(' ');
    // The first two sentences with a word changed: as a background paragraph two reports of one
    // story share, edited. Alone, 0.6-0.75 of it is shared with the article's lead.
    const reworded = [edit(SENTENCES[0] as string, [10]), SENTENCES[1]].join(' ');
    const alone = containment(reworded, article);
    expect(alone.leadShare).toBeGreaterThan(0.6);
    expect(alone.leadShare).toBeLessThan(0.75);
    // Behind a headline line, that is too little of the rest for the headline to be left out.
    const c = containment(`${headline}\n${reworded}`, article);
    expect(c.leadTokens).toBeGreaterThan(0);
    expect(c.leadShare).toBeLessThan(0.6);
    // Word for word after the headline, the headline is left out.
    expect(containment(`${headline}\n${SENTENCES.slice(0, 2).join(' ')}`, article).leadShare).toBe(1);
  });

  it('count both ends of a text that quotes a passage between words of its own', () => {
    const article = SENTENCES.join(' ');
    const quote = SENTENCES.slice(0, 2).join(' ');
    const reply = `As the port wrote this morning: ${quote} We will see whether the bus runs on time.`;
    const c = containment(reply, article);
    expect(c.leadTokens).toBeGreaterThan(0);
    // Shared 2 sentences of about 36 tokens; with one end left out it would be 0.8 or more.
    expect(c.leadShare).toBeLessThan(0.8);
    const cutStart = containment(`${quote} We will see whether the bus runs on time.`, article);
    expect(cutStart.leadShare).toBeGreaterThan(c.leadShare);
  });

  it('measure a different text with the same first sentence as not contained', () => {
    const other = [
      SENTENCES[0],
      'A spokesperson for the fishing cooperative declined to comment on the closure or its cost.',
      'Boats registered in the harbour will moor along the river quay while the work goes on.',
    ].join(' ');
    const c = containment(other, SENTENCES.join(' '));
    expect(c.leadShare).toBeLessThan(0.6);
  });
});
