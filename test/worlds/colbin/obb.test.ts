import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import {
  BOX_WORDS,
  capsuleObbPushOut,
  normalizeBoxAxes,
  satPushOut,
  satPushOutAxisAligned,
  prepareWallForAxisAlignedMover,
  PREPARED_WALL_WORDS,
  SAT_AXIS,
  SAT_MTV_X,
  SAT_NORMAL_X,
  SAT_OUT_WORDS,
  SAT_PENETRATION,
  sphereObbPushOut,
} from '../../../src/worlds/colbin/obb.js';
import { wallFromFace, MIN_WALL_THICKNESS, type V3 } from '../../../src/worlds/colbin/level-builder.js';

type Box = { c: V3; axes: [V3, V3, V3]; h: V3 };

const I: [V3, V3, V3] = [[4096, 0, 0], [0, 4096, 0], [0, 0, 4096]];
/** Rotations with rational entries (Pythagorean), as FP12 truncated the way the exporter writes them. */
const ROT_Y_345: [V3, V3, V3] = [[2457, 0, 3276], [0, 4096, 0], [-3276, 0, 2457]];
const ROT_45: [V3, V3, V3] = [[2896, 0, 2896], [0, 4096, 0], [-2896, 0, 2896]];
const ROT_CORNER: [V3, V3, V3] = [[2730, -1365, 2730], [2730, 2730, -1365], [-1365, 2730, 2730]]; // (2,−1,2)/3 …

function pack(b: Box): { box: Int32Array; axes: Int32Array } {
  const box = new Int32Array(BOX_WORDS);
  box.set(b.c, 0);
  b.axes.forEach((a, i) => box.set(a, 3 + i * 3));
  box.set(b.h, 12);
  const axes = new Int32Array(9);
  normalizeBoxAxes(box, 0, axes, 0);
  return { box, axes };
}

function sat(a: Box, b: Box): { hit: boolean; mtv: number[]; normal: number[]; penetration: number; axis: number } {
  const A = pack(a);
  const B = pack(b);
  const out = new Int32Array(SAT_OUT_WORDS);
  const hit = satPushOut(A.box, 0, A.axes, 0, B.box, 0, B.axes, 0, out);
  return { hit, mtv: Array.from(out.subarray(SAT_MTV_X, SAT_MTV_X + 3)), normal: Array.from(out.subarray(SAT_NORMAL_X, SAT_NORMAL_X + 3)), penetration: out[SAT_PENETRATION]!, axis: out[SAT_AXIS]! };
}

/** An independent SAT in doubles (exact normalisation, no truncation): the behaviour the fixed-point test approximates. */
function satFloat(a: Box, b: Box): { hit: boolean; penetration: number; mtv: number[] } {
  const unit = (v: number[]): number[] | null => {
    const l = Math.hypot(v[0]!, v[1]!, v[2]!);
    return l < 1e-9 ? null : v.map((x) => x / l);
  };
  const cross = (p: number[], q: number[]): number[] => [p[1]! * q[2]! - p[2]! * q[1]!, p[2]! * q[0]! - p[0]! * q[2]!, p[0]! * q[1]! - p[1]! * q[0]!];
  const dot = (p: number[], q: number[]): number => p[0]! * q[0]! + p[1]! * q[1]! + p[2]! * q[2]!;
  const ax = (x: Box) => x.axes.map((v) => v.map((c) => c / 4096));
  const aa = ax(a), bb = ax(b);
  const cands: number[][] = [...aa, ...bb];
  for (const p of aa) for (const q of bb) cands.push(cross(p, q));
  let best = Infinity;
  let mtv = [0, 0, 0];
  for (const c of cands) {
    const n = unit(c);
    if (!n) continue;
    const ca = dot(a.c, n), cb = dot(b.c, n);
    const ra = aa.reduce((s, v, i) => s + Math.abs(dot(v, n)) * a.h[i]!, 0);
    const rb = bb.reduce((s, v, i) => s + Math.abs(dot(v, n)) * b.h[i]!, 0);
    const pen = ra + rb - Math.abs(ca - cb);
    if (pen < 0) return { hit: false, penetration: pen, mtv: [0, 0, 0] };
    if (pen < best) {
      best = pen;
      const s = ca < cb ? -1 : 1;
      mtv = n.map((x) => s * x * pen);
    }
  }
  return { hit: true, penetration: best, mtv };
}

