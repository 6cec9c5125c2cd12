/**
 * Speed of the EE single-precision operations (the field generator runs millions of them), the newlib
 * routines under the EE rules, and the deterministic double maths. Operands come from a fixed table of
 * patterns so the loop measures the operation, not an operand generator.
 */
import { consume, opsPerSecond, type Bench } from './harness.js';
import { eeAdd, eeDiv, eeMadd, eeMul, eeSqrt, eeSub, sqrtfNewlib } from '../src/numeric/ee-float.js';
import { atan2f, cosf, sinf } from '../src/numeric/libm-ee.js';
import { detAtan2, detHypot3, detSin, detSqrt } from '../src/numeric/det-math.js';

const SIZE = 1024; // a power of two: index with & (SIZE - 1)
const patterns = new Uint32Array(SIZE);
const angles = new Uint32Array(SIZE);
const doubles = new Float64Array(SIZE);
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
];
