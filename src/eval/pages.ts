import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { gunzipSync } from 'node:zlib';
import { decodeBytes, decodeRaw, extractArticle, htmlToText, parseHtml } from '../text/decode/index.js';

/**
 * Article extraction scored as the article-extraction benchmark scores it: 4-word shingles of the
 * extracted body against the body a person marked, true and false positives and false negatives
 * counted per shingle (with multiplicity), each page's counts normalised to sum 1; precision and
 * recall are the means over the pages, F1 their harmonic mean. Words are runs of letters, digits
 * and "_" (Python's \w), case kept.
 */

export interface ShingleCounts {
  tp: number;
  fp: number;
  fn: number;
}

const WORD = /[\p{L}\p{N}_]+/gu;
const SHINGLE = 4;

function shingles(text: string): Map<string, number> {
  const words = text.match(WORD) ?? [];
  const out = new Map<string, number>();
  // A text shorter than a shingle is one shingle of its words (none for an empty text).
  const last = Math.max(1, words.length - SHINGLE + 1);
  for (let i = 0; i < last && i < words.length; i++) {
    const key = words.slice(i, i + SHINGLE).join(' ');
    out.set(key, (out.get(key) ?? 0) + 1);
  }
  return out;
}

/** One page's normalised shingle counts of `predicted` against `truth`. */
export function shingleCounts(truth: string, predicted: string): ShingleCounts {
  const t = shingles(truth);
  const p = shingles(predicted);
  let tp = 0;
  let fp = 0;
  let fn = 0;
  for (const [key, count] of t) {
    const other = p.get(key) ?? 0;
    tp += Math.min(count, other);
    fn += Math.max(0, count - other);
  }
  for (const [key, count] of p) fp += Math.max(0, count - (t.get(key) ?? 0));
  const sum = tp + fp + fn;
  return sum > 0 ? { tp: tp / sum, fp: fp / sum, fn: fn / sum } : { tp, fp, fn };
}

export interface ExtractionScore {
  precision: number;
  recall: number;
  f1: number;
}

/** Mean precision and recall over pages (pages with nothing predicted, or nothing true, left out of each). */
export function scorePages(pages: readonly ShingleCounts[]): ExtractionScore {
  const precisions: number[] = [];
  const recalls: number[] = [];
  for (const { tp, fp, fn } of pages) {
    const exact = fp === 0 && fn === 0;
    if (tp + fp > 0) precisions.push(exact ? 1 : tp / (tp + fp));
    if (tp + fn > 0) recalls.push(exact ? 1 : tp / (tp + fn));
  }
  const mean = (xs: number[]): number => (xs.length === 0 ? 0 : xs.reduce((s, x) => s + x, 0) / xs.length);
  const precision = mean(precisions);
  const recall = mean(recalls);
  const f1 = precision + recall === 0 ? 0 : (2 * precision * recall) / (precision + recall);
  return { precision, recall, f1 };
}

export interface BenchmarkPage {
  key: string;
  url: string;
  /** The page as fetched (bytes; charset as served). */
  bytes: Uint8Array;
  /** The article body a person marked. */
  body: string;
}

/**
 * The pages of an article-extraction benchmark directory: `ground-truth.json` (`{key: {url,
 * articleBody}}`) and `html/<key>.html.gz`. Null when the directory does not hold one.
 */
export function readBenchmarkPages(dir: string): BenchmarkPage[] | null {
  const truthFile = join(dir, 'ground-truth.json');
  if (!existsSync(truthFile) || !existsSync(join(dir, 'html'))) return null;
  const truth = JSON.parse(readFileSync(truthFile, 'utf8')) as Record<
    string,
    { url?: string; articleBody?: string }
  >;
  const files = new Set(readdirSync(join(dir, 'html')));
  const pages: BenchmarkPage[] = [];
  for (const key of Object.keys(truth).sort()) {
    const file = `${key}.html.gz`;
    if (!files.has(file)) continue;
    const entry = truth[key] ?? {};
    pages.push({
      key,
      url: entry.url ?? '',
      bytes: gunzipSync(readFileSync(join(dir, 'html', file))),
      body: entry.articleBody ?? '',
    });
  }
  return pages;
}

export interface PageResult {
  key: string;
  url: string;
  counts: ShingleCounts;
  extraction: 'article' | 'page';
}

export interface PagesRun {
  score: ExtractionScore;
  pages: PageResult[];
  /** CPU time (user + system) of decoding and extracting, over all pages, in milliseconds. */
  cpuMs: number;
}

/** Decodes every page as `doppel` does (`raw` bytes: charset, HTML, article) and scores the text. */
export async function runPages(pages: readonly BenchmarkPage[]): Promise<PagesRun> {
  const results: PageResult[] = [];
  let cpuMs = 0;
  for (const page of pages) {
    const before = process.cpuUsage();
    const decoded = await decodeRaw(page.bytes);
    const used = process.cpuUsage(before);
    cpuMs += (used.user + used.system) / 1000;
    results.push({
      key: page.key,
      url: page.url,
      counts: shingleCounts(page.body, decoded.text),
      extraction: decoded.extraction ?? 'page',
    });
  }
  return { score: scorePages(results.map((r) => r.counts)), pages: results, cpuMs };
}

/**
 * The same pages as whole-page text (every visible element), decoded the same way: the baseline
 * that extraction improves on, and the CPU time it adds.
 */
export function runWholePages(pages: readonly BenchmarkPage[]): PagesRun {
  const results: PageResult[] = [];
  let cpuMs = 0;
  for (const page of pages) {
    const before = process.cpuUsage();
    const text = htmlToText(decodeBytes(page.bytes).text).text;
    const used = process.cpuUsage(before);
    cpuMs += (used.user + used.system) / 1000;
    results.push({
      key: page.key,
      url: page.url,
      counts: shingleCounts(page.body, text),
      extraction: 'page',
    });
  }
  return { score: scorePages(results.map((r) => r.counts)), pages: results, cpuMs };
}

/**
 * CPU time of the extraction alone, in milliseconds per page: extractArticle over pages already
 * decoded and parsed, the fastest of `rounds` rounds (the decode and parse are most of a page's
 * cost and vary more than the extraction between runs on a busy machine).
 */
export function extractionCpuMs(pages: readonly BenchmarkPage[], rounds = 3): number {
  const parsed = pages.map((page) => parseHtml(decodeBytes(page.bytes).text));
  let best = Number.POSITIVE_INFINITY;
  for (let round = 0; round < rounds; round++) {
    const before = process.cpuUsage();
    for (const doc of parsed) extractArticle(doc);
    const used = process.cpuUsage(before);
    best = Math.min(best, (used.user + used.system) / 1000 / Math.max(1, parsed.length));
  }
  return best;
}
