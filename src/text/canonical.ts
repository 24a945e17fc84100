import type { CanonicalConfig } from '../config/signatures.js';
import { DoppelError } from '../errors.js';
import { foldLatinAccents, isAccentedDisguise } from './accented-text.js';
import { cleanText } from './clean.js';
import { undoCyrillicLeet, undoCyrillicLeetText } from './cyrillic-leet.js';
import { joinSpacedLetters, type KnownWordsOf, type LatinRuns, undoLeet } from './dictionary-words.js';
import { fillersAsSpaces, hasHangulFiller, leastCost, type WordCostOf } from './filler-spaces.js';
import { detectLanguageOfCodes, LANGUAGES, type Language, languageFromTag } from './language.js';
import { isLeetText, MIN_LEET_WORDS, undoLeetText } from './leet-text.js';
import { joinLineBrokenWords } from './line-break-words.js';
import { ownScriptWords } from './lookalike.js';
import { cleanMailBody } from './mail-cleanup.js';
import { joinPunctuationSplitWords } from './punctuation-in-words.js';
import { dropRandomWords } from './random-words.js';
import { squeezeRepeatedLetters } from './repeated-letters.js';
import { joinSpaceSplitWords } from './space-split-words.js';
import { segmentSpacedLetters } from './spaced-segment.js';
import { joinSpelledKnownWords } from './spelled-known.js';
import { joinSpelledOut } from './spelled-out.js';
import { stopWords } from './stopwords.js';
import { symbolTokens } from './symbols.js';
import { joinSymbolSplitWords } from './symbols-in-words.js';
import { innerPunctuationAt, tokenizeCodes, tokenWords } from './tokenize.js';
import { codesToString } from './utf16.js';
import { cleanReadingWordGaps } from './word-gaps.js';

/** Languages written in Latin letters (those whose known words leetspeak can disguise). */
const LATIN_SCRIPT_LANGUAGES: ReadonlySet<Language> = new Set<Language>(['en']);
/** Languages written in Cyrillic: their leet digits stand for Cyrillic letters (cyrillic-leet.ts). */
const CYRILLIC_SCRIPT_LANGUAGES: ReadonlySet<Language> = new Set<Language>(['ru', 'uk']);

/** Decoded text, before canonicalization: what the decode layer hands over. */
export interface TextSource {
  text: string;
  kind: 'text' | 'html' | 'mail';
  title?: string;
}

/**
 * Why a message's title is part of its canonical text: `canonical.includeTitle` ('always'), or a
 * body of fewer than `canonical.stubBodyTokens` tokens ('stub-body': a dateline or an agency name,
 * whose tokens are counted in `bodyTokens`).
 */
export type SignedTitle = { reason: 'always' } | { reason: 'stub-body'; bodyTokens: number };

/** The canonical form every signature is computed from. */
export class CanonicalDoc {
  private wordCache: string[] | undefined;
  private clean: string | (() => string);
  /** Null when the title is not signed (a body of its own, or no title). */
  signedTitle: SignedTitle | null = null;

  constructor(
    readonly lang: Language,
    /**
     * Clean text: normalized, lower case; white space not collapsed. Or a function that makes it:
     * signing never reads it, so canonicalize builds it only when asked.
     */
    cleanText: string | (() => string),
    /** The canonical text: tokens joined by one space. The exact signature hashes this. */
    readonly canonical: string,
    /** Offset of each token in `canonical`. */
    readonly tokenStarts: Int32Array,
    /** Exclusive token index where each sentence ends. */
    readonly sentenceEnds: number[],
    /** FNV-1a of each token (Tokens.hashes), taken by the tokenizer: what the vocabulary probes with. */
    readonly tokenHashes: Int32Array,
  ) {
    this.clean = cleanText;
  }

  /** Clean text: normalized, lower case; white space not collapsed. */
  get cleanText(): string {
    if (typeof this.clean === 'function') this.clean = this.clean();
    return this.clean;
  }

  get tokenCount(): number {
    return this.tokenStarts.length;
  }

  /** Every token in order, stop words included (sliced on first use). */
  get words(): string[] {
    this.wordCache ??= tokenWords({
      joined: this.canonical,
      count: this.tokenStarts.length,
      starts: this.tokenStarts,
    });
    return this.wordCache;
  }
}

