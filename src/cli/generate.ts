import { basename } from 'node:path';
import { DoppelError } from '../errors.js';
import {
  type GeneratorOptions,
  generateVariants,
  readSourceDocs,
  readStoryPairs,
  type SourceDoc,
  sampleDocs,
  storyPairDocs,
  VARIANT_KINDS,
  type VariantKind,
} from '../eval/generate.js';
import { parseCommandArgs } from './common.js';
import { LineWriter } from './jsonl.js';

export const GENERATE_USAGE = `usage: doppel generate [--seed N] [--variants N] [--kinds K1,K2] [--sample N] [--start ISO]
                       [--story-pairs FILE] [--no-merge] [--site-pages] [--output FILE|-] SOURCES.jsonl ...

The seeded near-duplicate benchmark generator (docs/benchmark-generator.md): real articles and mails
in, labelled messages out (originals and variants with a gold "cluster"), ready for doppel eval.
Kinds made only when named in --kinds: hash-buster, invisible, lookalike, tatweel, lead-only,
reordered, reordered-part, site-page. --site-pages makes every news original a whole page of its
home site (site-page copies go to other sites). The same arguments always give the same bytes.

examples:
  doppel generate --seed 42 --variants 4 news-ru.jsonl news-en.jsonl > bench-42.jsonl
  doppel generate --seed 7 --kinds hash-buster,mail-template spam.jsonl > campaigns.jsonl
  doppel generate --seed 21 --variants 3 --site-pages --kinds site-page news-en.jsonl > pages.jsonl`;

const OPTIONS = {
  seed: { type: 'string', default: '1' },
  variants: { type: 'string', default: '3' },
  kinds: { type: 'string' },
  sample: { type: 'string' },
  start: { type: 'string' },
  'story-pairs': { type: 'string' },
  'no-merge': { type: 'boolean' },
  'site-pages': { type: 'boolean' },
  output: { type: 'string', short: 'o', default: '-' },
  help: { type: 'boolean', short: 'h' },
} as const;

function integer(name: string, value: string): number {
  const n = Number(value);
  if (!Number.isInteger(n) || n < 0)
    throw new DoppelError('USAGE', `--${name} takes a whole number, not "${value}"`);
  return n;
}

export async function generateCommand(argv: string[]): Promise<number> {
  const { values, positionals } = parseCommandArgs(argv, OPTIONS, { positionals: true });
  if (values.help) {
    process.stdout.write(`${GENERATE_USAGE}\n`);
    return 0;
  }
  if (positionals.length === 0) throw new DoppelError('USAGE', 'generate needs at least one source file');
  const seed = integer('seed', values.seed);
  let docs: SourceDoc[] = [];
  for (const file of positionals) {
    let rows: SourceDoc[];
    try {
      rows = readSourceDocs(file);
    } catch (error) {
      throw new DoppelError('IO', (error as Error).message, { cause: error });
    }
    if (values.sample !== undefined)
      rows = sampleDocs(rows, integer('sample', values.sample), seed, basename(file));
    docs = docs.concat(rows);
  }
  const options: GeneratorOptions = { seed, variantsPerDoc: integer('variants', values.variants) };
  if (values.kinds !== undefined) {
    options.kinds = values.kinds.split(',').map((k) => {
      if (!(VARIANT_KINDS as readonly string[]).includes(k))
        throw new DoppelError('USAGE', `unknown kind: ${k} (${VARIANT_KINDS.join(', ')})`);
      return k as VariantKind;
    });
  }
  if (values.start !== undefined) options.startTime = values.start;
  if (values['no-merge']) options.mergeSources = false;
  if (values['site-pages']) options.sitePages = true;
  if (values['story-pairs'] !== undefined) {
    const pairs = readStoryPairs(values['story-pairs'], { knownDocs: docs });
    options.negatives = storyPairDocs(pairs);
    options.sameStory = pairs.filter((p) => p.sameStory).map((p) => [p.a.id, p.b.id] as const);
  }
  const out = new LineWriter(values.output);
  for (const m of generateVariants(docs, options)) await out.write(JSON.stringify(m));
  await out.close();
  return 0;
}
