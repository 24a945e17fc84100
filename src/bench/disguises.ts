/**
 * `node dist/bench/disguises.js`: how many disguised copies of real articles and mails keep the
 * canonical text of their original (and so are exact duplicates of it), per disguise:
 * invisible characters (a left-to-right mark, a tag character or a ZWNJ inside 10% of the words),
 * look-alike letters (Latin a e o p c x y replaced by their Cyrillic look-alikes in English text,
 * the reverse in Russian and Ukrainian text; 30% of them, or all: then short words such as "a"
 * or "copy" are wholly in the other script, which is left alone, so the copy is a near-duplicate
 * rather than an exact one), tatweel inside 20% of Persian words, stress marks (U+0301 after a
 * vowel of half the words of Russian and Ukrainian text, as dictionaries and textbooks print them)
 * accents sprinkled on 10% of the vowels (U+0301 after a e i o u and а е и о у ы э ю я;
 * "président", "cómpany"), written apart or composed, and a space inside 30% of the words of four
 * letters or more, after their second letter (thin, hair, narrow no-break, no-break or plain:
 * "pr\u2009esident"). The disguises are seeded, so the numbers are
 * reproducible. Reads the evaluation data (bench/data.ts).
 *
 * `node dist/bench/disguises.js --dedup`: per disguise and corpus, 30 originals of 40 words or
 * more, 30 other texts untouched and one disguised copy of each original, in that order, through
 * `doppel dedup --threads 1` (news profile, mail profile for the mails); prints how many copies
 * are exact duplicates of their original, how many link to it (dup recall), and of the messages
 * flagged, how many link to their own original (dup precision).
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { signatureConfigSchema } from '../config/signatures.js';
import { DoppelError } from '../errors.js';
import { mulberry32 } from '../eval/random.js';
import { LexiconSet } from '../lexicon/lexicon.js';
import { canonicalize } from '../text/canonical.js';
import type { Language } from '../text/language.js';
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

/** Russian and Ukrainian vowels a stress mark goes on (ё is stressed already). */
const CYRILLIC_VOWEL = /[аеиоуыэюяієїАЕИОУЫЭЮЯІЄЇ]/g;

/** U+0301 after one vowel of a `share` of the Cyrillic words: the stress marks of a textbook or dictionary. */
const stressMarks = (text: string, share: number, next: () => number): string =>
  text.replace(/\p{Script=Cyrillic}{2,}/gu, (word) => {
    if (next() >= share) return word;
    const vowels = [...word.matchAll(CYRILLIC_VOWEL)].map((m) => m.index);
    if (vowels.length === 0) return word;
    const at = (vowels[Math.floor(next() * vowels.length)] as number) + 1;
    return `${word.slice(0, at)}\u0301${word.slice(at)}`;
  });

/** U+0301 after a `share` of the vowels, Latin and Cyrillic; composed (é) with `composed`. */
const sprinkledAccents = (text: string, share: number, next: () => number, composed: boolean): string =>
  text.replace(/[aeiouаеиоуыэюя]/giu, (vowel) => {
    if (next() >= share) return vowel;
    return composed ? `${vowel}\u0301`.normalize('NFC') : `${vowel}\u0301`;
  });
const accents =
  (composed: boolean): Disguise =>
  (d, next) =>
    d.lang === 'fa' ? undefined : sprinkledAccents(d.text, 0.1, next, composed);

const DISGUISES: Record<string, Disguise> = {
  'lrm 10%': (d, next) => insideWords(d.text, '\u200e', 0.1, next),
  'tag character 10%': (d, next) => insideWords(d.text, '\u{e0041}', 0.1, next),
  'zwnj 10%': (d, next) => insideWords(d.text, '\u200c', 0.1, next),
  'look-alikes, 30% of letters': lookalikes(0.3),
  'look-alikes, every letter': lookalikes(1),
  'tatweel 20%': (d, next) => (d.lang === 'fa' ? insideWords(d.text, '\u0640', 0.2, next) : undefined),
  'stress marks, 50% of words': (d, next) =>
    d.lang === 'ru' || d.lang === 'uk' ? stressMarks(d.text, 0.5, next) : undefined,
  'accents on 10% of vowels': accents(false),
  'accents on 10% of vowels, composed': accents(true),
  'thin space in 30% of words': (d, next) => afterSecondLetter(d.text, '\u2009', 0.3, next),
  'hair space in 30% of words': (d, next) => afterSecondLetter(d.text, '\u200a', 0.3, next),
  'narrow no-break space in 30% of words': (d, next) => afterSecondLetter(d.text, '\u202f', 0.3, next),
  'no-break space in 30% of words': (d, next) => afterSecondLetter(d.text, '\u00a0', 0.3, next),
  'space in 30% of words': (d, next) => afterSecondLetter(d.text, ' ', 0.3, next),
};

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
const CORPORA = ['news-en.jsonl', 'news-ru.jsonl', 'news-uk.jsonl', 'news-fa.jsonl', 'mail-en.jsonl'];

