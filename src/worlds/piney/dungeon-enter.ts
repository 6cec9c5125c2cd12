/**
 * SetDungeonEnter (reference 2.7): the dungeon entrance, the first row of the type's entrance table.
 */
import { eeCompareLt } from '../../numeric/ee-float.js';
import { CHIPS, F, FLAT_LEVEL, MAX_TRIES, NoSiteError, chipCentre, type PineyField } from './field-state.js';

/** The story area whose entrance must be NEAR the start (within 8000); all others need it at least 8000 away. */
export const NEAR_ENTRANCE_EVENT = 14;

export function setDungeonEnter(f: PineyField): void {
  const { params, tables } = f;
  if (tables.noEntranceEvents.includes(params.event)) return;
  // Only row 0 is used: no index draw.
  const row = tables.objects.enter[params.fieldType]![0]!;
  const { w, h } = row;
  let x = 0;
  let y = 0;
  for (let tries = 0; ; tries++) {
    if (tries >= MAX_TRIES) throw new NoSiteError('dungeon entrance');
    x = f.rng.rand(CHIPS - w);
    y = f.rng.rand(CHIPS - h);
    if (f.checkMount(x, y, x + w, y + h) || f.checkArea(x, y, x + w, y + h)) continue;
    if (params.event !== 0) {
      const pos = [chipCentre(x, w), chipCentre(y, h), F.ZERO];
      const near = eeCompareLt(f.dist(f.startPos, pos), F.C8000);
      if (near !== (params.event === NEAR_ENTRANCE_EVENT)) continue;
    }
    break;
  }
  const level = (row.flat & FLAT_LEVEL) !== 0;
  if (level) {
    f.flat(x, y, 3 * w, 3 * h);
    f.hide(x, y, w, h);
  }
  const o = f.place('entrance', 0, row, x, y, level, F.ZERO);
  f.entrance = [x, y];
  f.dungeonPos = [o.wx, o.wy, F.ZERO];
}
