/**
 * The visibility heat map: over a grid laid on the world's map rectangle, for each cell how many agents see a
 * person standing at its centre (eye to eye within the agent's `Sight.range`, the world's segment clear: the
 * line-of-sight system's rule), cast with `losBatch`.
 *
 * A pass takes the agents' eyes as they stand at its first frame and casts a budget of rays per call, so the
 * work spreads over the frames of the interval; the finished grid is kept until the next pass finishes. A
 * new pass starts `interval` simulation frames after the last one started (or at once when the simulation
 * went back in time: a seek or a restart). Buffers are made once: no allocation per call.
 */
import type { Simulation } from '../../sim/simulation.js';
import type { CollisionWorld } from '../../worlds/world.js';
import { losBatch, newLosOutput, SEGMENT_STRIDE, type LosOutput } from '../../systems/los/los-batch.js';
import { eyeHeight } from '../../systems/los-system.js';
import { BODY_METRES, SIGHT_RANGE_METRES } from '../../sim/simulation.js';
import { newGroundSample, probeHeight, samplerFor } from './ground-sampler.js';
import { mapPlaneOf, mapRectOf, worldAt, type MapPlane } from './projection.js';

/** How fine the heat map's grid is, how often a pass starts, and how many rays a call casts. */
export interface HeatMapOptions {
  /** Cells along the longer side of the map (default `heatCellsFor(world)`). */
  cells?: number;
  /** Simulation frames between passes. */
  interval?: number;
  /** Rays cast per `update` call at most. */
  budget?: number;
}

/** A finished pass. */
export interface HeatGrid {
  cols: number;
  rows: number;
  /** Map position of cell (0, 0)'s top-left corner and the cell size, map units. */
  x0: number;
  y0: number;
  cell: number;
  /** Agents that see each cell (row-major); 0 where the cell has no floor. */
  counts: Uint16Array;
  /** 1 where the cell has a floor to stand on. */
  floor: Uint8Array;
  /** The largest count. */
  max: number;
  /** The simulation frame whose positions the pass used. */
  frame: number;
  /** Rays the pass cast. */
  rays: number;
}

/** Most cells along the longer side of the map; at least HEAT_MIN_CELLS. */
export const HEAT_CELLS = 96;
export const HEAT_MIN_CELLS = 12;
/** A cell is at least this fraction of the sight range across, so one agent covers at most ~π·6² cells. */
export const HEAT_CELL_PER_RANGE = 1 / 6;
export const HEAT_INTERVAL = 30;
export const HEAT_BUDGET = 2000;

/**
 * Cells along the map's longer side for a world: as many as HEAT_CELLS, but no cell smaller than a sixth of
 * an agent's sight range (SIGHT_RANGE_METRES), so a pass costs about agents × 113 rays at most.
 */
export function heatCellsFor(world: Pick<CollisionWorld, 'bounds' | 'up' | 'scale'>): number {
  const plane = mapPlaneOf(world);
  const r = mapRectOf(plane, world.bounds);
  if (!r) return HEAT_MIN_CELLS;
  const scale = world.scale > 0 && Number.isFinite(world.scale) ? world.scale : 1;
  const cell = SIGHT_RANGE_METRES * scale * HEAT_CELL_PER_RANGE;
  return Math.max(HEAT_MIN_CELLS, Math.min(HEAT_CELLS, Math.floor(Math.max(r.width, r.height) / cell)));
}

/** How many agents see each cell of a grid over the world, by line of sight (see the module). */
export class VisibilityHeatMap {
  readonly cols: number;
  readonly rows: number;
  readonly x0: number;
  readonly y0: number;
  readonly cell: number;
  readonly interval: number;
  readonly budget: number;
  /** The last finished pass (null before the first). */
  grid: HeatGrid | null = null;
  /** Each cell's target (a person's eye standing there), native units, 3 per cell. */
  private readonly targets: Float64Array;
  private readonly hasFloor: Uint8Array;
  private readonly plane: MapPlane;
  private readonly counts: Uint16Array;
  private readonly segments: Float64Array;
  private readonly segCell: Int32Array;
  private readonly out: LosOutput;
  // The running pass.
  private passFrame = -1;
  private agents = new Float64Array(0);
  private agentRange = new Float64Array(0);
  private agentCount = 0;
  private agentAt = 0;
  private cellAt = 0;
  private passRays = 0;
  private running = false;

