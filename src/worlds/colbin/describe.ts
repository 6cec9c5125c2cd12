/**
 * Float views of a COLBIN file: positions / 128 (engine metres = Blender units), directions / 4096. Raw
 * integers stay in the file model; this is for people and JSON.
 */
import type { ColbinFile } from './types.js';

/** A COLBIN file for people and JSON: positions in metres (/128), directions as unit fractions (/4096). */
export interface ColbinDescription {
  version: number;
  floorCount: number;
  wallCount: number;
  grid: null | { originX: number; originZ: number; cellSize: number; width: number; height: number; references: number };
  /** Per wall: which axis index has the smallest half extent (the exporter's thin axis), counted. */
  thinAxisCounts: [number, number, number];
  floors: { vertices: number[][]; normal: number[] }[];
  walls: { center: number[]; axes: number[][]; halfExtents: number[]; flags: number }[];
}

const pos = (v: number): number => v / 128;
const dir = (v: number): number => v / 4096;

/** Describes a file model in metres; `floors` and `walls` list at most `maxItems` entries each. */
export function describeColbin(file: ColbinFile, maxItems = Infinity): ColbinDescription {
  const thin: [number, number, number] = [0, 0, 0];
  for (let i = 0; i < file.wallCount; i++) {
    const h = file.wallHalfExtents;
    let t = 0;
    for (let k = 1; k < 3; k++) if (h[i * 3 + k]! < h[i * 3 + t]!) t = k;
    thin[t]++;
  }
  const floors = [];
  for (let i = 0; i < Math.min(file.floorCount, maxItems); i++) {
    const v = file.floorVertices;
    floors.push({
      vertices: [0, 1, 2].map((j) => [pos(v[i * 9 + j * 3]!), pos(v[i * 9 + j * 3 + 1]!), pos(v[i * 9 + j * 3 + 2]!)]),
      normal: [dir(file.floorNormals[i * 3]!), dir(file.floorNormals[i * 3 + 1]!), dir(file.floorNormals[i * 3 + 2]!)],
    });
  }
  const walls = [];
  for (let i = 0; i < Math.min(file.wallCount, maxItems); i++) {
    walls.push({
      center: [0, 1, 2].map((k) => pos(file.wallCenters[i * 3 + k]!)),
      axes: [0, 1, 2].map((a) => [0, 1, 2].map((k) => dir(file.wallAxes[i * 9 + a * 3 + k]!))),
      halfExtents: [0, 1, 2].map((k) => pos(file.wallHalfExtents[i * 3 + k]!)),
      flags: file.wallFlags[i]!,
    });
  }
  const g = file.grid;
  return {
    version: file.version,
    floorCount: file.floorCount,
    wallCount: file.wallCount,
    grid: g ? { originX: g.originX, originZ: g.originZ, cellSize: g.cellSize, width: g.width, height: g.height, references: g.indices.length } : null,
    thinAxisCounts: thin,
    floors,
    walls,
  };
}
