/**
 * The inspector's answers, as plain data: what the world's own queries say at a map point, and what an entity
 * is. Hovering asks `ground` at the point under the cursor (in native units, the same call `retrosim world
 * ground FILE x y z` makes); clicking a tile asks the format's own data there (the Rugrats stack with its
 * halves and heights, the Llama cell's tiles and polygons with their materials, the COLBIN triangle or wall,
 * the GTA face and surface, the Piney cell and chip); clicking an entity reads its components, its behaviour
 * and its sight.
 *
 * Everything here reads: queries keep no simulation state (their scratch buffers are not state), component
 * arrays are read, the controller's behaviours come from the scheduler's `save()` (a copy).
 */
import type { Simulation } from '../../sim/simulation.js';
import { Behaviour } from '../../systems/controller.js';
import { newGroundResult, type CollisionWorld, type GroundResult, type Vec3 } from '../../worlds/world.js';
import type { RugratsWorld } from '../../worlds/rugrats/collision-world.js';
import { CELL_MISSING, CELL_OUTSIDE, ceilingAt, floorAt, halfAt, locateCell, queryCol, Q_CEILING, Q_FLOOR, Q_TILE } from '../../worlds/rugrats/query.js';
import { FLAG_DIAGONAL_SUM, FLAG_HALF_MASK, FLAG_HALF_SHIFT, FLAG_HALVED, FLAG_LAST, TILE_UNITS } from '../../worlds/rugrats/layout.js';
import type { LlamaWorld } from '../../worlds/llama/collision-world.js';
import { positionCellOf } from '../../worlds/llama/conventions.js';
import { MATERIAL_DEATH, MATERIAL_EXIT, MATERIAL_NORMAL, MATERIAL_SPECIAL_A, MATERIAL_SPECIAL_B } from '../../worlds/llama/materials.js';
import { cellRegion } from '../../worlds/llama/regions.js';
import type { ColbinWorld } from '../../worlds/colbin/collision-world.js';
import type { GtaWorld } from '../../worlds/gta/collision-world.js';
import { newGtaGroundResult, type GtaGroundResult } from '../../worlds/gta/collision-world.js';
import { HIT_BOX, HIT_FACE, HIT_SPHERE } from '../../worlds/gta/bvh.js';
import type { PineyWorld } from '../../worlds/piney/collision-world.js';
import { CELL_UNITS, CELLS, CHIP_UNITS, CHIPS } from '../../worlds/piney/field-state.js';
import type { EntityFrame } from './entities.js';
import { newGroundSample, probeHeight, rugratsSampler, samplerFor } from './ground-sampler.js';
import { convexHull } from './overlays.js';
import { gtaSurfaceName, metresText, metresUp } from './plain-words.js';
import { mapPlaneOf, mapX, mapY, worldAt, type MapPlane } from './projection.js';

/** The ground answer at a point, as `retrosim world ground --json` prints it (null for non-finite numbers). */
export interface GroundAnswer {
  hasFloor: boolean;
  floor: number | null;
  ceiling: number | null;
  material: number;
  id: number;
  status: number;
}

/** What hovering a map point shows. */
export interface ProbeAnswer {
  /** The map point (map units). */
  map: [number, number];
  /** The native point the ground query was asked at (x, y, z). */
  point: Vec3;
  ground: GroundAnswer;
  /** A short name of what the id is in this format (tile, polygon's tile, triangle, face, cell triangle). */
  idName: string;
  /** The material's name where the format names it ("" otherwise). */
  materialName: string;
  /** The height the picture shows there ("higher is more": the view's sampler), null where it shows none. */
  drawnHeight: number | null;
}

const fin = (v: number): number | null => (Number.isFinite(v) ? v : null);

/** A GroundResult as the CLI's JSON has it. */
export function groundAnswer(g: GroundResult): GroundAnswer {
  return { hasFloor: g.hasFloor, floor: fin(g.floor), ceiling: fin(g.ceiling), material: g.material, id: g.id, status: g.status };
}

