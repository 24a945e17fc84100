#!/usr/bin/env node
// Run-time assets next to the compiled code: every file under src/ that tsc does not compile (the
// Redis store's Lua scripts) is copied to the same place under dist/, so the package and the image
// read them from dist/ and never need src/. Part of `npm run build`.
import { copyFileSync, mkdirSync, readdirSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';

const root = resolve(import.meta.dirname, '..');
const from = join(root, 'src');
const to = join(root, 'dist');

function walk(dir) {
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) walk(path);
    else if (!entry.name.endsWith('.ts')) {
      const target = join(to, relative(from, path));
      mkdirSync(dirname(target), { recursive: true });
      copyFileSync(path, target);
    }
  }
}

walk(from);
