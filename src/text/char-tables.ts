import { readFileSync } from 'node:fs';

/**
 * The per-code-unit character tables of the text modules (invisible characters, word scripts,
 * NFKC, letter folding, token classes) in their shipped form. Each table is defined by a builder
 * in its own module, which asks Unicode (regex properties, String#normalize, toLowerCase) about
 * every BMP code unit: about 0.1 s of CPU at every start. `npm run build` runs every builder once
 * (scripts/build-char-tables.mjs) and writes dist/text/char-tables.bin; a process then reads the
 * tables from it, in well under a millisecond.
 *
 * The file records the Unicode, ICU and V8 versions it was built with. A process on another
 * version (a Node.js upgrade after the build), a big-endian host, or code run from src/ (the
 * tests) builds the tables itself, so a table always equals its builder's answer on the running
 * Node.js. test/text/char-tables.test.ts checks that the shipped file equals the builders.
 */

export type CharTable = Uint8Array | Uint16Array | Uint32Array;
type CharTableType = 'u8' | 'u16' | 'u32';
type CharTableConstructor<T extends CharTable> = {
  new (length: number): T;
  new (buffer: ArrayBuffer): T;
  readonly BYTES_PER_ELEMENT: number;
};

export const CHAR_TABLES_FORMAT = 'doppel-char-tables/1';

/** Where the compiled text modules find the shipped tables (not present beside src/). */
export const CHAR_TABLES_FILE = new URL('./char-tables.bin', import.meta.url);

interface Header {
  format: string;
  runtime: string;
  tables: Array<{ name: string; type: CharTableType; length: number }>;
}

/** The versions a table's content depends on: Unicode data, ICU (normalization), V8 (regex, case). */
export function charTableRuntime(): string {
  const v = process.versions;
  return `unicode ${v.unicode ?? '?'}, icu ${v.icu ?? '?'}, v8 ${v.v8}`;
}

function typeOf(table: CharTable): CharTableType {
  if (table instanceof Uint8Array) return 'u8';
  if (table instanceof Uint16Array) return 'u16';
  return 'u32';
}

const ALIGN = 4;
const padded = (n: number): number => Math.ceil(n / ALIGN) * ALIGN;
const LITTLE_ENDIAN_HOST = new Uint8Array(new Uint16Array([1]).buffer)[0] === 1;

/**
 * The file's bytes: a 4-byte little-endian header length, the JSON header (format, runtime,
 * each table's name, element type and length), then each table's elements, little-endian, each
 * starting at a multiple of 4. Deterministic: the same tables on the same runtime give the same bytes.
 */
export function encodeCharTables(
  tables: ReadonlyMap<string, CharTable>,
  runtime = charTableRuntime(),
): Buffer {
  if (!LITTLE_ENDIAN_HOST) throw new Error('char tables are written on little-endian hosts only');
  const header: Header = {
    format: CHAR_TABLES_FORMAT,
    runtime,
    tables: [...tables].map(([name, table]) => ({ name, type: typeOf(table), length: table.length })),
  };
  const json = Buffer.from(JSON.stringify(header), 'utf8');
  const parts: Buffer[] = [Buffer.alloc(4), json, Buffer.alloc(padded(4 + json.length) - 4 - json.length)];
  parts[0]?.writeUInt32LE(json.length, 0);
  for (const table of tables.values()) {
    const bytes = Buffer.from(table.buffer, table.byteOffset, table.byteLength);
    parts.push(bytes, Buffer.alloc(padded(bytes.length) - bytes.length));
  }
  return Buffer.concat(parts);
}

/** The tables of a file's bytes; null when they are not for `runtime` or not in this format. */
export function decodeCharTables(
  bytes: Uint8Array,
  runtime = charTableRuntime(),
): Map<string, CharTable> | null {
  if (!LITTLE_ENDIAN_HOST || bytes.length < 4) return null;
  const view = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const headerLength = view.readUInt32LE(0);
  if (4 + headerLength > view.length) return null;
  let header: Header;
  try {
    header = JSON.parse(view.toString('utf8', 4, 4 + headerLength)) as Header;
  } catch {
    return null;
  }
  if (header.format !== CHAR_TABLES_FORMAT || header.runtime !== runtime || !Array.isArray(header.tables))
    return null;
  const out = new Map<string, CharTable>();
  let offset = padded(4 + headerLength);
  for (const { name, type, length } of header.tables) {
    const Ctor = type === 'u8' ? Uint8Array : type === 'u16' ? Uint16Array : Uint32Array;
    const byteLength = length * Ctor.BYTES_PER_ELEMENT;
    if (offset + byteLength > view.length) return null;
    // A copy: its own aligned buffer, and the file's bytes are not kept.
    const copy = bytes.buffer.slice(bytes.byteOffset + offset, bytes.byteOffset + offset + byteLength);
    out.set(name, new Ctor(copy as ArrayBuffer));
    offset += padded(byteLength);
  }
  return out;
}

let shipped: Map<string, CharTable> | null | undefined;

function shippedTables(): Map<string, CharTable> | null {
  if (shipped === undefined) {
    try {
      shipped = decodeCharTables(readFileSync(CHAR_TABLES_FILE));
    } catch {
      shipped = null; // no file (src/, or a build without it): every table is built
    }
  }
  return shipped;
}

/**
 * The table `name`: the shipped one when the file is there, for this runtime, and holds it with
 * this element type; else `build()`.
 */
export function charTable<T extends CharTable>(
  name: string,
  type: CharTableConstructor<T>,
  build: () => T,
): T {
  const table = shippedTables()?.get(name);
  if (table instanceof type) return table;
  return build();
}
