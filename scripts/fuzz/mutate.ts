/**
 * Byte mutations for the fuzz harness. A small seeded xorshift generator keeps every case reproducible from
 * (seed, case index): a failure report names both, and `npm run fuzz -- --format F --seed S --case K` replays it.
 */

export class FuzzRng {
  private s: number;
  constructor(seed: number) {
    this.s = (seed ^ 0x9e3779b9) >>> 0 || 1;
  }
  u32(): number {
    let x = this.s;
    x ^= x << 13;
    x ^= x >>> 17;
    x ^= x << 5;
    this.s = x >>> 0;
    return this.s;
  }
  int(n: number): number {
    return n <= 0 ? 0 : this.u32() % n;
  }
  pick<T>(a: readonly T[]): T {
    return a[this.int(a.length)]!;
  }
}

const INTERESTING_32 = [0, 1, 0x7f, 0x80, 0xff, 0x100, 0x7fff, 0x8000, 0xffff, 0x10000, 0x7fffffff, 0x80000000, 0xffffffff, 0xfffffffe, 0x40000000, 0x20000000];
const INTERESTING_16 = [0, 1, 0x7f, 0x80, 0xff, 0x7fff, 0x8000, 0xffff, 0xfffe];
const INTERESTING_8 = [0, 1, 0x7f, 0x80, 0xfe, 0xff];

export const MUTATIONS = [
  'bitflip',
  'byte',
  'u16',
  'u32',
  'truncate',
  'extend',
  'delete-slice',
  'duplicate-slice',
  'splice',
  'random',
  'arith',
  'insert-interesting',
  'zero-range',
  'swap-slices',
  'repeat-byte',
] as const;
export type MutationKind = (typeof MUTATIONS)[number];

/** One mutated copy of `base` (never modifies it); `other` is a second corpus file for splicing. */
export function mutate(base: Uint8Array, other: Uint8Array, rng: FuzzRng, maxLength = 1 << 20): { bytes: Uint8Array; kind: MutationKind } {
  const kind = rng.pick(MUTATIONS);
  const len = base.length;
  let out: Uint8Array;
  switch (kind) {
    case 'bitflip': {
      out = base.slice();
      const flips = 1 + rng.int(4);
      for (let i = 0; i < flips && len > 0; i++) out[rng.int(len)]! ^= 1 << rng.int(8);
      break;
    }
    case 'byte': {
      out = base.slice();
      if (len > 0) out[rng.int(len)] = rng.int(2) ? rng.pick(INTERESTING_8) : rng.int(256);
      break;
    }
    case 'u16': {
      out = base.slice();
      if (len >= 2) {
        const at = rng.int(len - 1) & ~1;
        const v = rng.pick(INTERESTING_16);
        out[at] = v & 0xff;
        out[at + 1] = v >>> 8;
      }
      break;
    }
    case 'u32': {
      out = base.slice();
      if (len >= 4) {
        const at = rng.int(len - 3) & ~3;
        const v = rng.int(4) === 0 ? len + rng.int(64) - 32 : rng.pick(INTERESTING_32);
        new DataView(out.buffer).setUint32(at, v >>> 0, true);
      }
      break;
    }
    case 'truncate':
      out = base.slice(0, rng.int(len + 1));
      break;
    case 'extend': {
      const extra = 1 + rng.int(64);
      out = new Uint8Array(Math.min(maxLength, len + extra));
      out.set(base.subarray(0, out.length));
      for (let i = len; i < out.length; i++) out[i] = rng.int(3) === 0 ? 0 : rng.int(256);
      break;
    }
    case 'delete-slice': {
      const a = rng.int(len + 1);
      const b = Math.min(len, a + 1 + rng.int(32));
      out = new Uint8Array(len - (b - a));
      out.set(base.subarray(0, a));
      out.set(base.subarray(b), a);
      break;
    }
    case 'duplicate-slice': {
      // base[0, b) + base[a, b) + base[b, len), cut to maxLength
      const a = rng.int(len + 1);
      const b = Math.min(len, a + 1 + rng.int(32));
      const full = new Uint8Array(len + (b - a));
      full.set(base.subarray(0, b));
      full.set(base.subarray(a, b), b);
      full.set(base.subarray(b), 2 * b - a);
      out = full.length > maxLength ? full.slice(0, maxLength) : full;
      break;
    }
    case 'splice': {
      const a = rng.int(len + 1);
      const b = rng.int(other.length + 1);
      const n = Math.min(maxLength, a + (other.length - b));
      out = new Uint8Array(n);
      out.set(base.subarray(0, Math.min(a, n)));
      if (n > a) out.set(other.subarray(b, b + (n - a)), a);
      break;
    }
    case 'random': {
      out = new Uint8Array(rng.int(Math.min(maxLength, Math.max(64, len * 2))));
      for (let i = 0; i < out.length; i++) out[i] = rng.int(256);
      break;
    }
    case 'arith': {
      // A count or offset off by a little (AFL's arithmetic stage): ±1..35 on a u8, u16 or u32, little-endian.
      out = base.slice();
      const width = [1, 2, 4][rng.int(3)]!;
      if (len >= width) {
        const at = rng.int(len - width + 1);
        const delta = (1 + rng.int(35)) * (rng.int(2) ? 1 : -1);
        let v = 0;
        for (let k = width - 1; k >= 0; k--) v = v * 256 + out[at + k]!;
        v = (v + delta + 2 ** (8 * width)) % 2 ** (8 * width);
        for (let k = 0; k < width; k++) {
          out[at + k] = v % 256;
          v = Math.floor(v / 256);
        }
      }
      break;
    }
    case 'insert-interesting': {
      // An interesting u32 inserted (not overwritten): every later field shifts by four bytes.
      const at = rng.int(len + 1);
      const v = rng.pick(INTERESTING_32);
      const full = new Uint8Array(len + 4);
      full.set(base.subarray(0, at));
      new DataView(full.buffer).setUint32(at, v >>> 0, true);
      full.set(base.subarray(at), at + 4);
      out = full.length > maxLength ? full.slice(0, maxLength) : full;
      break;
    }
    case 'zero-range': {
      out = base.slice();
      const a = rng.int(len + 1);
      out.fill(rng.int(4) === 0 ? 0xff : 0, a, Math.min(len, a + 1 + rng.int(64)));
      break;
    }
    case 'swap-slices': {
      out = base.slice();
      const n = 1 + rng.int(16);
      if (len >= 2 * n) {
        const a = rng.int(len - n + 1);
        const b = rng.int(len - n + 1);
        const tmp = out.slice(a, a + n);
        out.copyWithin(a, b, b + n);
        out.set(tmp, b);
      }
      break;
    }
    case 'repeat-byte': {
      // A byte repeated many times in place of what was there (long runs of one value, e.g. 0x7f7f7f7f counts).
      out = base.slice();
      if (len > 0) {
        const at = rng.int(len);
        out.fill(out[at]!, at, Math.min(len, at + 2 + rng.int(128)));
      }
      break;
    }
  }
  return { bytes: out, kind };
}
