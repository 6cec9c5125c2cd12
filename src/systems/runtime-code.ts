/**
 * The runtime's own systems and task bodies (the built-in systems, the Piney field's tasks): code known not
 * to call what the determinism guard refuses beyond randomness, clocks and timers (the engine's maths,
 * `Date`, `process`'s clocks, the locale). A simulation whose every task is the runtime's own steps without
 * those checks, which cost 1.5 to 3 µs a step; a test runs the built-in scenarios with every check on to
 * hold the runtime to it (test/sim/runtime-code-checks.test.ts).
 */
const RUNTIME_CODE = new WeakSet<object>();

/** Marks `code` (a system definition or a task body) as the runtime's own; returns it. */
export function markRuntimeCode<T extends object>(code: T): T {
  RUNTIME_CODE.add(code);
  return code;
}

/** True for a system definition or task body that `markRuntimeCode` marked. */
export function isRuntimeCode(code: unknown): boolean {
  return (typeof code === 'object' || typeof code === 'function') && code !== null && RUNTIME_CODE.has(code);
}
