/**
 * The LEVELnn.COL writer: the exact inverse of parseCol. It checks the ranges a field can hold and then writes
 * the header, the column table, each column's cells and tiles in order, the gap, both normal tables and the
 * trailing pad. parseCol(writeCol(d)) equals d, and writeCol(parseCol(bytes)) equals bytes.
 */
import { BinaryWriter } from '../../binary/writer.js';
import { FormatError } from '../../binary/format-error.js';
import { COL_FORMAT, COLUMN_COUNT, COLUMN_DATA, type ColData, type Vec3i } from './layout.js';

const WRITER = `${COL_FORMAT} writer`;

function check(ok: boolean, detail: string): void {
  if (!ok) throw new FormatError(WRITER, -1, detail);
}
const isInt = (v: number, lo: number, hi: number): boolean => Number.isInteger(v) && v >= lo && v <= hi;
const isU8 = (v: number): boolean => isInt(v, 0, 255);

/** Serialises a database. Throws FormatError (offset -1) when a field does not fit its bytes. */
export function writeCol(d: ColData): Uint8Array {
  check(d.columns.length === COLUMN_COUNT, `needs exactly ${COLUMN_COUNT} columns, got ${d.columns.length}`);
  for (let a = 0; a < 3; a++) {
    check(isInt(d.min[a]!, -0x80000000, 0x7fffffff) && isInt(d.max[a]!, -0x80000000, 0x7fffffff), 'bounds must be s32');
  }
  check(d.gap.length <= 3 && d.gap.every(isU8), 'gap must be at most 3 bytes');
  check(d.trailing.length < 6 && d.trailing.every((b) => b === 0), 'trailing pad must be fewer than 6 zero bytes');
  let dataSize = 0;
  d.columns.forEach((c, i) => {
    check(c.cells.length <= 0x7fff && c.tiles.length <= 0x7fff, `column ${i}: too many cells or tiles for an s16`);
    check(isInt(c.pointer, 0, 0xffffffff), `column ${i}: pointer must be u32`);
    for (const cell of c.cells) check(isU8(cell.z) && isU8(cell.tile), `column ${i}: cell bytes out of range`);
    for (const t of c.tiles) {
      check(
        [t.floor, t.floorNormal, t.ceiling, t.ceilingNormal, t.unknown4, t.unknown5, t.flags, t.unknown7].every(isU8),
        `column ${i}: tile bytes out of range`,
      );
    }
    dataSize += c.cells.length * 2 + c.tiles.length * 8;
  });
  const normal = (n: Vec3i) => n.every((v) => isInt(v, -32768, 32767));
  check(d.floorNormals.every(normal) && d.ceilingNormals.every(normal), 'normal components must be s16');

  const normalsOffset = COLUMN_DATA + dataSize + d.gap.length;
  const w = new BinaryWriter(normalsOffset + (d.floorNormals.length + d.ceilingNormals.length) * 6 + 8);
  w.i32(d.min[0]).i32(d.min[1]).i32(d.min[2]).u32(d.pads[0]);
  w.i32(d.max[0]).i32(d.max[1]).i32(d.max[2]).u32(d.pads[1]);
  w.u32(d.floorNormals.length).u32(d.unknown24).u32(normalsOffset);
  for (const c of d.columns) w.u32(c.pointer).i16(c.cells.length).i16(c.tiles.length);
  for (const c of d.columns) {
    for (const cell of c.cells) w.u8(cell.z).u8(cell.tile);
    for (const t of c.tiles) {
      w.u8(t.floor).u8(t.floorNormal).u8(t.ceiling).u8(t.ceilingNormal).u8(t.unknown4).u8(t.unknown5).u8(t.flags).u8(t.unknown7);
    }
  }
  for (const b of d.gap) w.u8(b);
  for (const n of d.floorNormals) w.i16(n[0]).i16(n[1]).i16(n[2]);
  for (const n of d.ceilingNormals) w.i16(n[0]).i16(n[1]).i16(n[2]);
  for (const b of d.trailing) w.u8(b);
  return w.finish();
}
