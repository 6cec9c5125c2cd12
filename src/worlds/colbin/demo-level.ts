/**
 * Synthetic COLBIN levels (no real COLBIN file is published anywhere): the default demo level, the
 * reference sheet's worked example, and a bumpy terrain of any size for benchmarks. All coordinates are
 * multiples of 1/128 Blender unit, so they convert to raw integers exactly; walls use directions whose
 * FP12 form is fixed by integer arithmetic (no trigonometry).
 */
import type { LevelDescription, V3, WallDescription, FloorDescription } from './level-builder.js';

/** Axes of an unrotated Blender object after the exporter's default conversion: X→X, Y→+Z, Z→−Y. */
const EXPORTER_UNROTATED: [V3, V3, V3] = [[1, 0, 0], [0, 0, 1], [0, -1, 0]];
const IDENTITY: [V3, V3, V3] = [[1, 0, 0], [0, 1, 0], [0, 0, 1]];
/** A yaw with a 3-4-5 triangle (about 53.13°). */
const YAW_345: [V3, V3, V3] = [[3, 0, 4], [0, 1, 0], [-4, 0, 3]];
const YAW_45: [V3, V3, V3] = [[1, 0, 1], [0, 1, 0], [-1, 0, 1]];

/** Two triangles of the quad a-b-c-d (fan from a, as the exporter triangulates). */
function quad(a: V3, b: V3, c: V3, d: V3): FloorDescription[] {
  return [{ vertices: [a, b, c] }, { vertices: [a, c, d] }];
}

/** The reference sheet's worked example (A2): one floor triangle, one wall, the exporter's grid: 161 bytes. */
export function workedExampleDescription(): LevelDescription {
  return {
    version: 2,
    grid: 'exporter',
    floors: [{ vertices: [[-2, 0, -2], [2, 0, -2], [0, 0, 2]] }],
    walls: [{ center: [0, 0, 0], halfExtents: [1, 1, 0.25] }],
  };
}

/**
 * The default demo: a 12 m × 12 m yard (−Y up, floor at y = 0) with a ramp up to a 1 m platform, a
 * perimeter of walls whose thin axis sits at index 0, 1 or 2, and rotated pillars.
 */
export function demoLevelDescription(version: 1 | 2 = 2, grid: 'footprint' | 'exporter' = 'footprint'): LevelDescription {
  const floors: FloorDescription[] = [];
  // Yard: 1 m tiles from −6 to 6, except the platform and ramp area (x ∈ [2, 6], z ∈ [−6, −2]).
  for (let i = -6; i < 6; i++) {
    for (let j = -6; j < 6; j++) {
      if (i >= 2 && j < -2) continue;
      floors.push(...quad([i, 0, j], [i + 1, 0, j], [i + 1, 0, j + 1], [i, 0, j + 1]));
    }
  }
  // Ramp from x = 2 (y = 0) up to x = 4 (y = −1), then the platform to x = 6, both z ∈ [−6, −2].
  floors.push(...quad([2, 0, -6], [4, -1, -6], [4, -1, -2], [2, 0, -2]));
  floors.push(...quad([4, -1, -6], [6, -1, -6], [6, -1, -2], [4, -1, -2]));
  // An overhead slab (a ceiling at y = −2.5) above part of the yard.
  floors.push(...quad([-4, -2.5, 2], [-1, -2.5, 2], [-1, -2.5, 4], [-4, -2.5, 4]));

  const walls: WallDescription[] = [
    // Perimeter, 2 m tall (y from 0 to −2, centre −1), 0.25 m thick.
    { center: [0, -1, -6.25], axes: IDENTITY, halfExtents: [6.5, 1, 0.25] }, // thin at index 2
    { center: [0, -1, 6.25], axes: EXPORTER_UNROTATED, halfExtents: [6.5, 0.25, 1] }, // thin at index 1
    { center: [-6.25, -1, 0], axes: IDENTITY, halfExtents: [0.25, 1, 6.5] }, // thin at index 0
    { center: [6.25, -1, 0], axes: EXPORTER_UNROTATED, halfExtents: [0.25, 6.5, 1] }, // thin at index 0
    // Pillars and a diagonal screen.
    { center: [-2, -1, -2], axes: YAW_345, halfExtents: [0.5, 1, 0.5] },
    { center: [0, -1, 2], axes: YAW_45, halfExtents: [1.5, 1, 0.25] },
    { center: [-3.5, -0.5, 0], axes: IDENTITY, halfExtents: [0.25, 0.5, 1] },
  ];
  return { version, grid, floors, walls };
}

/**
 * A bumpy n × n terrain of 1 m tiles (2n² triangles) with `walls` posts scattered on it, for benchmarks and
 * property tests. Heights come from an integer hash of the tile corner, so the level is the same everywhere.
 */
export function terrainDescription(n: number, walls = 0): LevelDescription {
  const h = (i: number, j: number): number => -(((i * 7919 + j * 104729) >>> 0) % 17) / 64;
  const floors: FloorDescription[] = [];
  const o = n / 2;
  for (let i = 0; i < n; i++) {
    for (let j = 0; j < n; j++) {
      const x = i - o, z = j - o;
      floors.push(...quad([x, h(i, j), z], [x + 1, h(i + 1, j), z], [x + 1, h(i + 1, j + 1), z + 1], [x, h(i, j + 1), z + 1]));
    }
  }
  const ws: WallDescription[] = [];
  const rots = [IDENTITY, YAW_345, YAW_45, EXPORTER_UNROTATED];
  for (let k = 0; k < walls; k++) {
    const i = (k * 37) % n, j = (k * 61 + 11) % n;
    ws.push({ center: [i - o + 0.5, -1, j - o + 0.5], axes: rots[k % 4]!, halfExtents: [0.75, 1, 0.25] });
  }
  return { version: 2, floors, walls: ws };
}
