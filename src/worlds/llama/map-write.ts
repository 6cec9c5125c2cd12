import { BinaryWriter } from '../../binary/writer.js';
import { chunkTagBytes } from './chunks.js';
import { REGION_COUNT, SWAP_FIELDS, type LlamaMap } from './map-parse.js';
import { floatBits } from '../../binary/float-bits.js';

/** The MAP payload from a parsed or built map (colours and tail written as stored). */
export function writeMapPayload(map: LlamaMap, w = new BinaryWriter()): BinaryWriter {
  const n = map.tileCount;
  w.u32(n).u32(map.width).u32(map.height);
  const pos = floatBits(map.floatPos); // floats as their bits (see float-bits.ts)
  for (let i = 0; i < n; i++) {
    w.f32bits(pos[i * 3]!).f32bits(pos[i * 3 + 1]!).f32bits(pos[i * 3 + 2]!);
    w.i32(map.floatRot[i]!).u32(map.floatModel[i]!).u32(map.hasAlt[i]!);
  }
  w.u32(map.params.length);
  for (let i = 0; i < map.params.length; i++) w.i32(map.params[i]!);
  w.u32(map.doorCount).bytes(map.doors);
  w.u32(map.waypointCount).bytes(map.waypoints);
  for (let i = 0; i < REGION_COUNT; i++) w.u32(map.regionMasks[i] ?? 0).i32(map.regionValues[i] ?? 0);
  for (let i = 0; i < map.cellRegions.length; i++) w.u32(map.cellRegions[i]!);
  for (let i = 0; i < n; i++) {
    for (let k = 0; k < 3; k++) w.i32(map.fixedRot[i * 3 + k]!);
    for (let k = 0; k < 3; k++) w.i32(map.fixedPos[i * 3 + k]!);
  }
  for (let i = 0; i < n; i++) w.u32(map.modelIndex[i]!);
  if (map.hasSwapBlock) {
    w.u32(map.swapCount);
    for (let i = 0; i < map.swapCount * SWAP_FIELDS; i++) w.i32(map.swaps[i]!);
  }
  for (let k = 0; k < map.colours.length; k++) w.u32(map.colours[k]!);
  w.bytes(map.tail);
  return w;
}

/** A .map file: the WFPC chunk (the flags the MAP layout depends on) followed by the MAP chunk. */
export function writeMapFile(map: LlamaMap): Uint8Array {
  const payload = writeMapPayload(map).finish();
  const w = new BinaryWriter(payload.length + 20);
  for (const b of chunkTagBytes('WFPC')) w.u8(b);
  w.u32(4).u32(map.wfpc);
  for (const b of chunkTagBytes('MAP ')) w.u8(b);
  w.u32(payload.length).bytes(payload);
  return w.finish();
}
