/**
 * `npm run eval:pages [-- --dir DIR] [--worst N] [--strip-names] [--divs] [--clutter]`: body
 * precision, recall and F1 of the article doppel takes from each page of an article-extraction
 * benchmark (the `pages` directory of the evaluation corpus, $DOPPEL_SHARED_DATA/pages), beside
 * the whole page's text, and the CPU time per page. The flags check robustness on the same pages
 * changed on the fly (pages-perturb.ts): without class/id/role/itemprop names, with semantic
 * elements as <div>, with a cookie notice, related-story list and comment thread before the
 * article. Exit code 2 when the data is absent.
 */
import { resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { extractionCpuMs, type PagesRun, readBenchmarkPages, runPages, runWholePages } from './pages.js';
import { type Perturbation, perturbPage } from './pages-perturb.js';

const { values } = parseArgs({
  options: {
    dir: { type: 'string' },
    worst: { type: 'string', default: '0' },
    'strip-names': { type: 'boolean', default: false },
    divs: { type: 'boolean', default: false },
    clutter: { type: 'boolean', default: false },
  },
  strict: true,
});
const dir = resolve(
  values.dir ??
    (process.env.DOPPEL_SHARED_DATA ? resolve(process.env.DOPPEL_SHARED_DATA, 'pages') : 'eval-data/pages'),
);
const perturbation: Perturbation = {
  stripNames: values['strip-names'],
  divs: values.divs,
  clutter: values.clutter,
};
const changes = Object.entries(perturbation)
  .filter(([, on]) => on)
  .map(([name]) => name);
const read = readBenchmarkPages(dir);
const pages =
  read === null || changes.length === 0
    ? read
    : read.map((page) => ({ ...page, bytes: perturbPage(page.bytes, page.key, perturbation) }));
if (pages === null || pages.length === 0) {
  process.stderr.write(
    `eval:pages: no benchmark pages in ${dir} (ground-truth.json and html/<key>.html.gz); pass --dir DIR or set DOPPEL_SHARED_DATA\n`,
  );
  process.exit(2);
}

// Warm-up (JIT), then the two alternate twice and the faster round of each counts: this machine's
// speed varies from second to second.
await runPages(pages.slice(0, 20));
runWholePages(pages.slice(0, 20));
const faster = (a: PagesRun, b: PagesRun): PagesRun => (a.cpuMs <= b.cpuMs ? a : b);
const article1 = await runPages(pages);
const whole1 = runWholePages(pages);
const article = faster(article1, await runPages(pages));
const whole = faster(whole1, runWholePages(pages));

const row = (label: string, run: PagesRun): string => {
  const perPage = run.cpuMs / pages.length;
  const { precision, recall, f1 } = run.score;
  return `| ${label} | ${precision.toFixed(3)} | ${recall.toFixed(3)} | **${f1.toFixed(3)}** | ${(1000 / perPage).toFixed(0)} | ${perPage.toFixed(2)} |`;
};
const found = article.pages.filter((p) => p.extraction === 'article').length;
const extractionMs = extractionCpuMs(pages, 5);
process.stdout.write(
  [
    `${pages.length} pages from ${dir}${changes.length > 0 ? ` (changed: ${changes.join(', ')})` : ''}; 4-word shingle P/R/F1 of the body, each page normalised; CPU time (user + system) of one thread`,
    '',
    '| text | P | R | F1 | pages/s (CPU) | CPU ms/page |',
    '|---|---|---|---|---|---|',
    row('article (decode of the raw page: charset, HTML, extraction)', article),
    row('whole page (every visible element; the same decode)', whole),
    '',
    `extraction: article on ${found} pages, whole page on ${pages.length - found}; the extraction alone (extractArticle on the parsed pages, fastest of 5 rounds): ${extractionMs.toFixed(3)} CPU ms/page`,
    '',
  ].join('\n'),
);
const worst = Number(values.worst);
if (worst > 0) {
  const f1 = (p: PagesRun['pages'][number]): number => {
    const { tp, fp, fn } = p.counts;
    return tp === 0 ? 0 : (2 * tp) / (2 * tp + fp + fn);
  };
  for (const p of [...article.pages].sort((a, b) => f1(a) - f1(b)).slice(0, worst))
    process.stdout.write(`${f1(p).toFixed(3)} ${p.extraction.padEnd(7)} ${p.url}\n`);
}
