/**
 * WORLD_MAN::GO's field part: seed fieldrand, burn WORLD::Init's draws, then WORLD::Generate's steps in the
 * game's order (reference 2.16). `stopAfter` ends after a step, for checking intermediate states.
 */
import { Fnv1a64 } from '../../binary/fnv.js';
import { FIELD_STAGES, PineyField, type FieldParams, type FieldStage } from './field-state.js';
import { makeField, storyArea } from './makefield.js';
import { makeHills } from './hills.js';
import { setDungeonEnter } from './dungeon-enter.js';
import { setLake } from './lake.js';
import { placeObjects } from './objects.js';
import { setCover } from './cover.js';
import { setStart } from './start.js';
import { FIELD_TYPE_COUNT, WEATHER_COUNT, type PineyTables } from './tables.js';

/** Thrown for generator parameters the port refuses (checkFieldParams); the message names the parameter. */
export class FieldParamError extends Error {
  override readonly name = 'FieldParamError';
}

/** Throws FieldParamError for what the port rejects: field type not 0–10, ground not 0–2, seed not a u32, event not 0–65535; checks the rest's form. */
export function checkFieldParams(p: FieldParams): void {
  const isInt = (v: unknown): v is number => typeof v === 'number' && Number.isInteger(v);
  if (!isInt(p.seed) || p.seed < 0 || p.seed > 0xffffffff) throw new FieldParamError(`seed must be a u32, got ${p.seed}`);
  if (!isInt(p.fieldType) || p.fieldType < 0 || p.fieldType >= FIELD_TYPE_COUNT) throw new FieldParamError(`field type must be 0..10, got ${p.fieldType}`);
  if (!isInt(p.ground) || p.ground < 0 || p.ground > 2) throw new FieldParamError(`ground must be 0..2, got ${p.ground}`);
  if (!isInt(p.weather) || p.weather < 0) throw new FieldParamError(`weather must be a non-negative integer, got ${p.weather}`);
  if (!isInt(p.object)) throw new FieldParamError(`object must be an integer, got ${p.object}`);
  if (!isInt(p.event) || p.event < 0 || p.event > 0xffff) throw new FieldParamError(`event must be 0..65535, got ${p.event}`);
}

/** WORLD::Init's draws for a type and background row (a row above 9 counts as 9). */
export function initDrawCount(tables: PineyTables, fieldType: number, weather: number): number {
  return tables.initDraws[fieldType]![Math.min(weather, WEATHER_COUNT - 1)]!;
}

/**
 * Generates a field bit for bit as the game does, up to and including `stopAfter` (default: everything, through
 * the start position). Throws FieldParamError for bad parameters, NoSiteError where the game would loop forever.
 */
export function generateField(params: FieldParams, tables: PineyTables, stopAfter: FieldStage = 'start'): PineyField {
  checkFieldParams(params);
  const last = FIELD_STAGES.indexOf(stopAfter);
  if (last < 0) throw new FieldParamError(`unknown step ${stopAfter}`);
  const f = new PineyField(params, tables);
  if (!params.skipInit) {
    const n = initDrawCount(tables, params.fieldType, params.weather);
    for (let i = 0; i < n; i++) f.rng.step();
  }
  f.initDraws = f.rng.count;
  const steps: [FieldStage, () => void][] = [
    ['makefield', () => {
      makeField(f);
      if (params.event !== 0) storyArea(f);
    }],
    ['hills', () => makeHills(f)],
    ['entrance', () => setDungeonEnter(f)],
    ['lake', () => setLake(f)],
    ['objects', () => placeObjects(f)],
    ['cover', () => setCover(f)],
    ['start', () => setStart(f)],
  ];
  for (const [stage, run] of steps) {
    if (FIELD_STAGES.indexOf(stage) > last) break;
    run();
    f.stage = stage;
  }
  return f;
}

/** FNV-1a 64 over each height's u32 bits as little-endian bytes, x-major: "0x" + 16 hex digits. */
export function mapFnv(map: Uint32Array): string {
  const h = new Fnv1a64();
  for (let i = 0; i < map.length; i++) h.u32(map[i]!);
  return h.hex();
}
