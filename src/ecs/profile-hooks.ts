/**
 * Profiling hooks: where a profiler is told that a task or a range kernel's run begins and ends. The runtime
 * only calls them, at fixed points, and only when one is set (`Scheduler.profiler`, `SystemPool.profiler`);
 * unset, each point costs one test. The runtime itself never reads a clock: the profiler does, in its own
 * code, with a clock it took before any step ran (the determinism guard replaces `performance.now` and
 * `Date.now` only while a step runs, so a reference taken earlier still reads the real clock). A profiler
 * must read the state only, never change it: hashes, draws and events are then those of a run without it.
 */
import type { TaskHandle } from './scheduler.js';

/** Told when each scheduler task runs (set on `Scheduler.profiler`). */
export interface TaskProfiler {
  /** Right before `task` runs in the frame being stepped. */
  taskStart(task: TaskHandle): void;
  /** Right after `task` returned (not called when it threw). */
  taskEnd(task: TaskHandle): void;
}

/** Told about each run of a range kernel on a pool of threads (set on `SystemPool.profiler`). */
export interface KernelProfiler {
  /** A run of kernel `name` over `ids` ids begins, split across `threads` threads (1: kept on the main thread). */
  kernelStart(name: string, ids: number, threads: number): void;
  /** The main thread finished its own range and begins waiting for the other threads (not called on 1 thread). */
  kernelJoin(name: string): void;
  /** Every range is done (marks merged). */
  kernelEnd(name: string): void;
}
