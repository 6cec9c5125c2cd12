/**
 * What the inspector shows, without any DOM: the point under the cursor with the ground's answer there, and
 * the selection (an entity, or a tile of the world) with what the world's own data say about it. A tile's
 * description is read once, when it is selected (it does not change); an entity's components are read each
 * drawn frame and its behaviour every BEHAVIOUR_FRAMES simulated frames (reading every task's state costs more).
 *
 * No DOM or pixi.js here: Node tests run it on real simulations.
 */
import type { Simulation } from '../../sim/simulation.js';
import type { CollisionWorld } from '../../worlds/world.js';
import type { EntityFrame } from '../scene/entities.js';
import { behaviours, describeAt, describeEntity, pickEntity, probeAt, type EntityInfo, type Highlight, type ProbeAnswer, type TileInfo } from '../scene/inspect.js';
import type { MapPlane } from '../scene/projection.js';

/** Simulation frames between two reads of the controller's behaviours for the inspector. */
export const BEHAVIOUR_FRAMES = 30;
/** How far from an entity (screen pixels) a click still picks it. */
export const PICK_PIXELS = 12;

export type Selection = { kind: 'entity'; id: number } | { kind: 'tile'; x: number; y: number } | null;

/** What the map draws of the selection: the selected entity (−1 none) and a selected tile's outlines. */
export interface SelectionMarks {
  selected: number;
  highlights: Highlight[];
}

/** The selection a click at map point (mx, my) makes: the entity drawn there (at `zoom` pixels per unit), else the tile. */
export function pickAt(entities: EntityFrame, mx: number, my: number, zoom: number): Selection {
  const i = pickEntity(entities, mx, my, PICK_PIXELS / zoom);
  return i >= 0 ? { kind: 'entity', id: entities.ids[i]! } : { kind: 'tile', x: mx, y: my };
}

export class Inspection {
  /** The ground's answer under the cursor, and where the cursor is (CSS pixels on the map). */
  hover: ProbeAnswer | null = null;
  hoverAt: [number, number] | null = null;
  selection: Selection = null;
  /** The selected tile's description. */
  tile: TileInfo | null = null;
  /** The selected entity's components, behaviour and sight, as of the last `refresh`. */
  entity: EntityInfo | null = null;
  private behaviour: Uint8Array | null = null;
  private behaviourFrame = -Infinity;

  /** A new world: nothing hovered or selected. */
  reset(): void {
    this.hover = null;
    this.hoverAt = null;
    this.select(null);
  }

  /** The cursor at screen point (sx, sy), over map point (mx, my) of `world`. */
  hoverOver(world: CollisionWorld, plane: MapPlane, sx: number, sy: number, mx: number, my: number): ProbeAnswer {
    this.hoverAt = [sx, sy];
    this.hover = probeAt(world, mx, my, plane);
    return this.hover;
  }

  /** The cursor left the map. */
  leave(): void {
    this.hover = null;
    this.hoverAt = null;
  }

  /** A new selection: what was read of the last one is forgotten. */
  select(s: Selection): void {
    this.selection = s;
    this.behaviourFrame = -Infinity;
    this.tile = null;
    this.entity = null;
  }

  /** What the map draws of the selection in `world` (a tile's description is read here). */
  marks(world: CollisionWorld): SelectionMarks {
    const s = this.selection;
    if (s?.kind === 'tile') {
      this.tile = describeAt(world, s.x, s.y);
      return { selected: -1, highlights: this.tile.highlights };
    }
    return { selected: s?.kind === 'entity' ? s.id : -1, highlights: [] };
  }

  /** Reads the selected entity again (its behaviour when BEHAVIOUR_FRAMES have passed since the last read). */
  refresh(sim: Simulation): void {
    const s = this.selection;
    if (s?.kind !== 'entity') return;
    if (Math.abs(sim.frame - this.behaviourFrame) >= BEHAVIOUR_FRAMES) {
      this.behaviour = behaviours(sim);
      this.behaviourFrame = sim.frame;
    }
    this.entity = describeEntity(sim, s.id, this.behaviour);
  }
}
