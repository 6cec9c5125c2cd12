/**
 * Each format's own features, as vector shapes on the map plane (native units): what the ground raster
 * cannot say by itself. Rugrats: the tile grid, the diagonals of halved cells and the stacks; Llama: the
 * cell grid and the visibility regions; COLBIN: the floor triangles, the wall boxes and the wall grid; GTA:
 * the meshes' faces, the spheres and the boxes of every placement; Piney: the hills, the objects by kind,
 * the entrance, the lake and its water, the start and the covers.
 *
 * Pure data (no pixi.js): Node tests check the shapes; the Pixi layer draws them once per world.
 */
import type { CollisionWorld } from '../../worlds/world.js';
import type { RugratsWorld } from '../../worlds/rugrats/collision-world.js';
import { FLAG_DIAGONAL_SUM, FLAG_HALVED, FLAG_LAST, TILE_UNITS } from '../../worlds/rugrats/layout.js';
import type { LlamaWorld } from '../../worlds/llama/collision-world.js';
import { cellRegion } from '../../worlds/llama/regions.js';
import type { ColbinWorld } from '../../worlds/colbin/collision-world.js';
import type { GtaWorld } from '../../worlds/gta/collision-world.js';
import type { PineyWorld } from '../../worlds/piney/collision-world.js';
import { CELL_UNITS, CHIP_UNITS, CHIPS } from '../../worlds/piney/field-state.js';
import { pineyScene } from '../../worlds/piney/scene.js';
import { mapPlaneOf, type MapPlane } from './projection.js';

/**
 * The overlays' colours by feature (0xRRGGBB), shared with the legend. Alphas are the shapes' own.
 */
export const OVERLAY_COLOURS = {
  rugratsGrid: 0x000000,
  rugratsHalves: 0x1a1a1a,
  rugratsStack: 0xb39ddb,
  llamaGrid: 0x000000,
  colbinFloors: 0x0b1a2a,
  colbinWall: 0x8d4a43,
  colbinWallEdge: 0xffab91,
  colbinGrid: 0x66ccff,
  gtaFaces: 0x10202a,
  gtaSphere: 0x9fa8da,
  gtaSphereEdge: 0xe8eaf6,
  gtaBox: 0xbcaaa4,
  gtaBoxEdge: 0xd7ccc8,
  pineyHidden: 0x10141a,
  pineyChips: 0x000000,
  pineyHill: 0xfff59d,
  pineyCover: 0x1b5e20,
  pineyWater: 0x1e88e5,
  pineyWaterEdge: 0x0277bd,
  pineyStart: 0xdde3ea,
} as const;

/** The border between two visibility regions of a Llama track. */
export const REGION_BORDER = 0xff80ab;

/** Strokes are drawn one screen pixel wide whatever the zoom; colours are 0xRRGGBB. */
export type Shape =
  | { kind: 'lines'; layer: string; segments: number[]; colour: number; alpha: number }
  | { kind: 'poly'; layer: string; points: number[]; fill: number | null; fillAlpha: number; stroke: number | null; strokeAlpha: number }
  | { kind: 'circle'; layer: string; x: number; y: number; r: number; fill: number | null; fillAlpha: number; stroke: number | null; strokeAlpha: number };

/** A world's format-specific drawing over the ground (cells, polygons, walls, objects), in map coordinates. */
export interface Overlay {
  shapes: Shape[];
  /** Named points worth a label (entrance, start, ...), map coordinates. */
  markers: { x: number; y: number; label: string; colour: number }[];
}

function lines(layer: string, segments: number[], colour: number, alpha: number): Shape {
  return { kind: 'lines', layer, segments, colour, alpha };
}

function poly(layer: string, points: number[], fill: number | null, fillAlpha: number, stroke: number | null, strokeAlpha = 1): Shape {
  return { kind: 'poly', layer, points, fill, fillAlpha, stroke, strokeAlpha };
}