/** Float penetration of two boxes along one given axis (negative when apart). */
function satFloatAxis(a: Box, b: Box, n: number[]): number {
  const dot = (p: number[], q: number[]): number => p[0]! * q[0]! + p[1]! * q[1]! + p[2]! * q[2]!;
  const l = Math.hypot(n[0]!, n[1]!, n[2]!);
  const u = n.map((x) => x / l);
  const r = (x: Box) => x.axes.reduce((s, v, i) => s + Math.abs(dot(v.map((c) => c / 4096), u)) * x.h[i]!, 0);
  return r(a) + r(b) - Math.abs(dot(a.c, u) - dot(b.c, u));
}

const body = (c: V3, h: V3 = [100, 100, 100]): Box => ({ c, axes: I, h });

describe('COLBIN OBB push-out (the engine SAT in fixed point)', () => {
  it('face contact: pushed out along the face normal by the overlap', () => {
    // body x ∈ [−100, 100], wall x ∈ [80, 280]: 20 units deep on x, far deeper on y and z
    const r = sat(body([0, 0, 0]), { c: [180, 0, 0], axes: I, h: [100, 200, 200] });
    expect(r.hit).toBe(true);
    expect(r.penetration).toBe(20);
    expect(r.mtv).toEqual([-20, 0, 0]);
    expect(r.normal).toEqual([-4096, 0, 0]);
    expect(r.axis).toBe(0); // A's x axis comes first among the equal candidates
    // from the other side the push reverses
    expect(sat(body([360, 0, 0]), { c: [180, 0, 0], axes: I, h: [100, 200, 200] }).mtv).toEqual([20, 0, 0]);
  });

  it('separated boxes do not collide; touching at a corner collides with no push', () => {
    expect(sat(body([0, 0, 0]), { c: [201, 0, 0], axes: I, h: [100, 100, 100] }).hit).toBe(false);
    const touch = sat(body([0, 0, 0]), { c: [200, 200, 200], axes: I, h: [100, 100, 100] });
    expect(touch.hit).toBe(true);
    expect(touch.mtv).toEqual([0, 0, 0]);
    expect(touch.axis).toBe(-1);
    expect(touch.penetration).toBe(4096000); // psyqo's untouched 1000.0 "best"
  });

  it('engine quirk: a face exactly touching is skipped, so the push comes from the next smallest axis', () => {
    // x: distance 200 = overlap 200 → penetration 0, skipped (not a separation); y and z overlap by 200.
    const r = sat(body([0, 0, 0]), { c: [200, 0, 0], axes: I, h: [100, 100, 100] });
    expect(r.hit).toBe(true);
    expect(r.axis).toBe(1); // A's y axis, the first of the equal 200s
    expect(r.mtv).toEqual([0, 200, 0]); // centres equal on y, so the normal is not negated
  });

  it('edge contact: a 45°-rotated wall pushes the body out diagonally, as the float SAT does', () => {
    const wall: Box = { c: [150, 0, 150], axes: ROT_45, h: [100, 200, 100] };
    const r = sat(body([0, 0, 0]), wall);
    const f = satFloat(body([0, 0, 0]), wall);
    expect(r.hit).toBe(true);
    expect(f.hit).toBe(true);
    expect(Math.abs(r.penetration - f.penetration)).toBeLessThanOrEqual(3);
    for (let k = 0; k < 3; k++) expect(Math.abs(r.mtv[k]! - f.mtv[k]!)).toBeLessThanOrEqual(3);
    expect(r.mtv[0]).toBeLessThan(0);
    expect(r.mtv[2]).toBeLessThan(0);
  });

  it('corner contact: a wall rotated about two axes, against the float SAT', () => {
    const wall: Box = { c: [90, 100, 110], axes: ROT_CORNER, h: [90, 60, 40] };
    const r = sat(body([0, 0, 0]), wall);
    const f = satFloat(body([0, 0, 0]), wall);
    expect(r.hit).toBe(f.hit);
    expect(r.hit).toBe(true);
    expect(Math.abs(r.penetration - f.penetration)).toBeLessThanOrEqual(4);
  });

  it.each([0, 1, 2])('the thin clamped axis at index %i: wallFromFace clamps it to 32 and the push is the same', (thin) => {
    // A flat face in the x/y plane (z = 0). Object axes chosen so that the face normal (z) is axes[thin].
    const others: V3[] = [[1, 0, 0], [0, -1, 0]];
    const axes = [0, 1, 2].map((i) => (i === thin ? [0, 0, 1] : others.shift()!)) as [V3, V3, V3];
    const face: V3[] = [[-128, -128, 0], [128, -128, 0], [128, 128, 0], [-128, 128, 0]];
    const w = wallFromFace(face, axes);
    expect(w.raw.halfExtents[thin]).toBe(MIN_WALL_THICKNESS);
    expect(w.raw.halfExtents.filter((h, i) => i !== thin)).toEqual([128, 128]);
    const wall: Box = { c: w.raw.center, axes: w.raw.axes as [V3, V3, V3], h: w.raw.halfExtents };
    // body z ∈ [22, 222] against the wall's z ∈ [−32, 32]: 10 deep, pushed to +z
    const r = sat(body([0, 0, 122]), wall);
    expect(r.hit).toBe(true);
    expect(r.mtv).toEqual([0, 0, 10]);
    expect(r.normal).toEqual([0, 0, 4096]);
  });

  it('the exporter clamps only the thinnest half extent (first index on a tie)', () => {
    const w = wallFromFace([[0, 0, 0], [10, 0, 0], [0, 0, 0]], [[1, 0, 0], [0, 1, 0], [0, 0, 1]]);
    // spreads: 5, 0, 0 → index 1 is the first smallest, clamped; index 2 stays 0
    expect(w.raw.halfExtents).toEqual([5, 32, 0]);
  });

  it('property: agrees with the float SAT whenever the float margin is clear of rounding', () => {
    const rot = fc.constantFrom(I, ROT_Y_345, ROT_45, ROT_CORNER);
    const boxArb = fc.record({
      c: fc.tuple(fc.integer({ min: -400, max: 400 }), fc.integer({ min: -400, max: 400 }), fc.integer({ min: -400, max: 400 })),
      axes: rot,
      h: fc.tuple(fc.integer({ min: 32, max: 300 }), fc.integer({ min: 32, max: 300 }), fc.integer({ min: 32, max: 300 })),
    }) as fc.Arbitrary<Box>;
    fc.assert(
      fc.property(boxArb, boxArb, (a, b) => {
        const f = satFloat(a, b);
        const r = sat(a, b);
        if (Math.abs(f.penetration) < 6) return; // too close to call once everything is truncated
        expect(r.hit).toBe(f.hit);
        if (f.hit) {
          expect(Math.abs(r.penetration - f.penetration)).toBeLessThanOrEqual(6 + f.penetration * 0.01);
        }
      }),
      { numRuns: 1500 },
    );
  });

  it('property: applying the MTV leaves the boxes at most a rounding error apart from touching', () => {
    fc.assert(
      fc.property(
        fc.tuple(fc.integer({ min: -300, max: 300 }), fc.integer({ min: -300, max: 300 }), fc.integer({ min: -300, max: 300 })),
        fc.constantFrom(I, ROT_Y_345, ROT_45),
        (c, axes) => {
          const wall: Box = { c: [0, 0, 0], axes, h: [150, 80, 32] };
          const r = sat(body(c as V3), wall);
          if (!r.hit || r.axis < 0) return;
          const moved = body([c[0] + r.mtv[0]!, c[1] + r.mtv[1]!, c[2] + r.mtv[2]!]);
          // Along the axis it was pushed on, the body is now at most a rounding error inside the wall.
          const n = r.normal.map((x) => x / 4096);
          const f = satFloatAxis(moved, wall, n);
          expect(f).toBeLessThanOrEqual(4);
        },
      ),
      { numRuns: 800 },
    );
  });
});

