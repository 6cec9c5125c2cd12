/**
 * FIELD::MakeField (the noise) and the story area's flattened centre (reference 2.2, 2.3).
 */
import { eeFromInt } from '../../numeric/ee-float.js';
import { CELLS, CHIPS, chipMeshPosition, type PineyField } from './field-state.js';

/** MakeField's noise range: heights 0–63. */
export const NOISE_RANGE = 64;
/** The story area's centre chip and the half-width of its marked block (chips 19–21). */
export const STORY_CENTRE_CHIP = 20;

/** FIELD::MakeField(0): map[x][y] = float(fieldrand(64) & 0xff), x outer, y inner (6400 draws). */
export function makeField(f: PineyField): void {
  const { map, rng } = f;
  for (let x = 0; x < CELLS; x++) {
    for (let y = 0; y < CELLS; y++) map[x * CELLS + y] = eeFromInt(rng.rand(NOISE_RANGE) & 0xff);
  }
}

/**
 * A story area (event ≠ 0): marks chips 19–21 × 19–21 in check and mnt, zeroes cells [40, 43)² (Flat(20, 20,
 * 3, 3)) and puts the start at chip (20, 20). No draws.
 */
export function storyArea(f: PineyField): void {
  const c = STORY_CENTRE_CHIP;
  for (let x = c - 1; x <= c + 1; x++) {
    for (let y = c - 1; y <= c + 1; y++) {
      f.check[x * CHIPS + y] = 1;
      f.mnt[x * CHIPS + y] = 1;
    }
  }
  f.flat(c, c, 3, 3);
  const p = chipMeshPosition(c);
  f.startPos = [p, p, 0];
}
