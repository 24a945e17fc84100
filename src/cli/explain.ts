import { readFileSync } from 'node:fs';
import { matchLevel } from '../engine/decide.js';
import { displayTitle, signatureRecord } from '../engine/engine.js';
import { chooseStory } from '../engine/story.js';
import { storyBeyondSharedSentences } from '../engine/story-sentences.js';
import { compareRecords, roundSimilarity } from '../engine/verify.js';
import { DoppelError } from '../errors.js';
import { parseMessageObject } from '../input/message.js';
import { parseJsonText } from '../json.js';
import { signRecord } from '../output/sign-record.js';
import { type SignedMessage, signMessage } from '../pipeline/sign.js';
import { factsRelation, formatDate } from '../signatures/facts.js';
import { isPassage } from '../signatures/sentences.js';
import { Signer } from '../signatures/signer.js';
import { stopMask } from '../text/canonical.js';
import { engineSetup, parseCommandArgs } from './common.js';

export const EXPLAIN_USAGE = `usage: doppel explain A.json B.json [--profile news|mail] [--config FILE] [--lexicon LANG=FILE ...]

Each file holds one message (a JSON object, or JSON Lines of which the first line is used). Prints
both canonical texts and signatures, every similarity (Hamming distance, Jaccard estimate and
exact shingle Jaccard, I-Match, lexical signatures, tf*idf cosine), the verdict the profile
gives B when A came first, and beside it the story link decision: whether B would join A's
story (A as a story of one) through the story rule's share, time window and facts (dates) check.

examples:
  doppel explain a.json b.json
  doppel explain --profile mail first-mail.json second-mail.json`;

const OPTIONS = {
  profile: { type: 'string', short: 'p', default: 'news' },
  config: { type: 'string', short: 'c' },
  lexicon: { type: 'string', multiple: true },
  help: { type: 'boolean', short: 'h' },
} as const;

function readMessage(path: string) {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (error) {
    throw new DoppelError('IO', `cannot read ${path}: ${(error as Error).message}`, { cause: error });
  }
  const first =
    text.trim().startsWith('{') && !text.trim().includes('\n{')
      ? text
      : (text.split('\n').find((l) => l.trim() !== '') ?? '');
  return parseMessageObject(parseJsonText(first, path));
}

/** Shingle sets as strings, for the exact Jaccard that the MinHash estimate approximates. */
function shingleSet(signed: SignedMessage, size: number): Set<string> {
  const mask = stopMask(signed.doc);
  let words = signed.doc.words.filter((_, i) => mask[i] === 0);
  if (words.length === 0) words = signed.doc.words;
  const w = Math.max(1, Math.min(size, words.length));
  const out = new Set<string>();
  for (let i = 0; i + w <= words.length; i++) out.add(words.slice(i, i + w).join(' '));
  return out;
}

