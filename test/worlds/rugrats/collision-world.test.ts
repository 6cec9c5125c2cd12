import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { existsSync, readFileSync } from 'node:fs';
import { detectRugrats, loadRugratsWorld, queryCol, writeCol, buildLevel, RUGRATS_SCALE } from '../../../src/worlds/rugrats/index.js';
import type { Vec3 } from '../../../src/worlds/world.js';

const bytes = (n: string) => new Uint8Array(readFileSync(new URL(`../../../assets/worlds/rugrats/${n}`, import.meta.url)));
const demo = loadRugratsWorld(bytes('demo.col'), 'demo');
const body = { radius: 100, height: 1500 };

describe('detectRugrats', () => {
  it('recognises the levels and rejects other bytes', () => {
    expect(detectRugrats(bytes('demo.col'))).toBe(true);
    expect(detectRugrats(bytes('hand.col'))).toBe(true);
    expect(detectRugrats(new Uint8Array(100))).toBe(false);
    expect(detectRugrats(new Uint8Array(5000))).toBe(false); // normals offset 0
    expect(detectRugrats(bytes('hand-trace.jsonl'))).toBe(false);
    // Other worlds' files in the repository are not taken for Rugrats databases.
    for (const other of ['gta/town.col', 'colbin/demo.colbin', 'llama/demo.trak', 'llama/demo.map', 'piney/default.field.json']) {
      const path = new URL(`../../../assets/worlds/${other}`, import.meta.url);
      if (existsSync(path)) expect(detectRugrats(new Uint8Array(readFileSync(path)))).toBe(false);
    }
    const b = bytes('demo.col');
    new DataView(b.buffer, b.byteOffset).setInt16(0x2c + 6, 300, true); // counts no longer add up
    expect(detectRugrats(b)).toBe(false);
  });
});

