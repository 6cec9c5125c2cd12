// Run by Node and by Bun (det-math-engines.test.ts), and its function by the browsers (the same code in the
// page): every det* function of retrosim/core, and the engine's own Math function beside it, on the same
// arguments (seeded, drawn with integer operations only: every scale, subnormals, special values), each
// function's results as a 64-bit FNV-1a of their bits. Also `2 ** k` for every integer k that gives a double.
// Prints one JSON line: { det: { name: digest }, engine: { name: digest }, powersOfTwo: digest, powersOfTwoInexact }.
import * as R from 'retrosim/core';

/** The digests, from the det* functions `det` (by name) and `math` (Math). */
export function digests(det, math, count) {
  // mulberry32: Math.imul and shifts only
  let s = 12345;
  const next = () => {
    let t = (s = (s + 0x6d2b79f5) >>> 0);
    t = math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  const f64 = new Float64Array(1);
  const u32 = new Uint32Array(f64.buffer);
  const hashOf = () => ({ a: 0x811c9dc5, b: 0x01000193 ^ 0x5bd1e995 });
  const add = (h, v) => {
    f64[0] = v;
    for (const w of [u32[0], u32[1]]) {
      for (let i = 0; i < 4; i++) {
        const byte = (w >>> (8 * i)) & 0xff;
        h.a = math.imul(h.a ^ byte, 0x01000193) >>> 0;
        h.b = math.imul(h.b ^ byte, 0x01000193 + 2 * i + 2) >>> 0;
      }
    }
  };
  const hex = (h) => h.a.toString(16).padStart(8, '0') + h.b.toString(16).padStart(8, '0');
  const SPECIAL = [0, -0, Infinity, -Infinity, NaN, 5e-324, -5e-324, 2.2250738585072014e-308, 1.7976931348623157e308, -1.7976931348623157e308, 1, -1, 0.5, -0.5, 2, 1e-300, 1e300];
  // a double of every scale: ±[1, 2)·2^k, k uniform over the whole exponent range (and subnormals)
  const anyScale = () => (next() < 0.5 ? -1 : 1) * 2 ** (math.floor(next() * 2098) - 1074) * (1 + next());
  const small = () => (next() - 0.5) * 20;
  const unit = () => next() * 2 - 1;
  const args = (kind) => {
    const out = SPECIAL.slice();
    for (let i = 0; i < count; i++) out.push(kind === 'unit' ? (i % 2 ? unit() : anyScale()) : i % 2 ? small() : anyScale());
    return out;
  };
  const ONE = ['exp', 'expm1', 'log', 'log1p', 'log2', 'log10', 'sin', 'cos', 'tan', 'atan', 'sinh', 'cosh', 'tanh', 'asinh', 'acosh', 'cbrt'];
  const UNIT = ['asin', 'acos', 'atanh'];
  const detOut = {};
  const mathOut = {};
  const run = (name, fD, fM, xs, arity) => {
    const hd = hashOf();
    const hm = hashOf();
    for (let i = 0; i < xs.length; i += arity) {
      const a = xs.slice(i, i + arity);
      add(hd, fD(...a));
      add(hm, fM(...a));
    }
    detOut[name] = hex(hd);
    mathOut[name] = hex(hm);
  };
  for (const n of ONE) run(n, det[`det${n[0].toUpperCase()}${n.slice(1)}`], math[n], args('any'), 1);
  for (const n of UNIT) run(n, det[`det${n[0].toUpperCase()}${n.slice(1)}`], math[n], args('unit'), 1);
  run('pow', det.detPow, math.pow, args('any').map((x, i) => (i % 2 ? x / 64 : math.abs(x))), 2);
  run('atan2', det.detAtan2, math.atan2, args('any'), 2);
  run('hypot', det.detHypot, math.hypot, args('any'), 3);
  // 2 ** k against 2^k built by doubling from the smallest subnormal (exact)
  const hp = hashOf();
  let inexact = 0;
  let p = 5e-324;
  for (let k = -1074; k <= 1023; k++, p *= 2) {
    const v = 2 ** k;
    add(hp, v);
    if (v !== p) inexact++;
  }
  return { det: detOut, engine: mathOut, powersOfTwo: hex(hp), powersOfTwoInexact: inexact, count };
}

if (typeof process !== 'undefined' && process.argv?.[1]?.endsWith('det-math-bits.mjs')) {
  console.log(JSON.stringify(digests(R, Math, Number(process.argv[2] ?? 20000))));
}

/** The det* functions the digests were taken of (for a bundle of this module: the browser test). */
export const det = R;
