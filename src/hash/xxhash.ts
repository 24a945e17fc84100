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

// xxhash-wasm copies each input into its WebAssembly memory (64 KiB when instantiated) and grows
// the memory for a longer one. Growing detaches the memory's old ArrayBuffer, and V8 then drops
// the optimized code of every function compiled while no ArrayBuffer had ever been detached
// (~70 functions on the per-message path, all compiled again; docs/benchmarks.md, "V8 warm-up").
// So an input that would not fit is hashed through the streaming interface in pieces that do:
// XXH64 over pieces is XXH64 over their concatenation, so the hash is the same.
const WASM_MEMORY = 65536;
/** The streaming state (88 bytes) sits at the memory's start, each piece after it. */
const PIECE = 32768;
const utf8 = new TextEncoder();

/** XXH64 of bytes too long for the module's memory, fed piece by piece. */
function streamed(bytes: Uint8Array, seed: bigint): bigint {
  const state = ready().create64(seed);
  for (let at = 0; at < bytes.length; at += PIECE) state.update(bytes.subarray(at, at + PIECE));
  return state.digest();
}

/** The library's one-shot hash encodes into room for 3 bytes per UTF-16 unit. */
const fitsText = (text: string): boolean => text.length * 3 <= WASM_MEMORY;

function h64(text: string, seed: bigint): bigint {
  return fitsText(text) ? ready().h64(text, seed) : streamed(utf8.encode(text), seed);
}

/** XXH64 of the UTF-8 bytes of `text`, as two halves. */
export function xxh64(text: string, seed: bigint, out: U64): U64 {
  const h = h64(text, seed);
  out.hi = Number(h >> 32n);
  out.lo = Number(h & MASK32);
  return out;
}

/** XXH64 of raw bytes, as two halves. */
export function xxh64Bytes(bytes: Uint8Array, seed: bigint, out: U64): U64 {
  const h = bytes.length <= WASM_MEMORY ? ready().h64Raw(bytes, seed) : streamed(bytes, seed);
  out.hi = Number(h >> 32n);
  out.lo = Number(h & MASK32);
  return out;
}

/** XXH64 of `text` as 16 hex digits. */
export function xxh64Hex(text: string, seed: bigint): string {
  return fitsText(text)
    ? ready().h64ToString(text, seed)
    : streamed(utf8.encode(text), seed).toString(16).padStart(16, '0');
}
