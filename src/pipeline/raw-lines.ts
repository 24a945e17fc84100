/**
 * Input lines as their bytes, packed for a sign worker: one buffer of the lines back to back and
 * where each ends, both transferable. The dedup CLI hands workers its lines this way, so its main
 * thread neither decodes them (UTF-8 to a string) nor copies the strings into a structured clone;
 * the worker decodes each line exactly as the reader decodes a line it keeps as text.
 */
export interface RawLines {
  /** The lines' bytes, without their line ends. */
  bytes: Uint8Array;
  /** Line i is bytes[ends[i - 1] .. ends[i]) (from 0 for the first). */
  ends: Int32Array;
}

/** Packs lines (byte views, e.g. of the chunks read) into one buffer; copies each once. */
export function packRawLines(lines: readonly Uint8Array[]): RawLines {
  let total = 0;
  for (let i = 0; i < lines.length; i++) total += (lines[i] as Uint8Array).length;
  const bytes = new Uint8Array(total);
  const ends = new Int32Array(lines.length);
  let at = 0;
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i] as Uint8Array;
    bytes.set(line, at);
    at += line.length;
    ends[i] = at;
  }
  return { bytes, ends };
}

/** The buffers to transfer with a RawLines (they are detached on the sending side). */
export function rawLinesTransfer(lines: RawLines): ArrayBuffer[] {
  return [lines.bytes.buffer as ArrayBuffer, lines.ends.buffer as ArrayBuffer];
}

/** The lines as text: UTF-8 decoded as Buffer#toString does (invalid bytes become U+FFFD). */
export function decodeRawLines(lines: RawLines): string[] {
  const { bytes, ends } = lines;
  const buffer = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const out = new Array<string>(ends.length);
  let start = 0;
  for (let i = 0; i < ends.length; i++) {
    const end = ends[i] as number;
    out[i] = buffer.toString('utf8', start, end);
    start = end;
  }
  return out;
}