/** Texts of 40 words or more: copies of shorter ones are mostly stubs, not articles. */
const longEnough = (doc: BenchDoc): boolean => (doc.text.match(/\p{L}+/gu)?.length ?? 0) >= 40;

/** What `doppel dedup` made of one set: exact duplicates, links to the own original, flags. */
interface SetScores {
  copies: number;
  exact: number;
  linked: number;
  flagged: number;
  flaggedRight: number;
}

/**
 * One set of a disguise: 30 originals, 30 other texts untouched, one copy of each original, in that
 * order, through `doppel dedup --threads 1` (the mail profile for mail). Undefined when the
 * disguise does not apply to the corpus.
 */
function dedupSet(file: string, disguise: Disguise, dir: string): SetScores | undefined {
  const docs = readJsonl(file).filter(longEnough);
  const originals = docs.slice(0, 30);
  const others = docs.slice(30, 60);
  const next = mulberry32(42);
  const lines: string[] = [];
  const gold = new Map<string, string>();
  const add = (id: string, doc: BenchDoc, text: string, label: string) => {
    gold.set(id, label);
    lines.push(JSON.stringify({ id, lang: doc.lang, text }));
  };
  for (const [k, doc] of originals.entries()) add(`original-${k}`, doc, doc.text, `pair-${k}`);
  for (const [k, doc] of others.entries()) add(`other-${k}`, doc, doc.text, `other-${k}`);
  for (const [k, doc] of originals.entries()) {
    const copy = disguise(doc, next);
    if (copy !== undefined && copy !== doc.text) add(`copy-${k}`, doc, copy, `pair-${k}`);
  }
  const copies = lines.length - originals.length - others.length;
  if (copies === 0) return undefined;
  const input = join(dir, 'set.jsonl');
  writeFileSync(input, `${lines.join('\n')}\n`);
  const profile = file.startsWith('mail') ? 'mail' : 'news';
  const run = spawnSync(
    process.execPath,
    [
      resolve(ROOT, 'bin/doppel.js'),
      'dedup',
      '--profile',
      profile,
      '--threads',
      '1',
      '--quiet',
      '--input',
      input,
    ],
    { encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 },
  );
  if (run.status !== 0) throw new Error(`doppel dedup exited ${run.status}: ${run.stderr}`);
  const scores: SetScores = { copies, exact: 0, linked: 0, flagged: 0, flaggedRight: 0 };
  for (const line of run.stdout.split('\n')) {
    if (line === '') continue;
    const verdict = JSON.parse(line) as { id: string; verdict: string; duplicateOf?: string };
    if (verdict.duplicateOf === undefined) continue;
    const right = gold.get(verdict.duplicateOf) === gold.get(verdict.id);
    scores.flagged++;
    if (right) scores.flaggedRight++;
    if (!verdict.id.startsWith('copy-') || !right) continue;
    scores.linked++;
    if (verdict.verdict === 'duplicate') scores.exact++;
  }
  return scores;
}

function dedupTable(): void {
  const dir = mkdtempSync(join(tmpdir(), 'doppel-disguises-'));
  try {
    console.log('| set | disguise | copies | exact duplicates | dup recall | dup precision |');
    console.log('|---|---|---:|---:|---:|---:|');
    for (const file of CORPORA) {
      for (const [name, disguise] of Object.entries(DISGUISES)) {
        const s = dedupSet(file, disguise, dir);
        if (s === undefined) continue;
        const precision = s.flagged === 0 ? '-' : (s.flaggedRight / s.flagged).toFixed(3);
        console.log(
          `| ${file} | ${name} | ${s.copies} | ${s.exact} | ${(s.linked / s.copies).toFixed(3)} | ${precision} |`,
        );
      }
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

function exactTable(): void {
  const config = signatureConfigSchema.parse({}).canonical;
  // The lexicons the signer loads: the rules that read known words (leet, accents) run as when signing.
  const lexicons = LexiconSet.defaults();
  const known = (lang: Language) => lexicons.get(lang);
  const canonical = (text: string, lang?: string): string | undefined => {
    try {
      return canonicalize({ text, kind: 'text' }, config, lang, known).canonical;
    } catch (error) {
      if (error instanceof DoppelError) return undefined;
      throw error;
    }
  };
  console.log('| set | disguise | copies | same canonical text (exact duplicate) |');
  console.log('|---|---|---:|---:|');
  for (const file of CORPORA) {
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

function main(): void {
  if (!sharedDataAvailable()) {
    console.error(
      `disguises needs the evaluation data (looked in ${SHARED_DATA_DIR}); set DOPPEL_SHARED_DATA`,
    );
    process.exitCode = 2;
    return;
  }
  if (process.argv.includes('--dedup')) dedupTable();
  else exactTable();
}

main();
