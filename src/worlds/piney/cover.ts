/**
 * SetCover (reference 2.13): after the second InitQuad, one cover per chip not hidden, each a quadrant draw
 * and a SmallMeshName draw, x outer.
 */
import { CHIP_COUNT, CHIPS, type PineyField } from './field-state.js';
import { initQuad } from './objects.js';

/** Quadrants of a chip a cover can sit in (0 and 2 have x negative, 0 and 1 y negative). */
export const COVER_QUADRANTS = 4;

export function setCover(f: PineyField): void {
  initQuad(f);
  const meshes = f.tables.smallMeshNames[f.params.fieldType]!.length;
  let n = 0;
  for (let i = 0; i < CHIPS; i++) {
    for (let j = 0; j < CHIPS; j++) {
      const at = i * CHIPS + j;
      // The game skips check2 == 1 as well; Generate never writes check2, so only check3 matters in practice.
      if (f.check[CHIP_COUNT + at] === 1 || f.check3[at] !== 0) continue;
      f.coverChip[n] = at;
      f.coverQuadrant[n] = f.rng.rand(COVER_QUADRANTS);
      f.coverMesh[n] = f.rng.rand(meshes);
      n++;
    }
  }
  f.coverCount = n;
}
