import { z } from 'zod';

/**
 * Parameters of canonicalization and of every signature method. One validated object;
 * every default is written here and in docs/configuration.md. Changing any of these changes
 * signatures: records stored before the change keep theirs until the window drops them.
 */
export const canonicalSchema = z
  .object({
    /** Put the title in front of the body before canonicalization. Off: re-titled syndicated copies stay exact duplicates. */
    includeTitle: z.boolean().default(false),
    /**
     * A body of fewer tokens than this (after canonicalization; an empty one too) is a stub, a
     * dateline or an agency name with no words of its own: the title is signed in front of it, so
     * stub items of one agency are not exact duplicates of each other whatever their titles. The
     * shortest real news body of the evaluation corpus has 12 tokens and its shortest copy 10
     * (docs/quality.md). 0: never.
     */
    stubBodyTokens: z.number().int().min(0).max(64).default(8),
    /** Mail clean-up (quoted replies, signatures, volatile tokens): 'auto' = only for input parsed as an RFC 822 mail. */
    mailCleanup: z.enum(['auto', 'always', 'never']).default('auto'),
    /**
     * How Persian ZWNJ (U+200C) is handled: 'join' removes it and joins the Persian affixes written
     * apart, so "می‌شود", "میشود" and "می شود" are one word; 'remove' only removes it; 'space'
     * makes it a space.
     */
    zwnj: z.enum(['join', 'space', 'remove']).default('join'),
    /**
     * HTML input (the `html` field, an HTML page in `raw`): 'article' signs the page's article
     * (title and body; menus, sidebars, comments, footers left out), 'page' every visible element.
     */
    html: z.enum(['article', 'page']).default('article'),
    /**
     * Hash-busters: 'drop' leaves out of the canonical text the words of an English text that no
     * lexicon holds and that are not spelt the way words are (no vowel, five consonants in a row,
     * a letter pair words do not have: src/text/random-words.ts). The mail profile drops them.
     */
    randomWords: z.enum(['keep', 'drop']).default('keep'),
    /**
     * A plain space inside a word ("pre sident"): two tokens are joined when one is a fragment and
     * the two make a known word (src/text/space-split-words.ts). Spam splits words so; news feeds
     * rarely do, and the pass costs ~20-25 µs a text (a tenth of the news path at steady state,
     * docs/benchmarks.md), so only the mail profile turns it on. Narrow and no-break spaces inside
     * a word are read in every profile (word-gaps.ts).
     */
    spaceSplitWords: z.boolean().default(false),
    /** Longest token kept (longer runs are usually base64 or URLs glued together). */
    maxTokenLength: z.number().int().min(8).max(1000).default(64),
  })
  .strict();

export const simhashSchema = z
  .object({
    enabled: z.boolean().default(true),
    /** Use word bigrams as features besides unigrams (docs/signatures.md, `simhash`). */
    bigrams: z.boolean().default(true),
    /** Manku block tables: the 64 bits are split into `blocks` blocks... */
    blocks: z.number().int().min(2).max(16).default(6),
    /** ...and every fingerprint within Hamming distance `tableDistance` shares at least one table key. */
    tableDistance: z.number().int().min(0).max(8).default(3),
  })
  .strict()
  .refine((s) => s.tableDistance < s.blocks, {
    message: 'simhash.tableDistance must be below simhash.blocks',
  });

export const minhashSchema = z
  .object({
    enabled: z.boolean().default(true),
    /** Words per shingle (stop words removed first, seed 003). */
    shingleSize: z.number().int().min(1).max(16).default(4),
    /** Broder super-shingles: `superShingles` groups of `superShingleSize` min-hashes (6 x 14 = 84 hashes). */
    superShingles: z.number().int().min(2).max(16).default(6),
    superShingleSize: z.number().int().min(1).max(64).default(14),
    /** General b x r LSH banding over the same min-hashes, for looser Jaccard thresholds. */
    bands: z.number().int().min(1).max(256).default(20),
    rows: z.number().int().min(1).max(64).default(4),
  })
  .strict()
  .refine((m) => m.bands * m.rows <= m.superShingles * m.superShingleSize, {
    message: 'minhash.bands * minhash.rows must not exceed superShingles * superShingleSize',
  });

