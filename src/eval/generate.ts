/**
 * Seeded near-duplicate benchmark generator (full documentation: docs/benchmark-generator.md).
 *
 * No public data set labels near-duplicates in Russian, Ukrainian and Persian news or in mail
 * campaigns, so the benchmark is made from real articles and mails by the edits that feeds
 * really apply, each variant labelled with its source's gold cluster:
 *
 * - syndication: an agency dateline ("MOSCOW, Nov 20 (Interfax) - ", "ТАСС, 20 ноября. ",
 *   "به گزارش خبرگزاری فارس، ") and/or 1-2 footer lines (subscribe, copyright, "Ctrl+Enter").
 * - retitle: another title over the same text: an exact duplicate after canonicalization, by
 *   design (the title is not part of the canonical text).
 * - truncate-lede / truncate-end: the first sentence dropped / the first 70-85% of sentences kept.
 * - swap-paragraphs: two paragraphs swapped (two blocks of sentences in a one-paragraph text).
 * - word-edits-5/10/15: that share of the canonical word count replaced, deleted or inserted
 *   (2:1:1), with words of the same document or a short list of common words of the language.
 * - insert-sentence: an editor's note inserted at the middle of the text, by words.
 * - html: a page with head, title, scripts, site menu, headline, the paragraphs in <p>, footer
 *   (a mail becomes an HTML mail: table layout, unsubscribe link, tracking pixel).
 * - legacy-encoding: the text's bytes in base64 `raw`: ru in windows-1251, KOI8-R or cp866 (by
 *   seed), uk in windows-1251, fa in windows-1256 (after ی->ي, ک->ك, Persian digits->ASCII,
 *   which it lacks); en as UTF-8, since English has no legacy code page of interest.
 * - mail-template (mails: SourceDoc.spam defined): the recipient's name in the greeting, tracking
 *   links with a random id, a new order/reference number, 1-3 hash-buster words (spam only).
 * - hash-buster (spam only; only when asked for with `kinds`): a spam copy made to defeat
 *   hashing: the template's greeting, links and reference number, random words inserted (about
 *   10% of the words, made-up or rare), and an unsubscribe line with a per-copy id.
 *
 * Some kinds add typographic noise that canonicalization removes (quote style, dashes, no-break
 * spaces); no kind changes a word beyond what its name says.
 *
 * Reproducibility: the output is a pure function of (inputs, options). Randomness comes only from
 * `Random.from(seed, ...labels)` streams keyed by document id, kind and copy number, so a
 * document's variants do not change when other documents are added or removed; only the feed
 * timeline (when originals appear) depends on the input order. No clock, no locale, no Math.random.
 *
 * Gold labels: a variant's cluster is its source's cluster, and a source's cluster is its own id,
 * unless the sources themselves are near-duplicates (the shared news sets hold wire copies under
 * different ids, containment 0.8-0.98). Such sources share the cluster of the first of them, so
 * that a detector is not charged with false positives for finding real duplicates
 * (`mergeSources`, `DEFAULT_SOURCE_DUPLICATE_RULE`, `sourceClusters`).
 */

import { langOf } from './generator/language-packs.js';
import { sitePage } from './generator/site-pages.js';
import { DEFAULT_SOURCE_DUPLICATE_RULE, sourceClusters } from './generator/sources.js';
import { canonicalWords, parseBody } from './generator/text.js';
import {
  DEFAULT_START_TIME,
  type GeneratorOptions,
  type LabeledMessage,
  type SourceDoc,
  type VariantKind,
} from './generator/types.js';
import {
  BUILDERS,
  chooseVariantKinds,
  homeSite,
  isMail,
  OPT_IN_KINDS,
  pageTitle,
} from './generator/variants.js';
import { Random } from './random.js';

// The generator's public API, from the modules it is made of (src/eval/generator/).
export {
  type HardNegative,
  hardNegativePairs,
  readSourceDocs,
  readStoryPairs,
  type StoryPair,
  sampleDocs,
  storyPairDocs,
} from './generator/readers.js';
export {
  DEFAULT_SOURCE_DUPLICATE_RULE,
  findSimilarSources,
  isSourceDuplicate,
  type SourceDuplicateRule,
  type SourceSimilarity,
  sourceClusters,
} from './generator/sources.js';
export { canonicalWords } from './generator/text.js';
export {
  DEFAULT_START_TIME,
  type GeneratorOptions,
  type LabeledMessage,
  type SourceDoc,
  VARIANT_KINDS,
  type VariantKind,
} from './generator/types.js';
export { chooseVariantKinds, isMail, legacyForm } from './generator/variants.js';

