import type { CharTable } from './char-tables.js';
import { buildInvisibleAstral, buildInvisibleUnit } from './invisible.js';
import { buildNfkcTables } from './nfkc.js';
import { buildFastFold, buildFold } from './normalize.js';
import { buildTokenClass } from './tokenize.js';
import { buildWordScript } from './word-scripts.js';

/**
 * Every shipped character table, by the name its module asks `charTable` for, built from its
 * definition on the running Node.js: what scripts/build-char-tables.mjs writes to
 * dist/text/char-tables.bin, and what test/text/char-tables.test.ts compares the file with.
 */
export function buildCharTables(): Map<string, CharTable> {
  const nfkc = buildNfkcTables();
  const fastFold = buildFastFold();
  return new Map<string, CharTable>([
    ['invisible-unit', buildInvisibleUnit()],
    ['invisible-astral', buildInvisibleAstral()],
    ['word-script', buildWordScript()],
    ['nfkc-inert', nfkc.inert],
    ['nfkd-length', nfkc.nfkdLength],
    ['fold', buildFold()],
    ['fast-fold', fastFold.fastFold],
    ['fast-fold-expansions', fastFold.expansions],
    ['token-class', buildTokenClass()],
  ]);
}
