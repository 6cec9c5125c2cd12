import type { LevelDescription, ModelDescription, PolygonDescription, V3 } from './level-builder.js';
import { MATERIAL_DEATH, MATERIAL_EXIT } from './materials.js';

/**
 * The level descriptions behind assets/worlds/llama (scripts/make-llama-assets.ts writes them): the demo
 * level, the reference sheet's minimal level, and a level that breaks every checker rule.
 */

/** A horizontal quad at local height y spanning [x0, x1] × [z0, z1]. */
export function flatQuad(y: number, x0 = -0.5, x1 = 0.5, z0 = -0.5, z1 = 0.5, material = 0, render = true): PolygonDescription {
  return { material, render, points: [[x0, y, z0], [x1, y, z0], [x1, y, z1], [x0, y, z1]] };
}

/** A vertical wall quad from (a) to (b) (xz), y from y0 to y1, keeping bodies on the `facing` side. */
export function wallQuad(a: [number, number], b: [number, number], y0: number, y1: number, facing: V3): PolygonDescription {
  return { facing, points: [[a[0], y0, a[1]], [b[0], y0, b[1]], [b[0], y1, b[1]], [a[0], y1, a[1]]] };
}

/** Model numbers of the demo's construction kit. */
export const DEMO_MODELS = {
  deathPlane: 0,
  floor: 1,
  exitFloor: 2,
  wall: 3,
  ramp: 4,
  step: 5,
  doorClosed: 6,
  doorOpen: 7,
  slab: 8,
  wideSlab: 9,
  wideSlabListing: 10,
} as const;

/** Height of the step: the seed's "0.12-unit edge with a wall". */
export const DEMO_STEP_HEIGHT = 0.12;
/** The invisible death plane's height (the seed: model 0 of many levels at y = −2.75). */
export const DEMO_DEATH_Y = -2.75;

function demoModels(): ModelDescription[] {
  const m: ModelDescription[] = [];
  m[DEMO_MODELS.deathPlane] = { name: 'death plane', floors: [flatQuad(0, -0.5, 0.5, -0.5, 0.5, MATERIAL_DEATH, false)] };
  m[DEMO_MODELS.floor] = { name: 'floor', floors: [flatQuad(0)] };
  m[DEMO_MODELS.exitFloor] = { name: 'exit floor', floors: [flatQuad(0, -0.5, 0.5, -0.5, 0.5, MATERIAL_EXIT)] };
  m[DEMO_MODELS.wall] = {
    name: 'floor with a wall on its +x side',
    floors: [flatQuad(0)],
    walls: [wallQuad([0.45, -0.5], [0.45, 0.5], 0, 1, [-1, 0, 0])],
  };
  m[DEMO_MODELS.ramp] = {
    name: 'ramp rising 0.5 towards local +z',
    floors: [{ points: [[-0.5, 0, -0.5], [0.5, 0, -0.5], [0.5, 0.5, 0.5], [-0.5, 0.5, 0.5]] }],
  };
  m[DEMO_MODELS.step] = {
    name: 'step 0.12 high with its edge wall on the -x side',
    floors: [flatQuad(DEMO_STEP_HEIGHT)],
    walls: [wallQuad([-0.5, 0.5], [-0.5, -0.5], 0, DEMO_STEP_HEIGHT, [-1, 0, 0])],
  };
  m[DEMO_MODELS.doorClosed] = {
    name: 'closed door across the cell',
    floors: [flatQuad(0)],
    walls: [wallQuad([-0.5, 0], [0.5, 0], 0, 1, [0, 0, -1]), wallQuad([0.5, 0], [-0.5, 0], 0, 1, [0, 0, 1])],
  };
  m[DEMO_MODELS.doorOpen] = { name: 'open door (floor only)', floors: [flatQuad(0)] };
  m[DEMO_MODELS.slab] = {
    name: 'upper floor slab, 0.1 thick',
    floors: [flatQuad(0)],
    ceilings: [flatQuad(-0.1)],
  };
  m[DEMO_MODELS.wideSlab] = {
    name: 'overhanging slab reaching one cell to +x',
    floors: [flatQuad(0, -0.5, 1.5)],
    ceilings: [flatQuad(-0.1, -0.5, 1.5)],
  };
  m[DEMO_MODELS.wideSlabListing] = {
    name: 'collision-only copy of the overhang for the cell it reaches into',
    floors: [{ ...flatQuad(0, -1.5, 0.5), render: false }],
    ceilings: [{ ...flatQuad(-0.1, -1.5, 0.5), render: false }],
  };
  return m;
}

export const DEMO_WIDTH = 6;
export const DEMO_HEIGHT = 5;
/** Cells of the demo's features (col, row). */
export const DEMO_CELLS = {
  wall: [1, 1],
  step: [3, 1],
  ramp: [4, 0],
  door: [2, 2],
  pit: [2, 3],
  stacked: [0, 3],
  overhang: [3, 3],
  exit: [5, 4],
} as const;
export const DEMO_UPPER_FLOOR_Y = 1.5;
export const DEMO_OVERHANG_Y = 1.2;