function circle(layer: string, x: number, y: number, r: number, fill: number | null, fillAlpha: number, stroke: number | null, strokeAlpha = 1): Shape {
  return { kind: 'circle', layer, x, y, r, fill, fillAlpha, stroke, strokeAlpha };
}

/** A colour per small integer, spread around the hue circle (regions, object kinds). */
export function paletteColour(i: number): number {
  const hue = ((i * 0.61803398875) % 1) * 6;
  const k = Math.floor(hue);
  const f = hue - k;
  const v = 230;
  const p = 70;
  const q = Math.round(v - (v - p) * f);
  const t = Math.round(p + (v - p) * f);
  const rgb = [
    [v, t, p],
    [q, v, p],
    [p, v, t],
    [p, q, v],
    [t, p, v],
    [v, p, q],
  ][k % 6]!;
  return (rgb[0]! << 16) | (rgb[1]! << 8) | rgb[2]!;
}

/** Convex hull of 2D points (monotone chain), counter-clockwise, as a flat list. */
export function convexHull(flat: readonly number[]): number[] {
  const pts: [number, number][] = [];
  for (let i = 0; i + 1 < flat.length; i += 2) pts.push([flat[i]!, flat[i + 1]!]);
  pts.sort((a, b) => a[0] - b[0] || a[1] - b[1]);
  if (pts.length < 3) return pts.flat();
  const cross = (o: [number, number], a: [number, number], b: [number, number]) => (a[0] - o[0]) * (b[1] - o[1]) - (a[1] - o[1]) * (b[0] - o[0]);
  const lower: [number, number][] = [];
  for (const p of pts) {
    while (lower.length >= 2 && cross(lower[lower.length - 2]!, lower[lower.length - 1]!, p) <= 0) lower.pop();
    lower.push(p);
  }
  const upper: [number, number][] = [];
  for (let i = pts.length - 1; i >= 0; i--) {
    const p = pts[i]!;
    while (upper.length >= 2 && cross(upper[upper.length - 2]!, upper[upper.length - 1]!, p) <= 0) upper.pop();
    upper.push(p);
  }
  return [...lower.slice(0, -1), ...upper.slice(0, -1)].flat();
}

export function rugratsOverlay(world: RugratsWorld): Overlay {
  const ix = world.index;
  const grid: number[] = [];
  const diagonals: number[] = [];
  const shapes: Shape[] = [];
  const x1 = ix.maxX + 1;
  const z1 = ix.maxZ + 1;
  for (let x = ix.minX; x <= x1; x += TILE_UNITS) grid.push(x, ix.minZ, x, z1);
  for (let z = ix.minZ; z <= z1; z += TILE_UNITS) grid.push(ix.minX, z, x1, z);
  shapes.push(lines('grid', grid, OVERLAY_COLOURS.rugratsGrid, 0.25));
  for (let c = 0; c + 1 < ix.colCellStart.length; c++) {
    const x0 = ix.minX + c * TILE_UNITS;
    for (let cell = ix.colCellStart[c]!; cell < ix.colCellStart[c + 1]!; cell++) {
      const z0 = ix.minZ + ix.cellZ[cell]! * TILE_UNITS;
      const a = ix.cellStackA[cell]!;
      const f = ix.tileFlags[a]!;
      if (f & FLAG_HALVED) {
        if (f & FLAG_DIAGONAL_SUM) diagonals.push(x0 + TILE_UNITS, z0, x0, z0 + TILE_UNITS);
        else diagonals.push(x0, z0, x0 + TILE_UNITS, z0 + TILE_UNITS);
      }
      // A stack of more than one tile (floors above floors): a ring, larger for deeper stacks.
      let depth = 1;
      for (let t = a; t < ix.tileFlags.length && !(ix.tileFlags[t]! & FLAG_LAST) && depth < 256; t++) depth++;
      if (depth > 1) shapes.push(circle('stacks', x0 + TILE_UNITS / 2, z0 + TILE_UNITS / 2, Math.min(TILE_UNITS * 0.45, 90 + 60 * depth), null, 0, OVERLAY_COLOURS.rugratsStack, 0.9));
    }
  }
  shapes.push(lines('halves', diagonals, OVERLAY_COLOURS.rugratsHalves, 0.8));
  return { shapes, markers: [] };
}

