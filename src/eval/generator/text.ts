import { normalizeText } from '../../text/normalize.js';
import { tokenize, tokenWords } from '../../text/tokenize.js';
import { type Lang, PACKS } from './language-packs.js';

/**
 * The generator's sentence model: canonical words (the project's own normalization and tokenizer)
 * and texts as paragraphs of sentences that re-render unedited parts exactly.
 */

// ---------------------------------------------------------------------------------------------
// Canonical words: the project's own normalization and tokenizer, so that "changed 10% of the
// words" and source similarity are measured on what the signatures see.

export function canonicalWords(text: string): string[] {
  return tokenWords(tokenize(normalizeText(text, { zwnj: 'space' }), 1000));
}

// ---------------------------------------------------------------------------------------------
// Text structure: paragraphs of sentences, each remembering the white space that followed it,
// so that re-rendering an unedited part reproduces it (a glued "inflation.The" stays glued).

export interface Sentence {
  text: string;
  /** White space before the next sentence: '' only where the source glued two sentences. */
  sep: string;
}
export interface Body {
  paragraphs: Sentence[][];
  paragraphSep: string;
}

const BOUNDARY = /([.!?…؟]+)(["»”’')\]]*)(\s*)/gu;
/** News sentences run to 40 words and more, but an unpunctuated run that long is not one sentence. */
const LONG_SENTENCE_WORDS = 40;

function splitSentences(paragraph: string, abbreviations: ReadonlySet<string>): Sentence[] {
  const out: Sentence[] = [];
  let start = 0;
  for (const m of paragraph.matchAll(BOUNDARY)) {
    const at = m.index;
    const end = at + (m[1] as string).length + (m[2] as string).length;
    const ws = m[3] as string;
    const next = paragraph[end + ws.length];
    if (next === undefined) break;
    const before = paragraph.slice(start, at);
    if (ws === '') {
      // Scraped text glues sentences ("inflation.The protests"); "U.S.A" and "3.5" must stay whole.
      if (!(/\p{Ll}\p{Ll}$/u.test(before) && /\p{Lu}/u.test(next))) continue;
    } else {
      if (/\p{Ll}/u.test(next)) continue; // "17 млн. тонн", "т. е. так"
      if (m[1] === '.') {
        const word = /(\p{L}+)$/u.exec(before)?.[1];
        if (word !== undefined && (word.length === 1 || abbreviations.has(word.toLowerCase()))) continue;
      }
    }
    const text = paragraph.slice(start, end);
    if (text.trim() !== '') out.push({ text, sep: ws });
    start = end + ws.length;
  }
  const rest = paragraph.slice(start);
  if (rest.trim() !== '') out.push({ text: rest, sep: ' ' });
  return out;
}

/**
 * Splits a run of more than `longer` words that does not end like a sentence (or of more than
 * twice that, which no real sentence is) into chunks of about `size` words: the mail corpus has
 * no punctuation at all, and sentence-level kinds need boundaries.
 */
function chunkSentence(sentence: Sentence, longer: number, size: number): Sentence[] {
  const words = sentence.text.split(/\s+/).filter((w) => w !== '');
  const punctuated = /[.!?…؟]["»”’')\]]*$/u.test(sentence.text.trimEnd());
  if (words.length <= (punctuated ? 2 * longer : longer)) return [sentence];
  const pieces = Math.ceil(words.length / size);
  const per = Math.ceil(words.length / pieces);
  const out: Sentence[] = [];
  for (let i = 0; i < words.length; i += per) out.push({ text: words.slice(i, i + per).join(' '), sep: ' ' });
  out[out.length - 1]!.sep = sentence.sep;
  return out;
}

const HAS_WORD = /[\p{L}\p{N}]/u;

/**
 * A "sentence" without a word (a lone "." or "***" line) is punctuation of its neighbour: as a
 * sentence of its own, dropping it would make a truncation that changes no word.
 */
function mergeWordless(paragraphs: Sentence[][], paragraphSep: string): Sentence[][] {
  const out: Sentence[][] = [];
  let pending = ''; // wordless text waiting for the next sentence
  for (const para of paragraphs) {
    const merged: Sentence[] = [];
    for (const s of para) {
      if (HAS_WORD.test(s.text)) {
        merged.push(pending === '' ? s : { ...s, text: pending + s.text });
        pending = '';
        continue;
      }
      const prev = merged[merged.length - 1];
      if (prev !== undefined) {
        prev.text += prev.sep + s.text;
        prev.sep = s.sep;
      } else if (out.length > 0 && merged.length === 0 && pending === '') {
        const last = out[out.length - 1]!;
        const lastSentence = last[last.length - 1]!;
        lastSentence.text += paragraphSep + s.text;
      } else pending += s.text + s.sep;
    }
    if (merged.length > 0) out.push(merged);
  }
  if (pending !== '') {
    if (out.length === 0) out.push([{ text: pending.trimEnd(), sep: ' ' }]);
    else {
      const last = out[out.length - 1]!;
      last[last.length - 1]!.text += paragraphSep + pending.trimEnd();
    }
  }
  return out;
}

export function parseBody(text: string, lang: Lang): Body {
  const blank = /\n[ \t]*\n/.test(text);
  const rawParagraphs = blank ? text.split(/\n(?:[ \t]*\n)+/) : text.split('\n');
  const abbreviations = PACKS[lang].abbreviations;
  let paragraphs = rawParagraphs
    .map((p) => p.trim())
    .filter((p) => p !== '')
    .map((p) => splitSentences(p, abbreviations).flatMap((s) => chunkSentence(s, LONG_SENTENCE_WORDS, 20)));
  paragraphs = mergeWordless(paragraphs, blank ? '\n\n' : '\n');
  const count = paragraphs.reduce((n, p) => n + p.length, 0);
  // Sentence-level kinds need a few boundaries; a short text in one or two sentences gets word chunks.
  if (count < 3) paragraphs = paragraphs.map((p) => p.flatMap((s) => chunkSentence(s, 16, 8)));
  return { paragraphs, paragraphSep: blank ? '\n\n' : '\n' };
}

export function renderParagraph(sentences: readonly Sentence[]): string {
  return sentences.map((s, i) => (i + 1 < sentences.length ? s.text + s.sep : s.text)).join('');
}

/** A sentence moved away from its neighbour must not stay glued to its new one. */
export function unglued(s: Sentence): Sentence {
  return s.sep === '' ? { ...s, sep: ' ' } : s;
}

export function renderBody(body: Body): string {
  return body.paragraphs
    .filter((p) => p.length > 0)
    .map(renderParagraph)
    .join(body.paragraphSep);
}

export function cloneBody(body: Body): Body {
  return {
    paragraphs: body.paragraphs.map((p) => p.map((s) => ({ ...s }))),
    paragraphSep: body.paragraphSep,
  };
}

/** Locations of sentences in reading order. */
export function sentenceSlots(body: Body): { p: number; s: number }[] {
  const slots: { p: number; s: number }[] = [];
  body.paragraphs.forEach((para, p) => {
    para.forEach((_s, s) => {
      slots.push({ p, s });
    });
  });
  return slots;
}
