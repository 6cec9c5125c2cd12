import { describe, expect, it } from 'vitest';
import { LlamaWorld } from '../../../src/worlds/llama/collision-world.js';
import { DEMO_CELLS, DEMO_DEATH_Y, DEMO_MODELS, DEMO_OVERHANG_Y, DEMO_STEP_HEIGHT, DEMO_UPPER_FLOOR_Y, demoLevel, flatQuad } from '../../../src/worlds/llama/demo-levels.js';
import { buildLevel, type LevelDescription } from '../../../src/worlds/llama/level-builder.js';
import type { LlamaConventions } from '../../../src/worlds/llama/conventions.js';
import type { Body, Vec3 } from '../../../src/worlds/world.js';

function world(desc: LevelDescription, conv?: Partial<LlamaConventions>): LlamaWorld {
  const b = buildLevel(desc);
  return new LlamaWorld(b.trak, b.map, desc.name, conv ?? desc.conventions);
}

const body: Body = { radius: 0.2, height: 0.75 };
const centre = (c: readonly [number, number]): [number, number] => [c[0] + 0.5, c[1] + 0.5];

describe('llama collision on the demo level', () => {
  const w = world(demoLevel());

  it('stacked floors: the floor under the feet, the ceiling over the head', () => {
    const [x, z] = centre(DEMO_CELLS.stacked);
    const below = w.ground([x, 1, z]);
    expect(below.floor).toBe(0);
    // 0.1 is not a multiple of 1/4096: the stored plane is within half a step of it.
    expect(below.ceiling).toBeCloseTo(DEMO_UPPER_FLOOR_Y - 0.1, 3);
    const above = w.ground([x, 2, z]);
    expect(above.floor).toBe(DEMO_UPPER_FLOOR_Y);
    expect(Number.isNaN(above.ceiling)).toBe(true);
    // The cell list is sorted by descending y: slab, floor, death plane.
    const c = w.collision;
    const cell = DEMO_CELLS.stacked[0] + DEMO_CELLS.stacked[1] * c.width;
    const ys = Array.from(c.cellTiles.subarray(c.cellStart[cell]!, c.cellStart[cell + 1]!)).map((t) => w.map.floatPos[t * 3 + 1]);
    expect(ys).toEqual([DEMO_UPPER_FLOOR_Y, 0, DEMO_DEATH_Y]);
  });

  it('a body under the upper floor is stopped by its ceiling', () => {
    const [x, z] = centre(DEMO_CELLS.stacked);
    const r = w.move(body, [x, 0, z], [0, 1, 0]);
    expect(r.position[1]).toBeCloseTo(DEMO_UPPER_FLOOR_Y - 0.1 - body.height, 3);
    expect(r.position[1] + body.height).toBe(w.ground([DEMO_CELLS.stacked[0] + 0.5, 1, DEMO_CELLS.stacked[1] + 0.5]).ceiling);
    expect(r.contacts.map((c) => c.kind)).toEqual(['ceiling']);
    expect(r.grounded).toBe(false);
  });

  it('an overhang counts only in the cells that list it', () => {
    const [x, z] = centre(DEMO_CELLS.overhang);
    // Tile heights are stored in 20.12.
    const overhangY = Math.round(DEMO_OVERHANG_Y * 4096) / 4096;
    expect(w.ground([x, DEMO_OVERHANG_Y + 0.05, z]).floor).toBe(overhangY);
    expect(w.ground([x + 1, DEMO_OVERHANG_Y + 0.05, z]).floor).toBe(overhangY);
    // Without the collision-only listing the same geometry has no effect in the neighbouring cell.
    const desc = demoLevel();
    desc.tiles = desc.tiles.filter((t) => t.model !== DEMO_MODELS.wideSlabListing);
    const w2 = world(desc);
    expect(w2.ground([x, DEMO_OVERHANG_Y + 0.05, z]).floor).toBe(overhangY);
    expect(w2.ground([x + 1, DEMO_OVERHANG_Y + 0.05, z]).floor).toBe(0);
  });

  it('a wall pushes the body out to its radius, one-sided', () => {
    const [x, z] = centre(DEMO_CELLS.wall);
    const wallX = DEMO_CELLS.wall[0] + 0.5 + 0.45;
    const r = w.move(body, [x, 0, z], [0.4, 0, 0]);
    expect(r.position[0]).toBeCloseTo(wallX - body.radius, 3);
    const wall = r.contacts.find((c) => c.kind === 'wall')!;
    expect(wall.normal[0]).toBeCloseTo(-1, 9);
    expect(r.grounded).toBe(true);
    // From behind (east of the wall) nothing pushes.
    const back = w.move(body, [wallX + 0.02, 0, z], [-0.01, 0, 0]);
    expect(back.position[0]).toBeCloseTo(wallX + 0.01, 9);
    expect(back.contacts.some((c) => c.kind === 'wall')).toBe(false);
  });

  it('no step-up: a 0.12-unit step with an edge wall blocks', () => {
    const edgeX = DEMO_CELLS.step[0];
    const z = DEMO_CELLS.step[1] + 0.5;
    const r = w.move(body, [edgeX - 0.3, 0, z], [0.4, 0, 0]);
    expect(r.position[0]).toBeCloseTo(edgeX - body.radius, 3);
    expect(r.position[1]).toBe(0);
    // Standing on the step itself the floor is at 0.12.
    expect(w.ground([edgeX + 0.5, 1, z]).floor).toBeCloseTo(DEMO_STEP_HEIGHT, 3);
    // Without the wall the body walks into the step: its floor is above the feet, so it is no floor.
    const desc = demoLevel();
    desc.models[DEMO_MODELS.step] = { floors: [flatQuad(DEMO_STEP_HEIGHT)] };
    const w2 = world(desc);
    const r2 = w2.move(body, [edgeX - 0.3, 0, z], [0.4, 0, 0]);
    expect(r2.position[0]).toBeCloseTo(edgeX + 0.1, 9);
    expect(r2.grounded).toBe(false);
  });

  it('the rotated ramp rises towards +x at rotation 1024 and towards −x at 3072', () => {
    const [x, z] = centre(DEMO_CELLS.ramp);
    const at = (ww: LlamaWorld, dx: number): number => ww.ground([x + dx, 5, z]).floor;
    expect(at(w, -0.25)).toBeCloseTo(0.125, 2);
    expect(at(w, 0.25)).toBeCloseTo(0.375, 2);
    expect(at(w, 0)).toBeCloseTo(0.25, 2);
    const desc = demoLevel();
    for (const t of desc.tiles) if (t.model === DEMO_MODELS.ramp) t.rot = 3072;
    const w3 = world(desc);
    expect(at(w3, -0.25)).toBeCloseTo(0.375, 2);
    expect(at(w3, 0.25)).toBeCloseTo(0.125, 2);
    // The other rotation sense swaps the two.
    const ws = world(demoLevel(), { rotationSense: -1 });
    expect(at(ws, -0.25)).toBeCloseTo(0.375, 2);
  });

  it('the door swap blocks until it is switched; swap states are readable state', () => {
    const [x] = centre(DEMO_CELLS.door);
    const doorZ = DEMO_CELLS.door[1] + 0.5;
    const w4 = world(demoLevel());
    expect(w4.swapCount).toBe(1);
    expect(w4.swapStates()).toEqual([0]);
    const shut = w4.move(body, [x, 0, doorZ - 0.3], [0, 0, 0.4]);
    expect(shut.position[2]).toBeCloseTo(doorZ - body.radius, 3);
    // From the other side the other wall of the door blocks.
    const shut2 = w4.move(body, [x, 0, doorZ + 0.3], [0, 0, -0.4]);
    expect(shut2.position[2]).toBeCloseTo(doorZ + body.radius, 3);
    w4.setSwap(0, true);
    expect(w4.swapStates()).toEqual([1]);
    const open = w4.move(body, [x, 0, doorZ - 0.3], [0, 0, 0.4]);
    expect(open.position[2]).toBeCloseTo(doorZ + 0.1, 9);
    w4.setSwapStates([0]);
    expect(w4.move(body, [x, 0, doorZ - 0.3], [0, 0, 0.4]).position[2]).toBeCloseTo(doorZ - body.radius, 3);
    expect(() => w4.setSwap(1, true)).toThrow(RangeError);
  });

  it('the exit floor and the death plane come out as contacts', () => {
    const [ex, ez] = centre(DEMO_CELLS.exit);
    const exit = w.move(body, [ex, 0.1, ez], [0, -0.2, 0]);
    expect(exit.grounded).toBe(true);
    expect(exit.contacts).toEqual([{ kind: 'exit', normal: [0, 1, 0], id: expect.any(Number), material: 16 }]);
    const [px, pz] = centre(DEMO_CELLS.pit);
    expect(w.ground([px, 0, pz]).floor).toBe(DEMO_DEATH_Y);
    expect(w.ground([px, 0, pz]).material).toBe(30);
    const fall = w.move(body, [px, 0, pz], [0, -3, 0]);
    expect(fall.position[1]).toBe(DEMO_DEATH_Y);
    expect(fall.contacts.map((c) => c.kind)).toEqual(['death']);
    expect(w.onDeathPlane(fall.position)).toBe(true);
    // An ordinary landing is a "floor" contact.
    const land = w.move(body, [0.5, 0.5, 0.5], [0, -1, 0]);
    expect(land.position[1]).toBe(0);
    expect(land.contacts.map((c) => c.kind)).toEqual(['floor']);
  });

  it('spawn and sampleOpen give standable points on ordinary floors', () => {
    const s = w.spawnPoint();
    expect(s).toEqual([0.5, 0, 0.5]);
    let found = 0;
    for (let i = 0; i < 50; i++) {
      const p = w.sampleOpen((i * 0.618) % 1, (i * 0.377) % 1);
      if (!p) continue;
      found++;
      const g = w.ground([p[0], p[1] + 0.001, p[2]]);
      expect(g.floor).toBe(p[1]);
      expect([16, 30]).not.toContain(g.material);
    }
    expect(found).toBeGreaterThan(30);
    expect(w.sampleOpen(1, 0.5)).toBeNull();
  });

  it('segments hit floors, walls and doors at the right fraction; segmentFraction agrees', () => {
    const down = w.segment([0.5, 1, 0.5], [0.5, -1, 0.5]);
    expect(down.hit).toBe(true);
    expect(down.fraction).toBeCloseTo(0.5, 12);
    expect(down.what).toBe('floor');
    expect(down.normal).toEqual([0, 1, 0]);
    expect(w.segmentFraction(0.5, 1, 0.5, 0.5, -1, 0.5)).toBe(down.fraction);
    // Through the wall cell horizontally at mid height: the wall at x = 1.95.
    const z = DEMO_CELLS.wall[1] + 0.5;
    const across = w.segment([0.2, 0.5, z], [2.9, 0.5, z]);
    expect(across.what).toBe('wall');
    expect(across.point[0]).toBeCloseTo(1.95, 3);
    expect(w.segmentFraction(0.2, 0.5, z, 2.9, 0.5, z)).toBe(across.fraction);
    // The closed door stops a segment along z; opened, it passes (nothing else at that height).
    const w5 = world(demoLevel());
    const dx = DEMO_CELLS.door[0] + 0.5;
    expect(w5.segmentFraction(dx, 0.5, 2.1, dx, 0.5, 2.9)).toBeCloseTo(0.5, 3);
    w5.setSwap(0, true);
    expect(w5.segmentFraction(dx, 0.5, 2.1, dx, 0.5, 2.9)).toBe(-1);
    // Outside the grid nothing is hit.
    expect(w.segmentFraction(-5, 1, -5, -1, -1, -1)).toBe(-1);
  });

  it('queries with NaN, infinite and huge positions return defined answers', () => {
    const bad: Vec3[] = [[NaN, 0, 0], [0.5, NaN, 0.5], [Infinity, 0, 0], [0.5, -Infinity, 0.5], [1e300, 1e300, 1e300], [-1e300, 0, 0.5]];
    for (const p of bad) {
      const g = w.ground(p);
      expect(typeof g.hasFloor).toBe('boolean');
      expect(w.segmentFraction(p[0], p[1], p[2], 0.5, 0.5, 0.5)).toBeGreaterThanOrEqual(-1);
      const m = w.move(body, p, [0.1, 0, 0]);
      expect(m.position.every((v) => Number.isFinite(v) || Number.isNaN(v) === false)).toBe(true);
      const m2 = w.move(body, [0.5, 0, 0.5], p);
      expect(m2.position.every((v) => Number.isFinite(v))).toBe(true);
    }
    expect(w.ground([0.5, Infinity, 0.5]).floor).toBe(0);
    for (const b of [{ radius: NaN, height: Infinity }, { radius: -1, height: -1 }, { radius: Infinity, height: NaN }]) {
      const m = w.move(b, [0.5, 0.1, 0.5], [0.1, -0.2, 0]);
      expect(m.position).toEqual([0.6, 0, 0.5]);
      expect(m.grounded).toBe(true);
    }
    expect(w.segmentFraction(0.5, 1e300, 0.5, 0.5, -1e300, 0.5)).toBeGreaterThanOrEqual(0);
  });

  it('reports kind, up axis and bounds of the game space', () => {
    expect(w.kind).toBe('llama');
    expect(w.up).toEqual({ axis: 1, sign: 1 });
    expect(w.bounds.min).toEqual([0, DEMO_DEATH_Y, 0]);
    expect(w.bounds.max[0]).toBe(6);
    expect(w.bounds.max[2]).toBe(5);
    expect(w.bounds.max[1]).toBeCloseTo(DEMO_UPPER_FLOOR_Y, 9);
  });
});

describe('llama conventions from a level description', () => {
  it('a level written in the other conventions reads back the same', () => {
    const ref = world(demoLevel());
    for (const conv of [{ planeSign: -1 as const }, { normalScale: 128 as const }, { planeSign: -1 as const, normalScale: 128 as const }]) {
      const d = demoLevel();
      d.conventions = conv;
      const w = world(d);
      for (const p of [[0.5, 1, 0.5], [0.5, 2, 3.5], [4.25, 3, 0.5], [4.75, 3, 0.5], [2.5, 0, 3.5], [3.5, 1.3, 3.5]] as Vec3[]) {
        const a = w.ground(p), b = ref.ground(p);
        expect(a.hasFloor).toBe(b.hasFloor);
        expect(a.floor).toBeCloseTo(b.floor, 3);
        expect(a.material).toBe(b.material);
      }
      // Read in the default conventions, the same bytes give other answers.
      const bytes = buildLevel(d);
      const wrong = new LlamaWorld(bytes.trak, bytes.map, 'wrong');
      if (conv.planeSign === -1) expect(wrong.ground([0.5, 1, 0.5]).hasFloor).toBe(false);
    }
  });
});