/** Llama's named materials. */
export function llamaMaterialName(m: number): string {
  switch (m) {
    case MATERIAL_NORMAL:
      return 'normal';
    case MATERIAL_EXIT:
      return 'exit floor';
    case MATERIAL_SPECIAL_A:
      return 'special (17)';
    case MATERIAL_SPECIAL_B:
      return 'special (18)';
    case MATERIAL_DEATH:
      return 'death plane';
    default:
      return `material ${m}`;
  }
}

const ID_NAMES: Readonly<Record<string, string>> = {
  rugrats: 'tile (file offset)',
  llama: 'tile of the floor polygon',
  colbin: 'floor triangle',
  gta: 'face, sphere or box index',
  piney: 'cell triangle ((ix × 80 + iy) × 2 + T)',
};

/**
 * The native point the inspector asks at for map (mx, my): the two horizontal coordinates (whole units in
 * integer worlds, as the CLI reads them) and, along up, `probeHeight` (just above the top of a float
 * world's bounds, just inside an integer world's: the floor is at or below the point), except for Rugrats,
 * whose query answers only in the open: there the point is one unit above the highest floor of the stack
 * under it (where that floor has no room above it, the query says "closed", and the inspector shows that).
 */
export function probePoint(world: CollisionWorld, mx: number, my: number, plane: MapPlane = mapPlaneOf(world)): Vec3 {
  const p = worldAt(plane, mx, my, probeHeight(world, plane));
  if (world.integer) {
    p[plane.ax] = Math.floor(p[plane.ax]) + 0;
    p[plane.ay] = Math.floor(p[plane.ay]) + 0;
  }
  if (world.kind === 'rugrats') {
    const s = rugratsSampler(world as RugratsWorld)(mapX(plane, p), mapY(plane, p), newGroundSample());
    // The sampler's height is "higher is more" (−y); one unit above that floor is y − 1.
    if (Number.isFinite(s.height)) p[plane.up] = -s.height - 1;
  }
  return p;
}

/** The hover answer at map (mx, my): the probe point and the world's `ground` there. */
export function probeAt(world: CollisionWorld, mx: number, my: number, plane: MapPlane = mapPlaneOf(world)): ProbeAnswer {
  const point = probePoint(world, mx, my, plane);
  const g = world.ground(point, world.kind === 'gta' ? newGtaGroundResult() : newGroundResult());
  const a = groundAnswer(g);
  return {
    map: [mx, my],
    point,
    ground: a,
    idName: ID_NAMES[world.kind] ?? 'id',
    materialName: world.kind === 'llama' && a.hasFloor ? llamaMaterialName(a.material) : world.kind === 'gta' && a.hasFloor ? `surface material ${a.material}` : '',
    drawnHeight: fin(samplerFor(world, probeHeight(world, plane))(mx, my, newGroundSample()).height),
  };
}

/** A highlight of what was clicked, on the map plane. */
export type Highlight = { kind: 'poly'; points: number[] } | { kind: 'circle'; x: number; y: number; r: number };

/** What clicking a tile shows: a title, rows of (label, value), and what to highlight. */
export interface TileInfo {
  kind: CollisionWorld['kind'];
  title: string;
  /** What it is in plain words (heights in metres, materials by name); the rows keep the format's detail. */
  plain: string;
  rows: [string, string][];
  highlights: Highlight[];
}

const rect = (x0: number, y0: number, x1: number, y1: number): Highlight => ({ kind: 'poly', points: [x0, y0, x1, y0, x1, y1, x0, y1] });
const num = (v: number, digits = 3): string => (Number.isFinite(v) ? (Number.isInteger(v) ? String(v) : v.toFixed(digits)) : 'none');

/** The world's own data at map (mx, my), by format. */
export function describeAt(world: CollisionWorld, mx: number, my: number): TileInfo {
  switch (world.kind) {
    case 'rugrats':
      return describeRugrats(world as RugratsWorld, mx, my);
    case 'llama':
      return describeLlama(world as LlamaWorld, mx, my);
    case 'colbin':
      return describeColbin(world as ColbinWorld, mx, my);
    case 'gta':
      return describeGta(world as GtaWorld, mx, my);
    case 'piney':
      return describePiney(world as PineyWorld, mx, my);
    default:
      return { kind: world.kind, title: world.kind, plain: world.kind, rows: [], highlights: [] };
  }
}