  constructor(
    readonly world: CollisionWorld,
    options: HeatMapOptions = {},
  ) {
    this.plane = mapPlaneOf(world);
    const r = mapRectOf(this.plane, world.bounds) ?? { x: 0, y: 0, width: 1, height: 1 };
    const n = Math.max(4, Math.min(512, Math.floor(options.cells ?? heatCellsFor(world))));
    const long = Math.max(r.width, r.height, 1e-9);
    this.cell = long / n;
    this.cols = Math.max(1, Math.ceil(r.width / this.cell));
    this.rows = Math.max(1, Math.ceil(r.height / this.cell));
    this.x0 = r.x;
    this.y0 = r.y;
    this.interval = Math.max(1, Math.floor(options.interval ?? HEAT_INTERVAL));
    this.budget = Math.max(1, Math.floor(options.budget ?? HEAT_BUDGET));
    const cells = this.cols * this.rows;
    this.targets = new Float64Array(cells * 3);
    this.hasFloor = new Uint8Array(cells);
    this.counts = new Uint16Array(cells);
    this.segments = new Float64Array(this.budget * SEGMENT_STRIDE);
    this.segCell = new Int32Array(this.budget);
    this.out = newLosOutput(this.budget);
    // A person's eye over each cell's floor (the view's ground sampler: the world's own queries).
    const sampler = samplerFor(world, probeHeight(world, this.plane));
    const s = newGroundSample();
    const scale = world.scale > 0 && Number.isFinite(world.scale) ? world.scale : 1;
    const body = world.integer ? Math.max(1, Math.round(BODY_METRES.height * scale)) : BODY_METRES.height * scale;
    const eye = eyeHeight(world, body);
    const p: [number, number, number] = [0, 0, 0];
    for (let j = 0; j < this.rows; j++) {
      for (let i = 0; i < this.cols; i++) {
        const k = j * this.cols + i;
        sampler(this.x0 + (i + 0.5) * this.cell, this.y0 + (j + 0.5) * this.cell, s);
        if (!Number.isFinite(s.height)) continue;
        const up = this.plane.upSign * s.height + this.plane.upSign * eye;
        worldAt(this.plane, this.x0 + (i + 0.5) * this.cell, this.y0 + (j + 0.5) * this.cell, up, p);
        if (world.integer) for (let a = 0; a < 3; a++) p[a] = Math.round(p[a]);
        this.targets.set(p, k * 3);
        this.hasFloor[k] = 1;
      }
    }
  }

  /** Drops the finished grid and the running pass (a new world state that is not a continuation). */
  reset(): void {
    this.grid = null;
    this.running = false;
    this.passFrame = -1;
  }

  /**
   * Advances the heat map for the simulation's current frame: starts a pass when one is due, casts up to the
   * budget, and publishes the grid when the pass is done. True when a new grid was published by this call.
   */
  update(sim: Pick<Simulation, 'ecs' | 'frame'>): boolean {
    const frame = sim.frame;
    if (this.passFrame >= 0 && frame < this.passFrame) this.reset();
    if (!this.running && (this.passFrame < 0 || frame - this.passFrame >= this.interval)) this.start(sim);
    if (!this.running) return false;
    return this.work();
  }

  /** Runs the current pass (starting one if none runs) to its end. */
  finish(sim: Pick<Simulation, 'ecs' | 'frame'>): HeatGrid {
    if (!this.running) this.start(sim);
    while (!this.work());
    return this.grid!;
  }

