/**
 * The determinism guard: while a simulation's systems and tasks run (a step, and a range kernel's part of it
 * on a system worker), the sources of nondeterminism a scenario could reach for are refused where they are
 * called, with a ScenarioError naming the system or task and the deterministic replacement, instead of a
 * replay that records without a word and fails only when it is verified:
 *
 * - randomness: `Math.random`, `crypto.getRandomValues`, `crypto.randomUUID` (draw from `ctx.rng.streams`);
 * - clocks: `Date.now`, `performance.now` (the frame counter `ctx.frame` is a system's time);
 * - timers: `setTimeout`, `setInterval`, `setImmediate`, `queueMicrotask` (do the work in a later frame's run).
 *
 * The globals are replaced when the outermost guarded stretch begins and put back, descriptor for descriptor,
 * when it ends, also when it ends by an error: between steps (the program, async code, the runtime's own I/O)
 * they are the engine's own, and a step inside a step (two simulations, or verify code) only counts deeper.
 * A property is replaced where it lives (`performance.now` on Performance.prototype in most engines), with
 * its own attributes; one that cannot be redefined (frozen) is left alone; an install that fails half-way puts
 * back what it did before it throws. A refusal a system catches still fails the step: it is thrown again when
 * the step ends. Only what a step calls synchronously is guarded (a promise callback it schedules runs after
 * the step, where nothing is refused). The simulation's event listeners are the program's code, not the
 * simulation's: the guard pauses while they run (`pauseGuardForListeners`). `new Date()` is not refused: that
 * would take replacing the global `Date` every step, which leaves V8's optimised code unsteady (frames of the
 * kernel bench at times ran at half speed); verify and the synctest catch what it does to the state.
 *
 * The runtime's own code never calls these globals during a step (its clocks are read between steps, or
 * through references taken at module load).
 */
import { ScenarioError } from './scenario.js';

/** Says who is running, for the refusal: "system chase (scenario tag, frame 12)". */
export interface GuardSubject {
  describe(): string;
}

/** A call refused by the determinism guard: a ScenarioError that also names the call (`Math.random()`). */
export class NondeterminismError extends ScenarioError {
  constructor(
    message: string,
    /** The refused call as written, e.g. `Math.random()`, `Date.now()`, `setTimeout()`. */
    readonly call: string,
  ) {
    super(message);
  }
}

type Kind = 'random' | 'time' | 'timer';

const ADVICE: Record<Kind, string> = {
  random: 'draw from a seeded stream instead: ctx.rng.streams.get(name).next() or .int(n)',
  time: "a system's clock is the frame counter ctx.frame (frames are the simulation's time)",
  timer: "a callback would run outside the frame order; do the work in a later frame's run instead (keep the frame to act on in the system's state and compare ctx.frame, or sleep the task)",
};

/** An object whose properties the guard reads and writes. */
type Obj = any;

/** One guarded property: where to find it, and what stands in for it during a step. */
interface Slot {
  /** The object the property is read from (looked up at each install: a program may replace `crypto`). */
  holder(): unknown;
  key: string;
  /**
   * Reads and writes the property on a given object. Written out per property, each with its one name: on
   * the global object and on prototypes, such a store is many times cheaper than a keyed one.
   */
  get(o: Obj): unknown;
  set(o: Obj, v: unknown): void;
  call: string;
  kind: Kind;
  /** The stand-in, made from the original: a function that refuses. */
  make(original: unknown): unknown;
  /** The original the stand-in was last made for, and that stand-in (made again only when the original changes). */
  original: unknown;
  standIn: unknown;
  /** Where the last install found the property: the holder read, the object owning it, its descriptor then. */
  lastHolder: unknown;
  owner: object | null;
  saved: PropertyDescriptor | undefined;
  /** Installed by a plain store (a writable data property), so a store puts it back. */
  plain: boolean;
  installed: boolean;
}

/** Subjects of the guarded stretches now running, innermost last; null for a pause (event listeners). */
const running: (GuardSubject | null)[] = [];
/** Per stretch, the first refusal made in it (thrown again when the stretch ends, if a system caught it). */
const refusals: (NondeterminismError | null)[] = [];

const G = globalThis as Record<string, unknown>;

function slot(
  holder: () => unknown,
  key: string,
  get: (o: Obj) => unknown,
  set: (o: Obj, v: unknown) => void,
  call: string,
  kind: Kind,
): Slot {
  const s: Slot = { holder, key, get, set, call, kind, make: () => undefined, original: undefined, standIn: undefined, lastHolder: undefined, owner: null, saved: undefined, plain: false, installed: false };
  s.make = refuser(s);
  return s;
}

