/**
 * The state hash: 64 bits as two independent 32-bit lanes, no BigInt, no allocation per word.
 *
 * Each lane is a MurmurHash3-style word mixer (multiply, rotate, multiply, xor into the lane, rotate,
 * multiply-add) with its own constants, and each ends with MurmurHash3's fmix32 finaliser. Words are fed as
 * u32. Doubles are fed as their two IEEE-754 halves (low word first), with every NaN folded to the one
 * canonical quiet NaN, because engines may differ in NaN payloads but not in anything else.
 *
 * This is not FNV-1a: FNV works per byte and is about four times slower over component arrays; file
 * identities (world content hashes) use FNV-1a 64 from src/binary/fnv.ts instead.
 */

const F64 = new Float64Array(1);
const U32 = new Uint32Array(F64.buffer);
/** Index of the low half of a double in U32 (little-endian hosts: 0). */
const LO = new Uint8Array(new Uint16Array([1]).buffer)[0] === 1 ? 0 : 1;
const HI = 1 - LO;

function fmix32(h: number): number {
  h ^= h >>> 16;
  h = Math.imul(h, 0x85ebca6b);
  h ^= h >>> 13;
  h = Math.imul(h, 0xc2b2ae35);
  h ^= h >>> 16;
  return h >>> 0;
}

export class Hash64 {
  private a = 0x9747b28c;
  private b = 0x2545f491;
  private n = 0;

  reset(): this {
    this.a = 0x9747b28c;
    this.b = 0x2545f491;
    this.n = 0;
    return this;
  }

  u32(w: number): this {
    let k = Math.imul(w | 0, 0xcc9e2d51);
    k = (k << 15) | (k >>> 17);
    k = Math.imul(k, 0x1b873593);
    let a = this.a ^ k;
    a = (a << 13) | (a >>> 19);
    this.a = (Math.imul(a, 5) + 0xe6546b64) | 0;

    let j = Math.imul(w | 0, 0x85ebca77);
    j = (j << 16) | (j >>> 16);
    j = Math.imul(j, 0xc2b2ae3d);
    let b = this.b ^ j;
    b = (b << 11) | (b >>> 21);
    this.b = (Math.imul(b, 9) + 0x7f4a7c15) | 0;
    this.n++;
    return this;
  }

  i32(v: number): this {
    return this.u32(v | 0);
  }

  /** A double, by its bits (NaN canonicalised). */
  number(v: number): this {
    if (v !== v) {
      this.u32(0);
      return this.u32(0x7ff80000);
    }
    F64[0] = v;
    this.u32(U32[LO]!);
    return this.u32(U32[HI]!);
  }

  string(s: string): this {
    this.u32(s.length);
    for (let i = 0; i < s.length; i++) this.u32(s.charCodeAt(i));
    return this;
  }

  /**
   * `arr[ids[i]]` for i < n, each as a double (Float64Array) or a u32 (integer arrays): the same as `number`
   * or `u32` per element, with the lanes held in locals for the whole loop (the hot path of the state hash:
   * the lanes' chains of dependent operations are all it waits on).
   */
  gather(arr: ArrayLike<number>, ids: Uint32Array, n: number): this {
    let a = this.a;
    let b = this.b;
    let k: number;
    let j: number;
    if (arr instanceof Float64Array) {
      for (let i = 0; i < n; i++) {
        const v = arr[ids[i]!]!;
        let lo = 0;
        let hi = 0x7ff80000;
        if (v === v) {
          F64[0] = v;
          lo = U32[LO]!;
          hi = U32[HI]!;
        }
        k = Math.imul(lo | 0, 0xcc9e2d51);
        k = (k << 15) | (k >>> 17);
        k = Math.imul(k, 0x1b873593);
        a ^= k;
        a = (a << 13) | (a >>> 19);
        a = (Math.imul(a, 5) + 0xe6546b64) | 0;
        j = Math.imul(lo | 0, 0x85ebca77);
        j = (j << 16) | (j >>> 16);
        j = Math.imul(j, 0xc2b2ae3d);
        b ^= j;
        b = (b << 11) | (b >>> 21);
        b = (Math.imul(b, 9) + 0x7f4a7c15) | 0;
        k = Math.imul(hi | 0, 0xcc9e2d51);
        k = (k << 15) | (k >>> 17);
        k = Math.imul(k, 0x1b873593);
        a ^= k;
        a = (a << 13) | (a >>> 19);
        a = (Math.imul(a, 5) + 0xe6546b64) | 0;
        j = Math.imul(hi | 0, 0x85ebca77);
        j = (j << 16) | (j >>> 16);
        j = Math.imul(j, 0xc2b2ae3d);
        b ^= j;
        b = (b << 11) | (b >>> 21);
        b = (Math.imul(b, 9) + 0x7f4a7c15) | 0;
      }
      this.n += 2 * n;
    } else {
      for (let i = 0; i < n; i++) {
        const w = arr[ids[i]!]!;
        k = Math.imul(w | 0, 0xcc9e2d51);
        k = (k << 15) | (k >>> 17);
        k = Math.imul(k, 0x1b873593);
        a ^= k;
        a = (a << 13) | (a >>> 19);
        a = (Math.imul(a, 5) + 0xe6546b64) | 0;
        j = Math.imul(w | 0, 0x85ebca77);
        j = (j << 16) | (j >>> 16);
        j = Math.imul(j, 0xc2b2ae3d);
        b ^= j;
        b = (b << 11) | (b >>> 21);
        b = (Math.imul(b, 9) + 0x7f4a7c15) | 0;
      }
      this.n += n;
    }
    this.a = a;
    this.b = b;
    return this;
  }