const sq = new Int32Array(4);

/** Tiles in the stack from `first` (to its last-tile flag). */
function stackSize(flags: ArrayLike<number>, first: number): number {
  let n = 0;
  for (let t = first; t < flags.length && n < 64; t++) {
    n++;
    if (flags[t]! & FLAG_LAST) break;
  }
  return n;
}

function describeRugrats(world: RugratsWorld, mx: number, my: number): TileInfo {
  const ix = world.index;
  const x = Math.floor(mx);
  const z = Math.floor(my);
  const rows: [string, string][] = [['point', `x ${x}, z ${z}`]];
  const highlights: Highlight[] = [];
  const cell = locateCell(ix, x, ix.minY, z);
  const col = Math.floor((x - ix.minX) / TILE_UNITS);
  const zc = Math.floor((z - ix.minZ) / TILE_UNITS);
  rows.push(['cell', `column ${col}, z cell ${zc}`]);
  if (cell === CELL_OUTSIDE || cell === CELL_MISSING) {
    rows.push(['stack', cell === CELL_OUTSIDE ? 'outside the level (no column)' : 'missing: the column has no cell here']);
    return { kind: 'rugrats', title: `Rugrats cell ${col}, ${zc}`, plain: cell === CELL_OUTSIDE ? 'Outside the level: no floor here.' : 'A gap in the level: no floor here.', rows, highlights };
  }
  const x0 = ix.minX + col * TILE_UNITS;
  const z0 = ix.minZ + zc * TILE_UNITS;
  const a = ix.cellStackA[cell]!;
  const f = ix.tileFlags[a]!;
  const halved = (f & FLAG_HALVED) !== 0;
  if (halved) {
    const sum = (f & FLAG_DIAGONAL_SUM) !== 0;
    const half = halfAt(f, x, z);
    const firstHalf = (f & FLAG_HALF_MASK) >> FLAG_HALF_SHIFT;
    rows.push(['halves', `diagonal ${sum ? 'x + z = 1024' : 'x = z'}; the point is in half ${half} (stack ${half === firstHalf ? 'A' : 'B'})`]);
    // The point's half as a triangle.
    const X1 = x0 + TILE_UNITS;
    const Z1 = z0 + TILE_UNITS;
    const tri = sum ? (half === 1 ? [x0, z0, X1, z0, x0, Z1] : [X1, z0, X1, Z1, x0, Z1]) : half === 0 ? [x0, z0, X1, z0, X1, Z1] : [x0, z0, X1, Z1, x0, Z1];
    highlights.push({ kind: 'poly', points: tri });
  } else {
    rows.push(['halves', 'not halved: one stack']);
    highlights.push(rect(x0, z0, x0 + TILE_UNITS, z0 + TILE_UNITS));
  }
  const stacks: [string, number][] = [['A', a]];
  if (halved && ix.cellStackB[cell]! >= 0) stacks.push(['B', ix.cellStackB[cell]!]);
  for (const [name, first] of stacks) {
    const parts: string[] = [];
    for (let t = first, k = 0; t < ix.tileFlags.length && k < 64; t++, k++) {
      parts.push(`tile ${ix.tileOffset[t]}: floor ${floorAt(ix, t, x, z)}${ix.tileFloorSloped[t] ? ' (sloped)' : ''}, ceiling ${ceilingAt(ix, t, x, z)}${ix.tileCeilingSloped[t] ? ' (sloped)' : ''}`);
      if (ix.tileFlags[t]! & FLAG_LAST) break;
    }
    rows.push([`stack ${name}`, `${parts.length} tile${parts.length === 1 ? '' : 's'} (y points down, top first)`]);
    parts.forEach((p, i) => rows.push([`  ${i + 1}`, p]));
  }
  const p = probePoint(world, mx, my);
  const r = queryCol(ix, p[0], p[1], p[2], sq);
  rows.push(['query', `at y ${p[1]}: ${['open', 'closed', 'outside'][r] ?? r}, floor ${sq[Q_FLOOR]}, ceiling ${sq[Q_CEILING]}, tile ${sq[Q_TILE]}`]);
  const m = (v: number) => metresText(metresUp(world, v));
  const layers = ix.tileFlags.length > a ? stackSize(ix.tileFlags, a) : 1;
  const plain =
    r === 0
      ? `A floor tile of the level at ${m(sq[Q_FLOOR]!)}, ceiling ${metresText(Math.abs(metresUp(world, sq[Q_CEILING]!) - metresUp(world, sq[Q_FLOOR]!)))} above${halved ? '; the tile is cut along its diagonal' : ''}${layers > 1 ? `; ${layers} floors stacked here` : ''}.`
      : r === 1
        ? `A floor tile of the level at ${m(sq[Q_FLOOR]!)}, closed above: no room to stand.`
        : 'Outside the level: no floor here.';
  return { kind: 'rugrats', title: `Rugrats cell ${col}, ${zc}`, plain, rows, highlights };
}

