import xxhashWasm from 'xxhash-wasm';
import type { U64 } from './mix.js';

type XXHashApi = Awaited<ReturnType<typeof xxhashWasm>>;

let api: XXHashApi | undefined;
let pending: Promise<XXHashApi> | undefined;

/**
 * Loads the xxHash WebAssembly module once. Every signature function is synchronous and
 * needs this to have resolved first; entry points (CLI, consumers, tests) await it at start.
 */
export async function initHashing(): Promise<void> {
  if (api) return;
  pending ??= xxhashWasm();
  api = await pending;
}

function ready(): XXHashApi {
  if (!api) throw new Error('xxhash is not initialised: await initHashing() first');
  return api;
}

const MASK32 = 0xffffffffn;

/** XXH64 of the UTF-8 bytes of `text`, as two halves. */
export function xxh64(text: string, seed: bigint, out: U64): U64 {
  const h = ready().h64(text, seed);
  out.hi = Number(h >> 32n);
  out.lo = Number(h & MASK32);
  return out;
}

/** XXH64 of raw bytes, as two halves. */
export function xxh64Bytes(bytes: Uint8Array, seed: bigint, out: U64): U64 {
  const h = ready().h64Raw(bytes, seed);
  out.hi = Number(h >> 32n);
  out.lo = Number(h & MASK32);
  return out;
}

/** XXH64 of `text` as 16 hex digits. */
export function xxh64Hex(text: string, seed: bigint): string {
  return ready().h64ToString(text, seed);
}
