/**
 * The determinism guard: while a simulation's systems and tasks run (a step, and a range kernel's part of it
 * on a system worker), the hidden inputs a scenario could reach for are refused where they are called, with a
 * ScenarioError naming the system or task and the deterministic replacement, instead of a replay that
 * records without a word and fails only when it is verified (guarded-globals.ts lists them):
 *
 * - randomness, clocks and timers: `Math.random`, `crypto.getRandomValues`, `crypto.randomUUID` (draw from
 *   `ctx.rng.streams`), `Date.now`, `performance.now` (the frame counter `ctx.frame` is a system's time),
 *   `setTimeout`, `setInterval`, `setImmediate`, `queueMicrotask` (do the work in a later frame's run);
 * - the rest: the engine's own maths (`Math.exp`, `Math.sin`, ...: use `detExp`, `detSin`, ...),
 *   `Date()`, `new Date()` and `new Date(y, m, ...)`, `process.hrtime`, `uptime`, `cpuUsage` and
 *   `resourceUsage`, `Intl` and the `toLocaleString` family.
 *
 * The first group is replaced in every guarded stretch. The second only in a stretch whose subject is not
 * `runtimeCodeOnly`: a simulation whose every task is the runtime's own (the built-in scenarios) runs
 * without it, so its steps pay nothing for it; the runtime's code never calls those (a test runs the
 * built-in scenarios with every check on), and it costs 1.5 to 3 µs a step (docs/benchmarks.md).
 *
 * The globals are replaced when the outermost guarded stretch (that needs them) begins and put back,
 * descriptor for descriptor, when it ends, also when it ends by an error: between steps (the program, async
 * code, the runtime's own I/O) they are the engine's own, and a step inside a step (two simulations, or
 * verify code) only counts deeper. A property is replaced where it lives (`performance.now` on
 * Performance.prototype in most engines), with its own attributes; one that cannot be redefined (frozen) is
 * left alone; an install that fails half-way puts back what it did before it throws. A refusal a system
 * catches still fails the step: it is thrown again when the step ends. Only what a step calls synchronously
 * is guarded (a promise callback it schedules runs after the step, where nothing is refused). The
 * simulation's event listeners are the program's code, not the simulation's: the guard pauses while they run
 * (`pauseGuardForListeners`). The global `Date` is replaced by a stand-in that refuses only the clock and
 * local-time forms; replacing it each step was measured not to slow the steps (docs/benchmarks.md).
 *
 * The runtime's own code never calls these globals during a step (its clocks are read between steps, or
 * through references taken at module load).
 */
import { ScenarioError } from './scenario.js';
import { GUARDED, type Check, type GuardedProperty, type Obj } from './guarded-globals.js';

/** Says who is running, for the refusal: "system chase (scenario tag, frame 12)". */
export interface GuardSubject {
  describe(): string;
  /**
   * True when only the runtime's own code runs in the stretch (every task of a built-in scenario): only
   * randomness, clocks and timers are refused, not the engine's maths, `Date`, `process`'s clocks or the
   * locale, which that code is known never to call. Read when the stretch begins.
   */
  readonly runtimeCodeOnly?: boolean;
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

/**
 * One guarded property (guarded-globals.ts) and what the guard knows of it. A class, so that every slot has
 * the same shape and the install loop's reads stay monomorphic.
 */
class Slot {
  readonly holder: () => unknown;
  readonly key: string;
  readonly get: (o: Obj) => unknown;
  readonly set: (o: Obj, v: unknown) => void;
  readonly call: string;
  /** Makes the stand-in from the original: a function that refuses. */
  readonly make: (original: unknown) => unknown;
  /** The stand-in is made by the property's own `standIn` (which may take an object). */
  readonly ownStandIn: boolean;
  /** The original the stand-in was last made for, and that stand-in (made again only when the original changes). */
  original: unknown = undefined;
  standIn: unknown = undefined;
  /** Where the last install found the property: the holder read, the object owning it, its descriptor then. */
  lastHolder: unknown = undefined;
  owner: object | null = null;
  saved: PropertyDescriptor | undefined = undefined;
  /** Installed by a plain store (a writable data property), so a store puts it back. */
  plain = false;
  installed = false;

