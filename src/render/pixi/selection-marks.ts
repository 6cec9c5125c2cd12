/**
 * The marks drawn over the bodies: the selection's ring (and the keyboard's pointed ring), its path trail and
 * the planned path it walks, a ring and a downward tick on each falling body, and in a room of several
 * players a ring in each seat's colour with a label over each seat's player.
 */
import { Graphics, Text, type Container } from 'pixi.js';
import type { Simulation } from '../../sim/simulation.js';
import type { Camera } from '../scene/camera.js';
import type { EntityFrame } from '../scene/entities.js';
import { ENTITY_COLOURS, FALLING_COLOUR, PLANNED_PATH_COLOUR, SEAT_COLOURS } from '../scene/palette.js';
import type { PathTrail } from '../scene/path-trail.js';
import { plannedPath } from '../scene/planned-path.js';
import type { MapPlane } from '../scene/projection.js';
import { seatLabels, type RoomSeats } from '../scene/seat-labels.js';
import { bodyMargin, entityPixels } from './entity-size.js';

/** The marks' graphics and the seats' labels, drawn again each frame. */
export class SelectionMarks {
  /** The selection's ring and the pointed entity's (under the view's top layer). */
  readonly selectRing = new Graphics();
  /** The selected agent's planned path while navigation walks it somewhere (see planned-path.ts). */
  readonly planLine = new Graphics();
  /** The selected entity's path trail. */
  readonly trailLine = new Graphics();
  /** A ring and a downward tick on each falling body (off a floor's edge: it respawns at the kill plane). */
  readonly fallMarks = new Graphics();
  /** In a room of several players: a ring in each player's colour (the labels are `seatTexts`). */
  readonly seatRings = new Graphics();
  private readonly seatTexts: Text[] = [];

  constructor(
    private readonly sim: Simulation,
    private readonly plane: MapPlane,
    private readonly camera: Camera,
    /** Index in the entity frame of each entity id (−1: not in it), filled by the view each frame. */
    private readonly indexOfId: Int32Array,
    /** The layer the seats' labels are added to (made as they are first needed). */
    private readonly labelLayer: Container,
  ) {}

  /** The selection's ring (`sel`, −1 none) and the pointed entity's `player` at the player's size. */
  drawSelectionRing(e: EntityFrame, sel: number, pointed: number, player: number): void {
    const zoom = this.camera.zoom;
    const ring = this.selectRing;
    ring.clear();
    const si = sel >= 0 && sel < this.indexOfId.length ? this.indexOfId[sel]! : -1;
    if (si >= 0) {
      const r = (entityPixels(e.radius[si]!, sel === player, zoom) * 0.9 + 4) / zoom;
      ring.circle(e.x[si]!, e.y[si]!, r).stroke({ color: ENTITY_COLOURS.selection, alpha: 1, width: 2.5 / zoom });
    }
    const pi = pointed >= 0 && pointed < this.indexOfId.length && pointed !== sel ? this.indexOfId[pointed]! : -1;
    if (pi >= 0) {
      const r = (entityPixels(e.radius[pi]!, pointed === player, zoom) * 0.9 + 7) / zoom;
      ring.circle(e.x[pi]!, e.y[pi]!, r).stroke({ color: ENTITY_COLOURS.pointed, alpha: 1, width: 2 / zoom });
    }
  }

  /**
   * The selected agent's (`sel`) planned path and a ring at its goal, while it is going somewhere. Returns
   * the map points drawn (x0, y0, x1, y1, ...; empty: none).
   */
  drawPlan(sel: number): readonly number[] {
    const g = this.planLine.clear();
    const pts = sel > 0 ? plannedPath(this.sim, sel, this.plane) : null;
    const planned = pts ?? [];
    if (!pts || pts.length < 4) return planned;
    const w = 2 / this.camera.zoom;
    g.moveTo(pts[0]!, pts[1]!);
    for (let k = 2; k < pts.length; k += 2) g.lineTo(pts[k]!, pts[k + 1]!);
    g.stroke({ color: PLANNED_PATH_COLOUR, alpha: 0.9, width: w });
    g.circle(pts[pts.length - 2]!, pts[pts.length - 1]!, 5 * w).stroke({ color: PLANNED_PATH_COLOUR, alpha: 0.9, width: w });
    return planned;
  }

