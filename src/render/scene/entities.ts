/**
 * The entities as the view draws them, read from the component arrays into reusable typed arrays (no
 * allocation per frame): map position, facing as a unit vector on the map, body radius, whether it is the
 * player or an agent, its sight (range, the entity it watches, whether that one is visible), and whether it
 * is falling (a top-down view cannot show height: a body that walked off a floor's edge would otherwise look
 * as if it walked on in empty space).
 */

/** A body is drawn as falling once it has been in the air this many frames (a step down is not a fall). */
export const FALLING_FRAMES = 6;
import type { Simulation } from '../../sim/simulation.js';
import { cosAngle, sinAngle } from '../../ecs/angle.js';
import { FallState } from '../../ecs/components.js';
import { gravityOf } from '../../systems/gravity.js';
import type { MapPlane } from './projection.js';

/** The entities to draw, as parallel typed arrays (the first `count` entries are filled), in map coordinates. */
export interface EntityFrame {
  count: number;
  ids: Uint32Array;
  /** Map position. */
  x: Float64Array;
  y: Float64Array;
  /** Facing as a unit vector on the map. */
  dirX: Float64Array;
  dirY: Float64Array;
  /** Body radius, native units. */
  radius: Float64Array;
  /** 1 for the player. */
  player: Uint8Array;
  /** 1 for agents (entities with the Agent component). */
  agent: Uint8Array;
  /** How far it sees (0 without Sight). */
  sightRange: Float64Array;
  /** The watched entity's id, 0 for none. */
  target: Int32Array;
  /** 1 when it sees its target. */
  visible: Uint8Array;
  /** 1 when it is falling: off any floor for FALLING_FRAMES frames or more (it respawns at the kill plane). */
  falling: Uint8Array;
}

/** An EntityFrame with room for `capacity` entities, for readEntities to fill frame after frame. */
export function newEntityFrame(capacity: number): EntityFrame {
  return {
    count: 0,
    ids: new Uint32Array(capacity),
    x: new Float64Array(capacity),
    y: new Float64Array(capacity),
    dirX: new Float64Array(capacity),
    dirY: new Float64Array(capacity),
    radius: new Float64Array(capacity),
    player: new Uint8Array(capacity),
    agent: new Uint8Array(capacity),
    sightRange: new Float64Array(capacity),
    target: new Int32Array(capacity),
    visible: new Uint8Array(capacity),
    falling: new Uint8Array(capacity),
  };
}

/** Fills `out` with every live entity that has a position, in ascending id order. */
export function readEntities(sim: Pick<Simulation, 'ecs' | 'player'> & Partial<Pick<Simulation, 'world'>>, plane: MapPlane, out: EntityFrame, scratch: { ids: Uint32Array }): EntityFrame {
  const ecs = sim.ecs;
  const c = ecs.components;
  // the gravity system's fall speeds: FALLING_FRAMES of gravity or more, not standing, is a fall
  const fallStore = c.byName.get(FallState.name) as { speed: Float64Array } | undefined;
  const fallSpeed = fallStore && sim.world ? FALLING_FRAMES * gravityOf(sim.world) : Infinity;
  const motionBit = 1 << c.Motion.bit;
  const n = ecs.aliveIdsAscending(scratch);
  const ids = scratch.ids;
  const pos = [c.Position.x, c.Position.y, c.Position.z];
  const posBit = 1 << c.Position.bit;
  const headBit = 1 << c.Heading.bit;
  const agentBit = 1 << c.Agent.bit;
  const sightBit = 1 << c.Sight.bit;
  const sizeBit = 1 << c.BodySize.bit;
  let k = 0;
  for (let i = 0; i < n && k < out.ids.length; i++) {
    const e = ids[i]!;
    const m = ecs.membership[e]!;
    if (!(m & posBit)) continue;
    out.ids[k] = e;
    out.x[k] = pos[plane.ax]![e]!;
    out.y[k] = plane.ySign * pos[plane.ay]![e]!;
    if (m & headBit) {
      // The input system moves along cos on the first horizontal axis and sin on the second.
      const a = c.Heading.angle[e]!;
      out.dirX[k] = cosAngle(a);
      out.dirY[k] = plane.ySign * sinAngle(a);
    } else {
      out.dirX[k] = 1;
      out.dirY[k] = 0;
    }
    out.radius[k] = m & sizeBit ? c.BodySize.radius[e]! : 0;
    out.player[k] = e === sim.player ? 1 : 0;
    out.agent[k] = m & agentBit ? 1 : 0;
    if (m & sightBit) {
      out.sightRange[k] = c.Sight.range[e]!;
      out.target[k] = c.Sight.target[e]!;
      out.visible[k] = c.Sight.visible[e]!;
    } else {
      out.sightRange[k] = 0;
      out.target[k] = 0;
      out.visible[k] = 0;
    }
    out.falling[k] = fallStore && m & motionBit && c.Motion.grounded[e] === 0 && fallStore.speed[e]! >= fallSpeed ? 1 : 0;
    k++;
  }
  out.count = k;
  return out;
}
