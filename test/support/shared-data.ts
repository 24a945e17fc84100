import { existsSync, readFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

/**
 * Evaluation data: the evaluation corpus, DOPPEL_SHARED_DATA (real news, mail, judged story
 * pairs and web pages). It is never
 * copied into the project. Suites that read it call `sharedData()` and skip, printing why,
 * when it is absent (a user's machine); CI has it.
 */
const here = dirname(fileURLToPath(import.meta.url));
// Unset: ./eval-data of the project (gitignored, never shipped), where a user may put the corpus.
export const SHARED_DATA_DIR = process.env.DOPPEL_SHARED_DATA
  ? resolve(process.env.DOPPEL_SHARED_DATA)
  : resolve(here, '../..', 'eval-data');

export function hasSharedData(): boolean {
  return existsSync(resolve(SHARED_DATA_DIR, 'README.md'));
}

export const SHARED_DATA_SKIP_REASON = `the evaluation corpus was not found at ${SHARED_DATA_DIR}: suites on real text are skipped (set DOPPEL_SHARED_DATA to its folder)`;

let warned = false;
/** Prints the skip reason once per process, so a skipped suite is never silent. */
export function warnIfNoSharedData(): boolean {
  const present = hasSharedData();
  if (!present && !warned) {
    warned = true;
    console.warn(`[doppel tests] ${SHARED_DATA_SKIP_REASON}`);
  }
  return present;
}

export interface SharedArticle {
  id: string;
  lang: string;
  title?: string;
  text: string;
  url?: string;
  spam?: boolean;
  section?: string;
}

export function readSharedJsonl<T = SharedArticle>(file: string): T[] {
  const raw = readFileSync(resolve(SHARED_DATA_DIR, file), 'utf8');
  return raw
    .split('\n')
    .filter((line) => line.trim() !== '')
    .map((line) => JSON.parse(line) as T);
}