export const imatchSchema = z
  .object({
    enabled: z.boolean().default(true),
    /** Seed 001: the share of a document's unique words that must be in the (extended) lexicon, else NULL. */
    minLexiconShare: z.number().min(0).max(1).default(0.3),
    /** Fewest words a signature may be made of: below this it is NULL (too weak to mean anything). */
    minWords: z.number().int().min(1).default(5),
    /** Kolcz et al. 2004: number of extra randomized lexicons (K). */
    randomizedLexicons: z.number().int().min(0).max(16).default(3),
    /** Share of the primary lexicon each randomized lexicon drops. */
    randomizedDrop: z.number().min(0).max(0.9).default(0.33),
  })
  .strict();

export const lexicalSchema = z
  .object({
    enabled: z.boolean().default(true),
    /** Seed 002/004: top-N words by tf*idf, sorted alphabetically, hashed. */
    topWords: z.number().int().min(1).max(32).default(6),
    /** Sentences shorter than this many tokens are not used for the longest/heaviest sentence signatures. */
    minSentenceTokens: z.number().int().min(1).default(5),
  })
  .strict();

export const termsSchema = z
  .object({
    enabled: z.boolean().default(true),
    /** Terms kept in the tf*idf vector used for story-level cosine verification. */
    size: z.number().int().min(4).max(256).default(32),
    /**
     * The most of the vector's squared norm one term may hold (1: no cap). A word a text repeats
     * (a corpus's placeholder for every link, a site's name) otherwise holds half the vector and
     * makes texts that share only it one story. The news profile caps it at 0.15.
     */
    maxTermShare: z.number().min(0.05).max(1).default(1),
  })
  .strict();

export const sentencesSchema = z
  .object({
    /** Sentence fingerprints (containment: teasers, partial and reordered copies). */
    enabled: z.boolean().default(true),
    /** Sentences shorter than this many tokens get no fingerprint (boilerplate lines are short). */
    minTokens: z.number().int().min(1).max(255).default(8),
    /** Most fingerprints a message keeps (and index keys it gets): the first half by position, the rest by lowest hash. */
    max: z.number().int().min(1).max(255).default(24),
    /** Of those, the index keys (table c): the first half by position, the rest by lowest value. */
    keys: z.number().int().min(1).max(255).default(8),
    /**
     * Lead passages: the first this-many tokens cut into content-defined runs (signatures/
     * sentences.ts), so that a teaser is found contained in its article whatever its sentence
     * boundaries; 0: none.
     */
    leadTokens: z.number().int().min(0).max(1000).default(96),
  })
  .strict();

export const signatureConfigSchema = z
  .object({
    canonical: canonicalSchema.default(canonicalSchema.parse({})),
    simhash: simhashSchema.default(simhashSchema.parse({})),
    minhash: minhashSchema.default(minhashSchema.parse({})),
    imatch: imatchSchema.default(imatchSchema.parse({})),
    lexical: lexicalSchema.default(lexicalSchema.parse({})),
    terms: termsSchema.default(termsSchema.parse({})),
    sentences: sentencesSchema.default(sentencesSchema.parse({})),
  })
  .strict();

export type CanonicalConfig = z.infer<typeof canonicalSchema>;
export type SimhashConfig = z.infer<typeof simhashSchema>;
export type MinhashConfig = z.infer<typeof minhashSchema>;
export type ImatchConfig = z.infer<typeof imatchSchema>;
export type LexicalConfig = z.infer<typeof lexicalSchema>;
export type TermsConfig = z.infer<typeof termsSchema>;
export type SentencesConfig = z.infer<typeof sentencesSchema>;
export type SignatureConfig = z.infer<typeof signatureConfigSchema>;