function describeLlama(world: LlamaWorld, mx: number, my: number): TileInfo {
  const c = world.collision;
  const m = world.map;
  const x = mx;
  const z = my;
  const rows: [string, string][] = [['point', `x ${num(x)}, z ${num(z)}`]];
  const cell = positionCellOf(x, z, c.width, c.height);
  if (cell < 0) {
    rows.push(['cell', 'outside the grid']);
    return { kind: 'llama', title: 'Llama: outside the grid', plain: 'Outside the track: no floor here.', rows, highlights: [] };
  }
  const col = cell % c.width;
  const row = Math.floor(cell / c.width);
  rows.push(['cell', `column ${col}, row ${row} (cell ${cell})`]);
  rows.push(['region', String(cellRegion(m, cell))]);
  const top = probePoint(world, mx, my)[1];
  const g = c.query(x, z, top, top);
  const floorPoly = g.floorPoly;
  rows.push(['floor here', floorPoly >= 0 ? `${num(g.floor)} on polygon ${floorPoly} of tile ${c.polyTile[floorPoly]}, ${llamaMaterialName(c.material[floorPoly]!)}` : 'none']);
  const start = c.cellStart[cell]!;
  const end = c.cellStart[cell + 1]!;
  rows.push(['tiles', `${end - start} (highest first)`]);
  for (let t = start; t < end && t < start + 32; t++) {
    const tile = c.cellTiles[t]!;
    const variant = c.variant[tile]!;
    const f0 = c.rangeOf(tile, 0);
    const c0 = c.rangeOf(tile, 1);
    const w0 = c.rangeOf(tile, 2);
    const e0 = c.rangeOf(tile, 3);
    rows.push([`tile ${tile}`, `model ${m.modelIndex[tile]}${m.hasAlt[tile] ? `, swap ${variant ? 'on' : 'off'}` : ''}: ${c0 - f0} floor, ${w0 - c0} ceiling, ${e0 - w0} wall polygons`]);
    for (let p = f0; p < e0 && p < f0 + 24; p++) {
      const kind = p < c0 ? 'floor' : p < w0 ? 'ceiling' : 'wall';
      const h = kind === 'wall' ? NaN : c.surfaceHeight(p, x, z);
      const inside = kind !== 'wall' && Number.isFinite(h) && c.insideEdges(p, x, h, z, c.conventions.edgeEpsilon);
      rows.push([`  polygon ${p}`, `${kind}, ${llamaMaterialName(c.material[p]!)}${c.active[p] ? '' : ' (inactive)'}${inside ? `, at ${num(h)} under the point` : ''}`]);
    }
  }
  const plain = floorPoly >= 0 ? `Track floor at ${metresText(metresUp(world, g.floor))}, ${llamaMaterialName(c.material[floorPoly]!)}; ${end - start} piece${end - start === 1 ? '' : 's'} of track in this cell.` : `No floor here; ${end - start} piece${end - start === 1 ? '' : 's'} of track in this cell.`;
  return { kind: 'llama', title: `Llama cell ${col}, ${row}`, plain, rows, highlights: [rect(col, row, col + 1, row + 1)] };
}

