/**
 * "Did you mean" for a mistyped flag or command: the known name closest by edit distance
 * (Damerau: a swap of two neighbours is one edit), if it is close enough to be a typo, or the one
 * the mistyped name is a prefix of.
 */
export function closest(typed: string, known: Iterable<string>): string | null {
  let best: string | null = null;
  let bestDistance = Number.POSITIVE_INFINITY;
  const budget = typed.length <= 4 ? 1 : 2;
  for (const name of known) {
    const d = name.startsWith(typed) && typed.length >= 3 ? 0.5 : editDistance(typed, name, budget);
    if (d < bestDistance) {
      bestDistance = d;
      best = name;
    }
  }
  return bestDistance <= budget ? best : null;
}

/** Optimal string alignment distance, stopping early once past `limit` (flags are short). */
export function editDistance(a: string, b: string, limit: number): number {
  if (Math.abs(a.length - b.length) > limit) return limit + 1;
  const rows = a.length + 1;
  const cols = b.length + 1;
  const d: number[] = new Array(rows * cols).fill(0);
  for (let i = 0; i < rows; i++) d[i * cols] = i;
  for (let j = 0; j < cols; j++) d[j] = j;
  for (let i = 1; i < rows; i++) {
    let rowMin = Number.POSITIVE_INFINITY;
    for (let j = 1; j < cols; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      let v = Math.min(
        (d[(i - 1) * cols + j] as number) + 1,
        (d[i * cols + j - 1] as number) + 1,
        (d[(i - 1) * cols + j - 1] as number) + cost,
      );
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1])
        v = Math.min(v, (d[(i - 2) * cols + j - 2] as number) + 1);
      d[i * cols + j] = v;
      if (v < rowMin) rowMin = v;
    }
    if (rowMin > limit) return limit + 1;
  }
  return d[rows * cols - 1] as number;
}
