/**
 * Speed of the EE single-precision operations (the field generator runs millions of them), the newlib
 * routines under the EE rules, and the deterministic double maths. Operands come from a fixed table of
 * patterns so the loop measures the operation, not an operand generator.
 */
import { consume, opsPerSecond, type Bench } from './harness.js';
import { eeAdd, eeDiv, eeMadd, eeMul, eeSqrt, eeSub, sqrtfNewlib } from '../src/numeric/ee-float.js';
import { atan2f, cosf, sinf } from '../src/numeric/libm-ee.js';
import { detAtan, detAtan2, detHypot3, detSin, detSqrt, detTan } from '../src/numeric/det-math.js';
import { detExp, detExpm1, detLog, detLog1p, detLog2, detLog10, detPow } from '../src/numeric/det-exp-log.js';
import { detAcosh, detAsinh, detAtanh, detCosh, detSinh, detTanh } from '../src/numeric/det-hyperbolic.js';
import { detAcos, detAsin } from '../src/numeric/det-arcsine.js';
import { detCbrt, detHypot } from '../src/numeric/det-roots.js';

const SIZE = 1024; // a power of two: index with & (SIZE - 1)
const patterns = new Uint32Array(SIZE);
const angles = new Uint32Array(SIZE);
const doubles = new Float64Array(SIZE);
/** Arguments in (−1, 1), for asin, acos and atanh; `doubles` / 100 for exp and the hyperbolic functions. */
const units = new Float64Array(SIZE);
{
  const view = new DataView(new ArrayBuffer(4));
  let s = 0x9e3779b9;
  const next = (): number => {
    s = (Math.imul(s, 1664525) + 1013904223) >>> 0;
    return s / 4294967296;
  };
  for (let i = 0; i < SIZE; i++) {
    // ordinary magnitudes of both signs: 2^-20 .. 2^20
    view.setFloat32(0, (next() - 0.5) * 2 ** Math.floor(next() * 40 - 20));
    patterns[i] = view.getUint32(0);
    view.setFloat32(0, (next() - 0.5) * 8);
    angles[i] = view.getUint32(0);
    doubles[i] = (next() - 0.5) * 1000;
    units[i] = next() * 2 - 1;
  }
}
const MASK = SIZE - 1;

// Each operation gets its own loop: a shared loop calling `op(...)` would turn that call site
// megamorphic after a few operations and measure the dispatch instead of the arithmetic.
const A = (i: number): number => patterns[i & MASK]!;
const B = (i: number): number => patterns[(i * 7 + 3) & MASK]!;

function addLoop(n: number): void {
  let acc = 0;
  for (let i = 0; i < n; i++) acc ^= eeAdd(A(i), B(i));
  consume(acc);
}
function subLoop(n: number): void {
  let acc = 0;
  for (let i = 0; i < n; i++) acc ^= eeSub(A(i), B(i));
  consume(acc);
}
function mulLoop(n: number): void {
  let acc = 0;
  for (let i = 0; i < n; i++) acc ^= eeMul(A(i), B(i));
  consume(acc);
}
function divLoop(n: number): void {
  let acc = 0;
  for (let i = 0; i < n; i++) acc ^= eeDiv(A(i), B(i));
  consume(acc);
}
function maddLoop(n: number): void {
  let acc = 0;
  for (let i = 0; i < n; i++) acc = eeMadd(acc & 0xbfffffff, A(i), B(i));
  consume(acc);
}
function sqrtLoop(n: number): void {
  let acc = 0;
  for (let i = 0; i < n; i++) acc ^= eeSqrt(A(i));
  consume(acc);
}
function sqrtfLoop(n: number): void {
  let acc = 0;
  for (let i = 0; i < n; i++) acc ^= sqrtfNewlib(A(i));
  consume(acc);
}
function sinfLoop(n: number): void {
  let acc = 0;
  for (let i = 0; i < n; i++) acc ^= sinf(angles[i & MASK]!);
  consume(acc);
}
function cosfLoop(n: number): void {
  let acc = 0;
  for (let i = 0; i < n; i++) acc ^= cosf(angles[i & MASK]!);
  consume(acc);
}
function atan2fLoop(n: number): void {
  let acc = 0;
  for (let i = 0; i < n; i++) acc ^= atan2f(A(i), B(i));
  consume(acc);
}
function detSqrtLoop(n: number): void {
  let acc = 0;
  for (let i = 0; i < n; i++) acc += detSqrt(Math.abs(doubles[i & MASK]!));
  consume(acc);
}
function detSinLoop(n: number): void {
  let acc = 0;
  for (let i = 0; i < n; i++) acc += detSin(doubles[i & MASK]!);
  consume(acc * 1000);
}
function detAtan2Loop(n: number): void {
  let acc = 0;
  for (let i = 0; i < n; i++) acc += detAtan2(doubles[i & MASK]!, 3.5);
  consume(acc * 1000);
}
function detHypot3Loop(n: number): void {
  let acc = 0;
  for (let i = 0; i < n; i++) acc += detHypot3(doubles[i & MASK]!, 2.5, -7);
  consume(acc);
}

