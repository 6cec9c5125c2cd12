/**
 * The key, sub, base and tree objects (reference 2.10–2.12): counts, InitQuad's snapshot, the height-span
 * test and the setters, in the game's draw order.
 */
import { eeCompareLe, eeCompareLt, eeFromInt, eeMul, eeSub, eeToInt } from '../../numeric/ee-float.js';
import {
  CELLS,
  CHIPS,
  F,
  FLAT_LAKE,
  FLAT_LEVEL,
  FLAT_SLOPE,
  type ObjectKindName,
  type PineyField,
} from './field-state.js';
import type { CountedKind, ObjectRow, PineyTables } from './tables.js';
import { getHeight } from './get-height.js';

/** Site failures, counted over a whole setter call, after which the call abandons its remaining objects. */
export const MAX_SETTER_FAILS = 300;
/** The largest height span (units) a slope-tested site may have. */
export const MAX_HEIGHT_SPAN = F.C64;
/** Tree-row lengths are fieldrand(3) + 3 chips. */
export const TREE_ROW_RANGE = 3;
export const TREE_ROW_MIN = 3;

/**
 * How many objects of a kind a field gets: the base count, the type's integer divisions, then
 * f2i(float(n) × factor) with EE truncation (20 × 0.9f = 17): `object` 0 and 1 take percent[0] and percent[1],
 * any other value the last entry (1.0 in the game, whose code has no third table entry but a plain 1.0).
 */
export function objectCount(tables: PineyTables, fieldType: number, kind: CountedKind, object: number): number {
  let n = tables.objectCounts[kind];
  for (const d of tables.divisions) if (d.fieldType === fieldType && d.kind === kind) n = Math.trunc(n / d.by);
  const factor = object === 0 || object === 1 ? tables.percent[object]! : tables.percent[2]!;
  return eeToInt(eeMul(eeFromInt(n), factor));
}

/** FIELD::InitQuad: the snapshot CheckAreaHeight reads (its normals are the lighting's; see colours.ts). */
export function initQuad(f: PineyField): void {
  f.quad.set(f.map);
}

const wrap = (i: number): number => (i >= CELLS ? i - CELLS : i);

/**
 * CheckAreaHeight(x, y, w, h): true when the snapshot's heights over the site's cells and their +1
 * neighbours span more than 64. The comparisons are the game's (`if not (z <= hi) hi = z`).
 */
export function tooSteep(quad: Uint32Array, x: number, y: number, w: number, h: number): boolean {
  let hi: number = F.MINUS_65535;
  let lo: number = F.C65535;
  for (let j = 2 * y; j < 2 * (y + h); j++) {
    const j0 = wrap(j);
    const j1 = wrap(j + 1);
    for (let i = 2 * x; i < 2 * (x + w); i++) {
      const i0 = wrap(i) * CELLS;
      const i1 = wrap(i + 1) * CELLS;
      for (let k = 0; k < 4; k++) {
        const z = quad[(k & 1 ? i1 : i0) + (k & 2 ? j1 : j0)]!;
        if (!eeCompareLe(z, hi)) hi = z;
        if (eeCompareLt(z, lo)) lo = z;
      }
    }
  }
  return !eeCompareLe(eeSub(hi, lo), MAX_HEIGHT_SPAN);
}

/**
 * SetKeyObject / SetSubObject / SetBaseObject / SetTreeObject: `count` objects from `table`, each an index
 * draw then site draws until the site passes the row's tests; 300 failures end the call.
 */
export function setObjects(f: PineyField, kind: ObjectKindName, table: readonly ObjectRow[], count: number): void {
  let fails = 0;
  for (let n = 0; n < count; n++) {
    const idx = f.rng.rand(table.length);
    const row = table[idx]!;
    const { w, h, flat } = row;
    let x: number;
    let y: number;
    for (;;) {
      x = f.rng.rand(CHIPS - w);
      y = f.rng.rand(CHIPS - h);
      let bad: boolean;
      if (flat & (FLAT_LEVEL | FLAT_LAKE)) bad = f.checkMount(x, y, x + w, y + h) || f.checkArea(x, y, x + w, y + h);
      else if (flat & FLAT_SLOPE) {
        bad = f.checkMount(x, y, x + w, y + h) || tooSteep(f.quad, x, y, w, h) || f.checkArea(x, y, x + w, y + h);
      } else bad = f.checkArea(x, y, x + w, y + h);
      if (!bad) break;
      if (++fails === MAX_SETTER_FAILS) return;
    }
    // SetSubObject levels for the lake bit too and hides before flattening; the others level for 0x2 only.
    let level: boolean;
    if (kind === 'sub') {
      level = (flat & (FLAT_LEVEL | FLAT_LAKE)) !== 0;
      if (level) {
        f.hide(x, y, w, h);
        f.flat(x, y, 3 * w, 3 * h);
      }
    } else {
      level = (flat & FLAT_LEVEL) !== 0;
      if (level) {
        f.flat(x, y, 3 * w, 3 * h);
        f.hide(x, y, w, h);
      }
    }
    const o = f.place(kind, idx, row, x, y, level, F.ZERO);
    if (!level) o.z = getHeight(f.map, f.check3, o.wx, o.wy);
  }
}

/**
 * SetTreeObject_B (tree-row field types): rows of fieldrand(3) + 3 chips on one chip row, levelled; each row
 * draws all its pieces (left end row 0/1, middles row 2/3, right end row 4 without a draw) before placing them.
 */
export function setTreeRows(f: PineyField, table: readonly ObjectRow[], count: number): void {
  let fails = 0;
  const pieces: number[] = [];
  for (let n = 0; n < count; n++) {
    const length = f.rng.rand(TREE_ROW_RANGE) + TREE_ROW_MIN;
    let x: number;
    let y: number;
    for (;;) {
      x = f.rng.rand(CHIPS - length);
      y = f.rng.rand(CHIPS - 1);
      if (!f.checkMount(x, y, x + length, y + 1) && !f.checkArea(x, y, x + length, y + 1)) break;
      if (++fails === MAX_SETTER_FAILS) return;
    }
    f.flat(x, y, 3 * length, 3);
    f.hide(x, y, length, 1);
    pieces.length = 0;
    pieces.push(x, f.rng.rand(2));
    for (let s = 0; s < length - 2; s++) pieces.push(x + s + 1, f.rng.rand(2) + 2);
    pieces.push(x + length - 1, 4);
    for (let p = 0; p < pieces.length; p += 2) {
      const idx = pieces[p + 1]!;
      f.place('tree', idx, table[idx]!, pieces[p]!, y, true, F.ZERO);
    }
  }
}

/** Step 6: InitQuad, then key, sub, base and tree objects. */
export function placeObjects(f: PineyField): void {
  const { tables, params } = f;
  const t = params.fieldType;
  initQuad(f);
  setObjects(f, 'key', tables.objects.key[t]!, objectCount(tables, t, 'key', params.object));
  setObjects(f, 'sub', tables.objects.sub[t]!, objectCount(tables, t, 'sub', params.object));
  setObjects(f, 'base', tables.objects.base[t]!, objectCount(tables, t, 'base', params.object));
  const trees = objectCount(tables, t, 'tree', params.object);
  if (tables.treeRowTypes.includes(t)) setTreeRows(f, tables.objects.tree[t]!, trees);
  else setObjects(f, 'tree', tables.objects.tree[t]!, trees);
}
