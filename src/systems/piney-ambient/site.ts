/**
 * The generated field as the ambient code needs it: fieldrand's state where Generate's layout left it,
 * the start position, the dungeon entrance and WORLD::GetHeight. The piney field generator
 * (src/worlds/piney) supplies it; this is the only place the ambient code touches that module.
 */
import { generateField, initDrawCount } from '../../worlds/piney/generate.js';
import { HeightCache } from '../../worlds/piney/height-cache.js';
import { type PineyTables } from '../../worlds/piney/tables.js';
import { add, ONE, type V4 } from './ee-vec.js';
import type { HeightFn } from './env.js';

export interface FieldSite {
  /** fieldrand after WORLD::Init's draws and Generate's layout (through SetStartPos). */
  rngAfterLayout: { seed: number; count: number };
  /** WORLD::Init's draw count for this field, from the generator's tables. */
  initDraws: number;
  start: V4;
  entrance: V4;
  height: HeightFn;
  /**
   * The places (wp, w 1) of the objects with an animation, in SetSpecialObj's walk: each chip's FOBJECT
   * (fobj[x][y] at the object's corner chip), y outer, x inner. Type 7's fires are at nodes of these
   * animations (see `firesAt`).
   */
  animatedObjects: V4[];
}

/**
 * Type 7's fires as SetSpecialObj finds them: for each animated object in walk order, each node
 * (OBJ_roc1fire, then OBJ_roc3fire) at its place in the animation's first frame plus the object's place.
 * The node places are animation data, not public: `nodes` supplies them (object-relative, in order).
 */
export function firesAt(objects: readonly V4[], nodes: readonly V4[]): V4[] {
  const out: V4[] = [];
  for (const o of objects) for (const n of nodes) out.push([add(n[0], o[0]), add(n[1], o[1]), add(n[2], o[2]), ONE]);
  return out;
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
export function pineySite(p: SiteParams, tables: PineyTables): FieldSite {
  const f = generateField(
    { seed: p.seed >>> 0, fieldType: p.type, weather: p.row, ground: p.ground, object: p.object, event: p.event ?? 0, protect: p.protect ?? false },
    tables,
  );
  // The field no longer changes: GetHeight's cached fast path answers bit for bit what getHeight would.
  const heights = new HeightCache(f.map, f.check3);
  const start: V4 = [f.startPos[0], f.startPos[1], f.startPos[2], ONE];
  // Field type 4 has no entrance of its own (its gate leads into the dungeon): the bird never uses it there.
  const entrance: V4 = f.dungeonPos ? [f.dungeonPos[0], f.dungeonPos[1], f.dungeonPos[2], ONE] : [...start];
  const animated = f.objects
    .filter((o) => o.row.anm !== null)
    .sort((a, b) => a.y - b.y || a.x - b.x)
    .map((o): V4 => [o.wx, o.wy, o.z, ONE]);
  return {
    animatedObjects: animated,
    rngAfterLayout: { seed: f.rng.seed, count: f.rng.count },
    initDraws: initDrawCount(tables, p.type, p.row),
    start,
    entrance,
    height: (x, y) => heights.getHeight(x, y),
  };
}
