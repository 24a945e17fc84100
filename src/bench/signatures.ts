/**
 * `npm run bench:signatures`: documents per second on one core for each signature method and for
 * the whole pipeline (decode + canonicalize + every signature), and MB/s of canonicalization, on
 * real news from the evaluation corpus (DOPPEL_SHARED_DATA); and web pages: whole-page text, article extraction, and the
 * path from raw page bytes to signatures. Prints a table; docs/benchmarks.md records the results.
 */
import { resolve } from 'node:path';
import { signatureConfigSchema } from '../config/signatures.js';
import { readBenchmarkPages } from '../eval/pages.js';
import { SEED_EXACT } from '../hash/seeds.js';
import { initHashing, xxh64Hex } from '../hash/xxhash.js';
import { parseMessageObject } from '../input/message.js';
import { LexiconSet } from '../lexicon/lexicon.js';
import { signMessage } from '../pipeline/sign.js';
import { Signer } from '../signatures/signer.js';
import { type CanonicalDoc, canonicalize } from '../text/canonical.js';
import { decodeBytes, extractArticle, htmlToText, parseHtml } from '../text/decode/index.js';
import { type BenchDoc, readJsonl, SHARED_DATA_DIR, sharedDataAvailable } from './data.js';

const MIN_SECONDS = Number(process.env.BENCH_SECONDS ?? 3);

interface Row {
  label: string;
  /** Median over rounds of documents per second, and the slowest and fastest round. */
  perSecond: number;
  low: number;
  high: number;
  mbPerSecond: number;
}

/**
 * Runs `run` (one pass over `docs` documents) repeatedly for MIN_SECONDS and reports the median
 * round: this machine is a shared VM whose speed varies by +-20% from second to second, and the
 * median is steadier than one long average.
 */
async function measure(
  label: string,
  docs: number,
  bytes: number,
  run: () => void | Promise<void>,
): Promise<Row> {
  await run(); // warm-up: JIT and caches
  const rates: number[] = [];
  const start = process.hrtime.bigint();
  do {
    const t0 = process.hrtime.bigint();
    await run();
    rates.push(docs / (Number(process.hrtime.bigint() - t0) / 1e9));
  } while (Number(process.hrtime.bigint() - start) / 1e9 < MIN_SECONDS);
  rates.sort((a, b) => a - b);
  const median = rates[Math.floor(rates.length / 2)] as number;
  return {
    label,
    perSecond: median,
    low: rates[0] as number,
    high: rates[rates.length - 1] as number,
    mbPerSecond: (median * bytes) / docs / 1e6,
  };
}

/** Whole sentences up to the first boundary at or past `bytes` of UTF-8 (shorter texts stay whole). */
function cutAtSentence(text: string, bytes: number): string {
  const sentences = text.match(/[^.!?\n]+[.!?\n]*\s*/g) ?? [text];
  let out = '';
  for (const sentence of sentences) {
    if (Buffer.byteLength(out, 'utf8') >= bytes) break;
    out += sentence;
  }
  return out;
}

