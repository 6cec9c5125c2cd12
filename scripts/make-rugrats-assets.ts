/**
 * Makes assets/worlds/rugrats/: the demo level and the hand-worked test level (each as a readable description,
 * *.level.json, and the COL the builder and writer make from it), and the hand-worked conformance trace.
 *
 *   node dist/scripts/make-rugrats-assets.js [outDir]     (default assets/worlds/rugrats)
 *
 * The trace's expected answers were worked out by hand from the format rules (the workings are the notes on
 * each line and docs/formats/rugrats-col.md); they are literal numbers here, not computed by the port.
 * test/worlds/rugrats/assets.test.ts checks that this script reproduces the committed files byte for byte.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { buildLevel, type CellDescription, type LevelDescription, type RoomDescription } from '../src/worlds/rugrats/level-builder.js';
import { writeCol } from '../src/worlds/rugrats/write.js';
import { traceLine } from '../src/worlds/rugrats/trace.js';

const open = (floor = 0, ceiling = 32): RoomDescription => ({ floor, ceiling });

/** The hand-worked level: 3 × 3 cells, max y 0 so a height byte b is at y = −128 b. */
export function handLevel(): LevelDescription {
  return {
    min: [0, -8192, 0],
    max: [3071, 0, 3071],
    cells: [
      { x: 0, z: 0, rooms: [open()] },
      { x: 0, z: 1, rooms: [open()] },
      // A room under a bridge (y 0 .. −1024) and one above it (y −2048 .. −4096).
      { x: 0, z: 2, rooms: [open(0, 8), open(16, 32)] },
      { x: 1, z: 0, rooms: [open()] },
      { x: 1, z: 1, rooms: [open()] },
      // A floor rising 512 across the tile along +x.
      { x: 1, z: 2, rooms: [{ floor: 0, ceiling: 32, floorRise: [512, 0] }] },
      // A raised floor at y −1024.
      { x: 2, z: 0, rooms: [open(8, 32)] },
      // Halved along x = z: half 0 (z < x) open, half 2 closed (a diagonal wall).
      { x: 2, z: 1, halved: { diagonal: 'x=z', low: [open()], high: [open(32, 32)] } },
      // (2, 2) is missing.
    ],
  };
}

/** The demo level: 12 × 10 cells with walls, a hole, steps, a ramp, a sloped ceiling, a bridge and halved cells. */
export function demoLevel(): LevelDescription {
  const cells: CellDescription[] = [];
  const W = 12;
  const D = 10;
  for (let x = 0; x < W; x++) {
    for (let z = 0; z < D; z++) {
      if (z === D - 1 && (x === 5 || x === 6)) continue; // a gap in the outer wall: missing tiles
      if (x === 6 && z === 6) continue; // a hole in the floor
      const border = x === 0 || z === 0 || x === W - 1 || z === D - 1;
      let cell: CellDescription;
      if (border) cell = { x, z, rooms: [open(40, 40)] }; // closed: a wall
      else if ((x === 8 || x === 9) && (z === 2 || z === 3)) cell = { x, z, rooms: [open(8, 40)] }; // platform
      else if (x === 7 && (z === 2 || z === 3)) cell = { x, z, rooms: [open(4, 40)] }; // a step up to it
      else if (x === 2 && z === 6) cell = { x, z, rooms: [{ floor: 0, ceiling: 40, floorRise: [512, 0] }] }; // ramp
      else if (x === 3 && z === 6) cell = { x, z, rooms: [{ floor: 4, ceiling: 40, floorRise: [512, 0] }] };
      else if ((x === 4 || x === 5) && (z === 6 || z === 7)) cell = { x, z, rooms: [{ floor: 0, ceiling: 32, ceilingRise: [0, 512] }] };
      else if ((x === 5 || x === 6) && (z === 3 || z === 4)) cell = { x, z, rooms: [open(0, 12), open(16, 40)] }; // bridge
      else if (x === 3 && z === 3) cell = { x, z, halved: { diagonal: 'x=z', low: [open(0, 40)], high: [open(40, 40)] } };
      else if (x === 4 && z === 2) {
        cell = { x, z, halved: { diagonal: 'x+z', low: [open(0, 40)], high: [{ floor: 8, ceiling: 40, floorRise: [256, 256] }] } };
      } else if (x === 9 && z === 6) {
        cell = { x, z, halved: { diagonal: 'x=z', low: [open(8, 40)], high: [open(0, 40)], first: 'high' } };
      } else if (x === 2 && z === 2) {
        cell = { x, z, halved: { diagonal: 'x+z', low: [open(40, 40)], high: [open(0, 40)], first: 'high' } };
      } else cell = { x, z, rooms: [open(0, 40)] };
      cells.push(cell);
    }
  }
  return { min: [0, -16384, 0], max: [W * 1024 - 1, 0, D * 1024 - 1], cells };
}

type V = [number, number, number];
const q = (pos: V, result: number, ceiling: number, floor: number, tile: number, note: string) =>
  traceLine({ op: 'query', pos, expect: { result, ceiling, floor, tile }, note });
const s = (from: V, to: V, expect: Record<string, unknown>, note: string) => traceLine({ op: 'segment', from, to, expect, note });