  /** For i < n: `ids[i]`, then `arr[ids[i]]`, each as a u32 (the same as two `u32` calls, in locals). */
  keyed(arr: ArrayLike<number>, ids: Uint32Array, n: number): this {
    let a = this.a;
    let b = this.b;
    let k: number;
    let j: number;
    for (let i = 0; i < n; i++) {
      const id = ids[i]!;
      const w = arr[id]!;
        k = Math.imul(id | 0, 0xcc9e2d51);
        k = (k << 15) | (k >>> 17);
        k = Math.imul(k, 0x1b873593);
        a ^= k;
        a = (a << 13) | (a >>> 19);
        a = (Math.imul(a, 5) + 0xe6546b64) | 0;
        j = Math.imul(id | 0, 0x85ebca77);
        j = (j << 16) | (j >>> 16);
        j = Math.imul(j, 0xc2b2ae3d);
        b ^= j;
        b = (b << 11) | (b >>> 21);
        b = (Math.imul(b, 9) + 0x7f4a7c15) | 0;
        k = Math.imul(w | 0, 0xcc9e2d51);
        k = (k << 15) | (k >>> 17);
        k = Math.imul(k, 0x1b873593);
        a ^= k;
        a = (a << 13) | (a >>> 19);
        a = (Math.imul(a, 5) + 0xe6546b64) | 0;
        j = Math.imul(w | 0, 0x85ebca77);
        j = (j << 16) | (j >>> 16);
        j = Math.imul(j, 0xc2b2ae3d);
        b ^= j;
        b = (b << 11) | (b >>> 21);
        b = (Math.imul(b, 9) + 0x7f4a7c15) | 0;
    }
    this.n += 2 * n;
    this.a = a;
    this.b = b;
    return this;
  }

  /** `arr[i]` for i < n, each as a u32 (the same as `u32` per element, in locals). */
  u32s(arr: ArrayLike<number>, n: number): this {
    let a = this.a;
    let b = this.b;
    let k: number;
    let j: number;
    for (let i = 0; i < n; i++) {
      const w = arr[i]!;
        k = Math.imul(w | 0, 0xcc9e2d51);
        k = (k << 15) | (k >>> 17);
        k = Math.imul(k, 0x1b873593);
        a ^= k;
        a = (a << 13) | (a >>> 19);
        a = (Math.imul(a, 5) + 0xe6546b64) | 0;
        j = Math.imul(w | 0, 0x85ebca77);
        j = (j << 16) | (j >>> 16);
        j = Math.imul(j, 0xc2b2ae3d);
        b ^= j;
        b = (b << 11) | (b >>> 21);
        b = (Math.imul(b, 9) + 0x7f4a7c15) | 0;
    }
    this.n += n;
    this.a = a;
    this.b = b;
    return this;
  }

  /** The two finalised lanes: [hi, lo], u32 each. */
  digest(out: Uint32Array | number[] = new Uint32Array(2)): Uint32Array | number[] {
    const hi = fmix32((this.a ^ this.n) >>> 0);
    const lo = fmix32((this.b ^ this.n ^ hi) >>> 0);
    out[0] = hi;
    out[1] = lo;
    return out;
  }

  hex(): string {
    const d = this.digest();
    return hashHex(d[0]!, d[1]!);
  }
}

/** "0x" + 16 hex digits. */
export function hashHex(hi: number, lo: number): string {
  return '0x' + (hi >>> 0).toString(16).padStart(8, '0') + (lo >>> 0).toString(16).padStart(8, '0');
}