async function main(): Promise<void> {
  if (!sharedDataAvailable()) {
    console.error(
      `bench:signatures needs the evaluation corpus (looked in ${SHARED_DATA_DIR}); set DOPPEL_SHARED_DATA`,
    );
    process.exitCode = 2;
    return;
  }
  await initHashing();
  const corpus: BenchDoc[] = [
    ...readJsonl('news-ru.jsonl'),
    ...readJsonl('news-en.jsonl'),
    ...readJsonl('news-fa.jsonl'),
  ];
  const bytes = corpus.reduce((n, d) => n + Buffer.byteLength(d.text, 'utf8'), 0);
  const base = signatureConfigSchema.parse({});
  const lexicons = LexiconSet.defaults();
  const signer = new Signer(base, lexicons);
  const docs: CanonicalDoc[] = corpus.map((d) =>
    canonicalize({ text: d.text, kind: 'text' }, base.canonical, d.lang),
  );
  for (const d of docs) lexicons.get(d.lang); // load lexicons outside the timed loops

  const only = (method: 'simhash' | 'minhash' | 'imatch' | 'lexical') =>
    new Signer(
      signatureConfigSchema.parse({
        simhash: { enabled: method === 'simhash' },
        minhash: { enabled: method === 'minhash' },
        imatch: { enabled: method === 'imatch' },
        lexical: { enabled: method === 'lexical' },
      }),
      lexicons,
    );
  const engines = {
    simhash: only('simhash'),
    minhash: only('minhash'),
    imatch: only('imatch'),
    lexical: only('lexical'),
  };
  const messages = corpus.map((d) => parseMessageObject({ id: d.id, text: d.text, lang: d.lang }));
  // The target is stated for ~2 KB news items; the shared articles average ~2.9 KB of UTF-8.
  const short = corpus.map((d) =>
    parseMessageObject({ id: d.id, text: cutAtSentence(d.text, 2048), lang: d.lang }),
  );
  const shortBytes = short.reduce((n, m) => n + Buffer.byteLength(m.text ?? '', 'utf8'), 0);

  const rows: Row[] = [];
  const stages: Array<[string, number, number, () => void | Promise<void>]> = [
    [
      'canonicalize',
      corpus.length,
      bytes,
      () => {
        for (const d of corpus) canonicalize({ text: d.text, kind: 'text' }, base.canonical, d.lang);
      },
    ],
    [
      'exact (xxh64 of canonical text)',
      docs.length,
      bytes,
      () => {
        for (const d of docs) xxh64Hex(d.canonical, SEED_EXACT);
      },
    ],
    ['simhash-64', docs.length, bytes, () => computeAll(engines.simhash, docs)],
    ['minhash 84 + 6 super + 15 mega', docs.length, bytes, () => computeAll(engines.minhash, docs)],
    ['i-match (1 + 3 randomized)', docs.length, bytes, () => computeAll(engines.imatch, docs)],
    ['lexical + longest/heaviest sentences', docs.length, bytes, () => computeAll(engines.lexical, docs)],
    ['all signatures (from canonical text)', docs.length, bytes, () => computeAll(signer, docs)],
    [
      'end to end: decode + canonicalize + all',
      messages.length,
      bytes,
      async () => {
        for (const m of messages) await signMessage(m, signer);
      },
    ],
    [
      'end to end, items cut to ~2 KB',
      short.length,
      shortBytes,
      async () => {
        for (const m of short) await signMessage(m, signer);
      },
    ],
  ];
  // Real web pages (menus, sidebars, comments: the article-extraction benchmark's pages), when
  // present: what extraction adds to the HTML path, and the path's total.
  const pages = readBenchmarkPages(resolve(SHARED_DATA_DIR, 'pages')) ?? [];
  if (pages.length > 0) {
    const pageBytes = pages.reduce((n, p) => n + p.bytes.length, 0);
    const htmls = pages.map((p) => decodeBytes(p.bytes).text);
    const raws = pages.map((p) =>
      parseMessageObject({ id: p.key, raw: Buffer.from(p.bytes).toString('base64') }),
    );
    stages.push(
      [
        'web pages: HTML to whole-page text',
        htmls.length,
        pageBytes,
        () => {
          for (const h of htmls) htmlToText(h);
        },
      ],
      [
        'web pages: HTML to article (extraction)',
        htmls.length,
        pageBytes,
        () => {
          for (const h of htmls) extractArticle(parseHtml(h));
        },
      ],
      [
        'web pages end to end: raw bytes, decode + article + canonicalize + all',
        raws.length,
        pageBytes,
        async () => {
          for (const m of raws) await signMessage(m, signer);
        },
      ],
    );
  }
  for (const [label, count, size, run] of stages) rows.push(await measure(label, count, size, run));

  const avgBytes = bytes / corpus.length;
  console.log(
    `bench:signatures: ${corpus.length} real news items (ru, en, fa), mean ${avgBytes.toFixed(0)} bytes of UTF-8 ` +
      `(cut: mean ${(shortBytes / short.length).toFixed(0)} bytes); one core; ${MIN_SECONDS}s per row; node ${process.version}`,
  );
  console.log(
    "web pages: the article-extraction benchmark's real pages (the corpus's pages/), MB/s of page HTML; rows absent without it",
  );
  const n = (x: number) => Math.round(x).toLocaleString('en-US');
  console.log('| stage | docs/s per core (median round) | slowest - fastest round | MB/s |');
  console.log('|---|---:|---:|---:|');
  for (const r of rows) {
    console.log(
      `| ${r.label} | ${n(r.perSecond)} | ${n(r.low)} - ${n(r.high)} | ${r.mbPerSecond.toFixed(1)} |`,
    );
  }
}

function computeAll(signer: Signer, docs: CanonicalDoc[]): void {
  for (const d of docs) signer.compute(d);
}

await main();