// ---------------------------------------------------------------------------------------------
// The generator.

export function messageId(sourceId: string, kind: VariantKind, n: number): string {
  return `${sourceId}~${kind}~${n}`;
}

/** Between originals: 1 to 20 minutes, a busy feed. */
const ORIGINAL_GAP_S: readonly [number, number] = [60, 1200];
/** A copy follows its original after 2 minutes to 12 hours, log-uniform: most copies come soon. */
const VARIANT_DELAY_S: readonly [number, number] = [120, 12 * 3600];

function delaySeconds(r: Random): number {
  const [lo, hi] = VARIANT_DELAY_S;
  return Math.round(Math.exp(r.uniform(Math.log(lo), Math.log(hi))));
}

/**
 * Sources and negatives interleaved as a riffle: each list keeps its order, so negatives given as
 * consecutive pairs (two reports of one story) appear minutes apart, as such reports do.
 */
function riffle<T>(a: readonly T[], b: readonly T[], r: Random): T[] {
  const out: T[] = [];
  let i = 0;
  let j = 0;
  while (i < a.length || j < b.length) {
    const fromA = j >= b.length || (i < a.length && r.next() * (a.length - i + b.length - j) < a.length - i);
    out.push(fromA ? a[i++]! : b[j++]!);
  }
  return out;
}

function validateDocs(docs: readonly SourceDoc[]): void {
  const ids = new Set<string>();
  for (const d of docs) {
    if (typeof d.id !== 'string' || d.id === '')
      throw new Error('every source document needs a non-empty id');
    if (ids.has(d.id)) throw new Error(`duplicate source id: ${d.id}`);
    if (d.text.trim() === '') throw new Error(`source ${d.id} has no text`);
    ids.add(d.id);
  }
}

/**
 * Originals (sources and negatives) and `variantsPerDoc` variants of each source, ordered by ts
 * (then id). Negatives equal to a source (same id and text) are the same document and are not
 * added twice; a different document under a source's id is an error.
 */
