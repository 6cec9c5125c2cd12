/**
 * The simulation's systems, as a plain ordered list. Each system becomes one scheduler task with its own
 * priority (so systems interleave with game tasks such as the field's weather by priority, as in the game's
 * task kernel). To add a system, append its definition to DEFAULT_SYSTEMS (or pass a longer list to the
 * Simulation); the list order is the creation order, which breaks ties between equal priorities.
 */
import type { EcsWorld } from '../ecs/ecs-world.js';
import type { TaskBody, TaskFunction } from '../ecs/scheduler.js';
import type { CollisionWorld } from '../worlds/world.js';
import { inputSystem } from './input.js';
import { movementSystem } from './movement.js';
import { wanderSystem } from './wander.js';

/** What a system is given when it is created: the simulation's parts, never the outside world. */
export interface SystemHost {
  readonly ecs: EcsWorld;
  readonly world: CollisionWorld;
  /** The player's entity id (0 when the scenario has none). */
  readonly player: number;
  /** The buttons (bitmask, see input.ts) given for the frame being run: the only outside data. */
  readonly input: number;
}

export interface SystemDef {
  readonly name: string;
  /** Scheduler priority (ascending runs first), in the game's scale (see scheduler.ts). */
  readonly priority: number;
  create(host: SystemHost): TaskBody | TaskFunction;
}

/** Input 33 (the game's ccThGameCtrl slot), wander 48 (ccThAISystem), movement 50 (after ccThPlayer 49). */
export const DEFAULT_SYSTEMS: readonly SystemDef[] = [inputSystem, wanderSystem, movementSystem];

export { inputSystem, movementSystem, wanderSystem };
