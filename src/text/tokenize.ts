import { transient } from '../typed-slab.js';
import { charTable } from './char-tables.js';
import { INNER_PUNCTUATION } from './punctuation-in-words.js';
import { codesToString } from './utf16.js';

/**
 * Tokens are runs of letters, marks and digits with inner apostrophes (docs/signatures.md, "Canonical text",
 * step 5). A char-code scan over a precomputed class table: about 4x faster than a \p{..} regex
 * on 2 KB news items, which matters at 10,000 documents per second.
 */

const WORD = 1;
const SENTENCE_END = 2;
const APOSTROPHE = 3;
const SPACE = 4;

export function buildTokenClass(): Uint8Array {
  const table = new Uint8Array(0x10000);
  const word = /[\p{L}\p{M}\p{N}]/u;
  for (let code = 0; code < 0x10000; code++) {
    // Surrogates are never word characters here: astral symbols are mostly emoji.
    if (code >= 0xd800 && code <= 0xdfff) continue;
    if (word.test(String.fromCharCode(code))) table[code] = WORD;
  }
  const space = /\s/u;
  for (let code = 0; code < 0x10000; code++) if (space.test(String.fromCharCode(code))) table[code] = SPACE;
  for (const ch of '.!?…。؟\n') table[ch.charCodeAt(0)] = SENTENCE_END;
  table["'".charCodeAt(0)] = APOSTROPHE;
  return table;
}
const CLASS = charTable('token-class', Uint8Array, buildTokenClass);

/** Closing quotes and brackets: " ' ) ] » ” ’ (what may follow a full stop inside a sentence end). */
const CLOSING = new Uint8Array(0x10000);
for (const ch of '"\')]»”’') CLOSING[ch.charCodeAt(0)] = 1;

export interface Tokens {
  /** The tokens joined by single spaces: the canonical text. Built during the scan. */
  joined: string;
  /** Number of tokens. */
  count: number;
  /** starts[k] = offset of token k in `joined`; token k ends one before starts[k + 1] (or at the end). */
  starts: Int32Array;
  /** sentenceEnds[i] = index one past the last token of sentence i; the last entry is count. */
  sentenceEnds: number[];
  /**
   * hashes[k] = 32-bit FNV-1a of token k's code units (tokenHash), taken while the token is copied
   * into `joined`, so the vocabulary lookup does not read the canonical text a second time.
   */
  hashes: Int32Array;
  /**
   * Four or more one-character tokens in a row, each within 3 characters of the last: maybe a
   * word spelt out letter by letter (spelled-out.ts). Counted per token, so free for other text.
   */
  spelledOut?: boolean;
  /** A line break right between two word characters: maybe a word split by a line break (line-break-words.ts). */
  breakInWord?: boolean;
  /**
   * How many times punctuation stands right after a word with a word character or more punctuation
   * after it: maybe a word split by punctuation (punctuation-in-words.ts). The first
   * INNER_PUNCTUATION_SLOTS of their offsets are in innerPunctuationAt until the next call.
   */
  innerPunctuation?: number;
}

/** Offsets kept of punctuation between word characters; a text with more is read whole. */
export const INNER_PUNCTUATION_SLOTS = 256;
/** Where the last tokenizeCodes call met punctuation between word characters (Tokens.innerPunctuation). */
export const innerPunctuationAt = new Int32Array(INNER_PUNCTUATION_SLOTS);

/** Notes the offset of the count-th punctuation between word characters; returns count + 1. */
function notePunctuation(count: number, at: number): number {
  if (count < INNER_PUNCTUATION_SLOTS) innerPunctuationAt[count] = at;
  return count + 1;
}

/** Most characters between two one-character tokens of a word spelt out (spelled-out.ts). */
const SPELLED_GAP = 3;