/** Per COLBIN world, each wall's footprint on the map (the hull of its 8 corners), computed once. */
const wallHulls = new WeakMap<ColbinWorld, number[][]>();

function colbinWallHulls(world: ColbinWorld): number[][] {
  let h = wallHulls.get(world);
  if (h) return h;
  const f = world.file;
  const plane = mapPlaneOf(world);
  h = [];
  for (let w = 0; w < f.wallCount; w++) {
    const corners: number[] = [];
    for (let s = 0; s < 8; s++) {
      const p = [f.wallCenters[w * 3]!, f.wallCenters[w * 3 + 1]!, f.wallCenters[w * 3 + 2]!];
      for (let k = 0; k < 3; k++) {
        const sign = s & (1 << k) ? 1 : -1;
        const half = f.wallHalfExtents[w * 3 + k]!;
        for (let d = 0; d < 3; d++) p[d]! += (sign * half * f.wallAxes[w * 9 + k * 3 + d]!) / 4096;
      }
      corners.push(mapX(plane, p), mapY(plane, p));
    }
    h.push(convexHull(corners));
  }
  wallHulls.set(world, h);
  return h;
}

/** Whether (x, y) is inside a convex polygon (either winding), edges included. */
export function insideConvex(points: readonly number[], x: number, y: number): boolean {
  const n = points.length >> 1;
  if (n < 3) return false;
  let sign = 0;
  for (let i = 0; i < n; i++) {
    const ax = points[2 * i]!;
    const ay = points[2 * i + 1]!;
    const bx = points[(2 * ((i + 1) % n))]!;
    const by = points[(2 * ((i + 1) % n)) + 1]!;
    const c = (bx - ax) * (y - ay) - (by - ay) * (x - ax);
    if (c === 0) continue;
    const s = c > 0 ? 1 : -1;
    if (sign === 0) sign = s;
    else if (s !== sign) return false;
  }
  return true;
}

function describeColbin(world: ColbinWorld, mx: number, my: number): TileInfo {
  const f = world.file;
  const plane = mapPlaneOf(world);
  const p = probePoint(world, mx, my, plane);
  const rows: [string, string][] = [['point', `x ${p[0]}, z ${p[2]} (fixed point, 128 per metre)`]];
  const highlights: Highlight[] = [];
  const g = world.ground(p);
  const ceiling = world.lastCeilingId();
  const tri = (t: number): number[] => {
    const out: number[] = [];
    for (let k = 0; k < 3; k++) {
      const b = t * 9 + k * 3;
      out.push(mapX(plane, [f.floorVertices[b]!, f.floorVertices[b + 1]!, f.floorVertices[b + 2]!]), mapY(plane, [f.floorVertices[b]!, f.floorVertices[b + 1]!, f.floorVertices[b + 2]!]));
    }
    return out;
  };
  const verts = (t: number): string => {
    const v: string[] = [];
    for (let k = 0; k < 3; k++) {
      const b = t * 9 + k * 3;
      v.push(`(${f.floorVertices[b]}, ${f.floorVertices[b + 1]}, ${f.floorVertices[b + 2]})`);
    }
    return v.join(' ');
  };
  if (g.id >= 0) {
    rows.push(['floor triangle', `${g.id} at y ${num(g.floor)}`]);
    rows.push(['  vertices', verts(g.id)]);
    rows.push(['  normal', `(${f.floorNormals[g.id * 3]}, ${f.floorNormals[g.id * 3 + 1]}, ${f.floorNormals[g.id * 3 + 2]}) / 4096`]);
    highlights.push({ kind: 'poly', points: tri(g.id) });
  } else rows.push(['floor triangle', 'none under the point']);
  rows.push(['ceiling triangle', ceiling >= 0 ? `${ceiling} at y ${num(g.ceiling)}` : 'none above']);
  const hulls = colbinWallHulls(world);
  let walls = 0;
  for (let w = 0; w < hulls.length; w++) {
    if (!insideConvex(hulls[w]!, mx, my)) continue;
    walls++;
    if (walls <= 8) {
      rows.push([`wall ${w}`, `centre (${f.wallCenters[w * 3]}, ${f.wallCenters[w * 3 + 1]}, ${f.wallCenters[w * 3 + 2]}), half extents (${f.wallHalfExtents[w * 3]}, ${f.wallHalfExtents[w * 3 + 1]}, ${f.wallHalfExtents[w * 3 + 2]}), flags ${f.wallFlags[w]}`]);
      highlights.push({ kind: 'poly', points: hulls[w]! });
    }
  }
  if (walls === 0) rows.push(['walls', 'no wall box over the point']);
  const title = walls > 0 ? `COLBIN wall${walls > 1 ? 's' : ''} ${g.id >= 0 ? `over triangle ${g.id}` : ''}` : g.id >= 0 ? `COLBIN triangle ${g.id}` : 'COLBIN: no floor';
  const floorWords = g.id >= 0 ? `Floor of the yard at ${metresText(metresUp(world, g.floor))}` : 'No floor here';
  const ceilingWords = ceiling >= 0 ? `, a roof ${metresText(Math.abs(metresUp(world, g.ceiling) - metresUp(world, g.floor)))} above` : '';
  const plain = `${floorWords}${g.id >= 0 ? ceilingWords : ''}${walls > 0 ? `; ${walls === 1 ? 'a wall stands' : `${walls} walls stand`} here` : ''}.`;
  return { kind: 'colbin', title: title.trim(), plain, rows, highlights };
}

