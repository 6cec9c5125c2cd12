import { describe, expect, it } from 'vitest';
import { loadLlamaWorld } from '../../../src/worlds/llama/collision-world.js';
import { minimalWad } from './minimal-wad.js';

describe('llama: the reference minimal level', () => {
  const wad = minimalWad();
  const world = loadLlamaWorld(wad, wad, 'minimal');

  it('finds the floor at 0.25 with material 0 at the tile centre', () => {
    const g = world.ground([0.5, 1.0, 0.5]);
    expect(g.hasFloor).toBe(true);
    expect(g.floor).toBe(0.25);
    expect(g.material).toBe(0);
    expect(g.id).toBe(0);
  });

  it('has no floor outside the map', () => {
    expect(world.ground([1.2, 1.0, 0.5]).hasFloor).toBe(false);
    expect(world.ground([0.5, 1.0, -0.2]).hasFloor).toBe(false);
  });

  it('a floor above the feet is not a floor (no step-up)', () => {
    expect(world.ground([0.5, 0.2, 0.5]).hasFloor).toBe(false);
    // Within the 1/4096 tolerance it still counts.
    expect(world.ground([0.5, 0.25 - 0.5 / 4096, 0.5]).hasFloor).toBe(true);
  });

  it('is unchanged by a quarter turn (the tile is symmetric)', () => {
    const w2 = loadLlamaWorld(minimalWad(1024), minimalWad(1024), 'turned');
    for (const x of [0.1, 0.5, 0.9]) {
      for (const z of [0.1, 0.5, 0.9]) expect(w2.ground([x, 1, z]).floor).toBe(world.ground([x, 1, z]).floor);
    }
  });

  it('reads the other plane-equation convention when told to', () => {
    const b = minimalWad(0, 2048, -1024);
    const w = loadLlamaWorld(b, b, 'sign', { planeSign: -1 });
    expect(w.ground([0.5, 1, 0.5]).floor).toBe(0.25);
    // Read with the wrong sign, the edge planes exclude every point.
    expect(loadLlamaWorld(b, b, 'wrong').ground([0.5, 1, 0.5]).hasFloor).toBe(false);
  });

  it('with the normal decoded /128 the same bytes give a height 128/127 higher', () => {
    const w = loadLlamaWorld(wad, wad, 'n128', { normalScale: 128 });
    expect(w.ground([0.5, 1, 0.5]).floor).toBeCloseTo((0.25 * 128) / 127, 12);
  });

  it('the wall extension: n0 = (127,0,0) at x ≈ 0.9 pushes a radius-0.2 body out to x ≈ 1.1, with its material', () => {
    const b = minimalWad(0, -2048, 1024, true);
    const w = loadLlamaWorld(b, b, 'wall');
    const wallX = 0.5 + 1638 / 4096;
    const r = w.move({ radius: 0.2, height: 0.75 }, [0.99, 0.25, 0.5], [-0.04, 0, 0]);
    expect(r.position[0]).toBeCloseTo(wallX + 0.2, 12);
    expect(r.contacts[0]).toEqual({ kind: 'wall', normal: [1, 0, 0], id: 0, material: 7 });
    // Behind the wall (its back side faces −x) nothing pushes.
    const back = w.move({ radius: 0.2, height: 0.75 }, [0.7, 0.25, 0.5], [0.1, 0, 0]);
    expect(back.position[0]).toBeCloseTo(0.8, 12);
    expect(back.contacts.map((c) => c.kind)).toEqual(['floor']);
  });
});
