/**
 * UTF-16 code units to a string on any host, in bounded slices: spreading a whole array into
 * String.fromCharCode overflows the stack at some 100k arguments.
 */
const SLICE = 8192;

export function codesToString(codes: Uint16Array | Uint8Array, length = codes.length): string {
  if (length <= SLICE) return String.fromCharCode(...codes.subarray(0, length));
  const parts: string[] = [];
  for (let at = 0; at < length; at += SLICE)
    parts.push(String.fromCharCode(...codes.subarray(at, Math.min(at + SLICE, length))));
  return parts.join('');
}
