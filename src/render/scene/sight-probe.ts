/**
 * Line of sight of one selected entity, to read rather than guess: from its eye to the eye of every other
 * body within its sight range (nearest first, at most `capacity`), cast with the project's `losBatch` by the
 * line-of-sight system's own rule (eye height `eyeHeight(world, height)` above the feet along up, eye to eye
 * within `Sight.range`, the world's segment clear). For each ray: whom it goes to, whether it is clear, and
 * where a blocked one stopped, on the map.
 *
 * Computed from the current positions when asked (the system looks every LOS_RATE frames, so the selected
 * agent's own `Sight.visible` may lag by up to that many frames). Typed arrays reused: no allocation per call.
 */
import type { Simulation } from '../../sim/simulation.js';
import { losBatch, newLosOutput, SEGMENT_STRIDE, type LosOutput } from '../../systems/los/los-batch.js';
import { eyeHeight } from '../../systems/los-system.js';
import { SIGHT_RANGE_METRES } from '../../sim/simulation.js';
import { mapX, mapY, type MapPlane } from './projection.js';

/** Most rays drawn for the selected entity (the nearest bodies in range). */
export const SIGHT_PROBE_RAYS = 96;

/** The rays from one entity's eye to the bodies in its sight range, cast with `losBatch` (see the module). */
export class SightProbe {
  /** Rays cast by the last `probe`. */
  count = 0;
  /** The entity looked from (−1 none). */
  from = -1;
  /** Its eye on the map. */
  fromX = 0;
  fromY = 0;
  /** Per ray: the entity looked at, 1 when clear, the fraction where it stopped, and the map points. */
  readonly target: Int32Array;
  readonly visible: Uint8Array;
  readonly fraction: Float64Array;
  readonly toX: Float64Array;
  readonly toY: Float64Array;
  readonly stopX: Float64Array;
  readonly stopY: Float64Array;
  /** The range used (native units). */
  range = 0;
  private readonly dist: Float64Array;
  private readonly segments: Float64Array;
  private readonly out: LosOutput;

  constructor(readonly capacity = SIGHT_PROBE_RAYS) {
    this.target = new Int32Array(capacity);
    this.visible = new Uint8Array(capacity);
    this.fraction = new Float64Array(capacity);
    this.toX = new Float64Array(capacity);
    this.toY = new Float64Array(capacity);
    this.stopX = new Float64Array(capacity);
    this.stopY = new Float64Array(capacity);
    this.dist = new Float64Array(capacity);
    this.segments = new Float64Array(capacity * SEGMENT_STRIDE);
    this.out = newLosOutput(capacity);
  }

  /** Casts from `from`'s eye to the bodies in range; `ids`/`n` are the live entities to consider. */
  probe(sim: Pick<Simulation, 'ecs' | 'world'>, plane: MapPlane, from: number, ids: ArrayLike<number>, n: number): number {
    this.count = 0;
    this.from = -1;
    const ecs = sim.ecs;
    const world = sim.world;
    const c = ecs.components;
    const need = (1 << c.Position.bit) | (1 << c.BodySize.bit);
    if (!(from >= 0 && from < ecs.alive.length) || !ecs.alive[from] || (ecs.membership[from]! & need) !== need) return 0;
    const P = [c.Position.x, c.Position.y, c.Position.z];
    const up = world.up.axis;
    const sign = world.up.sign;
    const scale = world.scale > 0 && Number.isFinite(world.scale) ? world.scale : 1;
    const hasSight = (ecs.membership[from]! & (1 << c.Sight.bit)) !== 0;
    const r = hasSight && c.Sight.range[from]! > 0 ? c.Sight.range[from]! : SIGHT_RANGE_METRES * scale;
    this.range = r;
    const eye = (e: number, a: number): number => P[a]![e]! + (a === up ? sign * eyeHeight(world, c.BodySize.height[e]!) : 0);
    const ex = eye(from, 0);
    const ey = eye(from, 1);
    const ez = eye(from, 2);
    const fromEye = [ex, ey, ez];
    this.from = from;
    this.fromX = mapX(plane, fromEye);
    this.fromY = mapY(plane, fromEye);
    // The nearest bodies in range, kept sorted by distance (insertion: n × capacity at worst).
    let k = 0;
    const cap = this.capacity;
    for (let i = 0; i < n; i++) {
      const e = ids[i]!;
      if (e === from || (ecs.membership[e]! & need) !== need) continue;
      const dx = eye(e, 0) - ex;
      const dy = eye(e, 1) - ey;
      const dz = eye(e, 2) - ez;
      const d = dx * dx + dy * dy + dz * dz;
      if (!(d <= r * r)) continue;
      if (k === cap && d >= this.dist[k - 1]!) continue;
      let j = k < cap ? k++ : k - 1;
      while (j > 0 && this.dist[j - 1]! > d) {
        this.dist[j] = this.dist[j - 1]!;
        this.target[j] = this.target[j - 1]!;
        j--;
      }
      this.dist[j] = d;
      this.target[j] = e;
    }
    const s = this.segments;
    for (let j = 0; j < k; j++) {
      const e = this.target[j]!;
      const o = j * SEGMENT_STRIDE;
      s[o] = ex;
      s[o + 1] = ey;
      s[o + 2] = ez;
      s[o + 3] = eye(e, 0);
      s[o + 4] = eye(e, 1);
      s[o + 5] = eye(e, 2);
    }
    losBatch(world, s, this.out, 0, k);
    const to = [0, 0, 0];
    for (let j = 0; j < k; j++) {
      const o = j * SEGMENT_STRIDE;
      to[0] = s[o + 3]!;
      to[1] = s[o + 4]!;
      to[2] = s[o + 5]!;
      const f = this.out.fraction[j]!;
      this.visible[j] = this.out.visible[j]!;
      this.fraction[j] = f;
      this.toX[j] = mapX(plane, to);
      this.toY[j] = mapY(plane, to);
      this.stopX[j] = this.fromX + (this.toX[j]! - this.fromX) * f;
      this.stopY[j] = this.fromY + (this.toY[j]! - this.fromY) * f;
    }
    this.count = k;
    return k;
  }

  /** The entities the last probe found visible, and those it found blocked. */
  lists(): { sees: number[]; blocked: number[] } {
    const sees: number[] = [];
    const blocked: number[] = [];
    for (let j = 0; j < this.count; j++) (this.visible[j] ? sees : blocked).push(this.target[j]!);
    return { sees, blocked };
  }
}