describe('the Rugrats CollisionWorld', () => {
  it('describes itself in native integer units with y down', () => {
    expect(demo.kind).toBe('rugrats');
    expect(demo.up).toEqual({ axis: 1, sign: -1 });
    expect(demo.integer).toBe(true);
    expect(demo.scale).toBe(RUGRATS_SCALE);
    expect(demo.bounds).toEqual({ min: [0, -16384, 0], max: [12287, 0, 10239] });
  });

  it('answers ground from the query', () => {
    const q = new Int32Array(4);
    fc.assert(
      fc.property(fc.integer({ min: -500, max: 12800 }), fc.integer({ min: -17000, max: 500 }), fc.integer({ min: -500, max: 10800 }), (x, y, z) => {
        const g = demo.ground([x, y, z]);
        const r = queryCol(demo.index, x, y, z, q);
        expect(g.status).toBe(r);
        expect(g.hasFloor).toBe(r === 0);
        if (q[3] !== 0) expect([g.floor, g.ceiling, g.id]).toEqual([q[2], q[1], q[3]]);
        else expect([Number.isNaN(g.floor), Number.isNaN(g.ceiling), g.id]).toEqual([true, true, -1]);
      }),
      { numRuns: 500, seed: 1 },
    );
  });

  it('keeps segment and segmentFraction in agreement', () => {
    fc.assert(
      fc.property(fc.tuple(fc.integer({ min: 1024, max: 11263 }), fc.integer({ min: -5000, max: -10 }), fc.integer({ min: 1024, max: 9215 })), fc.tuple(fc.integer({ min: -500, max: 12800 }), fc.integer({ min: -6000, max: 500 }), fc.integer({ min: -500, max: 10800 })), (f, t) => {
        const s = demo.segment(f as Vec3, t as Vec3);
        const frac = demo.segmentFraction(f[0], f[1], f[2], t[0], t[1], t[2]);
        if (!s.hit) return frac === -1 && s.status === 0;
        if (s.status === 2) return frac === 0 && s.fraction === 0 && s.what === 'start';
        return frac === s.fraction && frac >= 0 && frac <= 1 && ['wall', 'floor', 'ceiling'].includes(s.what);
      }),
      { numRuns: 1500, seed: 9 },
    );
  });

  it('labels floor, ceiling and wall stops', () => {
    expect(demo.segment([1536, -500, 1536], [1536, 500, 1536])).toMatchObject({ hit: true, what: 'floor', normal: [0, -4096, 0], point: [1536, 0, 1536] });
    expect(demo.segment([1536, -500, 1536], [1536, -6000, 1536])).toMatchObject({ hit: true, what: 'ceiling', normal: [0, 4096, 0] });
    expect(demo.segment([1536, -500, 1536], [-100, -500, 1536])).toMatchObject({ hit: true, what: 'wall', normal: [4096, 0, 0], point: [1023, -500, 1536] });
    const f = demo.segment([1536, -500, 1536], [1536, 500, 1536]).fraction;
    expect(f).toBeCloseTo(0.5, 10);
  });

  it('walks a body along the floor, integer in and integer out', () => {
    const m = demo.move(body, [1536, 0, 1536], [300, 0, 200]);
    expect(m.position).toEqual([1836, 0, 1736]);
    expect(m.grounded).toBe(true);
    expect(m.contacts.map((c) => c.kind)).toEqual(['floor']);
    const r = demo.move(body, [1536.7, -0.4, 1536.2], [10.9, 0, 0]);
    expect(r.position).toEqual([1546, 0, 1536]);
  });

  it('stops at a wall and slides along it', () => {
    // The west border (x < 1024) is closed: moving −x and +z keeps only the z part.
    const m = demo.move(body, [1100, 0, 3000], [-300, 0, 200]);
    expect(m.position).toEqual([1100, 0, 3200]);
    expect(m.contacts[0]).toMatchObject({ kind: 'wall', normal: [4096, 0, 0] });
  });

  it('slides along a diagonal wall', () => {
    // Cell (3, 3) is halved along x = z with half 2 closed: moving +z from half 0 hits the diagonal.
    const from: Vec3 = [3 * 1024 + 800, 0, 3 * 1024 + 500];
    const m = demo.move(body, from, [0, 0, 400]);
    expect(m.contacts[0]).toMatchObject({ kind: 'wall', normal: [2896, 0, -2896] });
    // Along the tangent (1, 1): s = (0 + 400) / 2 = 200 each way.
    expect(m.position).toEqual([from[0] + 200, 0, from[2] + 200]);
  });

  it('climbs a step no higher than the step height and follows a ramp down', () => {
    // Cell (7, 2) is 512 higher than (6, 2).
    expect(demo.move(body, [7 * 1024 - 50, 0, 2 * 1024 + 500], [100, 0, 0]).position).toEqual([7 * 1024 - 50, 0, 2 * 1024 + 500]);
    const up = demo.move({ ...body, stepHeight: 600 }, [7 * 1024 - 50, 0, 2 * 1024 + 500], [100, 0, 0]);
    expect(up.position).toEqual([7 * 1024 + 50, -512, 2 * 1024 + 500]);
    expect(up.grounded).toBe(true);
    // The ramp (2..3, 6) rises along +x: walking −x down it keeps the feet on it.
    const top = demo.ground([3 * 1024 + 900, -3000, 6 * 1024 + 500]).floor;
    const m = demo.move(body, [3 * 1024 + 900, top, 6 * 1024 + 500], [-200, 0, 0]);
    const below = demo.ground([3 * 1024 + 700, -3000, 6 * 1024 + 500]).floor;
    expect(below).toBeGreaterThan(top);
    expect(m.position).toEqual([3 * 1024 + 700, below, 6 * 1024 + 500]);
    expect(m.grounded).toBe(true);
  });

  it('falls with no floor under the feet and lands on the floor it reaches', () => {
    const air = demo.move(body, [1536, -3000, 1536], [0, 400, 0]);
    expect(air.position).toEqual([1536, -2600, 1536]);
    expect(air.grounded).toBe(false);
    const land = demo.move(body, [1536, -300, 1536], [0, 400, 0]);
    expect(land.position).toEqual([1536, 0, 1536]);
    expect(land.grounded).toBe(true);
    // Over the hole at (6, 6) there is no floor: the body keeps falling.
    const hole = demo.move(body, [6 * 1024 + 500, 0, 6 * 1024 + 500], [0, 400, 0]);
    expect(hole.position).toEqual([6 * 1024 + 500, 400, 6 * 1024 + 500]);
    expect(hole.grounded).toBe(false);
  });

  it('stops the head at the ceiling when jumping', () => {
    const m = demo.move(body, [1536, -3000, 1536], [0, -1000, 0]);
    // The ceiling is at −5120: the head (feet − 1500) stops there.
    expect(m.position).toEqual([1536, -5120 + 1500, 1536]);
    expect(m.contacts.map((c) => c.kind)).toEqual(['ceiling']);
  });

  it('spawns and samples standable points, deterministically', () => {
    const s = demo.spawnPoint();
    expect(demo.ground([s[0], s[1] - 1, s[2]]).hasFloor).toBe(true);
    expect(demo.ground([s[0], s[1] - 1, s[2]]).floor).toBe(s[1]);
    let found = 0;
    for (let i = 0; i < 200; i++) {
      const u = (i * 0.618034) % 1;
      const v = (i * 0.414214) % 1;
      const p = demo.sampleOpen(u, v);
      expect(demo.sampleOpen(u, v)).toEqual(p);
      if (p) {
        found++;
        expect(p.every(Number.isInteger)).toBe(true);
        expect(demo.ground([p[0], p[1] - 1, p[2]]).hasFloor).toBe(true);
      }
    }
    expect(found).toBeGreaterThan(100);
    expect(demo.sampleOpen(NaN, 0.5)).toBeNull();
    expect(demo.sampleOpen(1, 0.5)).toBeNull();
  });

  it('never throws on hostile numbers', () => {
    const w = loadRugratsWorld(writeCol(buildLevel({ min: [0, -8192, 0], max: [2047, 0, 2047], cells: [{ x: 0, z: 0, rooms: [{ floor: 0, ceiling: 32 }] }] })), 'tiny');
    for (const v of [NaN, Infinity, -Infinity, 1e300, -5e-324]) {
      w.ground([v, v, v]);
      w.segment([v, -100, 500], [500, v, 500]);
      w.segmentFraction(v, v, v, v, v, v);
      const m = w.move({ radius: v, height: v, stepHeight: v }, [v, v, v], [v, v, v]);
      expect(m.position.every(Number.isInteger)).toBe(true);
    }
  });
});