/** The default demo level: stacked floors, an overhang, walls, a rotated ramp, a door swap, an exit, a death plane. */
export function demoLevel(): LevelDescription {
  const M = DEMO_MODELS;
  const C = DEMO_CELLS;
  const tiles: LevelDescription['tiles'] = [];
  const is = (c: readonly [number, number], col: number, row: number): boolean => c[0] === col && c[1] === row;
  for (let row = 0; row < DEMO_HEIGHT; row++) {
    for (let col = 0; col < DEMO_WIDTH; col++) {
      tiles.push({ model: M.deathPlane, col, row, y: DEMO_DEATH_Y });
      if (is(C.pit, col, row)) continue;
      if (is(C.wall, col, row)) tiles.push({ model: M.wall, col, row });
      else if (is(C.step, col, row)) tiles.push({ model: M.step, col, row });
      else if (is(C.ramp, col, row)) tiles.push({ model: M.ramp, col, row, rot: 1024 });
      else if (is(C.door, col, row)) tiles.push({ model: M.doorClosed, col, row, swapModel: M.doorOpen });
      else if (is(C.exit, col, row)) tiles.push({ model: M.exitFloor, col, row });
      else tiles.push({ model: M.floor, col, row });
      if (is(C.stacked, col, row)) tiles.push({ model: M.slab, col, row, y: DEMO_UPPER_FLOOR_Y });
      if (is(C.overhang, col, row)) tiles.push({ model: M.wideSlab, col, row, y: DEMO_OVERHANG_Y });
      if (col === C.overhang[0] + 1 && row === C.overhang[1]) tiles.push({ model: M.wideSlabListing, col, row, y: DEMO_OVERHANG_Y });
    }
  }
  // Two regions that see each other: the west half (columns 0-2) and the east half.
  const cells: number[] = [];
  for (let row = 0; row < DEMO_HEIGHT; row++) for (let col = 0; col < DEMO_WIDTH; col++) cells.push(col < 3 ? 0 : 1);
  return {
    name: 'demo',
    width: DEMO_WIDTH,
    height: DEMO_HEIGHT,
    models: demoModels(),
    tiles,
    regions: { masks: [0b11, 0b11], cells },
    start: [0.5, 0, 0.5],
  };
}

/** The reference sheet's minimal level (§10): a 1×1 map with one flat floor at 0.25, through the builder. */
export function minimalLevel(): LevelDescription {
  return {
    name: 'minimal',
    width: 1,
    height: 1,
    models: [{ floors: [flatQuad(0.25)] }],
    tiles: [{ model: 0, col: 0, row: 0 }],
  };
}

/** Planes of a thin triangle whose apex lies 15.9 units out (d within i16, corners beyond ±8). */
export const FAR_TRIANGLE: [number, number, number, number][] = [
  [0, 127, 0, 0],
  [127, 0, 0, -2048],
  [-8, 0, 127, -4096],
  [-8, 0, -127, -4096],
  [0, 0, 0, 0],
];

/**
 * A 4×2 level breaking every rule the checker knows, one tile per rule: (see test/worlds/llama/check.test.ts
 * for what each must produce).
 */
export function brokenLevel(): LevelDescription {
  return {
    name: 'broken',
    width: 4,
    height: 2,
    models: [
      { name: 'floor', floors: [flatQuad(0)] },
      { name: 'far triangle', floors: [{ raw: FAR_TRIANGLE, type: 0 }] },
      { name: 'overhang never listed next door', floors: [flatQuad(0, -0.5, 1.5)] },
    ],
    tiles: [
      // 0: outside the grid (float x 6.5 for a 4-wide grid).
      { model: 0, col: 0, row: 0, raw: { floatPos: [6.5, 0, -0.5], fixedPos: [6.5 * 4096, 0, 0.5 * 4096] } },
      // 1: float and fixed copies disagree (fixed y one step higher).
      { model: 0, col: 1, row: 0, raw: { fixedPos: [1.5 * 4096, 1, 0.5 * 4096] } },
      // 2: the model index disagrees with the float block's model.
      { model: 0, col: 2, row: 0, raw: { floatModel: 2 } },
      // 3: marked hasAlt without a swap entry.
      { model: 0, col: 3, row: 0, raw: { hasAlt: 1 } },
      // 4: a polygon beyond ±8 units.
      { model: 1, col: 0, row: 1 },
      // 5: sticks into cell (2, 1) without being listed there.
      { model: 2, col: 1, row: 1 },
      // 6: in region 5, which no region sees.
      { model: 0, col: 3, row: 1 },
      // 7: one vertex colour too many (everything after it reads shifted).
      { model: 0, col: 2, row: 1, colours: [[0x01808080, 0x01808080, 0x01808080, 0x01808080, 0x01808080]] },
    ],
    wfpc: 0x10000,
    rawSwaps: [],
    // Region 5 (mask: only region 0) is seen by neither region 0 nor itself.
    regions: { masks: [0b1, 0, 0, 0, 0, 0b1], cells: [0, 0, 0, 0, 0, 0, 0, 5] },
  };
}
