import type { Random } from '../random.js';
import type { Lang } from './language-packs.js';
import { type Body, cloneBody, renderBody, type Sentence, sentenceSlots, unglued } from './text.js';

/**
 * Partial and reordered copies: a teaser of an article's first sentences (as wires and
 * aggregators publish them, often before the full story), the whole text with its sentences in
 * another order, and a part of the text reordered.
 */

/** Words of a sentence (white-space split: only sizes matter). */
function words(s: Sentence): number {
  return s.text.split(/\s+/).filter((w) => w !== '').length;
}

function sentencesOf(body: Body): Sentence[] {
  return sentenceSlots(body).map(({ p, s }) => body.paragraphs[p]![s]!);
}

/** The words a teaser holds at least: shorter leads are a headline, not a copy. */
export const LEAD_MIN_WORDS = 30;

const READ_MORE: Readonly<Record<Lang, readonly string[]>> = {
  en: ['Read more', 'Full story', 'Continue reading'],
  ru: ['Читать далее', 'Подробнее', 'Читайте также полную версию'],
  uk: ['Читати далі', 'Детальніше', 'Повна версія'],
  fa: ['ادامه مطلب', 'بیشتر بخوانید', 'متن کامل خبر'],
};

/**
 * The first 2-3 sentences (more while they hold fewer than LEAD_MIN_WORDS words, at most 5 and
 * never all of them), sometimes with a "read more" line: null when the text is too short for a
 * teaser to be much shorter than it.
 */
export function leadOnly(body: Body, lang: Lang, r: Random): string | null {
  const n = leadLength(body, r.between(2, 3));
  if (n === null) return null;
  const all = sentencesOf(body);
  const lead = all.slice(0, n).map((s, i) => (i + 1 < n ? unglued(s) : { ...s, sep: '' }));
  const text = lead.map((s, i) => (i + 1 < lead.length ? s.text + s.sep : s.text)).join('');
  return r.chance(0.4) ? `${text}\n${r.pick(READ_MORE[lang])}` : text;
}

/**
 * Does a teaser apply? With three sentences to start from, the longest lead leadOnly can make:
 * when it fits, every shorter start fits too.
 */
export function leadApplies(body: Body): boolean {
  return leadLength(body, 3) !== null;
}

/** Sentences of the lead from `start`, or null when the text is too short for a teaser. */
function leadLength(body: Body, start: number): number | null {
  const all = sentencesOf(body);
  let n = start;
  const size = (k: number) => all.slice(0, k).reduce((a, s) => a + words(s), 0);
  while (n < 5 && n < all.length && size(n) < LEAD_MIN_WORDS) n++;
  if (n >= all.length || size(n) < LEAD_MIN_WORDS || size(n) > 0.6 * size(all.length)) return null;
  return n;
}

/** Every sentence kept, in a random other order; paragraphs keep their sizes. */
export function reordered(body: Body, r: Random): string | null {
  const all = sentencesOf(body);
  if (all.length < 3) return null;
  let order = r.shuffle(all.map((_s, i) => i));
  for (let tries = 0; tries < 5 && order.every((v, i) => v === i); tries++)
    order = r.shuffle(all.map((_s, i) => i));
  const out = cloneBody(body);
  let k = 0;
  out.paragraphs = out.paragraphs.map((p) => p.map(() => unglued(all[order[k++] as number] as Sentence)));
  return renderBody(out);
}

/**
 * A part of the text, reordered: a run of 40-70% of the sentences (from anywhere in the text) in
 * a random order, in one or two paragraphs.
 */
export function reorderedPart(body: Body, r: Random): string | null {
  const all = sentencesOf(body);
  if (all.length < 5) return null;
  const take = Math.max(3, Math.round(all.length * r.uniform(0.4, 0.7)));
  const from = r.int(all.length - take + 1);
  const part = r.shuffle(all.slice(from, from + take)).map(unglued);
  const cut = part.length >= 6 && r.chance(0.5) ? r.between(2, part.length - 2) : part.length;
  const paragraphs = [part.slice(0, cut), part.slice(cut)].filter((p) => p.length > 0);
  return renderBody({ paragraphs, paragraphSep: body.paragraphSep });
}
