import type { Charset } from '../../text/decode/charset.js';
import type { SourceDuplicateRule } from './sources.js';

/** The generator's inputs and outputs: source documents, variant kinds, labelled messages, options. */

export interface SourceDoc {
  id: string;
  lang: string;
  text: string;
  title?: string;
  /** Defined for mails (true = spam): mails get mail-template variants instead of news edits. */
  spam?: boolean;
  url?: string;
}

export const VARIANT_KINDS = [
  'original',
  'syndication',
  'retitle',
  'truncate-lede',
  'truncate-end',
  'swap-paragraphs',
  'word-edits-5',
  'word-edits-10',
  'word-edits-15',
  'insert-sentence',
  'html',
  'legacy-encoding',
  'mail-template',
  'hash-buster',
  'invisible',
  'lookalike',
  'tatweel',
  'lead-only',
  'reordered',
  'reordered-part',
  'site-page',
] as const;
export type VariantKind = (typeof VARIANT_KINDS)[number];

export interface LabeledMessage {
  /** `${sourceId}~${kind}~${n}`; the original is `${sourceId}~original~0`. */
  id: string;
  /** Gold label: the source's cluster (its id, or the first id of a group of near-duplicate sources). */
  cluster: string;
  /**
   * Gold story: the cluster, or the first cluster of a group that people judged to report one
   * news story (`GeneratorOptions.sameStory`). Story clustering is scored against this label.
   */
  story: string;
  variant: VariantKind;
  lang: string;
  /** ISO time; a variant comes 2 minutes to 12 hours after its original. */
  ts: string;
  text?: string;
  title?: string;
  html?: string;
  /** Base64 of the text's bytes in a legacy charset (legacy-encoding). */
  raw?: string;
  /** The source document's id (equal to `cluster` unless sources were merged). */
  source: string;
  /** The charset of `raw`, for evaluating charset detection. */
  charset?: Charset;
}

export interface GeneratorOptions {
  seed: number;
  /** Variants per source document, besides its original. */
  variantsPerDoc: number;
  /** Kinds to draw from (default: every kind that applies to the document). */
  kinds?: VariantKind[];
  /** Time of the first original (default 2019-11-20T06:00:00Z: a fixed time keeps output reproducible). */
  startTime?: string;
  /** Extra documents added as originals only, each with its own cluster: different reports of one story. */
  negatives?: SourceDoc[];
  /**
   * Sources that are near-duplicates of each other by this rule share one gold cluster (false:
   * never merge). Default DEFAULT_SOURCE_DUPLICATE_RULE; see `sourceClusters`.
   */
  mergeSources?: Partial<SourceDuplicateRule> | false;
  /**
   * Pairs of document ids judged to report the same story (story-pairs.jsonl "sameStory": true):
   * their clusters share one gold story label.
   */
  sameStory?: ReadonlyArray<readonly [string, string]>;
  /**
   * Site pages: every news original is a whole page of its home site (one of SITES per language,
   * with that site's chrome), so that different articles of one site share their chrome; the
   * `site-page` kind puts copies on the other sites.
   */
  sitePages?: boolean;
}

export const DEFAULT_START_TIME = '2019-11-20T06:00:00.000Z';
