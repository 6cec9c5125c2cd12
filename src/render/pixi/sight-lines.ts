/**
 * Sight on the map: the selected entity's rays to the bodies it does and does not see (with its reach, and
 * where the blocked ones stopped), then, to a chosen density, the other agents' lines to the player they see
 * and their facing rays, cast through the world's allocation-free `segmentFraction` with the project's LOS
 * batch (which keeps no simulation state) and stopped where the world blocks them or its rectangle ends.
 */
import { Graphics } from 'pixi.js';
import type { Simulation } from '../../sim/simulation.js';
import { losBatch, newLosOutput, SEGMENT_STRIDE } from '../../systems/los/los-batch.js';
import type { Camera } from '../scene/camera.js';
import type { EntityFrame } from '../scene/entities.js';
import { ENTITY_COLOURS } from '../scene/palette.js';
import type { MapPlane, MapRect } from '../scene/projection.js';
import type { SightProbe } from '../scene/sight-probe.js';
import type { RayDensity } from '../scene/view-link.js';

/** Most sight rays cast per drawn frame for the agents that are not selected (density "all"). */
export const MAX_SIGHT_RAYS = 256;
/** Rays per drawn frame by density. */
export const RAYS_BY_DENSITY: Readonly<Record<RayDensity, number>> = { off: 0, few: 32, many: 128, all: MAX_SIGHT_RAYS };

/** The fraction along (dx, dy) from (x, y) at which the ray leaves rectangle r (1 if it does not, 0 if outside). */
export function exitFraction(x: number, y: number, dx: number, dy: number, r: MapRect): number {
  let t = 1;
  if (dx > 0) t = Math.min(t, (r.x + r.width - x) / dx);
  else if (dx < 0) t = Math.min(t, (r.x - x) / dx);
  if (dy > 0) t = Math.min(t, (r.y + r.height - y) / dy);
  else if (dy < 0) t = Math.min(t, (r.y - y) / dy);
  return t > 0 ? t : 0;
}

/** The sight layer: one Graphics drawn again each frame, and the scratch its facing rays are cast with. */
export class SightLines {
  /** The layer (between the markers and the agents). */
  readonly graphics = new Graphics();
  private readonly raySegments = new Float64Array(MAX_SIGHT_RAYS * SEGMENT_STRIDE);
  private readonly rayOwner = new Int32Array(MAX_SIGHT_RAYS);
  private readonly rayOut = newLosOutput(MAX_SIGHT_RAYS);

  constructor(
    private readonly sim: Simulation,
    private readonly plane: MapPlane,
    /** The world's rectangle on the map (rays stop at its edge). */
    private readonly rect: MapRect,
    private readonly camera: Camera,
    /** The selected entity's rays, cast each drawn frame. */
    private readonly probe: SightProbe,
    /** Index in the entity frame of each entity id (−1: not in it), filled by the view each frame. */
    private readonly indexOfId: Int32Array,
  ) {}

