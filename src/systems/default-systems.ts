/**
 * The built-in systems, as one plain ordered list. Each system becomes one scheduler task with its own
 * priority (so systems interleave with game tasks such as the field's weather by priority, as in the game's
 * task kernel); the list order is the creation order, which breaks ties between equal priorities. A scenario
 * lists its systems: these, a subset, or these with its own (src/systems/system.ts is the contract).
 */
import type { SystemDef } from './system.js';
import { controllerSystem } from './controller.js';
import { gravitySystem, groundContactSystem } from './gravity.js';
import { inputSystem } from './input.js';
import { losSystem } from './los-system.js';
import { movementSystem } from './movement.js';
import { recordingSystem } from './recording.js';
import { defaultTriggersSystem } from './triggers.js';
import { wanderSystem } from './wander.js';
import { markRuntimeCode } from './runtime-code.js';

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
// The runtime's own code: a simulation of these alone skips the guard's further checks (runtime-code.ts).
for (const s of DEFAULT_SYSTEMS) markRuntimeCode(s);

export { controllerSystem, defaultTriggersSystem, gravitySystem, groundContactSystem, inputSystem, losSystem, movementSystem, recordingSystem, wanderSystem };