/** A function that refuses while a stretch runs, and does what the original does if it escapes one. */
function refuser(s: Slot): (original: unknown) => unknown {
  return (original) => {
    const fn = original as (...args: unknown[]) => unknown;
    return function (this: unknown, ...args: unknown[]): unknown {
      if (refusing()) throw refuse(s.call, s.kind);
      return fn.apply(this, args);
    };
  };
}

const SLOTS: Slot[] = [
  slot(() => Math, 'random', (o) => o.random, (o, v) => void (o.random = v), 'Math.random()', 'random'),
  slot(() => G['crypto'], 'getRandomValues', (o) => o.getRandomValues, (o, v) => void (o.getRandomValues = v), 'crypto.getRandomValues()', 'random'),
  slot(() => G['crypto'], 'randomUUID', (o) => o.randomUUID, (o, v) => void (o.randomUUID = v), 'crypto.randomUUID()', 'random'),
  slot(() => G['Date'], 'now', (o) => o.now, (o, v) => void (o.now = v), 'Date.now()', 'time'),
  slot(() => G['performance'], 'now', (o) => o.now, (o, v) => void (o.now = v), 'performance.now()', 'time'),
  slot(() => globalThis, 'setTimeout', (o) => o.setTimeout, (o, v) => void (o.setTimeout = v), 'setTimeout()', 'timer'),
  slot(() => globalThis, 'setInterval', (o) => o.setInterval, (o, v) => void (o.setInterval = v), 'setInterval()', 'timer'),
  slot(() => globalThis, 'setImmediate', (o) => o.setImmediate, (o, v) => void (o.setImmediate = v), 'setImmediate()', 'timer'),
  slot(() => globalThis, 'queueMicrotask', (o) => o.queueMicrotask, (o, v) => void (o.queueMicrotask = v), 'queueMicrotask()', 'timer'),
];

const hasOwn = Object.prototype.hasOwnProperty;
const getOwn = Object.getOwnPropertyDescriptor;
const define = Object.defineProperty;
const protoOf = Object.getPrototypeOf;

/** The object on `holder`'s prototype chain that has `key` as its own property, or null. */
function ownerOf(holder: unknown, key: string): object | null {
  let o = holder;
  while ((typeof o === 'object' || typeof o === 'function') && o !== null) {
    if (hasOwn.call(o, key)) return o;
    o = protoOf(o);
  }
  return null;
}

function install(): void {
  let i = 0;
  try {
    for (; i < SLOTS.length; i++) {
      const s = SLOTS[i]!;
      s.installed = false;
      const holder = s.holder();
      // The common case, a plain store: the property is where the last install found it, a writable data
      // property holding what was put back then (a store changes no attribute). Anything else: look again.
      if (s.plain && holder === s.lastHolder && s.get(holder) === s.saved!.value && (s.owner === holder || hasOwn.call(s.owner, s.key))) {
        try {
          s.set(s.owner, s.standIn);
          s.installed = true;
          continue;
        } catch {
          // made read-only since: look again
        }
      }
      installSlot(s, holder);
    }
  } catch (e) {
    // Nothing stays half-installed: the slots replaced so far get their own back.
    SLOTS[i]!.installed = false;
    uninstall(i);
    throw e;
  }
}

/** Finds the property on `holder`'s chain, saves its descriptor and puts the stand-in in its place. */
function installSlot(s: Slot, holder: unknown): void {
  s.plain = false;
  s.lastHolder = holder;
  const owner = ownerOf(holder, s.key);
  if (owner === null) return; // not in this engine (setImmediate in browsers)
  const d = getOwn(owner, s.key)!;
  const isData = 'value' in d;
  // A property that cannot be redefined (a frozen global) is left alone rather than half-guarded.
  if (!d.configurable && !(isData && d.writable)) return;
  const original = isData ? d.value : d.get?.call(holder);
  if (typeof original !== 'function') return;
  if (original !== s.original || s.standIn === undefined) {
    s.standIn = s.make(original);
    s.original = original;
  }
  s.saved = d;
  s.owner = owner;
  if (isData && d.writable) {
    s.set(owner, s.standIn);
    s.plain = true;
  } else if (isData) define(owner, s.key, { value: s.standIn, writable: false, enumerable: d.enumerable, configurable: d.configurable });
  else define(owner, s.key, { get: standInGetter(s), set: d.set, enumerable: d.enumerable, configurable: d.configurable });
  s.installed = true;
}

function standInGetter(s: Slot): () => unknown {
  return () => s.standIn;
}

