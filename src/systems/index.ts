/**
 * The simulation's systems, as a plain ordered list. Each system becomes one scheduler task with its own
 * priority (so systems interleave with game tasks such as the field's weather by priority, as in the game's
 * task kernel). To add a system, append its definition to DEFAULT_SYSTEMS (or pass a longer list to the
 * Simulation); the list order is the creation order, which breaks ties between equal priorities.
 */
import type { EcsWorld } from '../ecs/ecs-world.js';
import type { TaskBody, TaskFunction } from '../ecs/scheduler.js';
import type { CollisionWorld } from '../worlds/world.js';
import { controllerSystem } from './controller.js';
import { gravitySystem, groundContactSystem } from './gravity.js';
import { inputSystem } from './input.js';
import { losSystem } from './los-system.js';
import { movementSystem } from './movement.js';
import { recordingSystem } from './recording.js';
import { defaultTriggersSystem } from './triggers.js';
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

/**
 * Input 33 (the game's ccThGameCtrl slot), wander 48 (ccThAISystem), controller and gravity 49 (ccThPlayer's
 * slot; the controller first, so a jump it starts gets this frame's gravity), movement 50, ground contact 51,
 * triggers 52, line of sight 56, recording last. docs/systems.md describes each.
 */
export const DEFAULT_SYSTEMS: readonly SystemDef[] = [
  inputSystem,
  wanderSystem,
  controllerSystem,
  gravitySystem,
  movementSystem,
  groundContactSystem,
  defaultTriggersSystem,
  losSystem,
  recordingSystem,
];

export { controllerSystem, defaultTriggersSystem, gravitySystem, groundContactSystem, inputSystem, losSystem, movementSystem, recordingSystem, wanderSystem };
