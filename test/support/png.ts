import { inflateSync } from 'node:zlib';

/** A decoded 8-bit RGB or RGBA PNG (what Chromium's screenshots are): enough to check pixels. */
export interface Png {
  width: number;
  height: number;
  channels: number;
  pixels: Uint8Array;
}

const SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);

export function decodePng(file: Buffer): Png {
  if (!file.subarray(0, 8).equals(SIGNATURE)) throw new Error('not a PNG: bad signature');
  let at = 8;
  let width = 0;
  let height = 0;
  let channels = 0;
  const idat: Buffer[] = [];
  while (at < file.length) {
    const length = file.readUInt32BE(at);
    const type = file.toString('latin1', at + 4, at + 8);
    const data = file.subarray(at + 8, at + 8 + length);
    if (type === 'IHDR') {
      width = data.readUInt32BE(0);
      height = data.readUInt32BE(4);
      const depth = data[8];
      const color = data[9];
      if (depth !== 8 || (color !== 2 && color !== 6) || data[12] !== 0)
        throw new Error(`unsupported PNG: depth ${depth}, color type ${color}, interlace ${data[12]}`);
      channels = color === 6 ? 4 : 3;
    } else if (type === 'IDAT') idat.push(data);
    else if (type === 'IEND') break;
    at += 12 + length;
  }
  const raw = inflateSync(Buffer.concat(idat));
  const stride = width * channels;
  const pixels = new Uint8Array(stride * height);
  for (let y = 0; y < height; y++) {
    const filter = raw[y * (stride + 1)] as number;
    const line = raw.subarray(y * (stride + 1) + 1, (y + 1) * (stride + 1));
    const out = y * stride;
    for (let x = 0; x < stride; x++) {
      const a = x >= channels ? (pixels[out + x - channels] as number) : 0;
      const b = y > 0 ? (pixels[out - stride + x] as number) : 0;
      const c = x >= channels && y > 0 ? (pixels[out - stride + x - channels] as number) : 0;
      let v = line[x] as number;
      if (filter === 1) v += a;
      else if (filter === 2) v += b;
      else if (filter === 3) v += (a + b) >> 1;
      else if (filter === 4) {
        const p = a + b - c;
        const pa = Math.abs(p - a);
        const pb = Math.abs(p - b);
        const pc = Math.abs(p - c);
        v += pa <= pb && pa <= pc ? a : pb <= pc ? b : c;
      }
      pixels[out + x] = v & 0xff;
    }
  }
  return { width, height, channels, pixels };
}

/** Variance of the pixels' luminance and the number of distinct colours (a blank page has ~1). */
export function pixelStats(png: Png): { variance: number; colors: number } {
  let sum = 0;
  let sq = 0;
  const colors = new Set<number>();
  const n = png.width * png.height;
  for (let i = 0; i < n; i++) {
    const o = i * png.channels;
    const r = png.pixels[o] as number;
    const g = png.pixels[o + 1] as number;
    const b = png.pixels[o + 2] as number;
    const y = 0.299 * r + 0.587 * g + 0.114 * b;
    sum += y;
    sq += y * y;
    if (colors.size < 100_000) colors.add((r << 16) | (g << 8) | b);
  }
  const mean = sum / n;
  return { variance: sq / n - mean * mean, colors: colors.size };
}
