/**
 * Walkability from a world's own rules: where a body of a given size can stand, and which neighbouring
 * places it can walk to, asked through the very queries the movement system uses (`ground` to find the
 * floors of a cell, then `move`, frame by frame, through `walk.ts`). Each world's rules (Rugrats height steps
 * and slopes, Llama cell planes and walls, COLBIN floors and boxes, GTA ground and solids, the Piney field's
 * heights and objects) are therefore the ones its `move` applies, not a mesh exported from it.
 *
 * The places are the centres of a square grid over the world's horizontal axes (a cell size per world kind,
 * `NAV_CELL_METRES`); a cell may hold several standing places, one per floor (bridges, storeys).
 */
import type { CollisionWorld, GroundResult, Vec3, WorldKind } from '../worlds/world.js';
import { newGroundResult } from '../worlds/world.js';
import { horizontalAxes } from '../systems/movement.js';
import { checkNavBody, newWalker, resetWalker, samePos, walkBudget, walkFrame, walkTo, type NavBody, type Walker } from './walk.js';

/** The grid's cell size per world kind, in metres (then in native units by the world's scale). */
export const NAV_CELL_METRES: Readonly<Record<WorldKind, number>> = Object.freeze({
  rugrats: 0.25,
  llama: 0.5,
  colbin: 0.5,
  gta: 0.5,
  // The field is 480 m across, its objects stand on 12 m chips: cells of half a chip.
  piney: 6,
});

/** The most cells a grid may have (a world too big for its cell size is refused, not half-built). */
export const MAX_NAV_CELLS = 1 << 22;
/** The most standing places one cell holds (floors above one another). */
export const MAX_NAV_LEVELS = 8;

/** A square grid over a world's two horizontal axes. Cell (i, j) has its centre at `cellCentre`. */
export interface NavGrid {
  /** The first horizontal axis (index into a position). */
  readonly a0: 0 | 1 | 2;
  /** The second horizontal axis. */
  readonly a1: 0 | 1 | 2;
  /** The lower corner of cell (0, 0) along a0 and a1, native units. */
  readonly origin0: number;
  readonly origin1: number;
  /** A cell's side, native units (an even whole number in integer worlds, so that centres are whole). */
  readonly cell: number;
  /** Cells along a0 and a1. */
  readonly n0: number;
  readonly n1: number;
}

/** The centre of cell `i` along a grid axis whose lower corner is `origin`. Exact: the cell is a dyadic number. */
export function cellCentre(origin: number, cell: number, i: number): number {
  return origin + i * cell + cell / 2;
}

/**
 * A cell size as the grid uses it: a whole even number in an integer world (at least 2), else the power of two
 * nearest below `size` (so that every centre and every sum of centres is exact in doubles).
 */
export function gridCell(world: CollisionWorld, size: number): number {
  if (!(size > 0) || !Number.isFinite(size)) throw new RangeError(`nav cell size ${size} must be a finite number > 0`);
  if (world.integer) return Math.max(2, 2 * Math.round(size / 2));
  let c = 1;
  while (c > size) c /= 2;
  while (c * 2 <= size) c *= 2;
  return c;
}

/**
 * The grid of a world: its horizontal bounds cut into cells of `cell` native units (default: the kind's
 * `NAV_CELL_METRES` by the world's scale, through `gridCell`). Throws a RangeError when the bounds are not
 * finite or the grid would pass `MAX_NAV_CELLS`.
 */
export function navGridOf(world: CollisionWorld, cell?: number): NavGrid {
  const [a0, a1] = horizontalAxes(world);
  const scale = world.scale > 0 && Number.isFinite(world.scale) ? world.scale : 1;
  const c = gridCell(world, cell ?? NAV_CELL_METRES[world.kind] * scale);
  const { min, max } = world.bounds;
  for (const v of [min[a0], min[a1], max[a0], max[a1]]) if (!Number.isFinite(v)) throw new RangeError(`world ${world.name}: bounds ${String(v)} are not finite`);
  const origin0 = Math.floor(min[a0] / c) * c;
  const origin1 = Math.floor(min[a1] / c) * c;
  // Only whole cells whose centre lies within the bounds.
  const n0 = Math.max(0, Math.floor((max[a0] - origin0) / c));
  const n1 = Math.max(0, Math.floor((max[a1] - origin1) / c));
  if (n0 * n1 > MAX_NAV_CELLS) throw new RangeError(`world ${world.name}: a grid of ${n0} × ${n1} cells of ${c} units passes the limit of ${MAX_NAV_CELLS} cells`);
  return { a0, a1, origin0, origin1, cell: c, n0, n1 };
}

/**
 * What a navigation graph is built from: where a body stands in each cell and whether it walks from one
 * standing place to the centre of a neighbouring cell, by the world's movement.
 */
export interface WalkSource {
  readonly world: CollisionWorld;
  readonly body: NavBody;
  readonly grid: NavGrid;
  /**
   * The places a body stands at the centre of cell (i, j), one per floor, highest first: positions where a
   * frame of standing still (gravity and `move`) leaves it where it is, to the bit, grounded.
   */
  stands(i: number, j: number): Vec3[];
  /**
   * Walks from a standing place to the centre of cell (i, j), as the navigation system steers (each axis
   * clamped to the speed), through gravity and `move`. The place where it arrives (standing, at the centre
   * to the bit), or null when it does not arrive within the frames such a walk may take.
   */
  step(from: Readonly<Vec3>, i: number, j: number): Vec3 | null;
}