/**
 * Canonical text (docs/signatures.md, "Canonical text"). The canonical string is the token stream, so
 * punctuation, markup and layout do not split exact duplicates: the same article as UTF-8,
 * cp1251, KOI8-R or cp866 bytes or wrapped in HTML gives one canonical string. The title is signed
 * in front of the body with `canonical.includeTitle`, or when the body is a stub of fewer than
 * `canonical.stubBodyTokens` tokens (`CanonicalDoc.signedTitle` says which).
 */
export function canonicalize(
  source: TextSource,
  config: CanonicalConfig,
  declaredLang?: string,
  /** The known words of each language: leetspeak and words spelt out with spaces are read as them. */
  knownWords?: KnownWordsOf,
): CanonicalDoc {
  let body = source.text;
  const mail = config.mailCleanup === 'always' || (config.mailCleanup === 'auto' && source.kind === 'mail');
  if (mail) body = cleanMailBody(body);
  const title = source.title;
  if (config.includeTitle && title) {
    const doc = canonicalText(`${title}\n${body}`, config, declaredLang, knownWords);
    if (doc === null) throw emptyText();
    doc.signedTitle = { reason: 'always' };
    return doc;
  }
  const doc = canonicalText(body, config, declaredLang, knownWords);
  // A stub body (a dateline, an agency name, nothing) says nothing of its own: without its title,
  // every stub item of one agency would be one exact duplicate. A real body costs one comparison.
  if (title && config.stubBodyTokens > 0 && (doc === null || doc.tokenCount < config.stubBodyTokens)) {
    const titled = canonicalText(`${title}\n${body}`, config, declaredLang, knownWords);
    const bodyTokens = doc === null ? 0 : doc.tokenCount;
    // A title of no words adds nothing: the body signs as it would without one.
    if (titled !== null && titled.tokenCount > bodyTokens) {
      titled.signedTitle = { reason: 'stub-body', bodyTokens };
      return titled;
    }
  }
  if (doc === null) throw emptyText();
  return doc;
}

function emptyText(): DoppelError {
  return new DoppelError('EMPTY_TEXT', 'no words or symbols left after canonicalization');
}

