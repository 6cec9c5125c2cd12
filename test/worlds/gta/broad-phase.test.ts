/**
 * The broad phase over placements answers exactly what walking every placement in order answers: the same
 * fraction, hit, face or sphere or box id, normal and placement (ties to the lowest placement), the same
 * overlap, the same push-out (position and contacts, in order), bit for bit. The linear walk is the oracle;
 * the scenes are random: a few models, placements with many at one spot, exact copies, rotations, huge
 * coordinates.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { Vec3 } from '../../../src/worlds/world.js';
import { BROAD_PHASE_MIN_PLACEMENTS, ColScene, type GtaPlacement } from '../../../src/worlds/gta/query.js';
import { InstanceBroadPhase, sortAscending } from '../../../src/worlds/gta/instance-bvh.js';
import { GtaWorld, newGtaGroundResult } from '../../../src/worlds/gta/collision-world.js';
import { MeshBuilder, computeBounds } from '../../../src/worlds/gta/build.js';
import { emptyModel } from '../../../src/worlds/gta/model.js';
import { parseColFile } from '../../../src/worlds/gta/parse.js';
import { readFileSync } from 'node:fs';
import { newMoveResult } from '../../../src/worlds/world.js';
import { canon, colSceneArb, sceneModelArb, smallCoord, smallPoint } from './arbitrary.js';

const modelArb = sceneModelArb({ maxTriangles: 12, zeroRadiusSpheres: false });

const SPOT: Vec3 = [3, -2, 1];
const huge = fc.constantFrom(1e15, -1e15, 3e200, -7.7e15, 1e300);
const posArb: fc.Arbitrary<Vec3> = fc.oneof(
  { weight: 5, arbitrary: fc.constant(SPOT) },
  { weight: 3, arbitrary: smallPoint },
  { weight: 1, arbitrary: fc.tuple(huge, smallCoord, smallCoord) },
  { weight: 1, arbitrary: fc.tuple(smallCoord, huge, huge) },
);
const sceneArb = colSceneArb({ model: modelArb, maxModels: 3, position: posArb, copyFreq: 3 });

const queryPt = fc.oneof({ weight: 4, arbitrary: smallPoint.map((p): Vec3 => [p[0] + SPOT[0], p[1] + SPOT[1], p[2] + SPOT[2]]) }, { weight: 1, arbitrary: fc.tuple(huge, smallCoord, smallCoord) });
const segArb = fc.oneof(
  fc.tuple(queryPt, queryPt),
  // Straight down through the spot, as the ground probe does.
  fc.tuple(smallCoord, smallCoord).map(([x, y]): [Vec3, Vec3] => [[SPOT[0] + x / 8, SPOT[1] + y / 8, 40], [SPOT[0] + x / 8, SPOT[1] + y / 8, -40]]),
);
const sphereArb = fc.tuple(queryPt, fc.integer({ min: 1, max: 256 }).map((i) => i / 64), fc.boolean());

describe('the placement broad phase', () => {
  it('segments, overlaps and push-outs answer exactly what the linear walk answers (property)', () => {
    let hits = 0, overlaps = 0, pushes = 0, cases = 0;
    fc.assert(
      fc.property(sceneArb, fc.array(segArb, { minLength: 1, maxLength: 12 }), fc.array(sphereArb, { minLength: 1, maxLength: 12 }), ({ models, placements }, segs, spheres) => {
        const fast = new ColScene(models, placements, { broadPhase: true });
        const slow = new ColScene(models, placements, { broadPhase: false });
        expect(fast.broad).not.toBeNull();
        expect(slow.broad).toBeNull();
        for (const [a, b] of segs) {
          const t1 = fast.segmentFraction(a[0], a[1], a[2], b[0], b[1], b[2]);
          const t2 = slow.segmentFraction(a[0], a[1], a[2], b[0], b[1], b[2]);
          expect(canon([t1, fast.last])).toBe(canon([t2, slow.last]));
          if (t1 >= 0) hits++;
        }
        for (const [c, r, horizontal] of spheres) {
          const o1 = fast.sphereOverlaps(c[0], c[1], c[2], r);
          expect(o1).toBe(slow.sphereOverlaps(c[0], c[1], c[2], r));
          if (o1) overlaps++;
          const n1 = fast.pushOutSphere(c[0], c[1], c[2], r, horizontal);
          const n2 = slow.pushOutSphere(c[0], c[1], c[2], r, horizontal);
          expect(canon([n1, fast.push])).toBe(canon([n2, slow.push]));
          if (n1 > 0) pushes++;
        }
        cases++;
      }),
      { numRuns: 300 },
    );
    expect(cases).toBe(300);
    // The cases are not trivially empty: many segments hit, many spheres overlap and are pushed.
    expect(hits).toBeGreaterThan(300);
    expect(overlaps).toBeGreaterThan(100);
    expect(pushes).toBeGreaterThan(100);
  });

  it('ground and move of a GTA world answer the same through the broad phase (property)', () => {
    let floors = 0, contacts = 0;
    fc.assert(
      fc.property(sceneArb, fc.array(fc.tuple(queryPt, smallPoint), { minLength: 1, maxLength: 8 }), ({ models, placements }, moves) => {
        const file = { models, modelOffsets: [], trailingBytes: 0, trailing: new Uint8Array(0), trailingZero: true };
        const fast = new GtaWorld('fast', file, placements, { broadPhase: true });
        const slow = new GtaWorld('slow', file, placements, { broadPhase: false });
        for (const [p, d] of moves) {
          const g1 = fast.ground(p, newGtaGroundResult());
          expect(canon(g1)).toBe(canon(slow.ground(p, newGtaGroundResult())));
          if (g1.hasFloor) floors++;
          const body = { radius: 0.35, height: 1.8, stepHeight: 0.4 };
          const m1 = fast.move(body, p, d, newMoveResult());
          expect(canon(m1)).toBe(canon(slow.move(body, p, d, newMoveResult())));
          contacts += m1.contacts.length;
        }
        expect(canon(fast.spawnPoint())).toBe(canon(slow.spawnPoint()));
      }),
      { numRuns: 150 },
    );
    expect(floors).toBeGreaterThan(50);
    expect(contacts).toBeGreaterThan(50);
  });

  it('a sphere wedged in a corner of 2,000 copies of a house is pushed out exactly as the linear walk does', () => {
    const file = parseColFile(new Uint8Array(readFileSync(new URL('../../../assets/worlds/gta/town.col', import.meta.url))));
    const placements: GtaPlacement[] = Array.from({ length: 2000 }, () => ({ model: 'town_house', position: [4, -6, 0] }));
    const fast = new ColScene(file.models, placements);
    const slow = new ColScene(file.models, placements, { broadPhase: false });
    let wedged = 0;
    // Around the inside corner where each copy pushes the sphere and leaves it where it was.
    for (let k = 0; k < 25; k++) {
      const x = 7.55 + (k % 5) * 0.05, y = -8.75 + Math.floor(k / 5) * 0.05;
      for (const horizontal of [true, false]) {
        const n1 = fast.pushOutSphere(x, y, 3.2, 0.35, horizontal);
        expect(canon([n1, fast.push])).toBe(canon([slow.pushOutSphere(x, y, 3.2, 0.35, horizontal), slow.push]));
        if (n1 === 16 && new Set(Array.from(fast.push.instance)).size === 16) wedged++;
      }
    }
    // Some of these are the wedged case: sixteen contacts from sixteen different copies.
    expect(wedged).toBeGreaterThan(0);
  });

  it('copies of one placement are one class; the tree holds every class that has something solid', () => {
    const m = emptyModel(3, 'cube');
    m.mesh = new MeshBuilder().box([-1, -1, -1], [1, 1, 1]).build();
    m.bounds = computeBounds(m);
    const hollow = emptyModel(3, 'hollow');
    const placements: GtaPlacement[] = [];
    for (let i = 0; i < 50; i++) placements.push({ model: i % 7 === 3 ? 1 : 0, position: i % 5 === 0 ? [i, 0, 0] : [0, 0, 0] });
    placements.push({ model: 0, position: [-0, 0, 0] }); // -0 is not 0 bit for bit: a class of its own
    const s = new ColScene([m, hollow], placements);
    expect(placements.length).toBeGreaterThanOrEqual(BROAD_PHASE_MIN_PLACEMENTS);
    const bp = s.broad!;
    const classes = new Set(placements.map((p) => canon(p)));
    expect(bp.classCount).toBe(classes.size);
    // Members ascending, each class's first its lowest placement, every placement in exactly one class.
    const seen = new Set<number>();
    for (let c = 0; c < bp.classCount; c++) {
      const list = Array.from(bp.members.subarray(bp.memberStart[c]!, bp.memberStart[c + 1]!));
      expect(list).toEqual([...list].sort((a, b) => a - b));
      expect(bp.first(c)).toBe(list[0]);
      for (const i of list) {
        expect(bp.classOf[i]).toBe(c);
        seen.add(i);
      }
      if (c > 0) expect(bp.first(c)).toBeGreaterThan(bp.first(c - 1));
    }
    expect(seen.size).toBe(placements.length);
    // The hollow model's placements are left out of the tree; the others are all in it.
    const hollowClasses = new Set(placements.flatMap((p, i) => (p.model === 1 ? [bp.classOf[i]!] : [])));
    expect(bp.leafClasses.length).toBe(bp.classCount - hollowClasses.size);
    expect(bp.nextMember(bp.classOf[1]!, 2)).toBe(2);
    expect(bp.nextMember(bp.classOf[1]!, 1_000)).toBe(-1);
  });

  it('sortAscending sorts short and long runs in place (property)', () => {
    fc.assert(
      fc.property(fc.array(fc.integer({ min: -1000, max: 1000 }), { maxLength: 200 }), (xs) => {
        const a = Int32Array.from([...xs, 7, 7]);
        sortAscending(a, xs.length);
        expect(Array.from(a.subarray(0, xs.length))).toEqual([...xs].sort((p, q) => p - q));
        expect(Array.from(a.subarray(xs.length))).toEqual([7, 7]);
      }),
    );
  });

  it('by default a scene builds its broad phase from BROAD_PHASE_MIN_PLACEMENTS placements on', () => {
    const m = emptyModel(3, 'm');
    const at = (n: number): GtaPlacement[] => Array.from({ length: n }, (_, i) => ({ model: 0, position: [i, 0, 0] }));
    expect(new ColScene([m], at(BROAD_PHASE_MIN_PLACEMENTS - 1)).broad).toBeNull();
    expect(new ColScene([m], at(BROAD_PHASE_MIN_PLACEMENTS)).broad).not.toBeNull();
    expect(new ColScene([m], at(BROAD_PHASE_MIN_PLACEMENTS), { broadPhase: false }).broad).toBeNull();
    expect(new ColScene([m], at(1), { broadPhase: true }).broad).not.toBeNull();
  });

  it('a scene of nothing solid has an empty tree and never hits', () => {
    const s = new ColScene([emptyModel(3, 'none')], [{ model: 0, position: [0, 0, 0] }], { broadPhase: true });
    expect(s.broad).toBeInstanceOf(InstanceBroadPhase);
    expect(s.broad!.nodes).toBe(0);
    expect(s.segmentFraction(0, 0, 5, 0, 0, -5)).toBe(-1);
    expect(s.sphereOverlaps(0, 0, 0, 10)).toBe(false);
  });
});
