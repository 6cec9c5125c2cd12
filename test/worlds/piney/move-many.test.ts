/**
 * The field's batched move (`moveMany`: every body's steps, then the batch's ground heights in one staged
 * query) against one `move` per body (`moveEach`), bit for bit: walkers and long moves, beside objects and
 * anywhere, with hostile positions, deltas and radii; and the movement system's batched path against its
 * one-at-a-time path over the same stores.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { loadPineyWorld, MAX_BODY_RADIUS, type PineyWorld } from '../../../src/worlds/piney/collision-world.js';
import { CHIP_UNITS, CHIPS } from '../../../src/worlds/piney/field-state.js';
import { defaultPineyTables } from '../../../src/node/assets.js';
import { moveEach, newMoveBatch, type MoveBatch } from '../../../src/worlds/world.js';
import { moveBodyEach, moveBodyRange, newMoveScratch, type MoveStores } from '../../../src/systems/movement.js';

const specBytes = new Uint8Array(readFileSync(new URL('../../../assets/worlds/piney/default.field.json', import.meta.url)));
const world: PineyWorld = loadPineyWorld(specBytes, 'default.field.json', defaultPineyTables());

// Chips an object's footprint covers: bodies placed around them walk into walls.
const blockedChips: number[] = [];
for (let i = 0; i < world.blocker.length; i++) if (world.blocker[i]! >= 0) blockedChips.push(i);

const hostile = fc.constantFrom(NaN, Infinity, -Infinity, 1e300, -1e300, -0, 48000, -48000, 96000.5, 5e-324);
const nearObject = fc.tuple(fc.nat({ max: blockedChips.length - 1 }), fc.double({ min: -2 * CHIP_UNITS, max: 3 * CHIP_UNITS, noNaN: true })).map(([k, d]) => {
  const chip = blockedChips[k]!;
  return [Math.floor(chip / CHIPS) * CHIP_UNITS + d, (chip % CHIPS) * CHIP_UNITS + d * 0.7] as const;
});
const position = fc.oneof(
  { weight: 3, arbitrary: fc.tuple(fc.double({ min: 0, max: 48000, noNaN: true }), fc.double({ min: 0, max: 48000, noNaN: true })) },
  { weight: 4, arbitrary: nearObject },
  { weight: 1, arbitrary: fc.tuple(fc.oneof(hostile, fc.double({ min: -1e6, max: 1e6, noNaN: true })), fc.double({ min: -1e6, max: 1e6, noNaN: true })) },
);
const delta = fc.oneof(
  { weight: 4, arbitrary: fc.tuple(fc.double({ min: -25, max: 25, noNaN: true }), fc.double({ min: -25, max: 25, noNaN: true })) },
  { weight: 2, arbitrary: fc.tuple(fc.double({ min: -3000, max: 3000, noNaN: true }), fc.double({ min: -3000, max: 3000, noNaN: true })) },
  { weight: 1, arbitrary: fc.tuple(hostile, fc.double({ min: -25, max: 25, noNaN: true })) },
);
const radius = fc.oneof({ weight: 4, arbitrary: fc.double({ min: 0, max: 2 * MAX_BODY_RADIUS, noNaN: true }) }, { weight: 1, arbitrary: fc.constantFrom(NaN, -5, Infinity, 0) });
const body = fc.record({ p: position, z: fc.oneof(fc.double({ min: -100, max: 2000, noNaN: true }), hostile), d: delta, r: radius });

function fill(b: MoveBatch, bodies: { p: readonly [number, number]; z: number; d: readonly [number, number]; r: number }[]): void {
  bodies.forEach((o, i) => {
    b.x[i] = o.p[0];
    b.y[i] = o.p[1];
    b.z[i] = o.z;
    b.dx[i] = o.d[0];
    b.dy[i] = o.d[1];
    b.dz[i] = -3;
    b.radius[i] = o.r;
    b.height[i] = 180;
    b.step[i] = 30;
    b.grounded[i] = 9;
    b.hitWall[i] = 9;
    b.wall[i] = 99;
  });
}

const same = (a: ArrayLike<number>, b: ArrayLike<number>, n: number, what: string) => {
  for (let i = 0; i < n; i++) if (!Object.is(a[i], b[i])) throw new Error(`${what}[${i}]: batched ${a[i]}, one by one ${b[i]}`);
};

describe('the field’s moveMany', () => {
  it('gives move’s answer for every body, bit for bit: positions, grounded, walls and their ids', () => {
    const batched = newMoveBatch(600);
    const each = newMoveBatch(600);
    let walls = 0;
    fc.assert(
      fc.property(fc.array(body, { minLength: 0, maxLength: 600 }), (bodies) => {
        fill(batched, bodies);
        fill(each, bodies);
        world.moveMany(batched, bodies.length);
        moveEach(world, each, bodies.length);
        for (const k of ['x', 'y', 'z', 'grounded', 'hitWall', 'wall'] as const) same(batched[k], each[k], bodies.length, k);
        for (let i = 0; i < bodies.length; i++) walls += each.hitWall[i]!;
      }),
      { numRuns: 50 },
    );
    // The arbitraries really do walk bodies into objects.
    expect(walls).toBeGreaterThan(50);
  });

  it('the movement system’s batched path writes the stores exactly as its one-at-a-time path', () => {
    const n = 1500;
    const make = (): MoveStores => ({
      Position: { x: new Float64Array(n), y: new Float64Array(n), z: new Float64Array(n) },
      Velocity: { x: new Float64Array(n), y: new Float64Array(n), z: new Float64Array(n) },
      BodySize: { radius: new Float64Array(n), height: new Float64Array(n), step: new Float64Array(n) },
      Motion: { grounded: new Uint8Array(n), hitWall: new Uint8Array(n), contact: new Int32Array(n), blocked: new Uint32Array(n) },
    }) as unknown as MoveStores;
    fc.assert(
      fc.property(fc.array(body, { minLength: n, maxLength: n }), fc.nat({ max: n }), (bodies, start) => {
        const a = make();
        const b = make();
        for (const c of [a, b]) {
          bodies.forEach((o, e) => {
            c.Position.x[e] = o.p[0];
            c.Position.y[e] = o.p[1];
            c.Position.z[e] = o.z;
            c.Velocity.x[e] = o.d[0];
            c.Velocity.y[e] = o.d[1];
            c.Velocity.z[e] = -3;
            c.BodySize.radius[e] = o.r;
            c.BodySize.height[e] = 180;
            c.BodySize.step[e] = 30;
            c.Motion.contact[e] = -7;
            c.Motion.blocked[e] = e;
          });
        }
        // Entities in a shuffled order, as a query may list them; a range that is not the whole list.
        const ents = Int32Array.from({ length: n }, (_, i) => (i * 7919) % n);
        moveBodyRange(ents, start, n, world, a, newMoveScratch());
        moveBodyEach(ents, start, n, world, b, newMoveScratch());
        const fields = { Position: ['x', 'y', 'z'], Motion: ['grounded', 'hitWall', 'contact', 'blocked'] } as const;
        for (const f of fields.Position) same(a.Position[f], b.Position[f], n, `Position.${f}`);
        for (const f of fields.Motion) same(a.Motion[f], b.Motion[f], n, `Motion.${f}`);
      }),
      { numRuns: 5 },
    );
  });
});
