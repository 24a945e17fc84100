/**
 * The end of an in-place pass that drops code units from codes[0, length) as it reads them (a
 * joined word's separators, a stretched letter's repeats, an emoji inside a word): `w` is where
 * the next kept unit goes, `copied` where the units not yet moved start (0 when nothing was
 * dropped). Moves the rest down and returns the new length.
 */
export function endCompaction(codes: Uint16Array, w: number, copied: number, length: number): number {
  if (copied === 0) return length;
  codes.copyWithin(w, copied, length);
  return w + length - copied;
}
