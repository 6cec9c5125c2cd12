/**
 * SetLake (reference 2.8): a lake in field types 2, 3, 8, 9 and 10 (the tables' lakeFieldTypes).
 */
import { F, MAX_TRIES, NoSiteError, type PineyField } from './field-state.js';

/** The lake's site is 3 × 3 chips, drawn from fieldrand(37) each way. */
export const LAKE_SITE = 3;
export const LAKE_RANGE = 37;

export function setLake(f: PineyField): void {
  const { params, tables } = f;
  if (!tables.lakeFieldTypes.includes(params.fieldType)) return;
  const table = tables.objects.lake[params.fieldType]!;
  const idx = f.rng.rand(table.length);
  let x = 0;
  let y = 0;
  for (let tries = 0; ; tries++) {
    if (tries >= MAX_TRIES) throw new NoSiteError('lake');
    x = f.rng.rand(LAKE_RANGE);
    y = f.rng.rand(LAKE_RANGE);
    if (!f.checkMount(x, y, x + LAKE_SITE, y + LAKE_SITE) && !f.checkArea(x, y, x + LAKE_SITE, y + LAKE_SITE)) break;
  }
  f.hide(x + 1, y + 1, 1, 1);
  f.flat(x, y, 3 * LAKE_SITE, 3 * LAKE_SITE);
  f.markFootprint(x, y, LAKE_SITE, LAKE_SITE);
  f.place('lake', idx, table[idx]!, x + 1, y + 1, true, F.ZERO);
  f.lake = [x + 1, y + 1];
}
