import { describe, expect, it } from 'vitest';
import { TypedSlab } from '../src/typed-slab.js';

describe('TypedSlab', () => {
  it('gives arrays of 65 bytes to 4 KiB as views of one shared buffer', () => {
    const slab = new TypedSlab();
    const a = slab.uint32(84);
    const b = slab.uint8(84);
    expect(a.length).toBe(84);
    expect(b.length).toBe(84);
    expect(a.buffer).toBe(b.buffer);
    expect(a.buffer.byteLength).toBe(1 << 16);
  });

  it('leaves arrays V8 keeps in its heap, and large ones, a buffer of their own', () => {
    const slab = new TypedSlab();
    expect(slab.uint8(64).buffer.byteLength).toBe(64);
    expect(slab.uint32(16).buffer.byteLength).toBe(64);
    expect(slab.int32(2048).buffer.byteLength).toBe(8192);
  });

  it('hands out zeroed, non-overlapping arrays across many slabs', () => {
    const slab = new TypedSlab();
    const arrays: (Uint8Array | Uint32Array | Int32Array | Float32Array)[] = [];
    // ~3 slabs' worth of mixed sizes and element types, odd byte counts included (alignment).
    for (let i = 0; i < 600; i++) {
      const n = 17 + ((i * 37) % 300);
      const kind = i % 4;
      const array =
        kind === 0
          ? slab.uint8(n + 50)
          : kind === 1
            ? slab.uint32(n)
            : kind === 2
              ? slab.int32(n)
              : slab.float32(n);
      expect(array.every((v) => v === 0)).toBe(true);
      array.fill((i % 200) + 1);
      arrays.push(array);
    }
    const buffers = new Set(arrays.map((array) => array.buffer));
    expect(buffers.size).toBeGreaterThan(2);
    arrays.forEach((array, i) => {
      expect(array.every((v) => v === (i % 200) + 1)).toBe(true);
      expect(array.byteOffset % 8).toBe(0);
    });
  });
});
