import { spawnSync } from 'node:child_process';
import { dirname, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { beforeAll, describe, expect, it } from 'vitest';
import xxhashWasm from 'xxhash-wasm';
import type { U64 } from '../../src/hash/mix.js';
import { initHashing, xxh64, xxh64Bytes, xxh64Hex } from '../../src/hash/xxhash.js';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
const SEED = 0x9e3779b97f4a7c15n;

/** A text of `units` UTF-16 units mixing ASCII, Cyrillic (2 bytes), CJK (3) and emoji (surrogate pairs, 4). */
function mixedText(units: number): string {
  const parts = ['news ', 'Новости ', '新闻 ', '📰 ', 'خبر '];
  let text = '';
  for (let i = 0; text.length < units; i++) text += parts[i % parts.length];
  // Cut on a code point boundary so that the text stays well-formed UTF-16.
  const cut = text.slice(0, units);
  return /[\uD800-\uDBFF]$/.test(cut) ? `${cut.slice(0, -1)}x` : cut;
}

const halves = (h: bigint): U64 => ({ hi: Number(h >> 32n), lo: Number(h & 0xffffffffn) });

describe('xxhash', () => {
  // A separate instance of the library: its one-shot hashes (growing its own memory) are the reference.
  let reference: Awaited<ReturnType<typeof xxhashWasm>>;
  beforeAll(async () => {
    await initHashing();
    reference = await xxhashWasm();
  });

  it.each([0, 1, 100, 21_845, 21_846, 40_000, 250_000])(
    'a text of %i units hashes as the one-shot XXH64 of its UTF-8 bytes',
    (units) => {
      const text = mixedText(units);
      const expected = reference.h64(text, SEED);
      expect(xxh64(text, SEED, { hi: 0, lo: 0 })).toEqual(halves(expected));
      expect(xxh64Hex(text, SEED)).toBe(expected.toString(16).padStart(16, '0'));
    },
  );

  it.each([0, 65_536, 65_537, 100_003])('%i raw bytes hash as the one-shot XXH64', (length) => {
    const bytes = new Uint8Array(length);
    for (let i = 0; i < length; i++) bytes[i] = (i * 131 + 7) & 0xff;
    expect(xxh64Bytes(bytes, SEED, { hi: 0, lo: 0 })).toEqual(halves(reference.h64Raw(bytes, SEED)));
  });

  it('a lone surrogate in a long text is hashed as U+FFFD, like the one-shot hash', () => {
    const text = `${mixedText(30_000)}\uD800${mixedText(30_000)}`;
    expect(xxh64Hex(text, SEED)).toBe(reference.h64ToString(text, SEED));
  });

  it('hashing long inputs never detaches an ArrayBuffer (which drops optimized code)', () => {
    // The built module, in a process of its own: V8 reports the protector's invalidation on stderr.
    const module = pathToFileURL(resolve(root, 'dist/hash/xxhash.js')).href;
    const script = `const x = await import(${JSON.stringify(module)}); await x.initHashing();
      const out = { hi: 0, lo: 0 };
      x.xxh64('ж'.repeat(300000), 1n, out); x.xxh64Hex('a'.repeat(70000), 2n);
      x.xxh64Bytes(new Uint8Array(200000), 3n, out); x.xxh64('short', 4n, out);
      console.log('hashed');`;
    const run = spawnSync(
      process.execPath,
      ['--trace-protector-invalidation', '--input-type=module', '-e', script],
      { encoding: 'utf8' },
    );
    expect(run.stdout).toContain('hashed');
    expect(`${run.stdout}${run.stderr}`).not.toMatch(/ArrayBufferDetaching/);
  });
});
