import { existsSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { buildCharTables } from '../../src/text/char-table-builders.js';
import {
  CHAR_TABLES_FORMAT,
  type CharTable,
  charTableRuntime,
  decodeCharTables,
  encodeCharTables,
} from '../../src/text/char-tables.js';

const SHIPPED = fileURLToPath(new URL('../../dist/text/char-tables.bin', import.meta.url));

/** Names of the tables that differ between a and b (compared as bytes: a diff of 64K elements is slow and unreadable). */
function same(a: ReadonlyMap<string, CharTable>, b: ReadonlyMap<string, CharTable>): string[] {
  const differ: string[] = [];
  for (const name of new Set([...a.keys(), ...b.keys()])) {
    const x = a.get(name);
    const y = b.get(name);
    if (!x || !y || x.constructor !== y.constructor || x.length !== y.length) differ.push(name);
    else if (
      !Buffer.from(x.buffer, x.byteOffset, x.byteLength).equals(
        Buffer.from(y.buffer, y.byteOffset, y.byteLength),
      )
    )
      differ.push(name);
  }
  return differ;
}

describe('shipped character tables', () => {
  const built = buildCharTables();

  it('dist/text/char-tables.bin (npm run build) holds exactly what the builders in src/ give', () => {
    expect(existsSync(SHIPPED), `${SHIPPED} is missing: run npm run build`).toBe(true);
    const shipped = decodeCharTables(readFileSync(SHIPPED));
    expect(shipped, 'the shipped file is not for this Node.js: run npm run build').not.toBeNull();
    expect(same(built, shipped as Map<string, CharTable>)).toEqual([]);
  });

  it('are written deterministically and read back equal, each table on its own aligned buffer', () => {
    const bytes = encodeCharTables(built);
    expect(encodeCharTables(buildCharTables()).equals(bytes)).toBe(true);
    // An odd offset in a larger buffer, as a pooled read may give.
    const shifted = new Uint8Array(bytes.length + 1);
    shifted.set(bytes, 1);
    const read = decodeCharTables(shifted.subarray(1));
    expect(read).not.toBeNull();
    expect(same(built, read as Map<string, CharTable>)).toEqual([]);
    for (const table of (read as Map<string, CharTable>).values()) expect(table.byteOffset % 4).toBe(0);
  });

  it('are not used on another Unicode, ICU or V8 version, nor when the file is damaged', () => {
    const bytes = encodeCharTables(built, 'unicode 1.0, icu 1.0, v8 1.0');
    expect(decodeCharTables(bytes)).toBeNull();
    expect(decodeCharTables(bytes, 'unicode 1.0, icu 1.0, v8 1.0')).not.toBeNull();
    const current = encodeCharTables(built);
    expect(decodeCharTables(current.subarray(0, current.length - 8))).toBeNull(); // truncated
    expect(decodeCharTables(new Uint8Array([1, 0, 0, 0, 0x7b]))).toBeNull(); // a broken header
    expect(decodeCharTables(new Uint8Array(2))).toBeNull();
    const otherFormat = Buffer.from(current);
    const at = otherFormat.indexOf(CHAR_TABLES_FORMAT);
    otherFormat.write('x', at);
    expect(decodeCharTables(otherFormat)).toBeNull();
  });

  it('record the runtime they were built on', () => {
    expect(charTableRuntime()).toContain(`v8 ${process.versions.v8}`);
    expect(charTableRuntime()).toContain(`unicode ${process.versions.unicode}`);
  });
});