export async function explainCommand(argv: string[]): Promise<number> {
  const { values, positionals } = parseCommandArgs(argv, OPTIONS, { positionals: true });
  if (values.help) {
    process.stdout.write(`${EXPLAIN_USAGE}\n`);
    return 0;
  }
  if (positionals.length !== 2)
    throw new DoppelError('USAGE', 'explain takes two message files: A.json B.json');
  const { config, lexicons } = await engineSetup(values);
  const signer = new Signer(config.signatures, lexicons);
  const [a, b] = await Promise.all(positionals.map((p) => signMessage(readMessage(p), signer)));
  if (!a || !b) throw new DoppelError('INTERNAL', 'unreachable');
  const ra = signatureRecord(a.signatures, a.doc.lang);
  const rb = signatureRecord(b.signatures, b.doc.lang);
  const evidence = compareRecords(rb, ra);
  const sa = shingleSet(a, config.signatures.minhash.shingleSize);
  const sb = shingleSet(b, config.signatures.minhash.shingleSize);
  let shared = 0;
  for (const s of sa) if (sb.has(s)) shared++;
  // A as B's only candidate: a sentence is common only when one text is enough to make it so.
  const groups = config.decision.storySharedSentenceGroups ?? null;
  const direct = matchLevel(evidence, config.decision, rb.tokens, ra.tokens);
  const match =
    groups === 1 ? storyBeyondSharedSentences(direct, evidence, rb, ra, config.decision, null) : direct;
  // signRecord carries `extraction` for HTML: the page's article, or the whole page when none was found.
  const side = (s: SignedMessage) => ({
    ...signRecord(s),
    ...titleNote(s, config.signatures.canonical.stubBodyTokens),
    dates: s.signatures.dates.map(formatDate),
    canonical: s.doc.canonical,
  });
  // The story rule as the engine runs it for B with A its only candidate: only a message without
  // a duplicate-level match is linked through it.
  const tsA = a.message.ts ?? 0;
  const tsB = b.message.ts ?? tsA;
  const facts = config.decision.storyFacts ? factsRelation(rb.dates, ra.dates) : 'unknown';
  const titleA = displayTitle(a.decoded.title ?? a.message.title) ?? null;
  const link =
    match.level === 'story'
      ? chooseStory(
          [{ id: a.message.id, seq: 1, similarity: match.similarity, facts }],
          [],
          new Map([[a.message.id, { id: a.message.id, size: 1, lastSeen: tsA, title: titleA }]]),
          tsB,
          config.decision,
          displayTitle(b.decoded.title ?? b.message.title),
        )
      : null;
  const report = {
    profile: config.profile,
    a: side(a),
    b: side(b),
    similarity: {
      ...evidence,
      jaccardExact: roundSimilarity(shared / Math.max(1, sa.size + sb.size - shared)),
      shingles: { a: sa.size, b: sb.size, shared },
      // Fingerprinted sentences and lead passages (containment): how many each side has, and
      // how many both have of the measure that gave `contained`.
      sentences: {
        a: countOf(ra.sentences, false),
        b: countOf(rb.sentences, false),
        shared: evidence.containedSentences ?? 0,
        leadPassages: { a: countOf(ra.sentences, true), b: countOf(rb.sentences, true) },
      },
    },
    verdict: {
      level: match.level,
      verdict: match.level === 'duplicate' || match.level === 'near_duplicate' ? match.level : 'unique',
      sameStory: match.level !== 'none',
      method: match.method || null,
      similarity: match.level === 'none' ? null : roundSimilarity(match.similarity),
      thresholds: config.decision,
    },
    story: {
      // duplicate: B joins A's cluster as a (near-)duplicate; story: through the story rule
      // (see link); none: no story-level match.
      decision:
        match.level === 'duplicate' || match.level === 'near_duplicate'
          ? 'duplicate'
          : link === null
            ? 'none'
            : link.joined
              ? 'joined'
              : 'refused',
      link,
      facts: {
        relation: facts,
        a: a.signatures.dates.map(formatDate),
        b: b.signatures.dates.map(formatDate),
      },
      window: { apartMs: Math.abs(tsB - tsA), windowMs: config.decision.storyWindowMs },
      minShare: config.decision.storyMinShare,
    },
  };
  process.stdout.write(`${JSON.stringify(report, null, 2)}\n`);
  return 0;
}

/** Why the title is in the canonical text, in words (nothing when it is not). */
function titleNote(s: SignedMessage, stubBodyTokens: number): { titleSignedBecause?: string } {
  const title = s.doc.signedTitle;
  if (title === null) return {};
  if (title.reason === 'always') return { titleSignedBecause: 'canonical.includeTitle is set' };
  return {
    titleSignedBecause: `the body is a stub: ${title.bodyTokens} tokens, fewer than canonical.stubBodyTokens (${stubBodyTokens})`,
  };
}

/** Sentence fingerprints (passages false) or lead passages (true) of a record's array. */
function countOf(values: Uint32Array | undefined, passages: boolean): number {
  let n = 0;
  for (const v of values ?? []) if (isPassage(v) === passages) n++;
  return n;
}
