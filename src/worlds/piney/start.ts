/**
 * The start position (reference 2.14): the first free 2 × 2 chip site, y outer, with fieldrand(100) ≥ 96.
 */
import { eeCompareLe } from '../../numeric/ee-float.js';
import { CHIPS, F, MAX_TRIES, NoSiteError, chipMeshPosition, type PineyField } from './field-state.js';
import { STORY_CENTRE_CHIP } from './makefield.js';

/** A free site is taken when fieldrand(100) ≥ 96. */
export const START_RANGE = 100;
export const START_THRESHOLD = 96;

/**
 * The scan reads check at x·40 + y and its neighbours +40, +1, +41 as ONE array: at y = 39 the "+1" is chip
 * (x + 1, 0), and at x = 39 the "+40" reads into check2 (the quirk kept). A protected story area also wants
 * the site more than 7000 from the entrance. A story area's scan still draws, but its start is then chip
 * (20, 20) as set by the story step.
 */
export function setStart(f: PineyField): void {
  const { check, params } = f;
  const needFar = params.event !== 0 && params.protect;
  const origin = [F.ZERO, F.ZERO, F.ZERO];
  let visits = 0;
  for (;;) {
    let free = 0;
    for (let y = 0; y < CHIPS; y++) {
      for (let x = 0; x < CHIPS; x++) {
        const at = x * CHIPS + y;
        if (check[at] || check[at + CHIPS] || check[at + 1] || check[at + CHIPS + 1]) continue;
        free++;
        if (++visits > MAX_TRIES) throw new NoSiteError('start position');
        if (f.rng.rand(START_RANGE) < START_THRESHOLD) continue;
        const pos = [chipMeshPosition(x), chipMeshPosition(y), F.ZERO];
        if (needFar && eeCompareLe(f.dist(pos, f.dungeonPos ?? origin), F.C7000)) continue;
        if (params.event !== 0) {
          f.start = [STORY_CENTRE_CHIP, STORY_CENTRE_CHIP];
        } else {
          f.start = [x, y];
          f.startPos = [pos[0]!, pos[1]!, F.ZERO];
        }
        return;
      }
    }
    // No free site at all: the game would scan forever without drawing.
    if (free === 0) throw new NoSiteError('start position');
  }
}
