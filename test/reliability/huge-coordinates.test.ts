/**
 * Worlds far from the origin: where a step of a body's size no longer changes a coordinate (x + r === x),
 * loops that climb or scan by such steps must still end. Two were found by the fuzzer: the Piney blocker
 * scan near 1e308 (fixed by the lead), and GTA's open-ground check, whose clearance climb (c += radius)
 * never reached the top of the body once the floor was near −7.7e15 (spawnPoint hung).
 */
import { describe, expect, it } from 'vitest';
import { loadGtaWorld } from '../../src/worlds/gta/collision-world.js';
import { MeshBuilder, computeBounds } from '../../src/worlds/gta/build.js';
import { emptyModel } from '../../src/worlds/gta/model.js';
import { writeColFile } from '../../src/worlds/gta/write.js';

/** A COLL (float vertices) model: one 4 m square floor at height z around (x0, y0). */
function floorAt(x0: number, y0: number, z: number): Uint8Array {
  const b = new MeshBuilder();
  const p = b.vertex(x0 - 2, y0 - 2, z), q = b.vertex(x0 + 2, y0 - 2, z), r = b.vertex(x0 + 2, y0 + 2, z), s = b.vertex(x0 - 2, y0 + 2, z);
  b.quad(p, q, r, s, 1);
  const m = emptyModel(1, 'far');
  m.mesh = b.build();
  m.bounds = computeBounds(m);
  return writeColFile([m]);
}

describe('worlds far from the origin', () => {
  for (const z of [0, -7.66e15, 3e16, -1e30, 1e38]) {
    it(`GTA: spawnPoint and sampleOpen end over a floor at z = ${z}`, () => {
      const w = loadGtaWorld(floorAt(0, 0, Math.fround(z)), 'far');
      const s = w.spawnPoint();
      expect(s).toHaveLength(3);
      expect(s.every(Number.isFinite)).toBe(true);
      for (const [u, v] of [[0.5, 0.5], [0.1, 0.9], [0, 0]] as const) {
        const p = w.sampleOpen(u, v);
        if (p) expect(p.every(Number.isFinite)).toBe(true);
      }
      // Near the origin the floor is open ground (the check itself still works).
      if (z === 0) expect(w.sampleOpen(0.5, 0.5)).not.toBeNull();
    });
  }
});
