/**
 * Small typed arrays carved out of shared 64 KiB buffers.
 *
 * V8 keeps a typed array's elements inside the array object only up to 64 bytes; a larger one gets
 * an ArrayBuffer of its own outside the heap, whose allocation, external-memory accounting and
 * release cost 1-2 µs each on this project's machine, against ~40 ns for 64 bytes (`new
 * Uint8Array(65)` against `new Uint8Array(64)` in a loop). The per-message path made about a dozen
 * of them (min-hashes, term vectors, sentence values, token starts, the record's arrays). A view
 * into a shared buffer is one small heap object.
 *
 * A buffer lives while any of its views does, so arrays of one lifetime share a slab, or a kept
 * array would keep its neighbours' dead bytes: `transient` for what a message's signing makes and
 * drops (signatures, token starts), `records` for a record's own arrays (min-hash bytes, term
 * vector), which a Redis store's record cache keeps in arrival order and the memory store drops,
 * `windowed` for what the memory store keeps with a windowed message (its packed record, its
 * sentence values), which leave the window in arrival order. Every view's `buffer` is shared:
 * never transfer it or post it to another thread (the sign workers pack their answers into arrays
 * of their own).
 */

const SLAB_BYTES = 1 << 16;
/** Larger arrays get a buffer of their own: one such allocation is small beside their contents. */
const MAX_SLAB_ARRAY = 4096;
/** At most this many bytes V8 keeps inside the array object (no buffer of its own). */
const IN_HEAP_BYTES = 64;

export class TypedSlab {
  private buffer = new ArrayBuffer(SLAB_BYTES);
  private used = 0;

  /** Byte offset of `bytes` fresh (zeroed) bytes in `this.buffer`, 8-byte aligned. */
  private take(bytes: number): number {
    const size = (bytes + 7) & ~7;
    if (this.used + size > SLAB_BYTES) {
      this.buffer = new ArrayBuffer(SLAB_BYTES);
      this.used = 0;
    }
    const at = this.used;
    this.used += size;
    return at;
  }

  uint8(n: number): Uint8Array {
    if (n <= IN_HEAP_BYTES || n > MAX_SLAB_ARRAY) return new Uint8Array(n);
    const at = this.take(n);
    return new Uint8Array(this.buffer, at, n);
  }

  uint32(n: number): Uint32Array {
    if (4 * n <= IN_HEAP_BYTES || 4 * n > MAX_SLAB_ARRAY) return new Uint32Array(n);
    const at = this.take(4 * n);
    return new Uint32Array(this.buffer, at, n);
  }

  int32(n: number): Int32Array {
    if (4 * n <= IN_HEAP_BYTES || 4 * n > MAX_SLAB_ARRAY) return new Int32Array(n);
    const at = this.take(4 * n);
    return new Int32Array(this.buffer, at, n);
  }

  float32(n: number): Float32Array {
    if (4 * n <= IN_HEAP_BYTES || 4 * n > MAX_SLAB_ARRAY) return new Float32Array(n);
    const at = this.take(4 * n);
    return new Float32Array(this.buffer, at, n);
  }
}

/**
 * Runs every allocation of a slab's methods (an array kept in the heap, one carved from the slab, one
 * with a buffer of its own, a fresh slab) more times than V8 runs a function before it records type
 * feedback. Optimized code inlines these methods into the signing and store code, and an allocation
 * that had never run when its caller was compiled has no feedback: the caller's first text of 16
 * tokens or fewer or over 1,024, or the first full slab, then dropped the optimized code and the
 * caller was compiled again (`tokenizeCodes` twice, `topTermsOfDistinct` once per process and per
 * sign worker; docs/benchmarks.md, "V8 flags and warm-up on Node.js 22"). Costs ~0.5 MB of garbage
 * and ~3 ms of CPU, once per thread (at start-up).
 */
function recordAllocationFeedback(): void {
  const slab = new TypedSlab();
  // In the heap, carved, a buffer of its own (4-byte elements: 4, 256 and 4,100 bytes).
  for (let round = 0; round < 16; round++)
    for (const bytes of [4, 256, MAX_SLAB_ARRAY + 4]) {
      slab.uint8(bytes);
      slab.uint32(bytes / 4);
      slab.int32(bytes / 4);
      slab.float32(bytes / 4);
    }
  // Three slabs' worth of the largest carved arrays: fresh slabs once take() records feedback.
  for (let i = 0; i < (3 * SLAB_BYTES) / MAX_SLAB_ARRAY; i++) slab.uint8(MAX_SLAB_ARRAY);
}
recordAllocationFeedback();

/** Arrays a message's signing makes and drops (signatures, token starts). */
export const transient = new TypedSlab();
/** A record's own arrays (min-hash bytes, term vector): kept as long as the record object is. */
export const records = new TypedSlab();
/** Arrays a store keeps with a windowed message (its packed record, its sentence values). */
export const windowed = new TypedSlab();