function describeGta(world: GtaWorld, mx: number, my: number): TileInfo {
  const plane = mapPlaneOf(world);
  const p = probePoint(world, mx, my, plane);
  const rows: [string, string][] = [['point', `x ${num(p[0])}, y ${num(p[1])} (metres)`]];
  const highlights: Highlight[] = [];
  const g = world.ground(p, newGtaGroundResult()) as GtaGroundResult;
  if (!g.hasFloor) {
    rows.push(['surface', 'nothing under the point']);
    return { kind: 'gta', title: 'GTA: no surface', plain: 'Nothing to stand on here.', rows, highlights };
  }
  // The floor cast again, to read what it hit (the ground call's last cast is the ceiling's).
  const sc = world.scene;
  const lowest = Math.min(p[2], world.bounds.min[2]) - 1;
  sc.segmentFraction(p[0], p[1], p[2], p[0], p[1], lowest);
  const L = sc.last;
  const inst = L.instance;
  const model = sc.models[sc.instModel[inst]!]!;
  const kind = L.kind === HIT_FACE ? 'face' : L.kind === HIT_SPHERE ? 'sphere' : L.kind === HIT_BOX ? 'box' : 'surface';
  rows.push(['model', `${model.name} (placement ${inst})`]);
  rows.push([kind, `${L.index} at z ${num(g.floor)}`]);
  rows.push(['normal', g.normal.map((v) => num(v)).join(', ')]);
  const R = sc.instRot;
  const place = (x: number, y: number, z: number): [number, number] => {
    const o = inst * 9;
    const w: Vec3 = [
      R[o]! * x + R[o + 1]! * y + R[o + 2]! * z + sc.instPos[inst * 3]!,
      R[o + 3]! * x + R[o + 4]! * y + R[o + 5]! * z + sc.instPos[inst * 3 + 1]!,
      R[o + 6]! * x + R[o + 7]! * y + R[o + 8]! * z + sc.instPos[inst * 3 + 2]!,
    ];
    return [mapX(plane, w), mapY(plane, w)];
  };
  let surface: { material: number; flag: number; brightness: number; light: number } | null = null;
  if (L.kind === HIT_FACE) {
    const mesh = model.mesh;
    const s = mesh.surfaces;
    surface = { material: s[L.index * 4]!, flag: s[L.index * 4 + 1]!, brightness: s[L.index * 4 + 2]!, light: s[L.index * 4 + 3]! };
    const pts: number[] = [];
    for (let k = 0; k < 3; k++) {
      const vi = mesh.indices[L.index * 3 + k]! * 3;
      pts.push(...place(mesh.vertices[vi]!, mesh.vertices[vi + 1]!, mesh.vertices[vi + 2]!));
    }
    highlights.push({ kind: 'poly', points: pts });
  } else if (L.kind === HIT_SPHERE) {
    const s = model.spheres[L.index]!;
    surface = { ...s.surface };
    const [x, y] = place(s.center[0], s.center[1], s.center[2]);
    highlights.push({ kind: 'circle', x, y, r: s.radius });
  } else if (L.kind === HIT_BOX) {
    const b = model.boxes[L.index]!;
    surface = { ...b.surface };
    const corners: number[] = [];
    for (let s = 0; s < 8; s++) corners.push(...place(s & 1 ? b.max[0] : b.min[0], s & 2 ? b.max[1] : b.min[1], s & 4 ? b.max[2] : b.min[2]));
    highlights.push({ kind: 'poly', points: convexHull(corners) });
  }
  if (surface) rows.push(['surface', `material ${surface.material}, flag ${surface.flag}, brightness ${surface.brightness}, light day ${surface.light & 15} night ${surface.light >> 4}`]);
  rows.push(['ceiling', num(g.ceiling)]);
  const plain = `${surface ? gtaSurfaceName(surface.material).replace(/^./, (c) => c.toUpperCase()) : 'A surface'} of the model ${model.name}, at ${metresText(metresUp(world, g.floor))}${Number.isFinite(g.ceiling) ? `, with something ${metresText(metresUp(world, g.ceiling) - metresUp(world, g.floor))} above` : ''}.`;
  return { kind: 'gta', title: `GTA ${kind} ${L.index} of ${model.name}`, plain, rows, highlights };
}