/**
 * The engine's arithmetic written plainly in BigInt (slow, obviously exact): FixedPoint products truncate
 * toward zero into int32, GTE products are 16-bit with an exact sum and a floor shift, IR saturates.
 */
function satReference(a: Int32Array, b: Int32Array): { hit: boolean; out: number[] } {
  const i32 = (v: bigint) => BigInt.asIntN(32, v);
  const fx = (x: bigint, y: bigint) => i32((x * y) / 4096n); // BigInt division truncates toward zero
  const s16 = (v: bigint) => BigInt.asIntN(16, v);
  const floorDiv = (v: bigint) => (v >= 0n ? v / 4096n : -((-v + 4095n) / 4096n));
  const sat16 = (v: bigint) => (v > 32767n ? 32767n : v < -32768n ? -32768n : v);
  const abs = (v: bigint) => (v < 0n ? i32(-v) : v);
  const isqrtB = (n: bigint) => {
    if (n < 2n) return n;
    let x = n, y = (x + 1n) / 2n;
    while (y < x) { x = y; y = (x + n / x) / 2n; }
    return x;
  };
  const normalize = (v: bigint[]): bigint[] => {
    const sq = i32(fx(v[0]!, v[0]!) + fx(v[1]!, v[1]!) + fx(v[2]!, v[2]!));
    if (sq <= 1n) return [0n, 0n, 4096n];
    const len = isqrtB(sq * 4096n);
    return v.map((c) => i32((c * 4096n) / len));
  };
  const A = Array.from(a, BigInt), B = Array.from(b, BigInt);
  const axes = (X: bigint[]) => [0, 1, 2].map((i) => X.slice(3 + i * 3, 6 + i * 3));
  const cands: { v: bigint[]; cross: boolean }[] = [...axes(A), ...axes(B)].map((v) => ({ v, cross: false }));
  for (const p of axes(A)) for (const q of axes(B)) {
    const [p0, p1, p2] = p.map(s16), [q0, q1, q2] = q.map(s16);
    cands.push({ v: [floorDiv(p1! * q2! - p2! * q1!), floorDiv(p2! * q0! - p0! * q2!), floorDiv(p0! * q1! - p1! * q0!)], cross: true });
  }
  const radius = (X: bigint[], n: bigint[]) =>
    axes(X).reduce((r, ax, i) => i32(r + fx(abs(sat16(floorDiv(s16(ax[0]!) * s16(n[0]!) + s16(ax[1]!) * s16(n[1]!) + s16(ax[2]!) * s16(n[2]!)))), X[12 + i]!)), 0n);
  let best = 4096000n, bestK = -1, bn = [0n, 0n, 0n];
  for (let k = 0; k < 15; k++) {
    const v = cands[k]!.v;
    if (v.every((c) => c === 0n)) continue;
    const n = normalize(v);
    const aC = i32(fx(A[0]!, n[0]!) + fx(A[1]!, n[1]!) + fx(A[2]!, n[2]!));
    const bC = i32(fx(B[0]!, n[0]!) + fx(B[1]!, n[1]!) + fx(B[2]!, n[2]!));
    const overlap = i32(radius(A, n) + radius(B, n));
    const distance = abs(i32(aC - bC));
    if (distance > overlap) return { hit: false, out: [0, 0, 0, 0, 0, 0, 0, -1] };
    const pen = i32(overlap - distance);
    if (pen <= 0n || pen >= best) continue;
    best = pen;
    bestK = k;
    bn = aC < bC ? n.map((c) => i32(-c)) : n;
  }
  return { hit: true, out: [...bn.map((c) => Number(fx(c, best))), ...bn.map(Number), Number(best), bestK] };
}

