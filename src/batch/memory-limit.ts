/**
 * A batch job's memory limit, as its worker thread measures it: the thread's V8 heap in use plus the memory
 * V8 counts outside the heap for it (ArrayBuffers and their typed arrays, Buffers, and what native objects
 * hold), both from `v8.getHeapStatistics()` in the thread (`used_heap_size + external_memory`). That covers
 * what the V8 heap limit of a thread (`resourceLimits`) does not: a scenario holding gigabytes of
 * ArrayBuffers keeps a small heap.
 *
 * The figure is the thread's: besides the job's own memory it counts what the thread keeps between jobs
 * (the inputs it was sent, the worlds it keeps, the previous job's simulation; tens of MiB for real jobs),
 * and memory no longer used that V8 has not collected yet. The runner checks it between frames, every
 * MEMORY_CHECK_FRAMES frames (a reading costs about 1.5 µs), and the thread checks it again when the job
 * ends; a job found over its limit fails, and its thread is replaced so that what it held is freed (pool.ts).
 *
 * In a worker thread of Node 20, `process.memoryUsage()` gives the same per-thread figures (`heapUsed`,
 * `external`, which includes `arrayBuffers`), but it also reads the whole process's RSS from the system:
 * about 17 µs a call, hence `getHeapStatistics`.
 */
import { getHeapStatistics } from 'node:v8';

/** Frames between two readings of a job's memory (and one before the first frame, one at the end). */
export const MEMORY_CHECK_FRAMES = 8;

const MIB = 1024 * 1024;

/** A job found using more memory than its limit allows; the message gives the figures. */
export class MemoryLimitError extends Error {
  override readonly name = 'MemoryLimitError';
}

/** The thread's memory now, bytes: V8 heap in use, and memory outside the heap that V8 counts. */
export function threadMemory(): { heap: number; external: number } {
  const h = getHeapStatistics();
  return { heap: h.used_heap_size, external: h.external_memory };
}

/** Throws a MemoryLimitError when the thread uses more than `limitMiB` MiB now. */
export function checkThreadMemory(limitMiB: number): void {
  const { heap, external } = threadMemory();
  if (heap + external > limitMiB * MIB) throw new MemoryLimitError(memoryMessage(heap, external, limitMiB));
}

/** The reason a job over its memory limit fails, with the figures (MiB, one decimal). */
export function memoryMessage(heap: number, external: number, limitMiB: number): string {
  const mib = (n: number) => (n / MIB).toFixed(1);
  return `stopped at ${mib(heap + external)} MiB of memory (V8 heap ${mib(heap)} MiB, outside the heap ${mib(external)} MiB: ArrayBuffers, typed arrays, Buffers), over its limit of ${limitMiB} MiB (maxMemoryMiB)`;
}