function describePiney(world: PineyWorld, mx: number, my: number): TileInfo {
  const plane = mapPlaneOf(world);
  const p = probePoint(world, mx, my, plane);
  const rows: [string, string][] = [['point', `x ${num(p[0], 1)}, y ${num(p[1], 1)} (field units, 100 per metre)`]];
  const wx = ((p[0] % 48000) + 48000) % 48000;
  const wy = ((p[1] % 48000) + 48000) % 48000;
  const g = world.ground(p);
  const ix = Math.min(CELLS - 1, Math.floor(wx / CELL_UNITS));
  const iy = Math.min(CELLS - 1, Math.floor(wy / CELL_UNITS));
  const tri = g.id & 1;
  const h = world.heights;
  const at = (i: number, j: number) => h[(((i % CELLS) + CELLS) % CELLS) * CELLS + (((j % CELLS) + CELLS) % CELLS)]!;
  rows.push(['cell', `${ix}, ${iy}: triangle T${tri} (${tri === 0 ? 'v ≥ u' : 'v < u'})`]);
  rows.push(['height', `${num(g.floor)} (GetHeight)${g.status === 1 ? '; GetHeight itself answers −500 here (hidden chip)' : ''}`]);
  rows.push(['corners', `${num(at(ix, iy), 1)}, ${num(at(ix + 1, iy), 1)}, ${num(at(ix, iy + 1), 1)}, ${num(at(ix + 1, iy + 1), 1)}`]);
  const ci = Math.min(CHIPS - 1, Math.floor(wx / CHIP_UNITS));
  const cj = Math.min(CHIPS - 1, Math.floor(wy / CHIP_UNITS));
  const k = ci * CHIPS + cj;
  const f = world.field;
  rows.push(['chip', `${ci}, ${cj}${f.check3[k] ? ', no ground tile drawn' : ''}${f.mnt[k] ? ', under a hill' : ''}`]);
  const o = world.blocker[k]!;
  if (o >= 0) {
    const ob = f.objects[o]!;
    rows.push(['object', `${ob.kind} (${ob.row.clump}) on chips ${ob.x}..${ob.x + ob.w - 1}, ${ob.y}..${ob.y + ob.h - 1}; blocks up to ${num(world.blockerTop[o]!, 1)}`]);
  } else rows.push(['object', 'none on this chip']);
  const Y = (v: number) => plane.ySign * v;
  const highlights: Highlight[] = [
    rect(ci * CHIP_UNITS, Y(cj * CHIP_UNITS), (ci + 1) * CHIP_UNITS, Y((cj + 1) * CHIP_UNITS)),
    rect(ix * CELL_UNITS, Y(iy * CELL_UNITS), (ix + 1) * CELL_UNITS, Y((iy + 1) * CELL_UNITS)),
  ];
  const what = o >= 0 ? `A ${f.objects[o]!.kind} on the field, its top at ${metresText(metresUp(world, world.blockerTop[o]!))}` : f.mnt[k] ? 'A hill of the field' : 'Open ground of the field';
  const plain = `${what}; the ground is at ${metresText(metresUp(world, g.floor))}.`;
  return { kind: 'piney', title: `Piney cell ${ix}, ${iy} (chip ${ci}, ${cj})`, plain, rows, highlights };
}