describe('COLBIN SAT against a plain BigInt reference of the engine arithmetic', () => {
  const comp = (big: number) => fc.oneof(fc.integer({ min: -5000, max: 5000 }), fc.integer({ min: -big, max: big }));
  const boxWords = (big: number) =>
    fc.tuple(
      fc.tuple(comp(2 ** 31 - 1), comp(2 ** 31 - 1), comp(2 ** 31 - 1)),
      fc.array(comp(big), { minLength: 9, maxLength: 9 }),
      fc.tuple(fc.integer({ min: -50, max: 2000 }), fc.oneof(fc.integer({ min: 0, max: 2000 }), fc.integer({ min: -(2 ** 31), max: 2 ** 31 - 1 })), fc.integer({ min: 0, max: 2000 })),
    ).map(([c, ax, h]) => new Int32Array([...c, ...ax, ...h]));
  const run = (a: Int32Array, b: Int32Array) => {
    const an = new Int32Array(9), bn = new Int32Array(9), out = new Int32Array(SAT_OUT_WORDS);
    normalizeBoxAxes(a, 0, an, 0);
    normalizeBoxAxes(b, 0, bn, 0);
    const hit = satPushOut(a, 0, an, 0, b, 0, bn, 0, out);
    return { hit, out: Array.from(out) };
  };

  it('property: bit-identical on unit-ish and on hostile (16-bit overflowing, int32-extreme) boxes', () => {
    fc.assert(
      fc.property(boxWords(40000), boxWords(2 ** 31 - 1), (a, b) => {
        expect(run(a, b)).toEqual(satReference(a, b));
      }),
      { numRuns: 1500 },
    );
  });

  it('property: bit-identical on overlapping rotated boxes near the origin', () => {
    const near = fc.tuple(
      fc.tuple(fc.integer({ min: -200, max: 200 }), fc.integer({ min: -200, max: 200 }), fc.integer({ min: -200, max: 200 })),
      fc.constantFrom(I, ROT_Y_345, ROT_45, ROT_CORNER),
      fc.tuple(fc.integer({ min: 20, max: 300 }), fc.integer({ min: 20, max: 300 }), fc.integer({ min: 20, max: 300 })),
    ).map(([c, ax, h]) => new Int32Array([...c, ...ax.flat(), ...h]));
    fc.assert(
      fc.property(near, near, (a, b) => {
        expect(run(a, b)).toEqual(satReference(a, b));
      }),
      { numRuns: 1500 },
    );
  });
});