const BIG_ENDIAN_HOST = new Uint8Array(new Uint16Array([1]).buffer)[0] === 0;
// The canonical text is built as UTF-16 code units in a Buffer-backed array and made a string by
// Buffer#toString('utf16le'), about twice as fast as TextDecoder (which goes through ICU).
// Sized for a 64 K-unit text (32 K tokens) from the start: a buffer grown inside tokenizeCodes
// after the optimizing compiler compiled it throws the compiled code away and compiles it again
// (a deopt), so the first long text of a stream cost a recompile per buffer.
const SCRATCH_UNITS = 1 << 16;
let joinBytes = Buffer.alloc(2 * SCRATCH_UNITS);
let joinBuffer = new Uint16Array(joinBytes.buffer, joinBytes.byteOffset, SCRATCH_UNITS);
let startBuffer = new Int32Array(SCRATCH_UNITS >> 1);
let hashBuffer = new Int32Array(SCRATCH_UNITS >> 1);
let textBytes = Buffer.alloc(2 * SCRATCH_UNITS);
let textCodes = new Uint16Array(textBytes.buffer, textBytes.byteOffset, SCRATCH_UNITS);

const FNV_OFFSET = 0x811c9dc5;
const FNV_PRIME = 0x01000193;

/** 32-bit FNV-1a of text[start, end): the hash Tokens.hashes holds and the vocabulary probes with. */
export function tokenHash(text: string, start: number, end: number): number {
  let h = FNV_OFFSET;
  for (let j = start; j < end; j++) h = Math.imul(h ^ text.charCodeAt(j), FNV_PRIME);
  return h;
}

/** End offset of token k in `joined`. */
export function tokenEnd(tokens: Pick<Tokens, 'joined' | 'count' | 'starts'>, k: number): number {
  return k + 1 < tokens.count ? (tokens.starts[k + 1] as number) - 1 : tokens.joined.length;
}

/** Token strings (sliced on demand: the signature engine reads tokens in place, without them). */
export function tokenWords(tokens: Pick<Tokens, 'joined' | 'count' | 'starts'>): string[] {
  const words: string[] = new Array(tokens.count);
  for (let k = 0; k < tokens.count; k++)
    words[k] = tokens.joined.slice(tokens.starts[k], tokenEnd(tokens, k));
  return words;
}

/**
 * Splits clean (normalized) text into tokens and sentences. A sentence ends at . ! ? … ؟ followed
 * (after any closing quotes and brackets) by white space or the end, and at a line break
 * (headlines and list items carry no full stop).
 */
export function tokenize(text: string, maxTokenLength: number): Tokens {
  const n = text.length;
  if (textCodes.length < n) {
    textBytes = Buffer.alloc(4 * n);
    textCodes = new Uint16Array(textBytes.buffer, textBytes.byteOffset, 2 * n);
  }
  if (BIG_ENDIAN_HOST) for (let i = 0; i < n; i++) textCodes[i] = text.charCodeAt(i);
  else textBytes.write(text, 0, 'utf16le');
  return tokenizeCodes(textCodes, n, maxTokenLength);
}