// ---------------------------------------------------------------------------------------------- entities

/** The entity nearest map (mx, my) within `maxDistance` map units: its index in the frame, or −1. */
export function pickEntity(e: EntityFrame, mx: number, my: number, maxDistance: number): number {
  let best = -1;
  let bestD = maxDistance * maxDistance;
  for (let i = 0; i < e.count; i++) {
    const dx = e.x[i]! - mx;
    const dy = e.y[i]! - my;
    const d = dx * dx + dy * dy;
    if (d <= bestD) {
      bestD = d;
      best = i;
    }
  }
  return best;
}

/** Behaviour numbers by name. */
export const BEHAVIOUR_NAMES: Readonly<Record<number, string>> = {
  [Behaviour.Unassigned]: 'not yet assigned',
  [Behaviour.Wander]: 'wander',
  [Behaviour.Patrol]: 'patrol',
  [Behaviour.Chase]: 'chase (walks at the player while it sees it)',
};

/**
 * Each agent's behaviour as the controller keeps it (its saved state: the scheduler's `save()` copies every
 * task's state, so this is for an occasional look, not every frame). Null when the simulation runs no
 * controller.
 */
export function behaviours(sim: Pick<Simulation, 'scheduler'>): Uint8Array | null {
  const st = sim.scheduler.save();
  const t = st.tasks.find((x) => x.name === 'controller');
  const b = (t?.body as { behaviour?: unknown } | null)?.behaviour;
  return b instanceof Uint8Array ? b : null;
}

/** One component of an entity, with its fields' values. */
export interface ComponentView {
  name: string;
  fields: [string, number][];
}

/** What clicking an entity shows. */
export interface EntityInfo {
  id: number;
  role: 'player' | 'agent' | 'entity';
  components: ComponentView[];
  /** The controller's behaviour for an agent ("" when not an agent or unknown). */
  behaviour: string;
  /** Sight: range, the watched entity, whether the line-of-sight system last found it visible. */
  sight: { range: number; target: number; visible: boolean } | null;
}

/** An entity's components and sight, read from the arrays; `behaviour` from `behaviours(sim)` when given. */
export function describeEntity(sim: Pick<Simulation, 'ecs' | 'player'>, id: number, behaviour: Uint8Array | null = null): EntityInfo | null {
  const ecs = sim.ecs;
  if (!(id >= 0 && id < ecs.alive.length) || !ecs.alive[id]) return null;
  const m = ecs.membership[id]!;
  const c = ecs.components;
  const comps: ComponentView[] = [];
  for (const st of c.all) {
    if (!(m & (1 << st.bit))) continue;
    comps.push({ name: st.name, fields: st.fieldNames.map((f) => [f, Number(st.fields[f]![id]!)]) });
  }
  const isAgent = (m & (1 << c.Agent.bit)) !== 0;
  const hasSight = (m & (1 << c.Sight.bit)) !== 0;
  const b = isAgent && behaviour && id < behaviour.length ? (BEHAVIOUR_NAMES[behaviour[id]!] ?? `behaviour ${behaviour[id]}`) : '';
  return {
    id,
    role: id === sim.player ? 'player' : isAgent ? 'agent' : 'entity',
    components: comps,
    behaviour: b,
    sight: hasSight ? { range: c.Sight.range[id]!, target: c.Sight.target[id]!, visible: c.Sight.visible[id] === 1 } : null,
  };
}
