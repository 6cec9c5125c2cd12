/**
 * The field's set-up step (ccSetupGameCtrl): ccInitRand, the tasks created, and GO(1) - fieldrand seeded
 * with fieldSeed, WORLD::Init, Generate's layout and its tail - then the five tasks put on the scheduler.
 */
import type { Scheduler, TaskHandle } from '../../ecs/scheduler.js';
import { FieldRand } from '../../rng/fieldrand.js';
import type { V4 } from './ee-vec.js';
import { initAmbient, generateTail, type AmbientState } from './ambient.js';
import { envOf, viewAt, BLANK_HEIGHT } from './env.js';
import { fieldWeather } from './weather.js';
import { initialStatics, type AmbientStatics } from './statics.js';
import { firesAt, pineySite, type FieldSite } from './site.js';
import { AmbientRuntime, fieldTaskBodies, walkSource, type ViewSource } from './tasks.js';
import { Walk } from './walk.js';
import type { PineyTables } from '../../worlds/piney/tables.js';

export interface AmbientConfig {
  /** fieldSeed, the field type (0-10) and background row (0-9). */
  seed: number;
  type: number;
  row: number;
  /** WORLD_MAN +0xf0 == 3. */
  hacked?: boolean;
  /** ccGame.server (+0x1c); 0-4 are the five servers (the TOBJ gate draws only for those). */
  server?: number;
  /** The layout's ground and object settings (0-2), for the generator. */
  ground?: number;
  object?: number;
  /**
   * The entry task's fieldrand draws on its first slice (EntryGimmick's SetFood, SetMagicCircle and
   * SetSpecialObj): game data that is not public, given as fieldrand moduli in order. Default none.
   */
  entryDraws?: readonly number[];
  /** Type 7's fires, given outright (SetSpecialObj's places). */
  fires?: readonly V4[];
  /**
   * Or type 7's fire nodes (OBJ_roc1fire, OBJ_roc3fire) relative to each animated object: the fires are then
   * found as SetSpecialObj walks the field's objects. Animation data, not public. Default none.
   */
  fireNodes?: readonly V4[];
  /** The lens flare's sun dummy (DMY_<x>_<b+1>point in the background), relative to the player. */
  sun?: V4 | null;
  /** Ω's runner dummies in the sleigh's frame (OBJ_dummy_rei0/1). Default both at its origin. */
  runnerOffsets?: readonly V4[];
  /** Added to the display task's clock for the fires' frame parity. */
  parityOffset?: number;
  /** ccInitRand's count at the set-up step (frames since power-on); undefined leaves ccRand alone. */
  ccInit?: number;
  /** The statics the last field left (thunder, steam, balloon cloth); default the executable's. */
  statics?: AmbientStatics;
  /** The generated field; when absent, generated here from `tables` (one of the two must be given). */
  site?: FieldSite;
  /** The field tables the generator runs on, when `site` is not given. */
  tables?: PineyTables;
  /** Each drawn frame's view; default the stand-in walk from the start position. */
  view?: ViewSource;
}

export interface GoResult {
  state: AmbientState;
  site: FieldSite;
  /** fieldrand's count after Init and after Generate (with its tail). */
  afterInit: number;
  afterGenerate: number;
}

/**
 * GO(1) for the ambient part. `rng` ends where Generate's tail leaves it. Init's objects are made by
 * replaying Init on a fresh generator with the same seed (the same stream as the generator's own burn),
 * about the start position, with the ground not yet made.
 */
export function goField(rng: FieldRand, cfg: AmbientConfig, statics: AmbientStatics): GoResult {
  const site =
    cfg.site ??
    pineySite({ seed: cfg.seed, type: cfg.type, row: cfg.row, ground: cfg.ground ?? 0, object: cfg.object ?? 0 }, requireTables(cfg));
  const w = fieldWeather(cfg.type, cfg.row, cfg.hacked ?? false);
  const replay = new FieldRand(cfg.seed >>> 0);
  const state = initAmbient(w, cfg.server ?? 0, envOf(viewAt(site.start), BLANK_HEIGHT), statics, replay);
  if (replay.count !== site.initDraws) {
    throw new Error(`WORLD::Init drew ${replay.count} times but the field tables say ${site.initDraws}: the stream would be misaligned`);
  }
  rng.restore(site.rngAfterLayout);
  generateTail(state, site.start, site.entrance, envOf(viewAt(site.start), site.height), rng);
  const fires = cfg.fires ?? (cfg.fireNodes && cfg.type === 7 ? firesAt(site.animatedObjects, cfg.fireNodes) : []);
  state.fires = fires.map((f) => [...f] as V4);
  state.sun = cfg.sun ? ([...cfg.sun] as V4) : null;
  if (cfg.runnerOffsets) state.runnerOffsets = cfg.runnerOffsets.map((f) => [...f] as V4);
  return { state, site, afterInit: site.initDraws, afterGenerate: rng.count };
}

export interface InstalledAmbient extends GoResult {
  runtime: AmbientRuntime;
  handles: TaskHandle[];
}

/** The set-up step on `scheduler`: ccInitRand, GO, and the field's five tasks. */
export function installAmbient(scheduler: Scheduler, cfg: AmbientConfig): InstalledAmbient {
  for (const n of cfg.entryDraws ?? []) {
    if (!Number.isInteger(n) || n < 0 || n > 0xffffffff) throw new RangeError(`entry draw modulus must be a u32, got ${n}`);
  }
  if (![cfg.seed, cfg.type, cfg.row].every(Number.isInteger) || cfg.type < 0 || cfg.type > 10 || cfg.row < 0 || cfg.row > 9) {
    throw new RangeError(`field seed ${cfg.seed}, type ${cfg.type}, row ${cfg.row}: type must be 0-10 and row 0-9`);
  }
  if (cfg.ccInit !== undefined) scheduler.rng.ccrand.init(cfg.ccInit);
  const statics = cfg.statics ?? initialStatics();
  const go = goField(scheduler.rng.fieldrand, cfg, statics);
  const view = cfg.view ?? walkSource(new Walk(go.site.start, go.site.height));
  const rt = new AmbientRuntime(go.state, statics, go.site.height, view, cfg.entryDraws ?? [], cfg.parityOffset ?? 0);
  for (const t of fieldTaskBodies(rt)) rt.handles.push(scheduler.addTask(t.name, t.priority, t.body));
  return { ...go, runtime: rt, handles: rt.handles };
}

function requireTables(cfg: AmbientConfig): PineyTables {
  if (!cfg.tables) throw new Error('the field weather needs the generated field (site) or the field tables (tables) to generate it');
  return cfg.tables;
}
