import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { SCRIPT_NAMES } from '../../src/store/redis/scripts.js';

const ROOT = resolve(import.meta.dirname, '../..');

/** What `npm pack` would publish (after `npm run build`, which `npm test` runs first). */
function packedFiles(): string[] {
  const out = execFileSync('npm', ['pack', '--dry-run', '--json', '--ignore-scripts'], {
    cwd: ROOT,
    encoding: 'utf8',
    stdio: ['ignore', 'pipe', 'ignore'],
  });
  const [pack] = JSON.parse(out) as Array<{ files: Array<{ path: string }> }>;
  return (pack?.files ?? []).map((f) => f.path);
}

const BUILT = existsSync(resolve(ROOT, 'dist/kafka/entry/news.js'));
if (!BUILT) {
  process.stdout.write(
    '[package] dist/ is not built (npm run build; npm test builds first): the package contents test skips\n',
  );
}

describe('the published package and the image', () => {
  it.skipIf(!BUILT)(
    'ship the compiled code with its Lua scripts and the consumer entry files, without bench/, dev/ or src/',
    () => {
      const files = packedFiles();
      for (const name of SCRIPT_NAMES) expect(files).toContain(`dist/store/redis/lua/${name}-1.lua`);
      expect(files).toContain('consumers/news.js');
      expect(files).toContain('consumers/mail.js');
      expect(files).toContain('dist/kafka/entry/news.js');
      // The shipped lexicons in their compact form (npm run build), beside their JSON.
      for (const lang of ['en', 'fa', 'ru', 'uk']) {
        expect(files).toContain(`dist/lexicons/${lang}.bin`);
        expect(files).toContain(`data/lexicons/${lang}.json`);
      }
      // The character tables, built once (npm run build) instead of at every start.
      expect(files).toContain('dist/text/char-tables.bin');
      expect(files.filter((f) => /^dist\/(bench|dev)\//.test(f))).toEqual([]);
      expect(files.filter((f) => f.startsWith('src/'))).toEqual([]);
    },
  );

  it('the Dockerfile copies no sources into the runtime stage and drops bench/ and dev/', () => {
    const dockerfile = readFileSync(resolve(ROOT, 'Dockerfile'), 'utf8');
    const runtime = dockerfile.slice(dockerfile.indexOf('AS runtime'));
    expect(runtime).not.toMatch(/COPY\s+src\b/);
    expect(dockerfile).toMatch(/rm -rf dist\/bench dist\/dev/);
    expect(runtime).toMatch(/COPY consumers\/news\.js consumers\/mail\.js/);
  });
});