/** tokenize over the UTF-16 code units codes[0, n) (the canonicalizer's scratch buffer). */
export function tokenizeCodes(codes: Uint16Array, n: number, maxTokenLength: number): Tokens {
  const sentenceEnds: number[] = [];
  if (joinBuffer.length < n + 1) {
    joinBytes = Buffer.alloc(4 * n + 2);
    joinBuffer = new Uint16Array(joinBytes.buffer, joinBytes.byteOffset, 2 * n + 1);
  }
  const joined = joinBuffer;
  let starts = startBuffer;
  let hashes = hashBuffer;
  let count = 0;
  let length = 0;
  let single = -SPELLED_GAP - 2; // where the last one-character token started
  let chain = 0; // one-character tokens in a row so far, less one
  let spelledOut = false;
  let breakInWord = false;
  let innerPunctuation = 0;
  let i = 0;
  while (i < n) {
    const cls = CLASS[codes[i] as number];
    if (cls === WORD) {
      const start = i;
      i++;
      for (;;) {
        while (i < n && CLASS[codes[i] as number] === WORD) i++;
        // An apostrophe joins two word runs (Ukrainian "м'ясо", English "don't"). Both classes
        // are read at every word end and the step is added either way: a branch first taken
        // after the function was compiled (the first apostrophe of a stream) costs a recompile.
        const joins =
          i + 1 < n &&
          ((CLASS[codes[i] as number] === APOSTROPHE ? 1 : 0) &
            (CLASS[codes[i + 1] as number] === WORD ? 1 : 0)) ===
            1;
        // An apostrophe inside a word may split it too (punctuation-in-words.ts reads it).
        if (joins) innerPunctuation = notePunctuation(innerPunctuation, i);
        i += joins ? 2 : 0;
        if (!joins) break;
      }
      // Read at every word end: punctuation between word characters (the first is taken early,
      // so the branch costs no recompile).
      if (
        i + 1 < n &&
        ((INNER_PUNCTUATION[codes[i] as number] as number) &
          (CLASS[codes[i + 1] as number] === WORD
            ? 1
            : (INNER_PUNCTUATION[codes[i + 1] as number] as number))) ===
          1
      )
        innerPunctuation = notePunctuation(innerPunctuation, i);
      if (i - start === 1) {
        chain = start - single <= SPELLED_GAP + 1 ? chain + 1 : 0;
        if (chain >= 3) spelledOut = true;
        single = start;
      }
      if (i - start <= maxTokenLength) {
        if (count > 0) joined[length++] = 32;
        if (count === starts.length) {
          const grown = new Int32Array(starts.length * 2);
          grown.set(starts);
          starts = grown;
          startBuffer = grown;
          const grownHashes = new Int32Array(grown.length);
          grownHashes.set(hashes);
          hashes = grownHashes;
          hashBuffer = grownHashes;
        }
        starts[count] = length;
        let h = FNV_OFFSET;
        for (let j = start; j < i; j++) {
          const c = codes[j] as number;
          joined[length++] = c;
          h = Math.imul(h ^ c, FNV_PRIME);
        }
        hashes[count++] = h;
      }
      continue;
    }
    if (cls === SENTENCE_END) {
      // A closing quote or bracket after the stop still ends the sentence: `he said." Then`.
      // Steps of 1 or 0 through one addition, taken at every stop (see the apostrophe above).
      let next = i + 1;
      for (let step = 1; step === 1; next += step)
        step = next < n ? (CLOSING[codes[next] as number] as number) : 0;
      const nextClass = next < n ? CLASS[codes[next] as number] : SPACE;
      const lineBreak = codes[i] === 10;
      const endsHere = lineBreak || nextClass === SPACE || nextClass === SENTENCE_END;
      // Read at every stop, as above: only a line break between two word characters sets it.
      breakInWord ||= lineBreak && nextClass === WORD && i > 0 && CLASS[codes[i - 1] as number] === WORD;
      if (endsHere && count > 0 && sentenceEnds[sentenceEnds.length - 1] !== count) sentenceEnds.push(count);
    }
    i++;
  }
  if (count > 0 && sentenceEnds[sentenceEnds.length - 1] !== count) sentenceEnds.push(count);
  return {
    joined: BIG_ENDIAN_HOST ? codesToString(joined, length) : joinBytes.toString('utf16le', 0, 2 * length),
    count,
    starts: slabCopy(starts, count),
    sentenceEnds,
    hashes: slabCopy(hashes, count),
    spelledOut,
    breakInWord,
    innerPunctuation,
  };
}

/** True when the token has no letters (numbers, codes): excluded from I-Match and lexical signatures. */
export function hasLetter(token: string): boolean {
  for (let i = 0; i < token.length; i++) {
    const c = token.charCodeAt(i);
    if (c > 57 || c < 48) {
      if (c !== 39) return true;
    }
  }
  return false;
}

/** values[0, count) in a slab view (typed-slab.ts): a buffer of its own per text cost ~1-2 µs. */
function slabCopy(values: Int32Array, count: number): Int32Array {
  const out = transient.int32(count);
  out.set(values.subarray(0, count));
  return out;
}