  /**
   * Draws the selected entity's rays (`sel`, −1 none), then, when `showSight`, the density's share of the
   * other agents' lines and facing rays. Returns how many of those other lines and rays it drew.
   */
  draw(e: EntityFrame, sel: number, showSight: boolean, rays: RayDensity): number {
    const g = this.graphics;
    g.clear();
    const zoom = this.camera.zoom;
    const px = 1 / zoom;
    // The selected entity's rays, whatever the density.
    if (sel >= 0 && this.indexOfId[sel]! >= 0) {
      const p = this.probe;
      p.probe(this.sim, this.plane, sel, e.ids, e.count);
      // Its reach first, under the rays: a faint disc of its sight range with a rim.
      if (p.range > 0) g.circle(p.fromX, p.fromY, p.range).fill({ color: ENTITY_COLOURS.sightRange, alpha: 0.07 }).stroke({ color: ENTITY_COLOURS.sightRange, alpha: 0.55, width: 1.5 * px });
      let any = false;
      for (let j = 0; j < p.count; j++) {
        if (!p.visible[j]) continue;
        g.moveTo(p.fromX, p.fromY).lineTo(p.toX[j]!, p.toY[j]!);
        any = true;
      }
      if (any) g.stroke({ color: ENTITY_COLOURS.seenRay, alpha: 0.95, width: 1.5 * px });
      any = false;
      const dash = 6 * px;
      const gap = 4 * px;
      for (let j = 0; j < p.count; j++) {
        if (p.visible[j]) continue;
        const dx = p.toX[j]! - p.fromX;
        const dy = p.toY[j]! - p.fromY;
        const len = Math.hypot(dx, dy);
        if (!(len > 0)) continue;
        const ux = dx / len;
        const uy = dy / len;
        for (let s = 0; s < len && s < 400 * dash; s += dash + gap) {
          const e1 = Math.min(len, s + dash);
          g.moveTo(p.fromX + ux * s, p.fromY + uy * s).lineTo(p.fromX + ux * e1, p.fromY + uy * e1);
        }
        any = true;
      }
      if (any) g.stroke({ color: ENTITY_COLOURS.unseenRay, alpha: 0.9, width: 1.2 * px });
      any = false;
      const c = 4 * px;
      for (let j = 0; j < p.count; j++) {
        if (p.visible[j]) continue;
        const x = p.stopX[j]!;
        const y = p.stopY[j]!;
        g.moveTo(x - c, y - c).lineTo(x + c, y + c).moveTo(x - c, y + c).lineTo(x + c, y - c);
        any = true;
      }
      if (any) g.stroke({ color: ENTITY_COLOURS.stopMark, alpha: 1, width: 2 * px });
    }
    const budget = showSight ? RAYS_BY_DENSITY[rays] : 0;
    if (budget === 0) return 0;
    const [vx0, vy0, vx1, vy1] = this.camera.visibleRect();
    const inView = (i: number) => e.x[i]! >= vx0 && e.x[i]! <= vx1 && e.y[i]! >= vy0 && e.y[i]! <= vy1;
    // The watchers that see the player: a line to it (the density's share, in id order).
    let n = 0;
    for (let i = 0; i < e.count && n < budget; i++) {
      const t = e.target[i]!;
      if (!t || !e.visible[i] || e.ids[i] === sel || !inView(i)) continue;
      const j = t >= 0 && t < this.indexOfId.length ? this.indexOfId[t]! : -1;
      if (j < 0) continue;
      g.moveTo(e.x[i]!, e.y[i]!).lineTo(e.x[j]!, e.y[j]!);
      n++;
    }
    if (n > 0) g.stroke({ color: ENTITY_COLOURS.sightLine, alpha: 0.45, width: px });
    // Rays along the facing of agents in view, stopped where the world blocks them.
    const world = this.sim.world;
    const plane = this.plane;
    const up = plane.up;
    const [h0, h1] = [plane.ax, plane.ay];
    const pos = this.sim.ecs.components.Position;
    const P = [pos.x, pos.y, pos.z];
    let m = 0;
    for (let i = 0; i < e.count && m < budget; i++) {
      if (!e.agent[i] || e.visible[i] || e.ids[i] === sel || !inView(i)) continue;
      const id = e.ids[i]!;
      const range = e.sightRange[i]! > 0 ? e.sightRange[i]! : 10 * world.scale;
      const o = m * SEGMENT_STRIDE;
      const eye = plane.upSign * Math.max(e.radius[i]!, 1e-6);
      for (let k = 0; k < 3; k++) this.raySegments[o + k] = P[k]![id]!;
      this.raySegments[o + up] += eye;
      for (let k = 0; k < 3; k++) this.raySegments[o + 3 + k] = this.raySegments[o + k]!;
      this.raySegments[o + 3 + h0] += e.dirX[i]! * range;
      this.raySegments[o + 3 + h1] += plane.ySign * e.dirY[i]! * range;
      if (world.integer) for (let k = 0; k < 6; k++) this.raySegments[o + k] = Math.round(this.raySegments[o + k]!);
      this.rayOwner[m] = i;
      m++;
    }
    if (m === 0) return n;
    losBatch(world, this.raySegments, this.rayOut, 0, m);
    const R = this.rect;
    for (let r = 0; r < m; r++) {
      const i = this.rayOwner[r]!;
      const o = r * SEGMENT_STRIDE;
      const dx = this.raySegments[o + 3 + h0]! - this.raySegments[o + h0]!;
      const dy = plane.ySign * (this.raySegments[o + 3 + h1]! - this.raySegments[o + h1]!);
      // Stopped where the world blocks it, or where it leaves the world's rectangle (nothing is out there).
      const f = Math.min(this.rayOut.fraction[r]!, exitFraction(e.x[i]!, e.y[i]!, dx, dy, R));
      g.moveTo(e.x[i]!, e.y[i]!).lineTo(e.x[i]! + dx * f, e.y[i]! + dy * f);
    }
    g.stroke({ color: ENTITY_COLOURS.facingRay, alpha: 0.4, width: px });
    return n + m;
  }
}
