/**
 * `node dist/bench/disguises.js`: how many disguised copies of real articles and mails keep the
 * canonical text of their original (and so are exact duplicates of it), per disguise:
 * invisible characters (a left-to-right mark, a tag character or a ZWNJ inside 10% of the words),
 * look-alike letters (Latin a e o p c x y replaced by their Cyrillic look-alikes in English text,
 * the reverse in Russian and Ukrainian text; 30% of them, or all: then short words such as "a"
 * or "copy" are wholly in the other script, which is left alone, so the copy is a near-duplicate
 * rather than an exact one), tatweel inside 20% of Persian words, and a space inside 30% of the
 * words of four letters or more, after their second letter (thin, hair, narrow no-break,
 * no-break or plain: "pr\u2009esident"). The
 * disguises are seeded, so the numbers are reproducible. Reads the evaluation data (bench/data.ts).
 */
import { signatureConfigSchema } from '../config/signatures.js';
import { DoppelError } from '../errors.js';
import { mulberry32 } from '../eval/random.js';
import { LexiconSet } from '../lexicon/lexicon.js';
import { canonicalize } from '../text/canonical.js';
import { type BenchDoc, readJsonl, SHARED_DATA_DIR, sharedDataAvailable } from './data.js';

/** Inserts `insert` after a random inner position of a `share` of the words. */
function insideWords(text: string, insert: string, share: number, next: () => number): string {
  return text.replace(/\p{L}{2,}/gu, (word) => {
    if (next() >= share) return word;
    const at = 1 + Math.floor(next() * (word.length - 1));
    return word.slice(0, at) + insert + word.slice(at);
  });
}

/** Inserts `insert` after the second letter of a `share` of the words of four letters or more. */
const afterSecondLetter = (text: string, insert: string, share: number, next: () => number): string =>
  text.replace(/\p{L}{4,}/gu, (word) => (next() < share ? word.slice(0, 2) + insert + word.slice(2) : word));

const LATIN_TO_CYRILLIC: Record<string, string> = { a: 'а', e: 'е', o: 'о', p: 'р', c: 'с', x: 'х', y: 'у' };
const CYRILLIC_TO_LATIN: Record<string, string> = { а: 'a', е: 'e', о: 'o', р: 'p', с: 'c', х: 'x', і: 'i' };
type Disguise = (doc: BenchDoc, next: () => number) => string | undefined;

/** Replaces each letter that has a look-alike in `pairs` with probability `share`. */
const swap = (text: string, pairs: Record<string, string>, share: number, next: () => number): string =>
  text.replace(/./gu, (ch) => (pairs[ch] !== undefined && next() < share ? pairs[ch] : ch));
const lookalikes =
  (share: number): Disguise =>
  (d, next) =>
    d.lang === 'en'
      ? swap(d.text, LATIN_TO_CYRILLIC, share, next)
      : d.lang === 'fa'
        ? undefined
        : swap(d.text, CYRILLIC_TO_LATIN, share, next);

const DISGUISES: Record<string, Disguise> = {
  'lrm 10%': (d, next) => insideWords(d.text, '\u200e', 0.1, next),
  'tag character 10%': (d, next) => insideWords(d.text, '\u{e0041}', 0.1, next),
  'zwnj 10%': (d, next) => insideWords(d.text, '\u200c', 0.1, next),
  'look-alikes, 30% of letters': lookalikes(0.3),
  'look-alikes, every letter': lookalikes(1),
  'tatweel 20%': (d, next) => (d.lang === 'fa' ? insideWords(d.text, '\u0640', 0.2, next) : undefined),
  'thin space in 30% of words': (d, next) => afterSecondLetter(d.text, '\u2009', 0.3, next),
  'hair space in 30% of words': (d, next) => afterSecondLetter(d.text, '\u200a', 0.3, next),
  'narrow no-break space in 30% of words': (d, next) => afterSecondLetter(d.text, '\u202f', 0.3, next),
  'no-break space in 30% of words': (d, next) => afterSecondLetter(d.text, '\u00a0', 0.3, next),
  'space in 30% of words': (d, next) => afterSecondLetter(d.text, ' ', 0.3, next),
};

function main(): void {
  if (!sharedDataAvailable()) {
    console.error(
      `disguises needs the evaluation data (looked in ${SHARED_DATA_DIR}); set DOPPEL_SHARED_DATA`,
    );
    process.exitCode = 2;
    return;
  }
  const config = signatureConfigSchema.parse({}).canonical;
  // The shipped lexicons, as the signer reads disguises with them (dictionary-words.ts, word-gaps.ts).
  const lexicons = LexiconSet.defaults();
  const canonical = (text: string, lang?: string): string | undefined => {
    try {
      return canonicalize({ text, kind: 'text' }, config, lang, (l) => lexicons.get(l)).canonical;
    } catch (error) {
      if (error instanceof DoppelError) return undefined;
      throw error;
    }
  };
  console.log('| set | disguise | copies | same canonical text (exact duplicate) |');
  console.log('|---|---|---:|---:|');
  for (const file of ['news-en.jsonl', 'news-ru.jsonl', 'news-uk.jsonl', 'news-fa.jsonl', 'mail-en.jsonl']) {
    const docs = readJsonl(file);
    for (const [name, disguise] of Object.entries(DISGUISES)) {
      // Seeded: every run disguises the same words.
      const next = mulberry32(42);
      let copies = 0;
      let same = 0;
      for (const doc of docs) {
        const copy = disguise(doc, next);
        if (copy === undefined || copy === doc.text) continue;
        const original = canonical(doc.text, doc.lang);
        if (original === undefined) continue;
        copies++;
        if (canonical(copy, doc.lang) === original) same++;
      }
      if (copies > 0) console.log(`| ${file} | ${name} | ${copies} | ${(same / copies).toFixed(3)} |`);
    }
  }
}

main();
