/**
 * Triggers, after ground contact: what a body's position or floor sets off.
 *
 * - Death plane: a body whose feet are below the world's kill height (by default 2 m under the lowest point
 *   of the world's bounds, along up) dies: a `death` event, and it respawns at the world's spawn point at
 *   rest. Every world has one, so nothing falls forever.
 * - Death floors: a standing body whose floor is a death floor (by floor id or material) dies the same way.
 *   Llama's material 30 (water, pits) is one by default.
 * - Exit floors: a standing body that steps onto an exit floor (by id or material; Llama's material 16 by
 *   default) raises one `exit` event {frame, entity, id: the floor's id}; it must step off before it raises
 *   another.
 * - Tile swaps: standing on a given floor id switches a world tile swap (Llama doors and bridges) on or off.
 *
 * Floors are read with `world.ground` at a point just above the feet, only for standing bodies and only when
 * the configuration names any floor trigger, so worlds without them pay nothing per body. Bodies are visited
 * in ascending entity id, so events come in a defined order. The "on an exit" flags are state: hashed, saved.
 */
import type { FrameContext, TaskBody } from '../ecs/scheduler.js';
import { MATERIAL_DEATH, MATERIAL_EXIT } from '../worlds/llama/materials.js';
import type { CollisionWorld, Vec3 } from '../worlds/world.js';
import { newGroundResult } from '../worlds/world.js';
import { fallSpeeds, nativeRate } from './gravity.js';
import type { SystemDef, SystemHost } from './system.js';
import { AscendingIds } from './ascending-ids.js';
import { Saved } from '../binary/saved-value.js';

/** A floor that switches one of the world's tile swaps (Llama doors and bridges) while a body stands on it. */
export interface SwapTrigger {
  /** Floor id (as `world.ground` reports it) that switches the swap. */
  floorId: number;
  /** Swap index in the world. */
  swap: number;
  /** The state the swap is switched to. */
  on: boolean;
}

/** What the triggers system watches for; each field given replaces the world's own (defaultTriggers). */
export interface TriggerConfig {
  /** Kill height: a coordinate along the world's up axis; feet below it die. Default: `defaultKillPlane`. */
  killPlane?: number;
  /** Floors (by id or material) that raise an `exit` event when a body steps on. */
  exitFloorIds?: readonly number[];
  exitMaterials?: readonly number[];
  /** Floors (by id or material) a standing body dies on. */
  deathFloorIds?: readonly number[];
  deathMaterials?: readonly number[];
  swaps?: readonly SwapTrigger[];
}

/** How far under the world's lowest point the kill plane lies, in metres. */
export const KILL_PLANE_MARGIN_METRES = 2;
/** How far above the feet the floor probe starts, in metres (so the probe is inside the room, above its floor). */
export const FLOOR_PROBE_METRES = 0.1;

/** The default kill height: KILL_PLANE_MARGIN_METRES under the bounds' lowest point along up. */
export function defaultKillPlane(world: CollisionWorld): number {
  const a = world.up.axis;
  const margin = nativeRate(world, KILL_PLANE_MARGIN_METRES);
  return world.up.sign > 0 ? world.bounds.min[a] - margin : world.bounds.max[a] + margin;
}

/** Whether feet at `pos` are below the kill height `kill` (along the world's up). */
export function belowKillPlane(world: CollisionWorld, pos: ArrayLike<number>, kill: number): boolean {
  const h = pos[world.up.axis]!;
  return world.up.sign > 0 ? h < kill : h > kill;
}

/** The triggers a world has of its own: Llama's exit and death materials; none elsewhere. */
export function defaultTriggers(world: CollisionWorld): TriggerConfig {
  if (world.kind === 'llama') return { exitMaterials: [MATERIAL_EXIT], deathMaterials: [MATERIAL_DEATH] };
  return {};
}

interface SwappableWorld {
  setSwap?(index: number, on: boolean): void;
  getSwap?(index: number): boolean;
}

/**
 * The triggers system with a configuration (merged over the world's defaults). A scenario that uses a
 * configuration must always build it the same way, so that a replay re-creates it.
 */