/** Puts back the first `n` slots' properties (all by default). Throws the first failure after trying every slot. */
function uninstall(n = SLOTS.length): void {
  let failure: unknown = null;
  for (let i = n - 1; i >= 0; i--) {
    const s = SLOTS[i]!;
    if (!s.installed) continue;
    s.installed = false;
    const owner = s.owner!;
    try {
      // Installed by a store and still found as the stand-in: a store puts the original back.
      if (s.plain && s.get(s.lastHolder) === s.standIn) {
        try {
          s.set(owner, s.saved!.value);
          continue;
        } catch {
          // made read-only during the step: redefine below
        }
      }
      // Anything a step changed about the property (replaced, deleted, made read-only, shadowed): its own
      // descriptor back, and no property of that name left between the holder and its owner.
      s.plain = false;
      for (let o = s.lastHolder as object; o !== owner && o !== null; o = protoOf(o)) if (hasOwn.call(o, s.key)) delete (o as Obj)[s.key];
      define(owner, s.key, s.saved!);
    } catch (e) {
      s.plain = false;
      failure ??= e;
    }
  }
  if (failure !== null) throw failure;
}

/** True inside a guarded stretch that is not paused. */
function refusing(): boolean {
  return running.length > 0 && running[running.length - 1] !== null;
}

function refuse(call: string, kind: Kind): NondeterminismError {
  const who = running[running.length - 1]!.describe();
  const e = new NondeterminismError(`${who} called ${call}, which a replay cannot repeat (refused while systems run): ${ADVICE[kind]}`, call);
  refusals[refusals.length - 1] ??= e;
  return e;
}

/**
 * The refusal of a call made on another thread (a range kernel on a system worker), named after what runs
 * on this one: "system chase (scenario tag, frame 12) called Math.random() (in its range kernel spin, on
 * system worker 1), ...". Outside a guarded stretch, the call is named without a system.
 */
export function refusalFromThread(call: string, where: string): NondeterminismError {
  const slot = SLOTS.find((s) => s.call === call);
  const kind: Kind = slot?.kind ?? 'random';
  const who = refusing() ? running[running.length - 1]!.describe() : 'a range kernel';
  const e = new NondeterminismError(`${who} called ${call} (${where}), which a replay cannot repeat (refused while systems run): ${ADVICE[kind]}`, call);
  if (refusing()) refusals[refusals.length - 1] ??= e;
  return e;
}

/**
 * Begins a guarded stretch run by `subject`: the outermost one replaces the globals. Pair every call with
 * `leaveGuard()` in a `finally`. If the install fails, nothing is left replaced and the error is thrown.
 */
export function enterGuard(subject: GuardSubject): void {
  if (running.length === 0) install();
  running.push(subject);
  refusals.push(null);
}

/**
 * Ends the innermost guarded stretch: the outermost one puts every global back. Then the first refusal made
 * during the stretch is thrown (again, if a system caught it; in a `finally`, it takes the place of the error
 * in flight, of which it is the first cause), and it fails the enclosing stretch too, if there is one.
 */
export function leaveGuard(): void {
  running.pop();
  const r = refusals.pop() ?? null;
  if (running.length === 0) uninstall();
  // A refusal fails the enclosing stretch too (if a system caught it), unless that is a listener's pause.
  else if (r !== null && running[running.length - 1] !== null) refusals[refusals.length - 1] ??= r;
  if (r !== null) throw r;
}

/** True while a guarded stretch runs (a step, or a range kernel on a system worker) and is not paused. */
export function guardActive(): boolean {
  return refusing();
}

/** Buses whose `emit` pauses the guard already. */
const pausingBuses = new WeakSet<object>();

/**
 * Makes `bus.emit` pause the guard while the listeners run (once per bus; the bus is returned). Events are
 * the simulation's outputs: their listeners (a sound player, a renderer, the CLI's counters) are the
 * program's code, not the simulation's, and may use clocks and timers; nothing they do feeds back. A
 * simulation inside a listener is guarded again.
 */
export function pauseGuardForListeners<B extends { emit(type: never, event?: never): void }>(bus: B): B {
  if (pausingBuses.has(bus)) return bus;
  pausingBuses.add(bus);
  const emit = bus.emit;
  bus.emit = function (this: unknown, ...args: unknown[]): void {
    if (!refusing()) return void (emit as (...a: unknown[]) => void).apply(this, args);
    running.push(null);
    refusals.push(null);
    try {
      (emit as (...a: unknown[]) => void).apply(this, args);
    } finally {
      running.pop();
      refusals.pop();
    }
  } as B['emit'];
  return bus;
}
