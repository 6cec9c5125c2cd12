/** What the main thread and the system workers share: the control words, the worker's data, the messages. */
import type { SharedStore } from '../ecs/components.js';
import type { WorldSource } from './los-pool.js';
import { MAX_STAGE_KERNELS } from '../systems/range-kernel.js';

/** Control words (an Int32Array over a SharedArrayBuffer). */
export const C = {
  /** Bumped for every job (and to wake the workers to stop). */
  GENERATION: 0,
  /** Configuration messages sent to every worker so far: a job needs all of them applied. */
  CONFIG: 1,
  /** The job's simulation (binding id), kernel (index in the binding) and id count. */
  BINDING: 2,
  KERNEL: 3,
  COUNT: 4,
  /** Workers done with the job. */
  DONE: 5,
  /** The index of the first worker that failed (0: none). */
  ERROR: 6,
  STOP: 7,
  /** The job's next chunk to take (each thread takes chunks with Atomics.add until none is left). */
  NEXT: 8,
  /** How many kernels the job runs as a stage (0: not a stage, the one kernel in KERNEL), their indices from STAGE_KERNELS on. */
  STAGE: 9,
  STAGE_KERNELS: 10,
  WORDS: 10 + MAX_STAGE_KERNELS,
} as const;

/** What a system worker is started with. */
export interface PoolWorkerData {
  source: WorldSource;
  control: Int32Array;
  /** The worker's end of its configuration channel (read synchronously with receiveMessageOnPort). */
  port: unknown;
  index: number;
  threads: number;
  /** Module files exporting `kernels: RangeKernel[]`, imported by every worker at start. */
  kernelModules: string[];
}

/** Configuration messages, applied by every worker in the order sent. */
export type ConfigMessage =
  | { type: 'attach'; binding: number; capacity: number; stores: SharedStore[]; membership: Uint32Array; ids: Uint32Array; marks: Uint32Array; counts: Int32Array }
  | { type: 'kernel'; binding: number; index: number; name: string }
  | { type: 'state'; state: unknown }
  | { type: 'detach'; binding: number };
