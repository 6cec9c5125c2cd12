import { WFPC_IGNORE_MATERIALS_17_18 } from './conventions.js';

/**
 * Collision materials (the polygon's second byte, "surface"), as `GroundResult.material` reports them: 0 is an
 * ordinary surface. Meanings from the seed; see docs/formats/llama.md.
 */
export const MATERIAL_NORMAL = 0;
/** The LevelDoor ends the level only while the llama stands on this in the door's cell. */
export const MATERIAL_EXIT = 16;
/** A special material: does not collide when the level's WFPC flags have WFPC_IGNORE_MATERIALS_17_18. */
export const MATERIAL_SPECIAL_A = 17;
/** The other special material, as MATERIAL_SPECIAL_A. */
export const MATERIAL_SPECIAL_B = 18;
/** Death plane / water: landing on it empties the energy; the llama respawns at the last checkpoint or start. */
export const MATERIAL_DEATH = 30;

/**
 * Whether collision skips a polygon of this material. The seed says materials 17 and 18 are "ignored" when
 * WFPC flag 0x8000000 is set; we read that as the polygon not colliding at all (rather than colliding as
 * material 0). This is the one place to change if real files show otherwise.
 */
export function materialIgnored(material: number, wfpc: number): boolean {
  return (wfpc & WFPC_IGNORE_MATERIALS_17_18) !== 0 && (material === MATERIAL_SPECIAL_A || material === MATERIAL_SPECIAL_B);
}

/** The contact kind a floor of this material produces: "exit", "death" or "floor". */
export function floorContactKind(material: number): 'exit' | 'death' | 'floor' {
  if (material === MATERIAL_EXIT) return 'exit';
  if (material === MATERIAL_DEATH) return 'death';
  return 'floor';
}
