import { DoppelError, isDoppelError } from '../errors.js';
import {
  type EvalResult,
  evalVariants,
  type LabeledMessage,
  runStoryPairs,
  runVariant,
  type StoryPairResult,
} from '../eval/run.js';
import { type Message, parseMessageLine, parseMessageObject } from '../input/message.js';
import { parseJsonText } from '../json.js';
import { engineSetup, parseCommandArgs } from './common.js';
import { readLines } from './jsonl.js';

export const EVAL_USAGE = `usage: doppel eval --input LABELLED.jsonl [--profile news|mail] [--config FILE] [--pairs PAIRS.jsonl]
                   [--variants combined,minhash-lsh,...] [--lexicon LANG=FILE ...] [--json]

Each input line is a message (the doppel dedup format) with a gold "cluster" label. Prints, for the
profile's combined rule and for single-method baselines (plain MinHash LSH, Broder mega-shingles,
SimHash, I-Match, exact): duplicate-level precision, recall and F1 of the duplicateOf links,
pairwise cluster precision/recall/F1, adjusted Rand index, HFM and separation (Zobel-Hoad).
--pairs FILE: story-level accuracy on judged pairs {"a": message, "b": message, "sameStory": bool}.

examples:
  doppel eval --input bench.jsonl        # bench.jsonl from: doppel generate --seed 7 articles.jsonl
  doppel eval --profile mail --input labelled-mail.jsonl --json > report.json`;

const OPTIONS = {
  input: { type: 'string', short: 'i' },
  profile: { type: 'string', short: 'p', default: 'news' },
  config: { type: 'string', short: 'c' },
  pairs: { type: 'string' },
  variants: { type: 'string' },
  lexicon: { type: 'string', multiple: true },
  json: { type: 'boolean' },
  help: { type: 'boolean', short: 'h' },
} as const;

export interface EvalReport {
  input: string | null;
  profile: string;
  results: EvalResult[];
  storyPairs: StoryPairResult | null;
}

export async function evalCommand(argv: string[]): Promise<number> {
  const { values } = parseCommandArgs(argv, OPTIONS);
  if (values.help) {
    process.stdout.write(`${EVAL_USAGE}\n`);
    return 0;
  }
  if (!values.input && !values.pairs)
    throw new DoppelError('USAGE', 'eval needs --input LABELLED.jsonl and/or --pairs PAIRS.jsonl');
  const { config, lexicons } = await engineSetup(values);
  const report: EvalReport = {
    input: values.input ?? null,
    profile: config.profile,
    results: [],
    storyPairs: null,
  };

  if (values.input) {
    const items: LabeledMessage[] = [];
    let skipped = 0;
    for await (const line of readLines(values.input)) {
      if (typeof line !== 'string') {
        skipped++;
        continue;
      }
      if (line.trim() === '') continue;
      try {
        const message = parseMessageLine(line);
        const gold = message.fields.cluster;
        if (typeof gold !== 'string' && typeof gold !== 'number')
          throw new DoppelError('INVALID_MESSAGE', 'no "cluster" label');
        const story = message.fields.story;
        const item: LabeledMessage = { message, gold: String(gold) };
        if (typeof story === 'string' || typeof story === 'number') item.story = String(story);
        items.push(item);
      } catch (error) {
        if (!isDoppelError(error)) throw error;
        skipped++;
      }
    }
    if (skipped > 0)
      process.stderr.write(
        `doppel eval: ${skipped} lines without a message or a "cluster" label were skipped\n`,
      );
    const wanted = values.variants ? new Set(values.variants.split(',')) : null;
    for (const variant of evalVariants(config)) {
      if (wanted && !wanted.has(variant.name)) continue;
      report.results.push(await runVariant(items, variant, lexicons));
    }
  }
  if (values.pairs) report.storyPairs = await runStoryPairs(await readPairs(values.pairs), config, lexicons);

  process.stdout.write(values.json ? `${JSON.stringify(report, null, 2)}\n` : formatReport(report));
  return 0;
}

