/**
 * Fixed seeds. They are part of the signature scheme: changing one changes every stored
 * signature, so they never change within a scheme version.
 */
export const SEED_EXACT = 0x646f7070656c0001n; // "doppel" + 1
export const SEED_TOKEN = 0x646f7070656c0002n;
export const SEED_SUPER = 0x646f7070656c0003n;
export const SEED_LEXICON_VERSION = 0x646f7070656c0004n;

/** Splitmix32-style sequence: reproducible pseudo-random 32-bit constants from one seed. */
export function seededWords(seed: number, count: number): Uint32Array {
  const out = new Uint32Array(count);
  let state = seed >>> 0;
  for (let i = 0; i < count; i++) {
    state = (state + 0x9e3779b9) >>> 0;
    let z = state;
    z = Math.imul(z ^ (z >>> 16), 0x85ebca6b);
    z = Math.imul(z ^ (z >>> 13), 0xc2b2ae35);
    out[i] = (z ^ (z >>> 16)) >>> 0;
  }
  return out;
}
