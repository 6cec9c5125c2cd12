/**
 * In a room each page shows who sees its own seat. The line-of-sight system watches seat 1's player (its
 * answer is the simulation's state, hashed and replayed), so for a page seated elsewhere the view asks the
 * same question itself for its own player: within the agent's sight range, eye to eye, through the world's
 * line-of-sight query, as the system does. It only draws: nothing of it goes back into the simulation.
 */
import type { Simulation } from '../../sim/simulation.js';
import { losBatch, newLosOutput, SEGMENT_STRIDE, type LosOutput } from '../../systems/los/los-batch.js';
import { eyeHeight } from '../../systems/los-system.js';
import type { EntityFrame } from './entities.js';

/** Reusable buffers for `seenBy` (grown to the entities drawn, never per frame). */
export class ViewerSight {
  private segments = new Float64Array(64 * SEGMENT_STRIDE);
  private who = new Uint32Array(64);
  private out: LosOutput = newLosOutput(64);

  /**
   * Sets each watching entity's `target` to `you` and `visible` to whether it sees `you` now (range, then the
   * world's line of sight between the eyes), for the entities of `frame` that have sight. `you` itself, and
   * entities without sight, keep what they had. Does nothing when `you` has no body.
   */
  seenBy(sim: Pick<Simulation, 'ecs' | 'world'>, you: number, frame: EntityFrame): void {
    const ecs = sim.ecs;
    const c = ecs.components;
    if (!ecs.has(you, c.Position) || !ecs.has(you, c.BodySize)) return;
    const world = sim.world;
    const pos = [c.Position.x, c.Position.y, c.Position.z] as const;
    const axis = world.up.axis;
    const sign = world.up.sign;
    const eye = (e: number, a: number): number => pos[a]![e]! + (a === axis ? sign * eyeHeight(world, c.BodySize.height[e]!) : 0);
    if (this.who.length < frame.count) {
      this.segments = new Float64Array(frame.count * SEGMENT_STRIDE);
      this.who = new Uint32Array(frame.count);
      this.out = newLosOutput(frame.count);
    }
    const tx = eye(you, 0);
    const ty = eye(you, 1);
    const tz = eye(you, 2);
    const sizeBit = 1 << c.BodySize.bit;
    let k = 0;
    for (let i = 0; i < frame.count; i++) {
      const e = frame.ids[i]!;
      if (e === you || frame.sightRange[i]! <= 0 || !(ecs.membership[e]! & sizeBit)) continue;
      frame.target[i] = you;
      frame.visible[i] = 0;
      const ex = eye(e, 0), ey = eye(e, 1), ez = eye(e, 2);
      const dx = tx - ex, dy = ty - ey, dz = tz - ez;
      const r = frame.sightRange[i]!;
      if (!(dx * dx + dy * dy + dz * dz <= r * r)) continue;
      const o = k * SEGMENT_STRIDE;
      const s = this.segments;
      s[o] = ex; s[o + 1] = ey; s[o + 2] = ez;
      s[o + 3] = tx; s[o + 4] = ty; s[o + 5] = tz;
      this.who[k++] = i;
    }
    if (k === 0) return;
    losBatch(world, this.segments, this.out, 0, k);
    for (let j = 0; j < k; j++) frame.visible[this.who[j]!] = this.out.visible[j]!;
  }
}
