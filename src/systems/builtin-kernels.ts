/** The range kernels of the built-in systems: every worker thread of a `SystemPool` has these. */
import { controllerKernel } from './controller.js';
import { gravityKernel, groundContactKernel } from './gravity.js';
import { movementKernel } from './movement.js';
import { wanderKernel } from './wander.js';
import type { RangeKernel } from './range-kernel.js';

/** The built-in systems' range kernels, by which worker threads find them by name. */
export const BUILTIN_KERNELS: readonly RangeKernel[] = [wanderKernel, controllerKernel, gravityKernel, movementKernel, groundContactKernel];