  private start(sim: Pick<Simulation, 'ecs' | 'frame'>): void {
    const ecs = sim.ecs;
    const c = ecs.components;
    const need = (1 << c.Agent.bit) | (1 << c.Sight.bit) | (1 << c.Position.bit) | (1 << c.BodySize.bit);
    const max = ecs.maxId + 1;
    if (this.agents.length < max * 3) {
      this.agents = new Float64Array(max * 3);
      this.agentRange = new Float64Array(max);
    }
    const P = [c.Position.x, c.Position.y, c.Position.z];
    const up = this.world.up.axis;
    const sign = this.world.up.sign;
    let n = 0;
    for (let e = 0; e < max; e++) {
      if (!ecs.alive[e] || (ecs.membership[e]! & need) !== need) continue;
      for (let a = 0; a < 3; a++) this.agents[n * 3 + a] = P[a]![e]! + (a === up ? sign * eyeHeight(this.world, c.BodySize.height[e]!) : 0);
      this.agentRange[n] = c.Sight.range[e]!;
      n++;
    }
    this.agentCount = n;
    this.agentAt = 0;
    this.cellAt = 0;
    this.passRays = 0;
    this.passFrame = sim.frame;
    this.counts.fill(0);
    this.running = true;
  }

  /** Casts up to the budget; true when the pass finished (and was published). */
  private work(): boolean {
    const seg = this.segments;
    const T = this.targets;
    let m = 0;
    const cols = this.cols;
    const rows = this.rows;
    const cellOf = (v: number, o: number) => Math.floor((v - o) / this.cell);
    const ax = this.plane.ax;
    const ay = this.plane.ay;
    const ys = this.plane.ySign;
    while (this.agentAt < this.agentCount && m < this.budget) {
      const a = this.agentAt;
      const r = this.agentRange[a]!;
      const e0 = this.agents[a * 3]!;
      const e1 = this.agents[a * 3 + 1]!;
      const e2 = this.agents[a * 3 + 2]!;
      const mx = a * 3 + ax;
      const my = a * 3 + ay;
      const amx = this.agents[mx]!;
      const amy = ys * this.agents[my]!;
      const i0 = Math.max(0, cellOf(amx - r, this.x0));
      const i1 = Math.min(cols - 1, cellOf(amx + r, this.x0));
      const j0 = Math.max(0, cellOf(amy - r, this.y0));
      const j1 = Math.min(rows - 1, cellOf(amy + r, this.y0));
      const w = i1 - i0 + 1;
      const total = w > 0 && j1 >= j0 ? w * (j1 - j0 + 1) : 0;
      while (this.cellAt < total && m < this.budget) {
        const q = this.cellAt++;
        const k = (j0 + Math.floor(q / w)) * cols + i0 + (q % w);
        if (!this.hasFloor[k]) continue;
        const dx = T[k * 3]! - e0;
        const dy = T[k * 3 + 1]! - e1;
        const dz = T[k * 3 + 2]! - e2;
        if (!(dx * dx + dy * dy + dz * dz <= r * r)) continue;
        const o = m * SEGMENT_STRIDE;
        seg[o] = e0;
        seg[o + 1] = e1;
        seg[o + 2] = e2;
        seg[o + 3] = T[k * 3]!;
        seg[o + 4] = T[k * 3 + 1]!;
        seg[o + 5] = T[k * 3 + 2]!;
        this.segCell[m++] = k;
      }
      if (this.cellAt >= total) {
        this.agentAt++;
        this.cellAt = 0;
      }
    }
    if (m > 0) {
      losBatch(this.world, seg, this.out, 0, m);
      for (let i = 0; i < m; i++) if (this.out.visible[i]) this.counts[this.segCell[i]!]!++;
      this.passRays += m;
    }
    if (this.agentAt < this.agentCount) return false;
    this.running = false;
    let max = 0;
    for (let k = 0; k < this.counts.length; k++) if (this.counts[k]! > max) max = this.counts[k]!;
    this.grid = {
      cols,
      rows,
      x0: this.x0,
      y0: this.y0,
      cell: this.cell,
      counts: this.counts.slice(),
      floor: this.hasFloor,
      max,
      frame: this.passFrame,
      rays: this.passRays,
    };
    return true;
  }

  /** A cell's target point (native units): a person's eye over its floor; null where it has none. */
  targetOf(i: number, j: number): [number, number, number] | null {
    const k = j * this.cols + i;
    if (!(i >= 0 && i < this.cols && j >= 0 && j < this.rows) || !this.hasFloor[k]) return null;
    return [this.targets[k * 3]!, this.targets[k * 3 + 1]!, this.targets[k * 3 + 2]!];
  }
}
