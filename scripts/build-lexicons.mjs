#!/usr/bin/env node
// The compact binary form of each shipped lexicon (src/lexicon/compact.ts): data/lexicons/<lang>.json
// -> dist/lexicons/<lang>.bin, validated as `doppel` validates a lexicon file and recording the
// JSON's SHA-256 (a compact file whose JSON has changed since is not used). Deterministic: the
// same JSON gives the same bytes. Part of `npm run build`, after tsc (it uses the compiled code).
import { mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { encodeCompact, sourceDigest } from '../dist/lexicon/compact.js';
import { parseLexicon } from '../dist/lexicon/lexicon.js';

const root = resolve(import.meta.dirname, '..');
const from = join(root, 'data/lexicons');
const to = join(root, 'dist/lexicons');
mkdirSync(to, { recursive: true });
for (const name of readdirSync(from)
  .filter((n) => n.endsWith('.json'))
  .sort()) {
  const path = join(from, name);
  const bytes = readFileSync(path);
  const lexicon = parseLexicon(JSON.parse(bytes.toString('utf8')), path);
  const meta = { ...lexicon.meta, source: sourceDigest(bytes) };
  writeFileSync(join(to, name.replace(/\.json$/, '.bin')), encodeCompact(meta, lexicon.words));
}