export function generateVariants(docs: SourceDoc[], options: GeneratorOptions): LabeledMessage[] {
  const { seed, variantsPerDoc } = options;
  if (!Number.isSafeInteger(seed)) throw new RangeError(`seed must be a safe integer, got ${seed}`);
  if (!Number.isInteger(variantsPerDoc) || variantsPerDoc < 0)
    throw new RangeError(`variantsPerDoc must be a non-negative integer, got ${variantsPerDoc}`);
  const start = Date.parse(options.startTime ?? DEFAULT_START_TIME);
  if (!Number.isFinite(start)) throw new RangeError(`startTime is not an ISO time: ${options.startTime}`);
  validateDocs(docs);
  const byId = new Map(docs.map((d) => [d.id, d]));
  const negatives: SourceDoc[] = [];
  for (const n of options.negatives ?? []) {
    const same = byId.get(n.id);
    if (same !== undefined) {
      // The same article may come from two exports that differ in spacing (a no-break space).
      if (canonicalWords(same.text).join(' ') !== canonicalWords(n.text).join(' '))
        throw new Error(`negative ${n.id} has the id of a different source document`);
      continue;
    }
    byId.set(n.id, n);
    negatives.push(n);
  }
  validateDocs([...docs, ...negatives]);

  const clusters = sourceClusters(
    [...docs, ...negatives],
    options.mergeSources ?? DEFAULT_SOURCE_DUPLICATE_RULE,
  );
  const stories = storyLabels([...docs, ...negatives], clusters, options.sameStory ?? []);
  const allowed = options.kinds === undefined ? undefined : new Set(options.kinds);
  const feed = Random.from(seed, 'feed');
  const timeline = riffle(
    docs.map((d) => ({ doc: d, variants: true })),
    negatives.map((d) => ({ doc: d, variants: false })),
    feed,
  );

  // Headlines per language, in input order: site pages list other articles' headlines.
  const headlines = new Map<string, string[]>();
  for (const d of [...docs, ...negatives]) {
    const lang = langOf(d);
    const list = headlines.get(lang) ?? [];
    list.push(pageTitle(d, parseBody(d.text, lang)));
    headlines.set(lang, list);
  }

  const out: { ms: number; message: LabeledMessage }[] = [];
  let clock = start;
  timeline.forEach(({ doc, variants }, k) => {
    if (k > 0) clock += 1000 * feed.between(ORIGINAL_GAP_S[0], ORIGINAL_GAP_S[1]);
    const cluster = clusters.get(doc.id)!;
    const lang = langOf(doc);
    const body = parseBody(doc.text, lang);
    const base = { cluster, story: stories.get(doc.id)!, lang: doc.lang };
    const original: LabeledMessage = {
      id: messageId(doc.id, 'original', 0),
      ...base,
      variant: 'original',
      ts: new Date(clock).toISOString(),
      ...(doc.title === undefined ? {} : { title: doc.title }),
      ...(options.sitePages === true && !isMail(doc)
        ? {
            html: sitePage({
              seed,
              lang,
              site: homeSite(seed, doc.id),
              title: pageTitle(doc, body),
              body,
              headlines: headlines.get(lang) ?? [],
              date: new Date(clock),
              r: Random.from(seed, 'home-page', doc.id),
            }),
          }
        : { text: doc.text }),
      source: doc.id,
    };
    out.push({ ms: clock, message: original });
    if (!variants || variantsPerDoc === 0) return;

    const optIn = new Set([...(allowed ?? [])].filter((kind) => OPT_IN_KINDS.has(kind)));
    const applicable = chooseVariantKinds(doc, { optIn }).filter(
      (kind) => allowed === undefined || allowed.has(kind),
    );
    if (applicable.length === 0) return;
    const order = Random.from(seed, 'kinds', doc.id);
    // A campaign is what mail near-duplicates are: a mail's first variant is always a template copy.
    const kinds = applicable.includes('mail-template')
      ? ['mail-template' as const, ...order.shuffle(applicable.filter((kind) => kind !== 'mail-template'))]
      : order.shuffle(applicable);
    const counts = new Map<VariantKind, number>();
    for (let v = 0; v < variantsPerDoc; v++) {
      const kind = kinds[v % kinds.length] as Exclude<VariantKind, 'original'>;
      const n = counts.get(kind) ?? 0;
      counts.set(kind, n + 1);
      const delay = Random.from(seed, 'delay', doc.id, kind, String(n));
      // Wires often put out the teaser first and the full story later: half the teasers come first.
      const before = kind === 'lead-only' && delay.chance(0.5);
      const ms = clock + (before ? -1 : 1) * 1000 * delaySeconds(delay);
      const r = Random.from(seed, 'variant', doc.id, kind, String(n));
      const content = BUILDERS[kind]({
        doc,
        lang,
        body,
        r,
        date: new Date(ms),
        isMail: isMail(doc),
        seed,
        copy: n,
        headlines: headlines.get(lang) ?? [],
      });
      const message: LabeledMessage = {
        id: messageId(doc.id, kind, n),
        ...base,
        variant: kind,
        ts: new Date(ms).toISOString(),
        ...content,
        source: doc.id,
      };
      out.push({ ms, message });
    }
  });
  out.sort((x, y) => x.ms - y.ms || (x.message.id < y.message.id ? -1 : x.message.id > y.message.id ? 1 : 0));
  return out.map((o) => o.message);
}

/**
 * Story label of every document: its cluster, with clusters joined by same-story judgements
 * (transitively); a group's label is its earliest document's cluster (input order).
 */
function storyLabels(
  docs: readonly SourceDoc[],
  clusters: ReadonlyMap<string, string>,
  sameStory: ReadonlyArray<readonly [string, string]>,
): Map<string, string> {
  const position = new Map(docs.map((d, i) => [d.id, i]));
  const parent = docs.map((_d, i) => i);
  const find = (i: number): number => {
    let x = i;
    while (parent[x] !== x) x = parent[x]!;
    return x;
  };
  const union = (a: number, b: number) => {
    const ra = find(a);
    const rb = find(b);
    if (ra !== rb) parent[Math.max(ra, rb)] = Math.min(ra, rb);
  };
  // Documents of one gold cluster are one story.
  const firstOfCluster = new Map<string, number>();
  docs.forEach((d, i) => {
    const c = clusters.get(d.id)!;
    const first = firstOfCluster.get(c);
    if (first === undefined) firstOfCluster.set(c, i);
    else union(first, i);
  });
  for (const [a, b] of sameStory) {
    const ia = position.get(a);
    const ib = position.get(b);
    if (ia !== undefined && ib !== undefined) union(ia, ib);
  }
  return new Map(docs.map((d, i) => [d.id, clusters.get(docs[find(i)]!.id)!]));
}

/** id -> gold cluster of generated messages: the `gold` argument of the metrics. */
export function goldClusters(
  messages: readonly Pick<LabeledMessage, 'id' | 'cluster'>[],
): Map<string, string> {
  return new Map(messages.map((m) => [m.id, m.cluster]));
}
