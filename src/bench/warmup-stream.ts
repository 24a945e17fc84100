/**
 * bench:e2e's warm-up stream (`BENCH_WARMUP=N`): messages like the measured stream's, which a
 * consumer process handles before the measured ones, so that the figures are those of a consumer
 * that has been running (V8 has compiled the per-message path, the store holds a window of older
 * messages) and not its first few thousand messages.
 *
 * Each warm-up message is a measured message with its words swapped for other words of the same
 * language, through one seeded permutation of that language's vocabulary. So the warm-up has the
 * measured stream's languages, lengths, shapes (text, title, HTML page) and near-duplicate
 * structure (a copy's swapped words are its original's swapped words), while no warm-up message
 * shares a text, a shingle or a term profile with a measured one: nothing of the measured stream is
 * indexed before it is measured, and its verdicts are those of a cold run. Legacy-charset and mail
 * messages (`raw`) go in as the text they decode to. The warm-up's event times end one day before
 * the measured stream's first, so the measured messages meet a window of older ones, as a deployed
 * consumer does.
 */
import { mulberry32 } from '../eval/random.js';
import { decodeMessage } from '../input/decode-message.js';
import { parseMessageObject } from '../input/message.js';

const WORD = /\p{L}+/gu;
const TAG = /(<[^>]*>)/;
const DAY_MS = 86_400_000;

interface StreamLine {
  id?: unknown;
  lang?: unknown;
  ts?: unknown;
  text?: unknown;
  title?: unknown;
  html?: unknown;
  raw?: unknown;
  [field: string]: unknown;
}

/** The words of an HTML page outside its tags (tag names and attributes stay as they are). */
function mapHtml(html: string, swap: (text: string) => string): string {
  return html
    .split(TAG)
    .map((part, i) => (i % 2 === 1 ? part : swap(part)))
    .join('');
}

/** Decodes a `raw` line's bytes to text (the product's decoder), or null when it cannot. */
async function rawAsText(line: StreamLine): Promise<{ text: string; title?: string } | null> {
  try {
    const decoded = await decodeMessage(parseMessageObject(line));
    return decoded.title === undefined
      ? { text: decoded.text }
      : { text: decoded.text, title: decoded.title };
  } catch {
    return null;
  }
}

/**
 * `count` warm-up lines made from `lines` (JSON Lines of the measured stream). Past the stream's
 * length it goes round again with another permutation and times one more span earlier.
 */
export async function warmupLines(lines: readonly string[], count: number, seed = 1): Promise<string[]> {
  if (count <= 0 || lines.length === 0) return [];
  const parsed: StreamLine[] = [];
  for (const line of lines) {
    const json = JSON.parse(line) as StreamLine;
    if (typeof json.raw === 'string') {
      const decoded = await rawAsText(json);
      if (decoded === null) continue;
      const { raw: _raw, ...rest } = json;
      parsed.push({ ...rest, ...decoded });
    } else parsed.push(json);
  }
  const times = parsed.map((m) => Date.parse(String(m.ts))).filter((t) => Number.isFinite(t));
  const first = times.length > 0 ? Math.min(...times) : Date.now();
  const last = times.length > 0 ? Math.max(...times) : first;
  const span = last - first + DAY_MS;

  // Each language's vocabulary, in first-seen order (deterministic).
  const vocabulary = new Map<string, Map<string, number>>();
  const langOf = (m: StreamLine) => (typeof m.lang === 'string' ? m.lang : 'und');
  const collect = (lang: string, text: unknown) => {
    if (typeof text !== 'string') return;
    const words = vocabulary.get(lang) ?? new Map<string, number>();
    vocabulary.set(lang, words);
    for (const [word] of text.matchAll(WORD)) if (!words.has(word)) words.set(word, words.size);
  };
  for (const m of parsed) {
    const lang = langOf(m);
    collect(lang, m.text);
    collect(lang, m.title);
    if (typeof m.html === 'string') for (const part of m.html.split(TAG)) collect(lang, part);
  }

  const out: string[] = [];
  for (let round = 0; out.length < count; round++) {
    const next = mulberry32(seed + round);
    const swaps = new Map<string, Map<string, string>>();
    for (const [lang, words] of vocabulary) {
      const list = [...words.keys()];
      const shuffled = list.slice();
      for (let i = shuffled.length - 1; i > 0; i--) {
        const j = Math.floor(next() * (i + 1));
        [shuffled[i], shuffled[j]] = [shuffled[j] as string, shuffled[i] as string];
      }
      swaps.set(lang, new Map(list.map((w, i) => [w, shuffled[i] as string])));
    }
    const shift = (round + 1) * span;
    for (const m of parsed) {
      if (out.length >= count) break;
      const table = swaps.get(langOf(m)) as Map<string, string>;
      const swap = (text: string) => text.replace(WORD, (w) => table.get(w) ?? w);
      const copy: StreamLine = { ...m, id: `warmup-${round}-${String(m.id)}` };
      if (typeof m.text === 'string') copy.text = swap(m.text);
      if (typeof m.title === 'string') copy.title = swap(m.title);
      if (typeof m.html === 'string') copy.html = mapHtml(m.html, swap);
      const ts = Date.parse(String(m.ts));
      if (Number.isFinite(ts)) copy.ts = new Date(ts - shift).toISOString();
      out.push(JSON.stringify(copy));
    }
  }
  return out;
}