export function llamaOverlay(world: LlamaWorld): Overlay {
  const m = world.map;
  const shapes: Shape[] = [];
  const grid: number[] = [];
  for (let x = 0; x <= m.width; x++) grid.push(x, 0, x, m.height);
  for (let z = 0; z <= m.height; z++) grid.push(0, z, m.width, z);
  // The borders between cells of different visibility regions (one colour: which region a cell is in, the
  // inspector says; a colour per region would give a dozen colours a meaning each).
  const borders: number[] = [];
  for (let z = 0; z < m.height; z++) {
    for (let x = 0; x < m.width; x++) {
      const r = cellRegion(m, x + z * m.width);
      if (x + 1 < m.width && cellRegion(m, x + 1 + z * m.width) !== r) borders.push(x + 1, z, x + 1, z + 1);
      if (z + 1 < m.height && cellRegion(m, x + (z + 1) * m.width) !== r) borders.push(x, z + 1, x + 1, z + 1);
    }
  }
  shapes.push(lines('grid', grid, OVERLAY_COLOURS.llamaGrid, 0.35));
  if (borders.length) shapes.push(lines('regions', borders, REGION_BORDER, 0.9));
  return { shapes, markers: [] };
}

export function colbinOverlay(world: ColbinWorld): Overlay {
  const f = world.file;
  const plane = mapPlaneOf(world);
  const shapes: Shape[] = [];
  const tri: number[] = [];
  const v = f.floorVertices;
  const px = (i: number) => v[i + plane.ax]!;
  const py = (i: number) => plane.ySign * v[i + plane.ay]!;
  for (let t = 0; t < f.floorCount; t++) {
    const b = t * 9;
    tri.push(px(b), py(b), px(b + 3), py(b + 3), px(b + 3), py(b + 3), px(b + 6), py(b + 6), px(b + 6), py(b + 6), px(b), py(b));
  }
  shapes.push(lines('floors', tri, OVERLAY_COLOURS.colbinFloors, 0.45));
  for (let w = 0; w < f.wallCount; w++) {
    const c = [f.wallCenters[w * 3]!, f.wallCenters[w * 3 + 1]!, f.wallCenters[w * 3 + 2]!];
    const corners: number[] = [];
    for (let s = 0; s < 8; s++) {
      const p = [c[0]!, c[1]!, c[2]!];
      for (let k = 0; k < 3; k++) {
        const sign = s & (1 << k) ? 1 : -1;
        const half = f.wallHalfExtents[w * 3 + k]!;
        // Axes are FP12 (4096 = 1).
        for (let d = 0; d < 3; d++) p[d]! += (sign * half * f.wallAxes[w * 9 + k * 3 + d]!) / 4096;
      }
      corners.push(p[plane.ax]!, plane.ySign * p[plane.ay]!);
    }
    shapes.push(poly('walls', convexHull(corners), OVERLAY_COLOURS.colbinWall, 0.55, OVERLAY_COLOURS.colbinWallEdge, 0.9));
  }
  const g = f.grid;
  if (g) {
    const gl: number[] = [];
    const xs = g.originX;
    const zs = g.originZ;
    for (let i = 0; i <= g.width; i++) gl.push(xs + i * g.cellSize, zs, xs + i * g.cellSize, zs + g.height * g.cellSize);
    for (let j = 0; j <= g.height; j++) gl.push(xs, zs + j * g.cellSize, xs + g.width * g.cellSize, zs + j * g.cellSize);
    // The grid is in x, z; on this plane z is map y times ySign.
    if (plane.ySign < 0) for (let i = 1; i < gl.length; i += 2) gl[i] = -gl[i]!;
    shapes.push(lines('grid', gl, OVERLAY_COLOURS.colbinGrid, 0.35));
  }
  return { shapes, markers: [] };
}