/**
 * The walkability source of any world, through its `ground` (the floors of a cell, from above the world
 * down) and its `move` (standing and walking, `walk.ts`). `cell` overrides the kind's cell size.
 */
export function walkSourceOf(world: CollisionWorld, body: NavBody, cell?: number): WalkSource {
  checkNavBody(world, body);
  const grid = navGridOf(world, cell);
  return new MoveWalkSource(world, body, grid);
}

class MoveWalkSource implements WalkSource {
  private readonly walker: Walker;
  private readonly g: GroundResult = newGroundResult();
  private readonly probe: Vec3 = [0, 0, 0];
  private readonly up: 0 | 1 | 2;
  /** How far below a floor the next probe starts (a whole unit in integer worlds, 5 cm in others). */
  private readonly gap: number;
  private readonly top: number;
  /** How far a probe in solid ground goes down (half the body's height, at least the gap). */
  private readonly scan: number;
  /** The most probes one column takes: the world's height in scans, and one per level. */
  private readonly maxProbes: number;

  constructor(
    readonly world: CollisionWorld,
    readonly body: NavBody,
    readonly grid: NavGrid,
  ) {
    this.walker = newWalker(world, body, [0, 0, 0]);
    this.up = world.up.axis;
    const scale = world.scale > 0 && Number.isFinite(world.scale) ? world.scale : 1;
    this.gap = world.integer ? 1 : scale * 0.05;
    const { min, max } = world.bounds;
    const margin = world.integer ? Math.max(1, Math.round(scale)) : scale;
    this.top = world.up.sign > 0 ? max[this.up] + margin : min[this.up] - margin;
    const half = world.integer ? Math.floor(body.height / 2) : body.height / 2;
    this.scan = half > this.gap ? half : this.gap;
    const span = max[this.up] - min[this.up] + 2 * margin;
    this.maxProbes = Math.min(1 << 16, Math.ceil(span / this.scan) + 2 * MAX_NAV_LEVELS + 2);
  }

  stands(i: number, j: number): Vec3[] {
    const { grid, world, up } = this;
    const c0 = cellCentre(grid.origin0, grid.cell, i);
    const c1 = cellCentre(grid.origin1, grid.cell, j);
    const out: Vec3[] = [];
    const p = this.probe;
    p[grid.a0] = c0;
    p[grid.a1] = c1;
    p[up] = this.top;
    const sign = world.up.sign;
    // Floors from the top down: each probe starts just below the last floor found; a probe in solid ground
    // (a world whose floors are asked from inside a room: Rugrats) goes down by half a body's height.
    let last = NaN;
    for (let probes = 0; out.length < MAX_NAV_LEVELS && probes < this.maxProbes; probes++) {
      const g = world.ground(p, this.g);
      if (!g.hasFloor || !Number.isFinite(g.floor)) {
        p[up] -= sign * this.scan;
        continue;
      }
      // A floor not below the last one (a world that answers the same floor again) ends the column.
      if (sign * g.floor >= sign * last) break;
      last = g.floor;
      const at: Vec3 = [0, 0, 0];
      at[grid.a0] = c0;
      at[grid.a1] = c1;
      at[up] = g.floor;
      const s = this.settle(at);
      if (s !== null && !out.some((q) => samePos(q, s))) out.push(s);
      p[up] = g.floor - sign * this.gap;
    }
    return out;
  }

  /**
   * Where a body put at `at` comes to rest at the same horizontal place: the first position that a frame of
   * standing leaves unchanged, grounded; null when it is pushed sideways or does not settle within a second.
   */
  private settle(at: Readonly<Vec3>): Vec3 | null {
    const w = this.walker;
    const { a0, a1 } = this.grid;
    resetWalker(w, at);
    const t0 = at[a0];
    const t1 = at[a1];
    const before: Vec3 = [0, 0, 0];
    for (let f = 0; f < 60; f++) {
      before[0] = w.pos[0];
      before[1] = w.pos[1];
      before[2] = w.pos[2];
      const fallBefore = w.fall;
      const grounded = walkFrame(w, t0, t1);
      if (w.hazard || w.pos[a0] !== t0 || w.pos[a1] !== t1) return null;
      if (grounded && fallBefore === 0 && w.fall === 0 && samePos(before, w.pos)) return [w.pos[0], w.pos[1], w.pos[2]];
    }
    return null;
  }

  step(from: Readonly<Vec3>, i: number, j: number): Vec3 | null {
    const { grid } = this;
    const w = this.walker;
    resetWalker(w, from);
    const t0 = cellCentre(grid.origin0, grid.cell, i);
    const t1 = cellCentre(grid.origin1, grid.cell, j);
    const d0 = Math.abs(t0 - from[grid.a0]);
    const d1 = Math.abs(t1 - from[grid.a1]);
    if (!walkTo(w, t0, t1, walkBudget(d0 > d1 ? d0 : d1, this.body.speed))) return null;
    return [w.pos[0], w.pos[1], w.pos[2]];
  }
}
