/**
 * What the renderer draws of a Piney field, as plain data: the heights, the hidden and hill chips, the lit
 * vertex colours, the hills, the objects with their models, the entrance, lake, water and start, and the
 * cover models. Drawing only: nothing here feeds the simulation.
 */
import { eeToNumber } from '../../numeric/ee-float.js';
import type { Vec3 } from '../world.js';
import { CHIPS } from './field-state.js';
import { fieldColours, fieldLight, type FieldLight } from './colours.js';
import type { PineyWorld } from './collision-world.js';

/** Everything the renderer draws of a field, in plain data (positions in world units, z up). */
export interface PineyScene {
  /** Heights per cell (x-major, 80 × 80), exact values of the EE floats. */
  heights: Float64Array;
  /** The EE bit patterns of the same heights. */
  heightBits: Uint32Array;
  /** Per chip (x-major, 40 × 40): 1 where no ground tile is drawn (check3). */
  hidden: Uint8Array;
  /** Per chip: 1 under a hill (mnt). */
  hill: Uint8Array;
  /** RGB per cell, the lit vertex colours (an approximation of the game's; see pineyColours). */
  colours: Uint8Array;
  /** The hills: the drawn site (cells) and size. */
  hills: { x: number; y: number; size: number }[];
  /** The objects: kind, model and animation names, footprint (chips), centre position, and whether it levelled its site. */
  objects: { kind: string; clump: string; anm: string | null; chip: [number, number]; size: [number, number]; position: Vec3; level: boolean }[];
  /** The dungeon entrance's chip, or null. */
  entrance: [number, number] | null;
  /** The lake object's chip, or null. */
  lake: [number, number] | null;
  /** The lake water (field_eff's ANM_sfwat1_1a) sits at the lake object's centre, z 0. */
  water: Vec3 | null;
  /** The start's chip, or null. */
  start: [number, number] | null;
  /** Where the player starts, in world units. */
  startPosition: Vec3;
  /** Ground tile model (BaseMeshName[type][0]). */
  groundMesh: string;
  /** The cover models: chip, quadrant (0..3), model name and position. */
  covers: { chip: [number, number]; quadrant: number; mesh: string; position: Vec3 }[];
}

const colourCache = new WeakMap<PineyWorld, Uint8Array>();

/**
 * The lit vertex colours of a world's field (RGB bytes per cell, x-major) under `light`, by default the light of
 * the field's type and weather. Computed on a world's first call and kept: later calls return the same array
 * whatever `light` they pass. An approximation of the game's colours (the reference does not give every step).
 */
export function pineyColours(world: PineyWorld, light: FieldLight = fieldLight(world.field.tables, world.field.params.fieldType, world.field.params.weather)): Uint8Array {
  let c = colourCache.get(world);
  if (!c) {
    c = fieldColours(world.field.quad, light);
    colourCache.set(world, c);
  }
  return c;
}

/** A world's field as plain data for the renderer (the colours are pineyColours'). */
export function pineyScene(world: PineyWorld): PineyScene {
  const f = world.field;
  const meshes = f.tables.smallMeshNames[f.params.fieldType]!;
  const num = eeToNumber;
  const lakeObj = f.objects.find((o) => o.kind === 'lake');
  const covers: PineyScene['covers'] = [];
  for (let n = 0; n < f.coverCount; n++) {
    const c = f.coverChip[n]!;
    const i = Math.floor(c / CHIPS);
    const j = c % CHIPS;
    const q = f.coverQuadrant[n]!;
    // Quadrants 0 and 2 have x negative, 0 and 1 y negative; the cover sits 2.5 above the ground.
    covers.push({
      chip: [i, j],
      quadrant: q,
      mesh: meshes[f.coverMesh[n]!]!,
      position: [600 + 1200 * i + (q & 1 ? 300 : -300), 600 + 1200 * j + (q & 2 ? 300 : -300), 2.5],
    });
  }
  return {
    heights: world.heights,
    heightBits: f.map,
    hidden: f.check3,
    hill: f.mnt,
    colours: pineyColours(world),
    hills: f.hills.map((h) => ({ ...h })),
    objects: f.objects.map((o) => ({
      kind: o.kind,
      clump: o.row.clump,
      anm: o.row.anm,
      chip: [o.x, o.y],
      size: [o.w, o.h],
      position: [num(o.wx), num(o.wy), num(o.z)],
      level: o.level,
    })),
    entrance: f.entrance,
    lake: f.lake,
    water: lakeObj ? [num(lakeObj.wx), num(lakeObj.wy), 0] : null,
    start: f.start,
    startPosition: [num(f.startPos[0]), num(f.startPos[1]), num(f.startPos[2])],
    groundMesh: f.tables.baseMeshNames[f.params.fieldType]![0]!,
    covers,
  };
}
