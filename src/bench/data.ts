import { existsSync, readFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

/** Real text for benchmarks: the evaluation corpus, DOPPEL_SHARED_DATA (never copied into the project). */
const here = dirname(fileURLToPath(import.meta.url));
// Unset: ./eval-data of the project (gitignored, never shipped), where a user may put the corpus.
export const SHARED_DATA_DIR = process.env.DOPPEL_SHARED_DATA
  ? resolve(process.env.DOPPEL_SHARED_DATA)
  : resolve(here, '../..', 'eval-data');

export interface BenchDoc {
  id: string;
  lang?: string;
  title?: string;
  text: string;
  cluster?: string;
  spam?: boolean;
}

export function sharedDataAvailable(): boolean {
  return existsSync(resolve(SHARED_DATA_DIR, 'README.md'));
}

export function readJsonl(file: string): BenchDoc[] {
  return readFileSync(resolve(SHARED_DATA_DIR, file), 'utf8')
    .split('\n')
    .filter((l) => l.trim() !== '')
    .map((l) => JSON.parse(l) as BenchDoc);
}
