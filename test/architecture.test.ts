import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';

/**
 * The import rules of docs/architecture.md, enforced: every relative import of every module in
 * src/ (static, re-export, side-effect and dynamic) must go to its own folder or to one its row
 * of the table names, and the table must have no cycle. The table is read from the document, so
 * the rules and their documentation cannot drift apart.
 */

const ROOT = resolve(import.meta.dirname, '..');
const SRC = join(ROOT, 'src');
const ROOT_MODULES: Record<string, string> = {
  errors: 'base',
  json: 'base',
  'lazy-schema': 'base',
  redact: 'base',
  'typed-slab': 'base',
  index: 'library',
  embed: 'library',
};

/** The folder (area) of a path under src/: its first directory, or a root module's area. */
function areaOf(path: string): string {
  const parts = relative(SRC, path).split(/[\\/]/);
  if (parts.length > 1) return parts[0] as string;
  const name = (parts[0] as string).replace(/\.(d\.)?[jt]s$/, '');
  return ROOT_MODULES[name] ?? name;
}

/** The relative specifiers a module imports. */
function importsOf(source: string): string[] {
  const out: string[] = [];
  const code = source.replace(/\/\*[\s\S]*?\*\//g, '').replace(/^\s*\/\/.*$/gm, '');
  const pattern = /(?:\bfrom\s*|\bimport\s*\(?\s*)(['"])(\.{1,2}\/[^'"]+)\1/g;
  for (const m of code.matchAll(pattern)) out.push(m[2] as string);
  return out;
}

function modules(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const path = join(dir, e.name);
    if (e.isDirectory()) return modules(path);
    return /\.ts$/.test(e.name) ? [path] : [];
  });
}

/** The table of docs/architecture.md: area -> areas it may import. */
function allowedImports(markdown: string): Map<string, Set<string>> {
  const section = markdown.split('## Folders and what each may import')[1] ?? '';
  const rules = new Map<string, Set<string>>();
  for (const line of section.split('\n')) {
    const cells = line.split('|').map((c) => c.trim());
    if (cells.length < 5 || cells[1] === 'folder' || /^-+$/.test(cells[1] ?? '')) continue;
    const area = cells[1] as string;
    const may = (cells[3] as string) === '—' ? [] : (cells[3] as string).split(',').map((a) => a.trim());
    rules.set(area, new Set(may));
  }
  return rules;
}

/** A cycle in `graph` as a list of nodes, or null. */
function findCycle(graph: Map<string, Set<string>>): string[] | null {
  const state = new Map<string, 'open' | 'done'>();
  const path: string[] = [];
  const visit = (node: string): string[] | null => {
    if (state.get(node) === 'done') return null;
    if (state.get(node) === 'open') return [...path.slice(path.indexOf(node)), node];
    state.set(node, 'open');
    path.push(node);
    for (const next of graph.get(node) ?? []) {
      const cycle = visit(next);
      if (cycle) return cycle;
    }
    path.pop();
    state.set(node, 'done');
    return null;
  };
  for (const node of graph.keys()) {
    const cycle = visit(node);
    if (cycle) return cycle;
  }
  return null;
}

const rules = allowedImports(readFileSync(join(ROOT, 'docs/architecture.md'), 'utf8'));

describe('the import rules (docs/architecture.md)', () => {
  it('the table names every folder of src/, and its rules have no cycle', () => {
    expect(rules.size).toBeGreaterThanOrEqual(15);
    const areas = new Set(modules(SRC).map(areaOf));
    // src/web holds the story desk's static files only (no TypeScript).
    expect([...areas].filter((a) => !rules.has(a))).toEqual([]);
    for (const [area, may] of rules) {
      expect(
        [...may].filter((a) => !rules.has(a)),
        `${area} names unknown folders`,
      ).toEqual([]);
    }
    expect(findCycle(rules)).toBeNull();
  });

  it('every module in src/ imports only its own folder and the folders its row names', () => {
    const broken: string[] = [];
    let checked = 0;
    for (const file of modules(SRC)) {
      const from = areaOf(file);
      for (const specifier of importsOf(readFileSync(file, 'utf8'))) {
        const to = areaOf(resolve(dirname(file), specifier));
        checked++;
        if (to !== from && !rules.get(from)?.has(to))
          broken.push(`${relative(ROOT, file)} (${from}) imports ${specifier} (${to})`);
      }
    }
    expect(checked).toBeGreaterThan(300);
    expect(broken).toEqual([]);
  });

  it('catches what it is for: a core import of an adapter, dynamic imports, a cycle', () => {
    const engine = join(SRC, 'engine/engine.ts');
    const to = (s: string) => areaOf(resolve(dirname(engine), s));
    const found = importsOf(
      "import { x } from '../kafka/processor.js';\n// import '../cli/main.js';\nconst m = await import('../dev/redis-server.js');\nexport { y } from './types.js';",
    );
    expect(found).toEqual(['../kafka/processor.js', '../dev/redis-server.js', './types.js']);
    expect(found.map(to)).toEqual(['kafka', 'dev', 'engine']);
    expect(rules.get('engine')?.has('kafka')).toBe(false);
    expect(rules.get('engine')?.has('dev')).toBe(false);
    expect(areaOf(join(SRC, 'errors.ts'))).toBe('base');
    expect(
      findCycle(
        new Map([
          ['a', new Set(['b'])],
          ['b', new Set(['c'])],
          ['c', new Set(['a'])],
        ]),
      ),
    ).toEqual(['a', 'b', 'c', 'a']);
    // Nothing shipped may depend on the development tools.
    for (const [area, may] of rules)
      if (area !== 'bench') expect(may.has('bench') || may.has('dev'), area).toBe(false);
  });
});
