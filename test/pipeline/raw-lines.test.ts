import { describe, expect, it } from 'vitest';
import { decodeRawLines, packRawLines, rawLinesTransfer } from '../../src/pipeline/raw-lines.js';

describe('raw lines (the bytes handed to a sign worker)', () => {
  it('packs lines back to back and decodes each as Buffer#toString does', () => {
    const chunk = Buffer.concat([
      Buffer.from('{"id":"a"}\n'),
      Buffer.from('жук 😀\n'),
      Buffer.from([0xe2, 0x82, 0x0a, 0xff, 0x41, 0x0a]),
      Buffer.from('\n'),
    ]);
    // Views into one chunk, as the reader gives them; one of them empty.
    const views: Buffer[] = [];
    let start = 0;
    for (let at = chunk.indexOf(0x0a); at >= 0; at = chunk.indexOf(0x0a, start)) {
      views.push(chunk.subarray(start, at));
      start = at + 1;
    }
    const packed = packRawLines(views);
    const first = 10 + Buffer.byteLength('жук 😀');
    expect(Array.from(packed.ends)).toEqual([10, first, first + 2, first + 4, first + 4]);
    expect(decodeRawLines(packed)).toEqual(views.map((v) => v.toString('utf8')));
    expect(decodeRawLines(packed).slice(3)).toEqual(['\ufffdA', '']);
    // The packed copy does not share the chunk's memory: transferring it leaves the chunk intact.
    const transfer = rawLinesTransfer(packed);
    structuredClone(packed, { transfer });
    expect(packed.bytes.length).toBe(0);
    expect(chunk.toString('utf8', 0, 10)).toBe('{"id":"a"}');
  });

  it('packs no lines into empty buffers', () => {
    const packed = packRawLines([]);
    expect(packed.bytes.length).toBe(0);
    expect(decodeRawLines(packed)).toEqual([]);
  });
});