export function gtaOverlay(world: GtaWorld): Overlay {
  const sc = world.scene;
  const plane = mapPlaneOf(world);
  const shapes: Shape[] = [];
  const faces: number[] = [];
  const p = [0, 0, 0];
  const place = (inst: number, x: number, y: number, z: number): number[] => {
    const R = sc.instRot;
    const o = inst * 9;
    p[0] = R[o]! * x + R[o + 1]! * y + R[o + 2]! * z + sc.instPos[inst * 3]!;
    p[1] = R[o + 3]! * x + R[o + 4]! * y + R[o + 5]! * z + sc.instPos[inst * 3 + 1]!;
    p[2] = R[o + 6]! * x + R[o + 7]! * y + R[o + 8]! * z + sc.instPos[inst * 3 + 2]!;
    return p;
  };
  const mx = () => p[plane.ax]!;
  const my = () => plane.ySign * p[plane.ay]!;
  for (let inst = 0; inst < sc.instanceCount; inst++) {
    const model = sc.models[sc.instModel[inst]!]!;
    const mesh = model.mesh;
    const vs = mesh.vertices;
    for (let f = 0; f < mesh.faceCount && faces.length < 600_000; f++) {
      const pts: number[] = [];
      for (let k = 0; k < 3; k++) {
        const vi = mesh.indices[f * 3 + k]! * 3;
        place(inst, vs[vi]!, vs[vi + 1]!, vs[vi + 2]!);
        pts.push(mx(), my());
      }
      faces.push(pts[0]!, pts[1]!, pts[2]!, pts[3]!, pts[2]!, pts[3]!, pts[4]!, pts[5]!, pts[4]!, pts[5]!, pts[0]!, pts[1]!);
    }
    for (const s of model.spheres) {
      place(inst, s.center[0], s.center[1], s.center[2]);
      shapes.push(circle('spheres', mx(), my(), s.radius, OVERLAY_COLOURS.gtaSphere, 0.35, OVERLAY_COLOURS.gtaSphereEdge, 0.9));
    }
    for (const b of model.boxes) {
      const corners: number[] = [];
      for (let s = 0; s < 8; s++) {
        place(inst, s & 1 ? b.max[0] : b.min[0], s & 2 ? b.max[1] : b.min[1], s & 4 ? b.max[2] : b.min[2]);
        corners.push(mx(), my());
      }
      shapes.push(poly('boxes', convexHull(corners), OVERLAY_COLOURS.gtaBox, 0.45, OVERLAY_COLOURS.gtaBoxEdge, 0.9));
    }
  }
  shapes.unshift(lines('faces', faces, OVERLAY_COLOURS.gtaFaces, 0.35));
  return { shapes, markers: [] };
}

/** Object kinds' colours on the field. */
export const PINEY_OBJECT_COLOURS: Readonly<Record<string, number>> = {
  entrance: 0xff9e80,
  key: 0x00bfa5,
  sub: 0xb388ff,
  base: 0x8d6e63,
  tree: 0x2e7d32,
  lake: 0x29b6f6,
};

