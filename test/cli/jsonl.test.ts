import { createInterface } from 'node:readline';
import { Readable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { readLines } from '../../src/cli/jsonl.js';
import { rng } from '../support/engine.js';

async function collect(lines: AsyncIterable<string>): Promise<string[]> {
  const out: string[] = [];
  for await (const line of lines) out.push(line);
  return out;
}

/** The bytes as a stream of chunks cut at random places (through multi-byte characters too). */
function chunked(bytes: Buffer, random: () => number): Readable {
  const chunks: Buffer[] = [];
  for (let at = 0; at < bytes.length; ) {
    const size = 1 + Math.floor(random() * 12);
    chunks.push(bytes.subarray(at, at + size));
    at += size;
  }
  return Readable.from(chunks);
}

describe('readLines', () => {
  it('splits lines as readline does (\\n, \\r\\n, lone \\r, across chunks, UTF-8 cut in chunks)', async () => {
    const random = rng(5);
    const pieces = ['a', 'ж', '€', '😀', ' ', '{"id":1}', '\n', '\r', '\r\n', '\n\n', '\r\r\n'];
    for (let n = 0; n < 200; n++) {
      let text = '';
      const length = Math.floor(random() * 40);
      for (let i = 0; i < length; i++) text += pieces[Math.floor(random() * pieces.length)];
      const bytes = Buffer.from(text, 'utf8');
      const expected = await collect(
        createInterface({ input: chunked(bytes, random), crlfDelay: Number.POSITIVE_INFINITY }),
      );
      expect(await collect(readLines('-', chunked(bytes, random)))).toEqual(expected);
    }
  });
});
