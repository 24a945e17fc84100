import { execFileSync } from 'node:child_process';
import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { REPO_ROOT } from '../support/cli.js';

/**
 * The package as a library: a service in another directory, with doppel in its node_modules (a
 * symlink to this repository, as `npm install ../doppel` makes), imports it BY NAME and runs the
 * README's example, taken from the README itself so that the documented code is the tested code.
 */
function readmeExample(): string {
  const readme = readFileSync(join(REPO_ROOT, 'README.md'), 'utf8');
  const section = readme.split('## Embedding doppel in a Node service')[1] ?? '';
  const code = /```js\n([\s\S]*?)```/.exec(section)?.[1];
  if (!code) throw new Error('README has no js example under "Embedding doppel in a Node service"');
  return code;
}

describe("import { ... } from 'doppel'", () => {
  const dir = mkdtempSync(join(tmpdir(), 'doppel-embed-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('resolves the package exports (with types) and runs the README example', () => {
    if (!existsSync(join(REPO_ROOT, 'dist/index.js'))) throw new Error('dist/ is missing: npm run build');
    const pkg = JSON.parse(readFileSync(join(REPO_ROOT, 'package.json'), 'utf8')) as {
      exports: Record<string, { types: string; import: string }>;
      main: string;
      types: string;
    };
    expect(existsSync(resolve(REPO_ROOT, pkg.exports['.']!.types))).toBe(true);
    expect(existsSync(resolve(REPO_ROOT, pkg.main))).toBe(true);
    mkdirSync(join(dir, 'node_modules'));
    symlinkSync(REPO_ROOT, join(dir, 'node_modules', 'doppel'), 'dir');
    writeFileSync(join(dir, 'package.json'), JSON.stringify({ name: 'newsroom-service', type: 'module' }));
    writeFileSync(join(dir, 'example.mjs'), readmeExample());
    const out = execFileSync(process.execPath, ['example.mjs'], {
      cwd: dir,
      encoding: 'utf8',
      timeout: 60_000,
    });
    expect(out.trim().split('\n')).toEqual([
      'unique near_duplicate wire-1 wire-1',
      'Central bank raises rates (2)',
    ]);
    // The public API by name: every documented export is there.
    const names = execFileSync(
      process.execPath,
      [
        '--input-type=module',
        '-e',
        "import * as d from 'doppel'; console.log(Object.keys(d).sort().join(' '))",
      ],
      { cwd: dir, encoding: 'utf8' },
    ).trim();
    for (const name of [
      'createDoppel',
      'DedupEngine',
      'MemoryStore',
      'RedisStore',
      'RedisClusterStore',
      'openStore',
      'Signer',
      'signMessage',
      'parseMessageObject',
      'decodeMessage',
      'resolveDedupConfig',
      'DoppelError',
    ])
      expect(names.split(' ')).toContain(name);
  });
});