export function triggersSystem(config: TriggerConfig | ((world: CollisionWorld) => TriggerConfig) = {}): SystemDef {
  return {
    name: 'triggers',
    // After ground contact (51).
    priority: 52,
    create(host: SystemHost): TaskBody {
      const ecs = host.ecs;
      const world = host.world;
      const own = typeof config === 'function' ? config(world) : config;
      const cfg: TriggerConfig = { ...defaultTriggers(world), ...own };
      const kill = cfg.killPlane ?? defaultKillPlane(world);
      const exitIds = new Set(cfg.exitFloorIds ?? []);
      const exitMats = new Set(cfg.exitMaterials ?? []);
      const deathIds = new Set(cfg.deathFloorIds ?? []);
      const deathMats = new Set(cfg.deathMaterials ?? []);
      const swaps = cfg.swaps ?? [];
      const probeFloors = exitIds.size + exitMats.size + deathIds.size + deathMats.size + swaps.length > 0;
      const sw = world as CollisionWorld & SwappableWorld;
      const c = ecs.components;
      const { Position, Velocity, Motion } = c;
      const q = ecs.defineQuery('triggers', [Position, Velocity, c.BodySize, Motion]);
      const fall = fallSpeeds(ecs);
      const onExit = new Uint8Array(ecs.capacity);
      const lift = world.up.sign * nativeRate(world, FLOOR_PROBE_METRES);
      const axis = world.up.axis;
      const probe: Vec3 = [0, 0, 0];
      const feet: Vec3 = [0, 0, 0];
      const g = newGroundResult();
      let spawn: Vec3 | null = null;
      const ascending = new AscendingIds();

      const respawn = (ctx: FrameContext, e: number): void => {
        spawn ??= world.spawnPoint();
        Position.x[e] = spawn[0];
        Position.y[e] = spawn[1];
        Position.z[e] = spawn[2];
        Velocity.x[e] = 0;
        Velocity.y[e] = 0;
        Velocity.z[e] = 0;
        fall[e] = 0;
        Motion.grounded[e] = 0;
        onExit[e] = 0;
        ctx.events.emit('death', { frame: ctx.frame, entity: e });
      };

      const upPos = [Position.x, Position.y, Position.z][axis]!;
      const upward = world.up.sign > 0;

      /** Whether any body's feet are below the kill plane (as `belowKillPlane`), visited in the query's order. */
      const anyBelow = (ents: readonly number[]): boolean => {
        const n = ents.length;
        if (upward) {
          for (let i = 0; i < n; i++) if (upPos[ents[i]!]! < kill) return true;
        } else {
          for (let i = 0; i < n; i++) if (upPos[ents[i]!]! > kill) return true;
        }
        return false;
      };

      return {
        run(ctx: FrameContext) {
          // With no floor triggers only the kill plane acts, on bodies below it: a scan in any order finds
          // whether there are some, and the ordered pass (which orders the death events) runs only then.
          if (!probeFloors && !anyBelow(ecs.entities(q))) return;
          const ids = ascending.of(ecs.entities(q), ecs.structureId);
          const n = ids.length;
          for (let i = 0; i < n; i++) {
            const e = ids[i]!;
            feet[0] = Position.x[e]!;
            feet[1] = Position.y[e]!;
            feet[2] = Position.z[e]!;
            if (belowKillPlane(world, feet, kill)) {
              respawn(ctx, e);
              continue;
            }
            if (!probeFloors) continue;
            if (Motion.grounded[e] !== 1) {
              onExit[e] = 0;
              continue;
            }
            probe[0] = feet[0];
            probe[1] = feet[1];
            probe[2] = feet[2];
            probe[axis] += lift;
            world.ground(probe, g);
            if (!g.hasFloor && g.id < 0) {
              onExit[e] = 0;
              continue;
            }
            if (deathIds.has(g.id) || deathMats.has(g.material)) {
              respawn(ctx, e);
              continue;
            }
            if (exitIds.has(g.id) || exitMats.has(g.material)) {
              if (onExit[e] === 0) ctx.events.emit('exit', { frame: ctx.frame, entity: e, id: g.id });
              onExit[e] = 1;
            } else onExit[e] = 0;
            for (let k = 0; k < swaps.length; k++) {
              const s = swaps[k]!;
              if (s.floorId === g.id && sw.setSwap && sw.getSwap?.(s.swap) !== s.on) sw.setSwap(s.swap, s.on);
            }
          }
        },
        hashState: () => onExit.subarray(0, ecs.maxId + 1),
        save: () => onExit.slice(0, ecs.maxId + 1),
        // Ids past maxId stay 0 (nothing writes them), so the whole array is the state.
        stateArrays: [onExit],
        /** An exit flag (0 or 1) per id 0..maxId (the entities are restored first). */
        restore(s: unknown) {
          const v = new Saved(s, 'state');
          const f = v.typed(Uint8Array, ecs.maxId + 1);
          v.elementsIn(f, 0, 1);
          onExit.fill(0).set(f);
        },
      };
    },
  };
}

/** The triggers system with the world's own triggers only (the kill plane; Llama's exit and death floors). */
export const defaultTriggersSystem: SystemDef = triggersSystem();