// The functions that replace the engine's Math ones in systems, each with its own loop (see above), and
// arguments where each is defined: `doubles` in (−500, 500), `doubles` / 100 for exp and the hyperbolic
// functions (no overflow), |doubles| for the logarithms, `units` in (−1, 1).
const D = (i: number): number => doubles[i & MASK]!;
const P = (i: number): number => Math.abs(doubles[i & MASK]!) + 1e-3;
const S = (i: number): number => doubles[i & MASK]! / 100;
const U = (i: number): number => units[i & MASK]!;
function detExpLoop(n: number): void { let acc = 0; for (let i = 0; i < n; i++) acc += detExp(S(i)); consume(acc); }
function detExpm1Loop(n: number): void { let acc = 0; for (let i = 0; i < n; i++) acc += detExpm1(S(i)); consume(acc); }
function detLogLoop(n: number): void { let acc = 0; for (let i = 0; i < n; i++) acc += detLog(P(i)); consume(acc); }
function detLog1pLoop(n: number): void { let acc = 0; for (let i = 0; i < n; i++) acc += detLog1p(P(i)); consume(acc); }
function detLog2Loop(n: number): void { let acc = 0; for (let i = 0; i < n; i++) acc += detLog2(P(i)); consume(acc); }
function detLog10Loop(n: number): void { let acc = 0; for (let i = 0; i < n; i++) acc += detLog10(P(i)); consume(acc); }
function detPowLoop(n: number): void { let acc = 0; for (let i = 0; i < n; i++) acc += detPow(P(i), S(i * 7 + 3)); consume(acc); }
function detTanLoop(n: number): void { let acc = 0; for (let i = 0; i < n; i++) acc += detTan(D(i)); consume(acc); }
function detAsinLoop(n: number): void { let acc = 0; for (let i = 0; i < n; i++) acc += detAsin(U(i)); consume(acc * 1000); }
function detAcosLoop(n: number): void { let acc = 0; for (let i = 0; i < n; i++) acc += detAcos(U(i)); consume(acc); }
function detAtanLoop(n: number): void { let acc = 0; for (let i = 0; i < n; i++) acc += detAtan(D(i)); consume(acc * 1000); }
function detSinhLoop(n: number): void { let acc = 0; for (let i = 0; i < n; i++) acc += detSinh(S(i)); consume(acc); }
function detCoshLoop(n: number): void { let acc = 0; for (let i = 0; i < n; i++) acc += detCosh(S(i)); consume(acc); }
function detTanhLoop(n: number): void { let acc = 0; for (let i = 0; i < n; i++) acc += detTanh(S(i)); consume(acc * 1000); }
function detAsinhLoop(n: number): void { let acc = 0; for (let i = 0; i < n; i++) acc += detAsinh(D(i)); consume(acc * 1000); }
function detAcoshLoop(n: number): void { let acc = 0; for (let i = 0; i < n; i++) acc += detAcosh(P(i) + 1); consume(acc); }
function detAtanhLoop(n: number): void { let acc = 0; for (let i = 0; i < n; i++) acc += detAtanh(U(i)); consume(acc * 1000); }
function detCbrtLoop(n: number): void { let acc = 0; for (let i = 0; i < n; i++) acc += detCbrt(D(i)); consume(acc * 1000); }
function detHypotLoop(n: number): void { let acc = 0; for (let i = 0; i < n; i++) acc += detHypot(D(i), 2.5); consume(acc); }
// The engine's own, for scale (outside a step they are the program's to use)
function mathExpLoop(n: number): void { let acc = 0; for (let i = 0; i < n; i++) acc += Math.exp(S(i)); consume(acc); }
function mathLogLoop(n: number): void { let acc = 0; for (let i = 0; i < n; i++) acc += Math.log(P(i)); consume(acc); }
function mathPowLoop(n: number): void { let acc = 0; for (let i = 0; i < n; i++) acc += Math.pow(P(i), S(i * 7 + 3)); consume(acc); }
function mathHypotLoop(n: number): void { let acc = 0; for (let i = 0; i < n; i++) acc += Math.hypot(D(i), 2.5); consume(acc); }