  constructor(p: GuardedProperty) {
    this.holder = p.holder;
    this.key = p.key;
    this.get = p.get;
    this.set = p.set;
    this.call = p.call;
    const make = p.standIn;
    this.ownStandIn = make !== undefined;
    this.make = (original) => (make ? make(original as (...args: unknown[]) => unknown, check) : refuser(p.call, original as (...args: unknown[]) => unknown));
  }
}

/** Subjects of the guarded stretches now running, innermost last; null for a pause (event listeners). */
const running: (GuardSubject | null)[] = [];
/** Per stretch, the first refusal made in it (thrown again when the stretch ends, if a system caught it). */
const refusals: (NondeterminismError | null)[] = [];

/** Throws the refusal of `call` inside a guarded stretch that is not paused. */
const check: Check = (call) => {
  if (refusing()) throw refuse(call);
};

/** A function that refuses `call` while a stretch runs, and does what the original does if it escapes one. */
function refuser(call: string, fn: (...args: unknown[]) => unknown): unknown {
  const standIn = function (this: unknown, ...args: unknown[]): unknown {
    check(call);
    // A constructor (Intl's) built through a stand-in that escaped a step builds what the original does.
    if (new.target !== undefined) return Reflect.construct(fn, args, new.target === standIn ? fn : new.target);
    return fn.apply(this, args);
  };
  return standIn;
}

/** Replaced in every guarded stretch: randomness, clocks and timers. */
const ALWAYS: Slot[] = GUARDED.filter((p) => p.always === true).map((p) => new Slot(p));
/** Replaced in a stretch that is not `runtimeCodeOnly`: the engine's maths, Date, process's clocks, the locale. */
const MORE: Slot[] = GUARDED.filter((p) => p.always !== true).map((p) => new Slot(p));
/** Set by `everyCheckEverywhere`: MORE in every stretch, the runtime's own included. */
let everyCheck = false;

/**
 * For the tests that hold the runtime to never calling what MORE refuses: with `on`, every guarded stretch
 * replaces every global, `runtimeCodeOnly` or not (a built-in scenario's steps then refuse the engine's maths
 * too). Not while a stretch runs.
 */
export function everyCheckEverywhere(on: boolean): void {
  if (running.length > 0) throw new Error('everyCheckEverywhere: called inside a guarded stretch');
  everyCheck = on;
}

/** How many of the stretches now running need MORE (it is installed while this is above 0). */
let moreDepth = 0;
/** Per stretch, whether it counted in moreDepth. */
const needsMore: boolean[] = [];

/** What a refusal says after the call it names ("which a replay cannot repeat (...): advice"), by the call. */
const TAIL = new Map<string, string>();
const tail = (why: string | undefined, advice: string) => `${why ?? 'which a replay cannot repeat'} (refused while systems run): ${advice}`;
for (const p of GUARDED) {
  TAIL.set(p.call, tail(p.why, p.advice));
  for (const [call, m] of Object.entries(p.more ?? {})) TAIL.set(call, tail(m.why, m.advice));
}
/** The tail for `call`; `Intl.X` takes `Intl`'s. */
function tailOf(call: string): string {
  return TAIL.get(call) ?? TAIL.get(call.slice(0, call.indexOf('.'))) ?? tail(undefined, '');
}

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

/** Installs every slot of `slots`; if one fails, puts back those done and throws. */
function install(slots: Slot[]): void {
  let i = 0;
  try {
    for (; i < slots.length; i++) {
      const s = slots[i]!;
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
    slots[i]!.installed = false;
    uninstall(slots, i);
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
  // A function, or an object whose stand-in is made its own way (Intl).
  if (typeof original !== 'function' && !(s.ownStandIn && typeof original === 'object' && original !== null)) return;
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
function uninstall(slots: Slot[], n = slots.length): void {
  let failure: unknown = null;
  for (let i = n - 1; i >= 0; i--) {
    const s = slots[i]!;
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

function refuse(call: string): NondeterminismError {
  const who = running[running.length - 1]!.describe();
  const e = new NondeterminismError(`${who} called ${call}, ${tailOf(call)}`, call);
  refusals[refusals.length - 1] ??= e;
  return e;
}

/**
 * The refusal of a call made on another thread (a range kernel on a system worker), named after what runs
 * on this one: "system chase (scenario tag, frame 12) called Math.random() (in its range kernel spin, on
 * system worker 1), ...". Outside a guarded stretch, the call is named without a system.
 */
export function refusalFromThread(call: string, where: string): NondeterminismError {
  const who = refusing() ? running[running.length - 1]!.describe() : 'a range kernel';
  const e = new NondeterminismError(`${who} called ${call} (${where}), ${tailOf(call)}`, call);
  if (refusing()) refusals[refusals.length - 1] ??= e;
  return e;
}

/**
 * Begins a guarded stretch run by `subject`: the outermost one replaces the globals (and the first one that
 * is not `runtimeCodeOnly`, the rest of them). Pair every call with `leaveGuard()` in a `finally`. If the
 * install fails, nothing is left replaced and the error is thrown.
 */
export function enterGuard(subject: GuardSubject): void {
  const outermost = running.length === 0;
  const more = everyCheck || subject.runtimeCodeOnly !== true;
  if (outermost) install(ALWAYS);
  if (more && moreDepth === 0) {
    try {
      install(MORE);
    } catch (e) {
      if (outermost) uninstall(ALWAYS);
      throw e;
    }
  }
  if (more) moreDepth++;
  running.push(subject);
  refusals.push(null);
  needsMore.push(more);
}

/**
 * Ends the innermost guarded stretch: the outermost one puts every global back. Then the first refusal made
 * during the stretch is thrown (again, if a system caught it; in a `finally`, it takes the place of the error
 * in flight, of which it is the first cause), and it fails the enclosing stretch too, if there is one.
 */
export function leaveGuard(): void {
  running.pop();
  const r = refusals.pop() ?? null;
  const more = needsMore.pop() === true;
  try {
    if (more && --moreDepth === 0) uninstall(MORE);
  } finally {
    if (running.length === 0) uninstall(ALWAYS);
  }
  // A refusal fails the enclosing stretch too (if a system caught it), unless that is a listener's pause.
  if (running.length > 0 && r !== null && running[running.length - 1] !== null) refusals[refusals.length - 1] ??= r;
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
    needsMore.push(false);
    try {
      (emit as (...a: unknown[]) => void).apply(this, args);
    } finally {
      running.pop();
      refusals.pop();
      needsMore.pop();
    }
  } as B['emit'];
  return bus;
}
