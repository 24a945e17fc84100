import { transient } from '../typed-slab.js';

/**
 * Min-hash values with WebAssembly SIMD: four permutations x -> a*x + b (mod 2^32) per i32x4
 * instruction, about 4x fewer instructions than the scalar loop, which was the costliest step of
 * signing new text. Integer lane arithmetic wraps exactly as Math.imul and `>>> 0` do, so the
 * values are bit-identical to minhashValues' scalar path (test/signatures/minhash.test.ts).
 *
 * The module is a few dozen bytes, assembled here rather than shipped as a binary so that it can
 * be read. Its one function, in WebAssembly text format:
 *
 *   (func (export "minhash") (param $shingles i32) (param $count i32) (param $params i32)
 *                            (param $out i32) (param $groups i32)
 *     (local $g i32) (local $s i32) (local $p i32) (local $a v128) (local $b v128) (local $m v128)
 *     block $done
 *       loop $group                        ;; for each group g of four permutations
 *         (br_if $done (i32.ge_u (local.get $g) (local.get $groups)))
 *         (local.set $p (i32.add (local.get $params) (i32.shl (local.get $g) (i32.const 5))))
 *         (local.set $a (v128.load (local.get $p)))          ;; multipliers a[4g .. 4g+3]
 *         (local.set $b (v128.load offset=16 (local.get $p))) ;; offsets b[4g .. 4g+3]
 *         (local.set $m (v128.const i32x4 -1 -1 -1 -1))
 *         (local.set $p (local.get $shingles))
 *         (local.set $s (local.get $count))
 *         block $end
 *           loop $shingle
 *             (br_if $end (i32.eqz (local.get $s)))
 *             (local.set $m (i32x4.min_u (local.get $m)
 *               (i32x4.add (i32x4.mul (v128.load32_splat (local.get $p)) (local.get $a)) (local.get $b))))
 *             (local.set $p (i32.add (local.get $p) (i32.const 4)))
 *             (local.set $s (i32.sub (local.get $s) (i32.const 1)))
 *             (br $shingle)
 *           end
 *         end
 *         (v128.store (i32.add (local.get $out) (i32.shl (local.get $g) (i32.const 4))) (local.get $m))
 *         (local.set $g (i32.add (local.get $g) (i32.const 1)))
 *         (br $group)
 *       end
 *     end)
 */

// Opcodes (WebAssembly core spec 2.0, binary format).
const BLOCK = 0x02;
const LOOP = 0x03;
const VOID = 0x40;
const END = 0x0b;
const BR = 0x0c;
const BR_IF = 0x0d;
const GET = 0x20;
const SET = 0x21;
const I32_CONST = 0x41;
const I32_EQZ = 0x45;
const I32_GE_U = 0x4f;
const I32_ADD = 0x6a;
const I32_SUB = 0x6b;
const I32_SHL = 0x74;
const SIMD = 0xfd;
const V128_LOAD = [SIMD, 0x00];
const V128_LOAD32_SPLAT = [SIMD, 0x09];
const V128_STORE = [SIMD, 0x0b];
const V128_CONST = [SIMD, 0x0c];
const I32X4_ADD = [SIMD, 0xae, 0x01];
const I32X4_MUL = [SIMD, 0xb5, 0x01];
const I32X4_MIN_U = [SIMD, 0xb7, 0x01];
const I32 = 0x7f;
const V128 = 0x7b;

// Locals: parameters 0-4, then $g $s $p (i32) and $a $b $m (v128).
const [SHINGLES, COUNT, PARAMS, OUT, GROUPS, G, S, P, A, B, M] = [0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10];

function section(id: number, content: number[]): number[] {
  return [id, ...uleb(content.length), ...content];
}

function uleb(value: number): number[] {
  const out: number[] = [];
  let v = value >>> 0;
  do {
    const byte = v & 0x7f;
    v >>>= 7;
    out.push(v === 0 ? byte : byte | 0x80);
  } while (v !== 0);
  return out;
}

function name(text: string): number[] {
  return [text.length, ...Array.from(text, (c) => c.charCodeAt(0))];
}

