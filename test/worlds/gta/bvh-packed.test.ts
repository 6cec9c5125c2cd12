/**
 * One model's packed tree walk (ModelCollider.raycast) against the walk over the tree as built
 * (raycastReference): the same t and the same hit (kind, index, normal, to the bit) for random models (face
 * groups or not, spheres, boxes, degenerate and huge triangles) and random segments, degenerate ones included.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { ModelCollider, PACK_NONE, rayHit } from '../../../src/worlds/gta/bvh.js';
import { MeshBuilder, computeBounds, withFaceGroups } from '../../../src/worlds/gta/build.js';
import { emptyModel, type ColModel } from '../../../src/worlds/gta/model.js';

const coord = fc.oneof(
  { weight: 8, arbitrary: fc.integer({ min: -2560, max: 2560 }).map((i) => i / 128) },
  { weight: 1, arbitrary: fc.constantFrom(0, -0, 1e-300, 1e15, -1e15) },
);
const point = fc.tuple(coord, coord, coord);
const surface = { material: 1, flag: 0, brightness: 0, light: 0 };
const modelArb = fc
  .record({
    tris: fc.array(fc.tuple(point, point, point), { minLength: 0, maxLength: 150 }),
    spheres: fc.array(fc.tuple(point, fc.double({ min: -1, max: 6, noNaN: true })), { maxLength: 3 }),
    boxes: fc.array(fc.tuple(point, point), { maxLength: 3 }),
    groups: fc.option(fc.integer({ min: 1, max: 40 }), { nil: undefined }),
    leaf: fc.integer({ min: 1, max: 6 }),
  })
  .map(({ tris, spheres, boxes, groups, leaf }) => {
    const b = new MeshBuilder();
    tris.forEach(([p, q, r], i) => b.triangle(b.vertex(...p), b.vertex(...q), b.vertex(...r), i % 200));
    let m: ColModel = emptyModel(3, 'm');
    m.mesh = b.build();
    for (const [c, r] of spheres) m.spheres.push({ center: c, radius: r, surface });
    for (const [p, q] of boxes) m.boxes.push({ min: [Math.min(p[0], q[0]), Math.min(p[1], q[1]), Math.min(p[2], q[2])], max: [Math.max(p[0], q[0]), Math.max(p[1], q[1]), Math.max(p[2], q[2])], surface });
    m.bounds = computeBounds(m);
    if (groups !== undefined && m.mesh.faceCount > 0) m = withFaceGroups(m, groups);
    return { model: m, leaf };
  });
/** A segment: anywhere, from a triangle's corner, along an axis, of zero length, or with odd numbers. */
const segmentArb = fc.oneof(
  { weight: 6, arbitrary: fc.tuple(point, point) },
  { weight: 1, arbitrary: fc.tuple(point, coord).map(([p, z]) => [p, [p[0], p[1], z]] as const) },
  { weight: 1, arbitrary: fc.tuple(point, coord).map(([p, x]) => [p, [x, p[1], p[2]]] as const) },
  { weight: 1, arbitrary: point.map((p) => [p, p] as const) },
  { weight: 1, arbitrary: fc.tuple(point, fc.tuple(fc.double(), fc.double(), fc.double())) },
);

function hitOf(): number[] {
  return [rayHit.kind, rayHit.index, rayHit.nx, rayHit.ny, rayHit.nz];
}

describe('the packed tree walk equals the walk over the tree as built', () => {
  it('on random models and segments: t and the hit, to the bit', () => {
    let segments = 0;
    let hits = 0;
    let trees = 0;
    fc.assert(
      fc.property(modelArb, fc.array(fc.tuple(segmentArb, fc.constantFrom(2, 1, 0.5, 0.25, 0)), { minLength: 1, maxLength: 25 }), ({ model, leaf }, segs) => {
        const c = new ModelCollider(model, leaf);
        if (c.packRoot !== PACK_NONE) trees++;
        for (const [[o, t], best] of segs) {
          const d = [t[0] - o[0], t[1] - o[1], t[2] - o[2]] as const;
          rayHit.kind = -1;
          rayHit.index = -7;
          const a = c.raycast(o[0], o[1], o[2], d[0], d[1], d[2], best);
          const ha = hitOf();
          rayHit.kind = -1;
          rayHit.index = -7;
          const b = c.raycastReference(o[0], o[1], o[2], d[0], d[1], d[2], best);
          const hb = hitOf();
          if (!Object.is(a, b) || !ha.every((v, i) => Object.is(v, hb[i]))) return false;
          segments++;
          if (b < best) hits++;
        }
        return true;
      }),
      { numRuns: 400 },
    );
    expect(trees).toBeGreaterThan(200);
    expect(segments).toBeGreaterThan(1500);
    expect(hits).toBeGreaterThan(150);
  });

  it('packs every inner node once, its children side by side, and every face into exactly one leaf', () => {
    fc.assert(
      fc.property(modelArb, ({ model, leaf }) => {
        const c = new ModelCollider(model, leaf);
        if (c.faceCount === 0) return c.packRoot === PACK_NONE;
        const inner = c.packChild.length / 2;
        const seenInner = new Uint8Array(inner);
        const faces = new Uint8Array(c.faceCount);
        const visit = (ref: number): void => {
          if (ref >= 0) {
            expect(seenInner[ref]).toBe(0);
            seenInner[ref] = 1;
            visit(c.packChild[2 * ref]!);
            visit(c.packChild[2 * ref + 1]!);
          } else {
            for (let k = c.leafFirst[~ref]!; k < c.leafFirst[~ref]! + c.leafCount[~ref]!; k++) faces[k]!++;
          }
        };
        visit(c.packRoot);
        return seenInner.every((v) => v === 1) && faces.every((v) => v === 1) && inner + c.leafCount.length === c.nodeCount;
      }),
      { numRuns: 200 },
    );
  });
});
