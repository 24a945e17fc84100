import { FLAG_LETTER, FLAG_STOP, type Vocabulary } from './vocabulary.js';

/**
 * A document's top tf*idf terms as a small unit vector (seed 004's vector space model): the
 * `size` content words with the highest (1 + ln tf) * idf, each as the low 32 bits of its token
 * hash, sorted by hash so that two vectors meet in one merge pass. Cosine similarity of these
 * vectors verifies story membership: two reports of one event share their rare words (names,
 * places, numbers) even when they share no sentence.
 */
export interface TermVector {
  hashes: Uint32Array;
  weights: Float32Array;
}

export function topTerms(vocab: Vocabulary, slots: Int32Array, size: number): TermVector | null {
  const { flags, idf, stemHash } = vocab;
  // Words of one stem (Russian and Ukrainian inflections) are one term: tf summed, highest idf.
  const terms = new Map<number, { tf: number; idf: number }>();
  for (let i = 0; i < slots.length; i++) {
    const slot = slots[i] as number;
    const f = flags[slot] as number;
    if (f & FLAG_STOP || !(f & FLAG_LETTER)) continue;
    const key = stemHash[slot] as number;
    const term = terms.get(key);
    if (term) {
      term.tf++;
      if ((idf[slot] as number) > term.idf) term.idf = idf[slot] as number;
    } else terms.set(key, { tf: 1, idf: idf[slot] as number });
  }
  if (terms.size === 0) return null;
  const scored = [...terms].map(([hash, t]) => ({ hash, w: (1 + Math.log(t.tf)) * t.idf }));
  // Heaviest first; ties by hash so that the choice never depends on word order.
  scored.sort((a, b) => b.w - a.w || a.hash - b.hash);
  const top = scored.slice(0, size).sort((a, b) => a.hash - b.hash);
  let norm = 0;
  for (const t of top) norm += t.w * t.w;
  norm = Math.sqrt(norm) || 1;
  return { hashes: Uint32Array.from(top, (t) => t.hash), weights: Float32Array.from(top, (t) => t.w / norm) };
}

/** Cosine of two unit term vectors (sorted by hash): the sum of products of shared terms. */
export function termCosine(a: TermVector, b: TermVector): number {
  let i = 0;
  let j = 0;
  let dot = 0;
  while (i < a.hashes.length && j < b.hashes.length) {
    const x = a.hashes[i] as number;
    const y = b.hashes[j] as number;
    if (x === y) {
      dot += (a.weights[i] as number) * (b.weights[j] as number);
      i++;
      j++;
    } else if (x < y) i++;
    else j++;
  }
  return Math.min(1, dot);
}

/** The `count` heaviest terms' hashes (the topic index keys). */
export function heaviestTerms(v: TermVector, count: number): number[] {
  return [...v.hashes.keys()]
    .sort(
      (i, j) =>
        (v.weights[j] as number) - (v.weights[i] as number) ||
        (v.hashes[i] as number) - (v.hashes[j] as number),
    )
    .slice(0, count)
    .map((i) => v.hashes[i] as number);
}
