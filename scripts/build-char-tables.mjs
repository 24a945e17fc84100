#!/usr/bin/env node
// The shipped character tables (src/text/char-tables.ts): every table's builder run once,
// written to dist/text/char-tables.bin with the Unicode, ICU and V8 versions they were built on.
// Deterministic: the same code on the same Node.js gives the same bytes. Part of `npm run build`,
// after tsc (it runs the compiled builders).
import { rmSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';

const root = resolve(import.meta.dirname, '..');
const target = join(root, 'dist/text/char-tables.bin');
// A file from an earlier build must not feed the tables the builders derive from others.
rmSync(target, { force: true });
const { buildCharTables } = await import('../dist/text/char-table-builders.js');
const { encodeCharTables } = await import('../dist/text/char-tables.js');
writeFileSync(target, encodeCharTables(buildCharTables()));
