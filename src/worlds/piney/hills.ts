/**
 * The hills (WORLD::MakeHill, reference 2.4): one or more large hills, then the small ones; each a FRACTAL2
 * placed at a random site that must not overlap a hill already there.
 */
import { CELLS, CHIPS, MAX_TRIES, NoSiteError, type PineyField } from './field-state.js';
import { fractal2 } from './fractal2.js';

/** Site tries per hill before it is given up (and retried with a new size). */
export const HILL_SITE_TRIES = 100;

const scratch = new Uint32Array(79 * 79);

/**
 * MakeHill(size): builds the hill (25 draws), then tries up to 100 sites (2 draws each).
 *
 * Quirks kept: the hill is written at the even cell (2·(x div 2), 2·(y div 2)), not at (x, y); the overlap
 * test covers size div 2 chips each way while an odd hill marks one chip more, so its last chip row and
 * column are never tested; the hill overwrites the noise (no blending); hill[j · size + i] goes to (i, j).
 */
export function makeHill(f: PineyField, size: number): boolean {
  const hill = fractal2(f.rng, size, scratch);
  const half = size >> 1;
  for (let tries = 0; tries < HILL_SITE_TRIES; tries++) {
    const x = f.rng.rand(CELLS - size);
    const y = f.rng.rand(CELLS - size);
    const cx = x >> 1;
    const cy = y >> 1;
    if (f.checkMount(cx, cy, cx + half, cy + half)) continue;
    for (let i = 0; i < size; i++) {
      for (let j = 0; j < size; j++) {
        f.setHeight(2 * cx + i, 2 * cy + j, hill[j * size + i]!);
        f.mnt[(cx + (i >> 1)) * CHIPS + cy + (j >> 1)] = 1;
      }
    }
    f.hills.push({ x, y, size });
    return true;
  }
  return false;
}

/** All hills: the large group first, then the small; a failed hill is retried with a new size draw. */
export function makeHills(f: PineyField): void {
  const counts = f.tables.hillCounts[f.params.ground]!;
  const groups = [
    { count: counts.large, size: f.tables.largeHill },
    { count: counts.small, size: f.tables.smallHill },
  ];
  let attempts = 0;
  for (const g of groups) {
    let left = g.count;
    while (left > 0) {
      if (++attempts > MAX_TRIES) throw new NoSiteError('hill');
      const size = f.rng.rand(g.size.range) + g.size.base;
      if (makeHill(f, size)) left--;
    }
  }
}
