/**
 * `node dist/eval/pages-perturb-main.js [--strip-names] [--divs] [--clutter] < IN.jsonl > OUT.jsonl`:
 * the robustness changes of `npm run eval:pages` applied to the `html` field of every JSON line of
 * a labelled set (e.g. the site-page set that `npm run eval:shared` generates), other fields and
 * lines as they are, so that `doppel eval` can score the same set without class names or with
 * semantic elements as divs. The line's `id` seeds the clutter.
 */
import { createInterface } from 'node:readline';
import { parseArgs } from 'node:util';
import { type Perturbation, perturbHtml } from './pages-perturb.js';

const { values } = parseArgs({
  options: {
    'strip-names': { type: 'boolean', default: false },
    divs: { type: 'boolean', default: false },
    clutter: { type: 'boolean', default: false },
  },
  strict: true,
});
const how: Perturbation = { stripNames: values['strip-names'], divs: values.divs, clutter: values.clutter };

let line = 0;
for await (const text of createInterface({ input: process.stdin, crlfDelay: Number.POSITIVE_INFINITY })) {
  line++;
  if (text.trim() === '') continue;
  let out = text;
  try {
    const message = JSON.parse(text) as Record<string, unknown>;
    if (typeof message.html === 'string') {
      const key = typeof message.id === 'string' ? message.id : String(line);
      out = JSON.stringify({ ...message, html: perturbHtml(message.html, key, how) });
    }
  } catch {
    // Not JSON: passed on as it is, for `doppel eval` to report as it reports any bad line.
  }
  process.stdout.write(`${out}\n`);
}