/** The canonical form of one text; null when it holds no word and no symbol. */
function canonicalText(
  body: string,
  config: CanonicalConfig,
  declaredLang: string | undefined,
  knownWords: KnownWordsOf | undefined,
): CanonicalDoc | null {
  const options = { zwnj: config.zwnj };
  // Hangul fillers for spaces are read as spaces (filler-spaces.ts); most texts have none.
  if (knownWords && hasHangulFiller(body))
    body = fillersAsSpaces(body, fillerReader(knownWords, declaredLang));
  // Whole words of another script are read against their own languages' words (lookalike.ts).
  const ownWords = knownWords ? ownScriptWords(knownWords) : undefined;
  // Narrow and no-break spaces between two letters are read with the lexicon (word-gaps.ts).
  const clean = cleanReadingWordGaps(body, options, ownWords, declaredLang, knownWords);
  let length = clean.length;
  let tokens = tokenizeCodes(clean.codes, length, config.maxTokenLength);
  // Words spelt out letter by letter: joined only when the tokens show a run of one-letter words.
  const spelledOut = tokens.spelledOut === true;
  let spelledJoined = false;
  if (spelledOut) {
    const joined = joinSpelledOut(clean.codes, length);
    if (joined !== length) {
      spelledJoined = true;
      length = joined;
      tokens = tokenizeCodes(clean.codes, length, config.maxTokenLength);
    }
  }
  const lang = languageFromTag(declaredLang) ?? detectLanguageOfCodes(clean.codes, length);
  // Disguises undone only into words of the language (dictionary-words.ts), once the language is known.
  const known = knownWords?.(lang);
  if (known) {
    const stops = stopWords(lang);
    let punctuationJoined = false;
    // Punctuation inside a word: removed where the pieces make a known word (punctuation-in-words.ts).
    // First: the tokenizer's offsets of it hold only while nothing has moved the text.
    const innerPunctuation = tokens.innerPunctuation ?? 0;
    if (innerPunctuation > 0) {
      const listed = { at: innerPunctuationAt, count: innerPunctuation };
      const joined = joinPunctuationSplitWords(clean.codes, length, known, stops, listed);
      punctuationJoined = joined !== length;
      length = joined;
    }
    // Leet characters stand for Latin letters: only a Latin-script language's words can come out.
    const latin = LATIN_SCRIPT_LANGUAGES.has(lang);
    const leet: LatinRuns = { mixed: 0, latinExtended: false };
    let changed = (latin && undoLeet(clean.codes, length, known, leet) > 0) || punctuationJoined;
    // Accents sprinkled on the words (accented-text.ts): read only in a text with an accented letter.
    if (leet.latinExtended && isAccentedDisguise(tokens, known, stops))
      changed = foldLatinAccents(clean.codes, length) > 0 || changed;
    if (CYRILLIC_SCRIPT_LANGUAGES.has(lang)) {
      const cyrillicLeet = { mixed: 0 };
      changed = undoCyrillicLeet(clean.codes, length, known, cyrillicLeet) > 0 || changed;
      // A text written in Cyrillic leet throughout: its short words too (cyrillic-leet.ts).
      if (isLeetText(cyrillicLeet.mixed, tokens.count))
        changed = undoCyrillicLeetText(clean.codes, length, known, stops) > 0 || changed;
    }
    // A text written in leet throughout: its short words too (leet-text.ts).
    if (latin && isLeetText(leet.mixed, tokens.count))
      changed = undoLeetText(clean.codes, length, known, stops, MIN_LEET_WORDS) > 0 || changed;
    if (tokens.spelledOut) {
      const joined = joinSpacedLetters(clean.codes, length, known);
      // Longer runs, of several words one space apart: cut into the words they read as.
      const segmented = segmentSpacedLetters(clean.codes, joined, known, stops);
      changed ||= segmented !== length;
      length = segmented;
    }
    // What the lexicon reads of the rest: short runs and runs of texts spelt out throughout.
    if (spelledOut) {
      const joined = joinSpelledKnownWords(clean.codes, length, known, stops, spelledJoined);
      changed ||= joined !== length;
      length = joined;
    }
    // A line break inside a word: removed where the pieces make a known word (line-break-words.ts).
    if (tokens.breakInWord) {
      const joined = joinLineBrokenWords(clean.codes, length, known, stops);
      changed ||= joined !== length;
      length = joined;
    }
    // A plain space inside a word: removed where a piece is no word and the two make one (space-split-words.ts).
    if (config.spaceSplitWords) {
      const spaceJoined = joinSpaceSplitWords(clean.codes, length, known, stops);
      changed ||= spaceJoined !== length;
      length = spaceJoined;
    }
    // Emoji inside a word: removed where the pieces spell a known word (symbols-in-words.ts).
    const unsplit = joinSymbolSplitWords(clean.codes, length, known, stops);
    changed ||= unsplit !== length;
    length = unsplit;
    const squeezed = squeezeRepeatedLetters(clean.codes, length, known, stops);
    changed ||= squeezed !== length;
    length = squeezed;
    if (changed) tokens = tokenizeCodes(clean.codes, length, config.maxTokenLength);
    // Hash-busters: random strings are spelt in Latin letters, read against an English lexicon.
    const pairs = config.randomWords === 'drop' && lang === 'en' ? known.letterPairs : undefined;
    if (pairs && dropRandomWords(clean.codes, length, known, pairs, tokens.count) > 0)
      tokens = tokenizeCodes(clean.codes, length, config.maxTokenLength);
  }
  // A text of emoji and symbols only signs by its symbols (symbols.ts), not as one empty text.
  if (tokens.count === 0) tokens = symbolTokens(codesToString(clean.codes, length));
  if (tokens.count === 0) return null;
  const text = body;
  return new CanonicalDoc(
    lang,
    () => cleanText(text, options, ownWords),
    tokens.joined,
    tokens.starts,
    tokens.sentenceEnds,
    tokens.hashes,
  );
}

/** Known words for the filler vote: the declared language's, or every language's (not yet detected). */
function fillerReader(knownWords: KnownWordsOf, declaredLang: string | undefined): WordCostOf {
  const declared = languageFromTag(declaredLang);
  const languages = [];
  for (const lang of declared ? [declared] : LANGUAGES) {
    const known = knownWords(lang);
    if (known) languages.push({ known, stops: stopWords(lang) });
  }
  return leastCost(languages);
}

/**
 * 1 where doc.words[i] is a stop word of the document's language. Not part of canonicalize: the
 * signature engine reads stop flags from its vocabulary table, one lookup per token for all.
 */
export function stopMask(doc: Pick<CanonicalDoc, 'lang' | 'words'>): Uint8Array {
  const stops = stopWords(doc.lang);
  const mask = new Uint8Array(doc.words.length);
  if (stops.size > 0)
    for (let i = 0; i < doc.words.length; i++) if (stops.has(doc.words[i] as string)) mask[i] = 1;
  return mask;
}