async function readPairs(path: string): Promise<Array<{ a: Message; b: Message; sameStory: boolean }>> {
  const pairs: Array<{ a: Message; b: Message; sameStory: boolean }> = [];
  let n = 0;
  for await (const line of readLines(path)) {
    if (typeof line !== 'string') throw line.error();
    if (line.trim() === '') continue;
    n++;
    const pair = parseJsonText(line, `${path}, pair ${n},`) as {
      a: Record<string, unknown>;
      b: Record<string, unknown>;
      sameStory: boolean;
    };
    if (
      typeof pair !== 'object' ||
      pair === null ||
      typeof pair.a !== 'object' ||
      typeof pair.b !== 'object'
    ) {
      throw new DoppelError(
        'INVALID_MESSAGE',
        `${path}, pair ${n}: needs {"a": message, "b": message, "sameStory": bool}`,
      );
    }
    const message = (m: Record<string, unknown>, side: string) =>
      parseMessageObject({ ...m, id: String(m.id ?? `pair${n}-${side}`) });
    pairs.push({ a: message(pair.a, 'a'), b: message(pair.b, 'b'), sameStory: Boolean(pair.sameStory) });
  }
  return pairs;
}

const f3 = (x: number | null) => (x === null ? '-' : x.toFixed(3));

export function formatReport(report: EvalReport): string {
  const lines: string[] = [];
  if (report.results.length > 0) {
    lines.push(
      `doppel eval: ${report.input} (${report.results[0]!.messages} messages, profile ${report.profile})`,
    );
    lines.push('');
    lines.push(
      '| method | dup precision | dup recall | dup F1 | story P | story R | story F1 | cluster P | cluster R | cluster F1 | ARI | HFM | separation | msg/s |',
    );
    lines.push('|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|');
    for (const r of report.results) {
      lines.push(
        `| ${r.name} | ${f3(r.duplicates.precision)} | ${f3(r.duplicates.recall)} | ${f3(r.duplicates.f1)} | ` +
          `${f3(r.stories.precision)} | ${f3(r.stories.recall)} | ${f3(r.stories.f1)} | ` +
          `${f3(r.clusters.precision)} | ${f3(r.clusters.recall)} | ${f3(r.clusters.f1)} | ${f3(r.clusters.ari)} | ` +
          `${f3(r.hfm)} | ${f3(r.separation)} | ${Math.round(r.messagesPerSecond)} |`,
      );
    }
    lines.push('');
    for (const r of report.results) lines.push(`- ${r.name}: ${r.description}`);
    const langs = [...new Set(report.results.flatMap((r) => Object.keys(r.byLanguage)))];
    if (langs.length > 0) {
      lines.push('');
      lines.push('per language (dup P / R / F1; story P / R / F1):');
      lines.push('');
      lines.push(`| method | ${langs.map((l) => `${l} dup | ${l} story`).join(' | ')} |`);
      lines.push(`|---|${langs.map(() => '---|---').join('|')}|`);
      for (const r of report.results) {
        const cells = langs.map((l) => {
          const s = r.byLanguage[l];
          if (!s) return '- | -';
          const d = s.duplicates;
          const t = s.stories;
          return `${f3(d.precision)} / ${f3(d.recall)} / ${f3(d.f1)} | ${f3(t.precision)} / ${f3(t.recall)} / ${f3(t.f1)}`;
        });
        lines.push(`| ${r.name} | ${cells.join(' | ')} |`);
      }
    }
    const kinds = [...new Set(report.results.flatMap((r) => Object.keys(r.recallByKind)))].sort();
    if (kinds.length > 0) {
      lines.push('');
      lines.push(`duplicate-level recall by variant kind:`);
      lines.push('');
      lines.push(`| method | ${kinds.join(' | ')} |`);
      lines.push(`|---|${kinds.map(() => '---:').join('|')}|`);
      for (const r of report.results) {
        lines.push(`| ${r.name} | ${kinds.map((k) => f3(r.recallByKind[k]?.recall ?? null)).join(' | ')} |`);
      }
      lines.push(
        `| (messages) | ${kinds.map((k) => String(report.results[0]?.recallByKind[k]?.messages ?? 0)).join(' | ')} |`,
      );
    }
  }
  if (report.storyPairs) {
    const s = report.storyPairs;
    lines.push('');
    lines.push(
      `story pairs: ${s.pairs} judged pairs; accuracy ${f3(s.accuracy)}, precision ${f3(s.precision)}, recall ${f3(s.recall)}, F1 ${f3(s.f1)}`,
    );
  }
  return `${lines.join('\n')}\n`;
}