export const benches: Bench[] = [
  {
    name: 'numeric: EE add/sub/mul/div/madd/sqrt',
    run: () => [
      { name: 'EE add', value: opsPerSecond(addLoop), unit: 'ops/s', goal: 10_000_000, better: 'higher' },
      { name: 'EE sub', value: opsPerSecond(subLoop), unit: 'ops/s' },
      { name: 'EE mul', value: opsPerSecond(mulLoop), unit: 'ops/s', goal: 10_000_000, better: 'higher' },
      { name: 'EE div', value: opsPerSecond(divLoop), unit: 'ops/s' },
      { name: 'EE madd', value: opsPerSecond(maddLoop), unit: 'ops/s', goal: 10_000_000, better: 'higher' },
      { name: 'EE sqrt.s', value: opsPerSecond(sqrtLoop), unit: 'ops/s' },
      { name: 'newlib sqrtf', value: opsPerSecond(sqrtfLoop), unit: 'ops/s' },
    ],
  },
  {
    name: 'numeric: newlib sinf/cosf/atan2f under EE rules',
    run: () => [
      { name: 'EE sinf', value: opsPerSecond(sinfLoop), unit: 'ops/s' },
      { name: 'EE cosf', value: opsPerSecond(cosfLoop), unit: 'ops/s' },
      { name: 'EE atan2f', value: opsPerSecond(atan2fLoop), unit: 'ops/s' },
    ],
  },
  {
    name: 'numeric: deterministic double maths',
    run: () => [
      { name: 'detSqrt', value: opsPerSecond(detSqrtLoop), unit: 'ops/s' },
      { name: 'detSin', value: opsPerSecond(detSinLoop), unit: 'ops/s' },
      { name: 'detAtan2', value: opsPerSecond(detAtan2Loop), unit: 'ops/s' },
      { name: 'detHypot3', value: opsPerSecond(detHypot3Loop), unit: 'ops/s' },
    ],
  },
  {
    name: "numeric: the replacements for the engine's Math functions",
    run: () => [
      { name: 'detExp', value: opsPerSecond(detExpLoop), unit: 'ops/s' },
      { name: 'detExpm1', value: opsPerSecond(detExpm1Loop), unit: 'ops/s' },
      { name: 'detLog', value: opsPerSecond(detLogLoop), unit: 'ops/s' },
      { name: 'detLog1p', value: opsPerSecond(detLog1pLoop), unit: 'ops/s' },
      { name: 'detLog2', value: opsPerSecond(detLog2Loop), unit: 'ops/s' },
      { name: 'detLog10', value: opsPerSecond(detLog10Loop), unit: 'ops/s' },
      { name: 'detPow', value: opsPerSecond(detPowLoop), unit: 'ops/s' },
      { name: 'detTan', value: opsPerSecond(detTanLoop), unit: 'ops/s' },
      { name: 'detAsin', value: opsPerSecond(detAsinLoop), unit: 'ops/s' },
      { name: 'detAcos', value: opsPerSecond(detAcosLoop), unit: 'ops/s' },
      { name: 'detAtan', value: opsPerSecond(detAtanLoop), unit: 'ops/s' },
      { name: 'detSinh', value: opsPerSecond(detSinhLoop), unit: 'ops/s' },
      { name: 'detCosh', value: opsPerSecond(detCoshLoop), unit: 'ops/s' },
      { name: 'detTanh', value: opsPerSecond(detTanhLoop), unit: 'ops/s' },
      { name: 'detAsinh', value: opsPerSecond(detAsinhLoop), unit: 'ops/s' },
      { name: 'detAcosh', value: opsPerSecond(detAcoshLoop), unit: 'ops/s' },
      { name: 'detAtanh', value: opsPerSecond(detAtanhLoop), unit: 'ops/s' },
      { name: 'detCbrt', value: opsPerSecond(detCbrtLoop), unit: 'ops/s' },
      { name: 'detHypot (2 values)', value: opsPerSecond(detHypotLoop), unit: 'ops/s' },
      { name: "Math.exp (the engine's, for scale)", value: opsPerSecond(mathExpLoop), unit: 'ops/s' },
      { name: "Math.log (the engine's, for scale)", value: opsPerSecond(mathLogLoop), unit: 'ops/s' },
      { name: "Math.pow (the engine's, for scale)", value: opsPerSecond(mathPowLoop), unit: 'ops/s' },
      { name: "Math.hypot (the engine's, for scale)", value: opsPerSecond(mathHypotLoop), unit: 'ops/s' },
    ],
  },
];
