/**
 * COLBIN writer: serialises a file model exactly in the layout the reader takes (no alignment anywhere, the
 * 15-byte header puts every later int32 at an odd offset). Version 1 writes no grid and 52-byte walls with
 * i16 axes; version 2 writes the grid (which must be present) and 64-byte walls.
 */
import { BinaryWriter } from '../../binary/writer.js';
import { COLBIN_MAGIC, colbinByteLength, type ColbinFile } from './types.js';

/**
 * Serialises a file model: `parseColbin(writeColbin(f))` equals f, and `writeColbin(parseColbin(bytes))` equals
 * bytes. Throws RangeError for a model whose arrays do not match its counts or whose values do not fit.
 */
export function writeColbin(file: ColbinFile): Uint8Array {
  checkModel(file);
  const w = new BinaryWriter(colbinByteLength(file));
  for (let i = 0; i < COLBIN_MAGIC.length; i++) w.u8(COLBIN_MAGIC.charCodeAt(i));
  w.u8(file.version);
  w.u32(file.floorCount);
  w.u32(file.wallCount);
  if (file.version === 2) {
    const g = file.grid!;
    w.i32(g.originX).i32(g.originZ).u32(g.cellSize).u16(g.width).u16(g.height);
    const cells = g.width * g.height;
    for (let c = 0; c < cells; c++) {
      const a = g.cellStart[c]!;
      const b = g.cellStart[c + 1]!;
      w.u16(b - a);
      for (let k = a; k < b; k++) w.u16(g.indices[k]!);
    }
  }
  for (let i = 0; i < file.floorCount; i++) {
    for (let k = 0; k < 9; k++) w.i32(file.floorVertices[i * 9 + k]!);
    for (let k = 0; k < 3; k++) w.i16(file.floorNormals[i * 3 + k]!);
    w.u16(file.floorPads[i]!);
  }
  for (let i = 0; i < file.wallCount; i++) {
    for (let k = 0; k < 3; k++) w.i32(file.wallCenters[i * 3 + k]!);
    for (let a = 0; a < 3; a++) {
      if (file.version === 1) {
        for (let k = 0; k < 3; k++) w.i16(file.wallAxes[i * 9 + a * 3 + k]!);
        w.u16(file.wallAxisPads[i * 3 + a] ?? 0);
      } else {
        for (let k = 0; k < 3; k++) w.i32(file.wallAxes[i * 9 + a * 3 + k]!);
      }
    }
    for (let k = 0; k < 3; k++) w.i32(file.wallHalfExtents[i * 3 + k]!);
    w.u32(file.wallFlags[i]!);
  }
  return w.finish();
}

/** A model the writer cannot express faithfully is a programming error, not bad input: RangeError. */
function checkModel(file: ColbinFile): void {
  const fail = (m: string): never => {
    throw new RangeError(`writeColbin: ${m}`);
  };
  if (file.version !== 1 && file.version !== 2) fail(`version ${String(file.version)} is not 1 or 2`);
  if (file.floorVertices.length !== file.floorCount * 9 || file.floorNormals.length !== file.floorCount * 3 || file.floorPads.length !== file.floorCount) {
    fail('floor arrays do not match floorCount');
  }
  if (file.wallCenters.length !== file.wallCount * 3 || file.wallAxes.length !== file.wallCount * 9 || file.wallHalfExtents.length !== file.wallCount * 3 || file.wallFlags.length !== file.wallCount) {
    fail('wall arrays do not match wallCount');
  }
  if (file.version === 1) {
    for (let i = 0; i < file.wallAxes.length; i++) {
      const v = file.wallAxes[i]!;
      if (v < -32768 || v > 32767) fail(`version 1 stores axes as i16, but wall ${Math.floor(i / 9)} has component ${v}`);
    }
    return;
  }
  const g = file.grid;
  if (!g) return fail('version 2 needs a grid (use buildGrid)');
  if (g.width > 0xffff || g.height > 0xffff) fail('grid dimensions exceed u16');
  if (g.cellStart.length !== g.width * g.height + 1 || g.cellStart[g.width * g.height] !== g.indices.length) fail('grid cellStart does not match the grid size');
  for (let c = 0; c < g.width * g.height; c++) {
    if (g.cellStart[c + 1]! - g.cellStart[c]! > 0xffff) fail(`grid cell ${c} holds more than 65535 indices`);
  }
  for (let k = 0; k < g.indices.length; k++) if (g.indices[k]! >= file.wallCount) fail(`grid index ${g.indices[k]} is not below the wall count`);
}
