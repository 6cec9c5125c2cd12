/**
 * The generated field as the ambient code needs it: fieldrand's state where Generate's layout left it,
 * the start position, the dungeon entrance and WORLD::GetHeight. The piney field generator
 * (src/worlds/piney) supplies it; this is the only place the ambient code touches that module.
 */
import { generateField, initDrawCount } from '../../worlds/piney/generate.js';
import { getHeight } from '../../worlds/piney/get-height.js';
import { defaultPineyTables, type PineyTables } from '../../worlds/piney/tables.js';
import { ONE, type V4 } from './ee-vec.js';
import type { HeightFn } from './env.js';

export interface FieldSite {
  /** fieldrand after WORLD::Init's draws and Generate's layout (through SetStartPos). */
  rngAfterLayout: { seed: number; count: number };
  /** WORLD::Init's draw count for this field, from the generator's tables. */
  initDraws: number;
  start: V4;
  entrance: V4;
  height: HeightFn;
}

export interface SiteParams {
  seed: number;
  type: number;
  row: number;
  ground: number;
  object: number;
  /** Story area number (0 = a random field). */
  event?: number;
  protect?: boolean;
}

/** Runs the piney generator (GO's seeding, Init's burn and Generate's layout) for the field. */
export function pineySite(p: SiteParams, tables: PineyTables = defaultPineyTables()): FieldSite {
  const f = generateField(
    { seed: p.seed >>> 0, fieldType: p.type, weather: p.row, ground: p.ground, object: p.object, event: p.event ?? 0, protect: p.protect ?? false },
    tables,
  );
  const map = f.map;
  const check3 = f.check3;
  const start: V4 = [f.startPos[0], f.startPos[1], f.startPos[2], ONE];
  // Field type 4 has no entrance of its own (its gate leads into the dungeon): the bird never uses it there.
  const entrance: V4 = f.dungeonPos ? [f.dungeonPos[0], f.dungeonPos[1], f.dungeonPos[2], ONE] : [...start];
  return {
    rngAfterLayout: { seed: f.rng.seed, count: f.rng.count },
    initDraws: initDrawCount(tables, p.type, p.row),
    start,
    entrance,
    height: (x, y) => getHeight(map, check3, x, y),
  };
}