export function pineyOverlay(world: PineyWorld): Overlay {
  const sc = pineyScene(world);
  const plane = mapPlaneOf(world);
  const shapes: Shape[] = [];
  const markers: Overlay['markers'] = [];
  const Y = (y: number) => plane.ySign * y;
  // Chips with no ground tile drawn (check3), shaded dark.
  for (let i = 0; i < CHIPS; i++) {
    for (let j = 0; j < CHIPS; j++) {
      if (!sc.hidden[i * CHIPS + j]) continue;
      const x0 = i * CHIP_UNITS;
      const y0 = j * CHIP_UNITS;
      shapes.push(poly('hidden', [x0, Y(y0), x0 + CHIP_UNITS, Y(y0), x0 + CHIP_UNITS, Y(y0 + CHIP_UNITS), x0, Y(y0 + CHIP_UNITS)], OVERLAY_COLOURS.pineyHidden, 0.22, null));
    }
  }
  // The 40 × 40 chips (the generator's grid: objects, hills and covers sit on it).
  const chips: number[] = [];
  for (let i = 0; i <= CHIPS; i++) {
    chips.push(i * CHIP_UNITS, Y(0), i * CHIP_UNITS, Y(CHIPS * CHIP_UNITS));
    chips.push(0, Y(i * CHIP_UNITS), CHIPS * CHIP_UNITS, Y(i * CHIP_UNITS));
  }
  shapes.push(lines('chips', chips, OVERLAY_COLOURS.pineyChips, 0.12));
  for (const h of sc.hills) {
    const cx = (2 * (h.x >> 1) + h.size / 2) * CELL_UNITS;
    const cy = (2 * (h.y >> 1) + h.size / 2) * CELL_UNITS;
    shapes.push(circle('hills', cx, Y(cy), (h.size / 2) * CELL_UNITS, null, 0, OVERLAY_COLOURS.pineyHill, 0.7));
  }
  for (const o of sc.objects) {
    const x0 = o.chip[0] * CHIP_UNITS;
    const y0 = o.chip[1] * CHIP_UNITS;
    const x1 = x0 + o.size[0] * CHIP_UNITS;
    const y1 = y0 + o.size[1] * CHIP_UNITS;
    const colour = PINEY_OBJECT_COLOURS[o.kind] ?? 0xffffff;
    shapes.push(poly('objects', [x0, Y(y0), x1, Y(y0), x1, Y(y1), x0, Y(y1)], colour, 0.45, colour, 1));
  }
  for (const c of sc.covers) shapes.push(circle('covers', c.position[0], Y(c.position[1]), 90, OVERLAY_COLOURS.pineyCover, 0.55, null));
  if (sc.water) shapes.push(circle('water', sc.water[0], Y(sc.water[1]), 2.5 * CHIP_UNITS, OVERLAY_COLOURS.pineyWater, 0.35, OVERLAY_COLOURS.pineyWaterEdge, 0.9));
  const chipCentre = (c: [number, number]) => [(c[0] + 0.5) * CHIP_UNITS, Y((c[1] + 0.5) * CHIP_UNITS)] as const;
  if (sc.entrance) {
    const [x, y] = chipCentre(sc.entrance);
    markers.push({ x, y, label: 'entrance', colour: PINEY_OBJECT_COLOURS['entrance']! });
  }
  if (sc.lake) {
    const [x, y] = chipCentre(sc.lake);
    markers.push({ x, y, label: 'lake', colour: PINEY_OBJECT_COLOURS['lake']! });
  }
  markers.push({ x: sc.startPosition[0], y: Y(sc.startPosition[1]), label: 'start', colour: OVERLAY_COLOURS.pineyStart });
  return { shapes, markers };
}

/**
 * The overlay of a world, by its format: Rugrats' halved cells, Llama's regions, COLBIN's walls, GTA's spheres and
 * boxes, Piney's objects, hills and markers.
 */
export function overlayFor(world: CollisionWorld): Overlay {
  switch (world.kind) {
    case 'rugrats':
      return rugratsOverlay(world as RugratsWorld);
    case 'llama':
      return llamaOverlay(world as LlamaWorld);
    case 'colbin':
      return colbinOverlay(world as ColbinWorld);
    case 'gta':
      return gtaOverlay(world as GtaWorld);
    case 'piney':
      return pineyOverlay(world as PineyWorld);
    default:
      return { shapes: [], markers: [] };
  }
}

/** The plane the overlay's coordinates are on (for callers that only have the world). */
export function overlayPlane(world: CollisionWorld): MapPlane {
  return mapPlaneOf(world);
}