function moduleBytes(): Uint8Array {
  const body = [
    2, // local declarations
    3,
    I32,
    3,
    V128,
    BLOCK,
    VOID,
    LOOP,
    VOID,
    ...[GET, G, GET, GROUPS, I32_GE_U, BR_IF, 1],
    ...[GET, PARAMS, GET, G, I32_CONST, 5, I32_SHL, I32_ADD, SET, P],
    ...[GET, P, ...V128_LOAD, 4, 0, SET, A],
    ...[GET, P, ...V128_LOAD, 4, 16, SET, B],
    ...[...V128_CONST, ...new Array<number>(16).fill(0xff), SET, M],
    ...[GET, SHINGLES, SET, P, GET, COUNT, SET, S],
    BLOCK,
    VOID,
    LOOP,
    VOID,
    ...[GET, S, I32_EQZ, BR_IF, 1],
    ...[GET, M, GET, P, ...V128_LOAD32_SPLAT, 2, 0, GET, A, ...I32X4_MUL, GET, B, ...I32X4_ADD],
    ...[...I32X4_MIN_U, SET, M],
    ...[GET, P, I32_CONST, 4, I32_ADD, SET, P],
    ...[GET, S, I32_CONST, 1, I32_SUB, SET, S],
    ...[BR, 0, END, END],
    ...[GET, OUT, GET, G, I32_CONST, 4, I32_SHL, I32_ADD, GET, M, ...V128_STORE, 4, 0],
    ...[GET, G, I32_CONST, 1, I32_ADD, SET, G],
    ...[BR, 0, END, END],
    END,
  ];
  return Uint8Array.from([
    ...[0x00, 0x61, 0x73, 0x6d, 0x01, 0x00, 0x00, 0x00],
    ...section(1, [1, 0x60, 5, I32, I32, I32, I32, I32, 0]), // type: (i32 x 5) -> ()
    ...section(3, [1, 0]), // one function of type 0
    ...section(5, [1, 0, 1]), // one memory, at least one page
    ...section(7, [2, ...name('memory'), 2, 0, ...name('minhash'), 0, 0]),
    ...section(10, [1, ...uleb(body.length), ...body]),
  ]);
}

type MinhashFunction = (shingles: number, count: number, params: number, out: number, groups: number) => void;

// The parts of the WebAssembly API used here (the project's TypeScript libs do not declare it).
interface WasmMemory {
  readonly buffer: ArrayBuffer;
  grow(pages: number): number;
}
interface WasmApi {
  validate(bytes: Uint8Array): boolean;
  Module: new (bytes: Uint8Array) => object;
  Instance: new (module: object) => { exports: Record<string, unknown> };
}

interface SimdMinhash {
  memory: WasmMemory;
  run: MinhashFunction;
}

function instantiate(): SimdMinhash | null {
  // Little-endian hosts only: the shingles are copied in as host-order 32-bit words.
  if (new Uint8Array(new Uint32Array([1]).buffer)[0] !== 1) return null;
  const wasm = (globalThis as { WebAssembly?: WasmApi }).WebAssembly;
  if (!wasm) return null;
  try {
    const bytes = moduleBytes();
    if (!wasm.validate(bytes)) return null;
    const { exports } = new wasm.Instance(new wasm.Module(bytes));
    return { memory: exports.memory as WasmMemory, run: exports.minhash as MinhashFunction };
  } catch {
    return null;
  }
}

const simd = instantiate();

// Memory layout: permutation parameters (32 bytes per group of four), then the output, then
// the shingles.
const MAX_HASHES = 1024;
const PARAMS_AT = 0;
const OUT_AT = PARAMS_AT + (MAX_HASHES / 4) * 32;
const SHINGLES_AT = OUT_AT + MAX_HASHES * 4;
let paramsFor = -1;

/**
 * The min-hash vector of `shingles` under permutations (multipliers[i], offsets[i]), or null when
 * WebAssembly SIMD is unavailable (the caller then computes it in JavaScript). A permutation
 * index past the end of the parameter arrays gets a = b = 0, as the scalar loop's undefined does.
 */
export function minhashValuesSimd(
  shingles: Uint32Array,
  numHashes: number,
  multipliers: Uint32Array,
  offsets: Uint32Array,
): Uint32Array | null {
  if (!simd || numHashes > MAX_HASHES) return null;
  const count = shingles.length;
  const needed = SHINGLES_AT + count * 4;
  if (needed > simd.memory.buffer.byteLength)
    simd.memory.grow(Math.ceil((needed - simd.memory.buffer.byteLength) / 65536));
  const words = new Uint32Array(simd.memory.buffer);
  const groups = Math.ceil(numHashes / 4);
  if (paramsFor !== numHashes) {
    for (let i = 0; i < groups * 4; i++) {
      const at = PARAMS_AT / 4 + (i >> 2) * 8 + (i & 3);
      words[at] = i < numHashes && i < multipliers.length ? (multipliers[i] as number) : 0;
      words[at + 4] = i < numHashes && i < offsets.length ? (offsets[i] as number) : 0;
    }
    paramsFor = numHashes;
  }
  words.set(shingles, SHINGLES_AT / 4);
  simd.run(SHINGLES_AT, count, PARAMS_AT, OUT_AT, groups);
  // Copied out of the module's memory into a slab view (typed-slab.ts), not a buffer of its own.
  const values = transient.uint32(numHashes);
  values.set(words.subarray(OUT_AT / 4, OUT_AT / 4 + numHashes));
  return values;
}
