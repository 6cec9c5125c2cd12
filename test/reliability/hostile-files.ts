/**
 * Generators of hostile input files for the regression tests (test/reliability/hostile-inputs.test.ts): each
 * is written into a temporary folder by the test that needs it, never committed. Big files are written in
 * chunks, so the generator itself never holds one in memory.
 */
import { closeSync, ftruncateSync, openSync, writeFileSync, writeSync } from 'node:fs';
import { crc32 } from '../../src/binary/crc32.js';
import { buildColFromDescription } from '../../src/worlds/gta/describe.js';
import { writeColFile } from '../../src/worlds/gta/write.js';

/**
 * A placements JSON of at least `bytes` bytes: one well-formed entry repeated (the shape a converter writes),
 * so that nothing but its size is wrong.
 */
export function writeBigPlacements(path: string, bytes: number, model = 'town_house'): number {
  const fd = openSync(path, 'w');
  const entry = `{"model":${JSON.stringify(model)},"position":[12.25,-3.5,0.125],"rotation":[0,0,0.7071067811865476,0.7071067811865476]},\n`;
  const chunk = Buffer.from(entry.repeat(Math.ceil((1 << 20) / entry.length)));
  let written = writeSync(fd, '{"placements":[\n');
  while (written < bytes) written += writeSync(fd, chunk);
  written += writeSync(fd, `{"model":${JSON.stringify(model)},"position":[0,0,0]}]}\n`);
  closeSync(fd);
  return written;
}

/** A placements file of exactly `bytes` bytes that starts like one and is sparse after (its size is all that counts). */
export function writeSparsePlacements(path: string, bytes: number): void {
  const fd = openSync(path, 'w');
  writeSync(fd, '{"placements":[');
  ftruncateSync(fd, bytes);
  closeSync(fd);
}

/** `[{},{},…]` filling `bytes`: tiny values, the most a JSON parser allocates per byte. */
export function writeTinyValues(path: string, bytes: number): void {
  const fd = openSync(path, 'w');
  const chunk = Buffer.from('{},'.repeat(1 << 18));
  let written = writeSync(fd, '[');
  while (written + chunk.length + 3 < bytes) written += writeSync(fd, chunk);
  writeSync(fd, '{}]');
  closeSync(fd);
}

/** `count` placements of one model at one spot, compact JSON (100,000 of them are about 6 MB). */
export function writeOneSpotPlacements(path: string, count: number, model: string, at: readonly [number, number, number]): void {
  const fd = openSync(path, 'w');
  const entry = `{"model":${JSON.stringify(model)},"position":[${at.join(',')}]}`;
  writeSync(fd, '{"placements":[');
  const perChunk = 4096;
  for (let i = 0; i < count; i += perChunk) {
    const n = Math.min(perChunk, count - i);
    writeSync(fd, (i > 0 ? ',' : '') + new Array<string>(n).fill(entry).join(','));
  }
  writeSync(fd, ']}');
  closeSync(fd);
}

/** A Llama level description asking for a `width` × `height` grid and nothing else. */
export function llamaGridDescription(width: number, height: number): string {
  return JSON.stringify({ name: 'huge grid', width, height, models: [], tiles: [] });
}

/** The start of a real PNG: signature and an IHDR chunk with its CRC (a picture, not a collision file). */
export function pngBytes(width = 16, height = 16): Uint8Array {
  const ihdr = new Uint8Array(17);
  const v = new DataView(ihdr.buffer);
  ihdr.set([0x49, 0x48, 0x44, 0x52]); // "IHDR"
  v.setUint32(4, width);
  v.setUint32(8, height);
  ihdr.set([8, 6, 0, 0, 0], 12); // 8-bit RGBA
  const out = new Uint8Array(8 + 4 + 17 + 4 + 12);
  const o = new DataView(out.buffer);
  out.set([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
  o.setUint32(8, 13);
  out.set(ihdr, 12);
  o.setUint32(29, crc32(ihdr) >>> 0);
  // IEND
  o.setUint32(33, 0);
  out.set([0x49, 0x45, 0x4e, 0x44], 37);
  o.setUint32(41, crc32(out, 37, 41) >>> 0);
  return out;
}

/**
 * An OBJ of three vertices and one face line of `indices` vertex indices (`f 1 2 3 1 2 3 …`), written in
 * chunks. Returns the face line's length in characters.
 */
export function writeOneFaceObj(path: string, indices: number): number {
  const fd = openSync(path, 'w');
  writeSync(fd, 'v 0 0 0\nv 1 0 0\nv 0 0 -1\nf');
  const triple = ' 1 2 3';
  const chunk = triple.repeat(1 << 16);
  let left = indices;
  for (; left >= (1 << 16) * 3; left -= (1 << 16) * 3) writeSync(fd, chunk);
  const tail = triple.repeat(Math.floor(left / 3)) + ' 1 2 3'.slice(0, (left % 3) * 2);
  writeSync(fd, `${tail}\n`);
  closeSync(fd);
  return 1 + indices * 2;
}

/** A file of exactly `bytes` bytes that starts with `head` and is sparse after: its size is all that counts. */
export function writeSparseFile(path: string, head: string, bytes: number): void {
  const fd = openSync(path, 'w');
  writeSync(fd, head);
  ftruncateSync(fd, bytes);
  closeSync(fd);
}

/** A JSON model description whose mesh lists `count` vertices `[0,0,0]` (four JSON values each), in chunks. */
export function writeManyVerticesJson(path: string, count: number): void {
  const fd = openSync(path, 'w');
  writeSync(fd, '{"version":1,"name":"many","mesh":{"faces":[],"vertices":[[0,0,0]');
  const chunk = ',[0,0,0]'.repeat(1 << 16);
  let left = count - 1;
  for (; left >= 1 << 16; left -= 1 << 16) writeSync(fd, chunk);
  writeSync(fd, `${',[0,0,0]'.repeat(left)}]}}\n`);
  closeSync(fd);
}

/**
 * A GTA COLL file of one model, `ball`, made of `spheres` small spheres, and `<stem>.placements.json` beside
 * it placing that model `placements` times (a sphere exports as 168 triangles). Returns the two files' bytes.
 */
export function writeSphereTown(col: string, placementsPath: string, spheres: number, placements: number): number {
  const model = { version: 1, name: 'ball', spheres: Array.from({ length: spheres }, (_, i) => ({ center: [i % 16, (i >> 4) % 16, i >> 8], radius: 0.5 })) };
  const bytes = writeColFile(buildColFromDescription(model).models);
  writeFileSync(col, bytes);
  const list = Array.from({ length: placements }, (_, i) => `{"model":"ball","position":[${(i % 20) * 20},${Math.floor(i / 20) * 20},0]}`);
  const text = `{"placements":[${list.join(',')}]}`;
  writeFileSync(placementsPath, text);
  return bytes.length + text.length;
}
