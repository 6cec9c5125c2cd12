/**
 * FNV-1a 64-bit, computed on two 32-bit halves (no BigInt, no allocation per byte).
 * Offset basis 0xcbf29ce484222325, prime 0x100000001b3 = 2^40 + 0x1b3.
 */
export class Fnv1a64 {
  hi = 0xcbf29ce4;
  lo = 0x84222325;

  byte(b: number): this {
    const lo = (this.lo ^ (b & 0xff)) >>> 0;
    // (hi·2^32 + lo)·(2^40 + 0x1b3) mod 2^64; lo·0x1b3 < 2^41 is exact in a double.
    const p = lo * 0x1b3;
    const carry = Math.floor(p / 0x100000000);
    const hi = (Math.imul(this.hi, 0x1b3) + (lo << 8) + carry) >>> 0;
    this.lo = p >>> 0;
    this.hi = hi;
    return this;
  }
  u32(v: number): this {
    this.byte(v);
    this.byte(v >>> 8);
    this.byte(v >>> 16);
    this.byte(v >>> 24);
    return this;
  }
  bytes(b: Uint8Array, start = 0, end = b.length): this {
    for (let i = start; i < end; i++) this.byte(b[i]!);
    return this;
  }
  hex(): string {
    return '0x' + this.hi.toString(16).padStart(8, '0') + this.lo.toString(16).padStart(8, '0');
  }
}

/** FNV-1a 64 of a byte array as "0x" + 16 hex digits. */
export function fnv1a64Hex(bytes: Uint8Array): string {
  return new Fnv1a64().bytes(bytes).hex();
}
