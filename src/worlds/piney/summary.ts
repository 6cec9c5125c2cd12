/** The JSON summary of a field's state, as `retrosim field --json` prints it. */
import { eeToNumber } from '../../numeric/ee-float.js';
import type { FieldStage, ObjectKindName, PineyField } from './field-state.js';
import { mapFnv } from './generate.js';

/** A field's state in JSON-able numbers (EE values as numbers), as `retrosim field --json` prints it. */
export interface FieldSummary {
  /** The last step completed. */
  stage: FieldStage;
  /** fieldrand's draw count so far. */
  randcnt: number;
  seed: number;
  /** Draws burnt by Init. */
  initDraws: number;
  hills: [number, number, number][];
  /** mapFnv of the height map. */
  mapFnv: string;
  entrance: [number, number] | null;
  dungeonPos: [number, number, number] | null;
  lake: [number, number] | null;
  start: [number, number] | null;
  startPos: [number, number, number];
  objects: Record<ObjectKindName, number>;
  objectCount: number;
  covers: number;
  tablesSynthetic: boolean;
}

/** A field's state as a FieldSummary. */
export function fieldSummary(f: PineyField): FieldSummary {
  return {
    stage: f.stage,
    randcnt: f.rng.count,
    seed: f.rng.seed,
    initDraws: f.initDraws,
    hills: f.hills.map((h) => [h.x, h.y, h.size]),
    mapFnv: mapFnv(f.map),
    entrance: f.entrance,
    dungeonPos: f.dungeonPos ? [eeToNumber(f.dungeonPos[0]), eeToNumber(f.dungeonPos[1]), eeToNumber(f.dungeonPos[2])] : null,
    lake: f.lake,
    start: f.start,
    startPos: [eeToNumber(f.startPos[0]), eeToNumber(f.startPos[1]), eeToNumber(f.startPos[2])],
    objects: f.kindCounts(),
    objectCount: f.objects.length,
    covers: f.coverCount,
    tablesSynthetic: f.tables.synthetic,
  };
}