/** The hand-worked trace on hand.col (tile ids are file offsets: column 0's tiles at 4146.., column 1's at 4184.., column 2's at 4212..). */
export function handTrace(): string {
  const lines = [
    traceLine({ trace: 'rugrats-col', version: 1, db: 'hand.col' }),
    q([512, -100, 512], 0, -4096, 0, 4146, 'open room: -4096 < -100 < 0'),
    q([512, 100, 512], 2, 0, 0, 0, 'y below max y: outside'),
    q([2560, -500, 512], 1, -4096, -1024, 4212, 'under the raised floor of (2,0)'),
    q([2560, -1500, 512], 0, -4096, -1024, 4212, 'above the raised floor'),
    q([512, -3000, 2560], 0, -4096, -2048, 4170, 'upper room of (0,2): the lower room is skipped by the flat ceiling - 1024 test'),
    q([512, -500, 2560], 0, -1024, 0, 4162, 'lower room of (0,2)'),
    q([512, -1500, 2560], 1, -4096, -2048, 4170, 'inside the bridge slab: the upper tile, under its floor'),
    q([2560, -500, 2560], 1, 0, 0, 0, 'missing cell (2,2)'),
    q([2848, -500, 1124], 0, -4096, 0, 4220, 'halved (2,1), local (800,100): z < x, half 0, open'),
    q([2148, -500, 1924], 1, -4096, -4096, 4228, 'halved (2,1), local (100,900): half 2, closed'),
    q([1536, -100, 2560], 1, -4096, -257, 4200, 'ramp: normal (-1832,-3663,0), da 686, db -1145, t 1534, floor -1024 + 767'),
    q([1536, -300, 2560], 0, -4096, -257, 4200, 'ramp, above the sloped floor'),
    s([512, -500, 512], [1800, -500, 512], { result: 0, tile: 4184 }, 'through (0,0) into (1,0): only the tile is written'),
    s([1536, -500, 512], [2600, -500, 512], { result: 1, depth: 0, point: [2048, -500, 512], normal: [-4096, 0, 0], tile: 4212 }, 'enters (2,0) under its floor: a wall, the +x side normal'),
    s([512, -500, 512], [512, 500, 512], { result: 1, point: [512, 0, 512], normal: [0, -4096, 0], tile: 4146 }, 'vertical down: floor plane da 500, db -500, t 2048'),
    s([512, -500, 512], [512, -5000, 512], { result: 1, point: [512, -4095, 512], normal: [0, 4096, 0], tile: 4146 }, 'vertical up: ceiling da 3596, db -904, t 3273, y -500 - 3595'),
    s([512, -500, 512], [512, -500, 512], { result: 0, depth: 0, point: [0, 0, 0], normal: [0, 0, 0], tile: 4146 }, 'from == to'),
    s([2560, -500, 512], [512, -500, 512], { result: 2, depth: 524, point: [2560, -500, 512], normal: [4096, 0, 0], tile: 4212 }, 'from not open: depth -500 - -1024, VectorNormal(2048,0,0)'),
    s([512, 100, 512], [512, -500, 512], { result: 2, depth: 100, point: [512, 100, 512], normal: [0, 4116, 0], tile: 0 }, 'from outside: VectorNormal(0,600,0) = 3513 * 600 >> 9'),
    s([1536, -500, 2560], [2600, -500, 2560], { result: 1, point: [2023, -500, 2560], normal: [-1832, -3663, 0], tile: 4200 }, 'into the ramp: da 218, db -11, t 3899, x 1536 + 487'),
    s([1536, -1500, 2560], [2600, -1500, 2560], { result: 1, depth: 0, point: [2048, -1500, 2560], normal: [-4096, 0, 0], tile: 0 }, 'clear over the ramp, then the missing cell (2,2): no tile'),
    s([2848, -500, 1124], [2148, -500, 1924], { result: 1, depth: 0, point: [2522, -500, 1497], normal: [2896, 0, -2896], tile: 4228 }, 'across the diagonal of (2,1): crossing (474,473), wall of half 2, normal back into half 0'),
    s([512, -500, 2560], [512, -3000, 2560], { result: 1, point: [512, -1023, 2560], normal: [0, 4096, 0], tile: 4162 }, 'up into the bridge: ceiling da 524, db -1976, t 858'),
    s([512, -3000, 2560], [1536, -3000, 2560], { result: 0, tile: 4200 }, 'over the bridge onto the ramp cell, clear of both'),
  ];
  return lines.join('\n') + '\n';
}

/** Every asset file, by name, as bytes. */
export function rugratsAssets(): { name: string; bytes: Uint8Array }[] {
  const text = (t: string) => new TextEncoder().encode(t);
  const hand = handLevel();
  const demo = demoLevel();
  return [
    { name: 'hand.level.json', bytes: text(JSON.stringify(hand, null, 1) + '\n') },
    { name: 'hand.col', bytes: writeCol(buildLevel(hand)) },
    { name: 'hand-trace.jsonl', bytes: text(handTrace()) },
    { name: 'demo.level.json', bytes: text(JSON.stringify(demo, null, 1) + '\n') },
    { name: 'demo.col', bytes: writeCol(buildLevel(demo)) },
  ];
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const outDir = process.argv[2] ?? join('assets', 'worlds', 'rugrats');
  mkdirSync(outDir, { recursive: true });
  for (const a of rugratsAssets()) {
    writeFileSync(join(outDir, a.name), a.bytes);
    process.stdout.write(`${join(outDir, a.name)} ${a.bytes.length} bytes\n`);
  }
}
