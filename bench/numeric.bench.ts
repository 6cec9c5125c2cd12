/**
 * Speed of the EE single-precision operations (the field generator runs millions of them), the newlib
 * routines under the EE rules, and the deterministic double maths. Operands come from a fixed table of
 * patterns so the loop measures the operation, not an operand generator.
 */
import { consume, opsPerSecond, type Bench } from './harness.js';
import { eeAdd, eeDiv, eeMadd, eeMul, eeSqrt, eeSub, sqrtfNewlib } from '../src/worlds/numeric/ee-float.js';
import { atan2f, cosf, sinf } from '../src/worlds/numeric/libm-ee.js';
import { detAtan2, detHypot3, detSin, detSqrt } from '../src/worlds/numeric/det-math.js';

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

function binary(op: (a: number, b: number) => number): (n: number) => void {
  return (n) => {
    let acc = 0;
    for (let i = 0; i < n; i++) acc ^= op(patterns[i & MASK]!, patterns[(i * 7 + 3) & MASK]!);
    consume(acc);
  };
}

function unary(op: (a: number) => number, table: Uint32Array = patterns): (n: number) => void {
  return (n) => {
    let acc = 0;
    for (let i = 0; i < n; i++) acc ^= op(table[i & MASK]!);
    consume(acc);
  };
}

export const benches: Bench[] = [
  {
    name: 'numeric: EE add/sub/mul/div/madd/sqrt',
    run: () => [
      { name: 'EE add', value: opsPerSecond(binary(eeAdd)), unit: 'ops/s', goal: 10_000_000, better: 'higher' },
      { name: 'EE sub', value: opsPerSecond(binary(eeSub)), unit: 'ops/s' },
      { name: 'EE mul', value: opsPerSecond(binary(eeMul)), unit: 'ops/s', goal: 10_000_000, better: 'higher' },
      { name: 'EE div', value: opsPerSecond(binary(eeDiv)), unit: 'ops/s' },
      {
        name: 'EE madd',
        value: opsPerSecond((n) => {
          let acc = 0;
          for (let i = 0; i < n; i++) acc = eeMadd(acc & 0xbfffffff, patterns[i & MASK]!, patterns[(i * 7 + 3) & MASK]!);
          consume(acc);
        }),
        unit: 'ops/s',
        goal: 10_000_000,
        better: 'higher',
      },
      { name: 'EE sqrt.s', value: opsPerSecond(unary(eeSqrt)), unit: 'ops/s' },
      { name: 'newlib sqrtf', value: opsPerSecond(unary(sqrtfNewlib)), unit: 'ops/s' },
    ],
  },
  {
    name: 'numeric: newlib sinf/cosf/atan2f under EE rules',
    run: () => [
      { name: 'EE sinf', value: opsPerSecond(unary(sinf, angles)), unit: 'ops/s' },
      { name: 'EE cosf', value: opsPerSecond(unary(cosf, angles)), unit: 'ops/s' },
      {
        name: 'EE atan2f',
        value: opsPerSecond(binary(atan2f)),
        unit: 'ops/s',
      },
    ],
  },
  {
    name: 'numeric: deterministic double maths',
    run: () => {
      const op = (f: (x: number) => number) => (n: number) => {
        let acc = 0;
        for (let i = 0; i < n; i++) acc += f(doubles[i & MASK]!);
        consume(acc * 1000);
      };
      return [
        { name: 'detSqrt', value: opsPerSecond(op((x) => detSqrt(x < 0 ? -x : x))), unit: 'ops/s' },
        { name: 'detSin', value: opsPerSecond(op(detSin)), unit: 'ops/s' },
        { name: 'detAtan2', value: opsPerSecond(op((x) => detAtan2(x, 3.5))), unit: 'ops/s' },
        { name: 'detHypot3', value: opsPerSecond(op((x) => detHypot3(x, 2.5, -7))), unit: 'ops/s' },
      ];
    },
  },
];