describe('COLBIN push-out for an axis-aligned mover with prepared walls', () => {
  const int = (r: number) => fc.integer({ min: -r, max: r });
  const anyAxes = fc.tuple(
    fc.tuple(int(4200), int(4200), int(4200)),
    fc.tuple(int(4200), int(4200), int(4200)),
    fc.tuple(int(4200), int(4200), int(4200)),
  ) as fc.Arbitrary<[V3, V3, V3]>;
  const wallArb = fc.record({
    c: fc.tuple(int(600), int(600), int(600)),
    axes: fc.oneof(fc.constantFrom(I, ROT_Y_345, ROT_45, ROT_CORNER, [[4096, 0, 0], [0, 0, 4096], [0, -4096, 0]] as [V3, V3, V3], [[0, 0, 0], [0, 4096, 0], [0, 0, 4096]] as [V3, V3, V3]), anyAxes),
    h: fc.tuple(fc.integer({ min: -10, max: 400 }), fc.integer({ min: -10, max: 400 }), fc.integer({ min: -10, max: 400 })),
  }) as fc.Arbitrary<Box>;

  it('property: gives exactly what satPushOut gives with an identity-axes box', () => {
    fc.assert(
      fc.property(wallArb, fc.tuple(int(700), int(700), int(700)), fc.tuple(fc.integer({ min: 0, max: 300 }), fc.integer({ min: 0, max: 300 }), fc.integer({ min: 0, max: 300 })), (wall, c, h) => {
        const general = sat(body(c as V3, h as V3), wall);
        const W = pack(wall);
        const prepared = new Int32Array(PREPARED_WALL_WORDS);
        prepareWallForAxisAlignedMover(W.box, 0, W.axes, 0, prepared, 0);
        const out = new Int32Array(SAT_OUT_WORDS);
        const hit = satPushOutAxisAligned(c[0], c[1], c[2], h[0], h[1], h[2], prepared, 0, out);
        expect(hit).toBe(general.hit);
        expect(Array.from(out.subarray(0, 3))).toEqual(general.mtv);
        expect(Array.from(out.subarray(3, 6))).toEqual(general.normal);
        expect(out[SAT_PENETRATION]).toBe(general.penetration);
        expect(out[SAT_AXIS]).toBe(general.axis);
      }),
      { numRuns: 3000 },
    );
  });
});

describe('sphere and capsule against an OBB (general use)', () => {
  const wall = pack({ c: [0, 0, 0], axes: I, h: [100, 100, 100] });
  const out = new Float64Array(4);

  it('sphere outside a face is pushed by radius − distance along the face normal', () => {
    expect(sphereObbPushOut(130, 0, 0, 50, wall.box, 0, wall.axes, 0, out)).toBe(true);
    expect(Array.from(out)).toEqual([20, 0, 0, 20]);
    expect(sphereObbPushOut(151, 0, 0, 50, wall.box, 0, wall.axes, 0, out)).toBe(false);
  });

  it('sphere near an edge is pushed away from the edge', () => {
    expect(sphereObbPushOut(130, 0, 140, 60, wall.box, 0, wall.axes, 0, out)).toBe(true);
    // distance to the edge (100, ·, 100) is 50: push 10 along (30, 0, 40)/50
    expect(out[0]).toBeCloseTo(6, 9);
    expect(out[2]).toBeCloseTo(8, 9);
    expect(out[3]).toBeCloseTo(10, 9);
  });

  it('sphere centre inside leaves through the nearest face', () => {
    expect(sphereObbPushOut(0, 90, 0, 5, wall.box, 0, wall.axes, 0, out)).toBe(true);
    expect(Array.from(out)).toEqual([0, 15, 0, 15]);
  });

  it('capsule uses its point nearest the box', () => {
    expect(capsuleObbPushOut(130, -500, 0, 130, 500, 0, 50, wall.box, 0, wall.axes, 0, out)).toBe(true);
    expect(out[0]).toBeCloseTo(20, 6);
    expect(out[3]).toBeCloseTo(20, 6);
    expect(capsuleObbPushOut(160, -500, 0, 160, 500, 0, 50, wall.box, 0, wall.axes, 0, out)).toBe(false);
  });
});
