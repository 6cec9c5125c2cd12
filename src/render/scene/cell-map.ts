/**
 * A world as a map of cells, for a person placing things in it (checkpoints, spawn points): the ground is
 * probed from above at the middle of each cell of a grid over the world's bounds, and each cell says what
 * is there: ground (a digit: its height, 0 lowest to 9 highest of the ground found), a death floor or an exit
 * floor (the world's own triggers, `defaultTriggers`), no ground, and the spawn point. `retrosim world map`
 * prints it; docs/worlds.md shows every shipped world's.
 *
 * Pure and deterministic: the same world gives the same map in any engine.
 */
import { defaultTriggers } from '../../systems/triggers.js';
import { newGroundResult, type CollisionWorld } from '../../worlds/world.js';

/** What a cell holds, as one character. */
export const CELL_LEGEND: Readonly<Record<string, string>> = {
  '0-9': 'ground, its height from 0 (lowest) to 9 (highest ground of the world)',
  X: 'a death floor',
  E: 'an exit floor',
  ' ': 'no ground',
  S: 'the spawn point',
};

/** A world's cell map. */
export interface CellMap {
  /** The horizontal axes across the map: columns along `axes[0]`, rows along `axes[1]`. */
  axes: [number, number];
  /** Where cell (0, 0) starts, on those axes, in native units. */
  origin: [number, number];
  /** A cell's size on each axis, native units. */
  cell: [number, number];
  columns: number;
  rows: number;
  /** The floor heights of the ground found (native units, along up): lowest and highest. */
  heights: [number, number];
  /** One string per row, `columns` characters each (see CELL_LEGEND), row 0 first. */
  lines: string[];
  /** The cell of the spawn point, [column, row]. */
  spawn: [number, number];
}

/** Most cells along a side. */
export const MAX_CELLS = 256;

/** Heights a cell is probed from, from the top of the world down, until one finds ground. */
const PROBES = 16;

/**
 * The cell map of `world`: a grid of `columns` cells along its first horizontal axis (default: one cell per
 * native unit for an integer-free world of at most 64 units, as a Llama level's tiles are, else 48), square
 * cells, over its bounds.
 */
export function cellMap(world: CollisionWorld, columns?: number): CellMap {
  const up = world.up.axis;
  const axes = ([0, 1, 2].filter((a) => a !== up) as [number, number]);
  const min = world.bounds.min;
  const max = world.bounds.max;
  const w0 = max[axes[0]]! - min[axes[0]]!;
  const w1 = max[axes[1]]! - min[axes[1]]!;
  let cols = columns ?? (world.kind === 'llama' && w0 <= 64 && Number.isInteger(w0) ? w0 : 48);
  if (!Number.isInteger(cols) || cols < 1 || cols > MAX_CELLS) throw new RangeError(`columns must be an integer in 1..${MAX_CELLS}, got ${cols}`);
  const size = w0 > 0 ? w0 / cols : 1;
  let rows = Math.max(1, Math.ceil(w1 / size - 1e-9));
  if (rows > MAX_CELLS) {
    rows = MAX_CELLS;
    cols = Math.min(cols, MAX_CELLS);
  }
  const triggers = defaultTriggers(world);
  const death = new Set(triggers.deathMaterials ?? []);
  const exit = new Set(triggers.exitMaterials ?? []);
  // From above everything, so the floor found is the top one; a world whose query finds nothing from there (a
  // Rugrats column above its top ceiling) is probed again lower down, in PROBES steps.
  const margin = world.integer ? 1 : 1e-3;
  const top = world.up.sign > 0 ? max[up]! + margin : min[up]! - margin;
  const depth = max[up]! - min[up]!;
  const probeAt = (k: number): number => (world.integer ? Math.round(top - world.up.sign * (depth * k) / PROBES) : top - world.up.sign * (depth * k) / PROBES);
  const g = newGroundResult();
  const kinds: string[][] = [];
  const floors: number[][] = [];
  let lo = Infinity;
  let hi = -Infinity;
  for (let r = 0; r < rows; r++) {
    const kr: string[] = [];
    const fr: number[] = [];
    for (let c = 0; c < cols; c++) {
      const p: [number, number, number] = [0, 0, 0];
      p[axes[0]] = min[axes[0]]! + (c + 0.5) * size;
      p[axes[1]] = min[axes[1]]! + (r + 0.5) * size;
      for (let k = 0; k < PROBES; k++) {
        p[up] = probeAt(k);
        world.ground(p, g);
        if (g.hasFloor && Number.isFinite(g.floor)) break;
      }
      if (!g.hasFloor || !Number.isFinite(g.floor)) {
        kr.push(' ');
        fr.push(NaN);
        continue;
      }
      kr.push(death.has(g.material) ? 'X' : exit.has(g.material) ? 'E' : 'g');
      fr.push(g.floor);
      if (g.floor < lo) lo = g.floor;
      if (g.floor > hi) hi = g.floor;
    }
    kinds.push(kr);
    floors.push(fr);
  }
  const spawn = world.spawnPoint();
  const sc = Math.min(cols - 1, Math.max(0, Math.floor((spawn[axes[0]]! - min[axes[0]]!) / size)));
  const sr = Math.min(rows - 1, Math.max(0, Math.floor((spawn[axes[1]]! - min[axes[1]]!) / size)));
  // Higher ground is a higher digit whichever way up points.
  const level = (f: number): number => {
    if (!(hi > lo)) return 0;
    const t = world.up.sign > 0 ? (f - lo) / (hi - lo) : (hi - f) / (hi - lo);
    return Math.min(9, Math.max(0, Math.floor(t * 10)));
  };
  const lines = kinds.map((kr, r) => kr.map((k, c) => (r === sr && c === sc ? 'S' : k === 'g' ? String(level(floors[r]![c]!)) : k)).join(''));
  return { axes, origin: [min[axes[0]]!, min[axes[1]]!], cell: [size, size], columns: cols, rows, heights: [Number.isFinite(lo) ? lo : NaN, Number.isFinite(hi) ? hi : NaN], lines, spawn: [sc, sr] };
}

/** The map as text: a header, column numbers every 5 cells, each row with its number, and the legend. */
export function cellMapText(m: CellMap, name: string): string {
  const axis = (a: number) => 'xyz'[a]!;
  const out: string[] = [];
  out.push(`${name}: ${m.columns} × ${m.rows} cells of ${fmt(m.cell[0])} units; columns along ${axis(m.axes[0])} from ${fmt(m.origin[0])}, rows along ${axis(m.axes[1])} from ${fmt(m.origin[1])}`);
  let ruler = '     ';
  for (let c = 0; c < m.columns; c += 5) ruler += String(c).padEnd(5);
  out.push(ruler.trimEnd());
  m.lines.forEach((l, r) => out.push(`${String(r).padStart(4)} ${l}`.trimEnd()));
  out.push(`ground heights ${fmt(m.heights[0])} to ${fmt(m.heights[1])}; ${Object.entries(CELL_LEGEND).map(([k, v]) => `${k === ' ' ? '(blank)' : k} ${v}`).join('; ')}`);
  return out.join('\n');
}

function fmt(v: number): string {
  return Number.isFinite(v) ? String(Math.round(v * 1000) / 1000) : 'none';
}