  /**
   * The selected entity's (`sel`) path over its last TRAIL_POINTS frames, when the trail is on (`on`): its
   * position this frame, `at(sel)`, is added to `trail` (emptied when the trail is off or nothing is selected).
   */
  drawTrail(trail: PathTrail, on: boolean, sel: number, at: (id: number) => [number, number]): void {
    const g = this.trailLine.clear();
    if (!on || sel < 0) {
      trail.clear();
      return;
    }
    const [x, y] = at(sel);
    trail.add(sel, this.sim.frame, x, y);
    const t = trail;
    if (t.count < 2) return;
    const [x0, y0] = t.point(0);
    g.moveTo(x0, y0);
    for (let k = 1; k < t.count; k++) {
      const [px, py] = t.point(k);
      g.lineTo(px, py);
    }
    g.stroke({ color: ENTITY_COLOURS.selection, alpha: 0.7, width: 2 / this.camera.zoom });
  }

  /**
   * Falling bodies near the view: seen from above a fall does not show, so each gets a ring and a downward
   * tick (`you` is drawn at the player's size). Returns whether any was drawn.
   */
  drawFalling(e: EntityFrame, you: number): boolean {
    const g = this.fallMarks.clear();
    const zoom = this.camera.zoom;
    const [vx0, vy0, vx1, vy1] = this.camera.visibleRect();
    const m = bodyMargin(zoom);
    const [x0, y0, x1, y1] = [vx0 - m, vy0 - m, vx1 + m, vy1 + m];
    let any = false;
    for (let i = 0; i < e.count; i++) {
      if (!e.falling[i]) continue;
      const x = e.x[i]!;
      const y = e.y[i]!;
      if (!(x >= x0 && x <= x1 && y >= y0 && y <= y1)) continue;
      const r = (entityPixels(e.radius[i]!, e.ids[i] === you, zoom) * 0.75) / zoom;
      g.circle(x, y, r).moveTo(x, y + r).lineTo(x, y + r + 6 / zoom);
      any = true;
    }
    if (any) g.stroke({ color: FALLING_COLOUR, alpha: 0.95, width: 2 / zoom });
    return any;
  }

  /**
   * Several players: each one's ring in its seat's colour, "you" over the page's own (`you`), the labels from
   * `roomSeats` (asked only when there are several seats), made at `resolution`. Returns the colour of the
   * page's own seat when its player was drawn (its arrow is tinted so), else null.
   */
  drawSeats(e: EntityFrame, you: number, roomSeats: () => RoomSeats | null, resolution: number): number | null {
    const seats = this.sim.players;
    const g = this.seatRings.clear();
    if (seats.length < 2) return null;
    const zoom = this.camera.zoom;
    const labels = seatLabels(seats.length, seats.indexOf(you), roomSeats());
    let yours: number | null = null;
    for (let k = 0; k < seats.length; k++) {
      const t = (this.seatTexts[k] ??= this.makeSeatLabel(resolution));
      const i = this.indexOfId[seats[k]!]!;
      const text = labels[k]!;
      t.visible = i >= 0 && text !== '';
      if (i < 0) continue;
      const colour = SEAT_COLOURS[k % SEAT_COLOURS.length]!;
      const px = entityPixels(e.radius[i]!, true, zoom);
      g.circle(e.x[i]!, e.y[i]!, (px * 0.8) / zoom).stroke({ color: colour, alpha: 1, width: 3 / zoom });
      if (seats[k] === you) yours = colour;
      if (t.text !== text) t.text = text;
      if (t.style.fill !== colour) t.style.fill = colour;
      t.position.set(e.x[i]!, e.y[i]! - (px * 0.9) / zoom);
      t.scale.set(1 / zoom);
    }
    return yours;
  }

  /** Seat `k`'s label when it is drawn (its position is on the map), else null. */
  seatLabel(k: number): Text | null {
    const t = this.seatTexts[k];
    return t && t.visible ? t : null;
  }

  private makeSeatLabel(resolution: number): Text {
    const t = new Text({ text: '', resolution: Math.max(1, resolution), style: { fill: 0xffffff, fontSize: 13, fontWeight: 'bold', fontFamily: 'system-ui, sans-serif', stroke: { color: 0x000000, width: 3 } } });
    t.anchor.set(0.5, 1);
    this.labelLayer.addChild(t);
    return t;
  }
}
