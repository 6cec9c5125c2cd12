/**
 * What the determinism guard refuses while a simulation's systems and tasks run (determinism-guard.ts does
 * the replacing): one entry per global property, with the call as a refusal names it and the advice that
 * follows. Three kinds of hidden input:
 *
 * - randomness (`Math.random`, crypto's), clocks (`Date.now`, `performance.now`, `Date()`, `new Date()`,
 *   `process.hrtime`, `process.uptime`, `process.cpuUsage`, `process.resourceUsage`) and timers;
 * - the engine's own maths: every `Math` function whose result ECMAScript leaves to the implementation
 *   (`exp`, `log`, `pow`, `sin`, ... 22 of them), each named with its deterministic replacement (`detExp`);
 *   `Math.sqrt`, `abs`, `floor`, `ceil`, `round`, `trunc`, `sign`, `fround`, `imul`, `clz32`, `min` and
 *   `max` are exact by the standard and stay allowed;
 * - the machine's locale and time zone: `Intl`'s constructors and functions, the `toLocaleString` family
 *   and `localeCompare`, and `new Date(y, m, ...)` (a date in local time).
 *
 * Those marked `always` (randomness, `Date.now`, `performance.now`, the timers) are refused in every step;
 * the others only in the steps of a simulation that runs code other than the runtime's own.
 *
 * Each property's read and write are written out with its own name: on the global object and on
 * prototypes, such a store is many times cheaper than a keyed one, and the guard makes two per property per
 * step.
 */

/** An object whose properties the guard reads and writes. */
export type Obj = any;

/** Throws the refusal of `call` when a guarded stretch is running (and returns otherwise). */
export type Check = (call: string) => void;

/** One guarded global property. */
export interface GuardedProperty {
  /** The object the property is read from (looked up at each install: a program may replace `crypto`). */
  holder(): unknown;
  key: string;
  get(o: Obj): unknown;
  set(o: Obj, v: unknown): void;
  /** The refused call as written, e.g. `Math.random()`. */
  call: string;
  /**
   * What to do instead, after the refusal; with `why`, what is wrong with the call (by default, that a replay
   * cannot repeat it).
   */
  advice: string;
  why?: string;
  /**
   * Refused in every guarded stretch, the runtime's own included (else only while code other than the
   * runtime's runs).
   */
  always?: boolean;
  /** Other calls its stand-in refuses (`Date()` beside `new Date()`), each with its advice and why. */
  more?: Readonly<Record<string, { advice: string; why?: string }>>;
  /**
   * The stand-in for `original` (a function; or an object, for Intl); by default a function that refuses
   * `call` and otherwise does what the original does.
   */
  standIn?(original: (...args: unknown[]) => unknown, check: Check): unknown;
}

const G = globalThis as Obj;

const RANDOM = 'draw from a seeded stream instead: ctx.rng.streams.get(name).next() or .int(n)';
const TIME = "a system's clock is the frame counter ctx.frame (frames are the simulation's time)";
const TIMER = "a callback would run outside the frame order; do the work in a later frame's run instead (keep the frame to act on in the system's state and compare ctx.frame, or sleep the task)";
const ZONE = 'build the date in UTC instead: new Date(Date.UTC(year, month, ...))';
const ZONE_WHY = "which reads the machine's time zone";
const LOCALE = 'format outside the step (in an event listener or the program), or by hand';
const LOCALE_WHY = "whose result depends on the machine's locale and the engine's locale data";
const MATH_WHY = 'whose last bits ECMAScript leaves to each engine, so a replay recorded in one can diverge in another';

/** The advice for `Math.<name>`: its replacement, exported by retrosim. */
function mathAdvice(name: string): string {
  return `use det${name[0]!.toUpperCase()}${name.slice(1)} from retrosim instead (the same bits in every engine)`;
}

function math(name: string, get: (o: Obj) => unknown, set: (o: Obj, v: unknown) => void): GuardedProperty {
  return { holder: () => Math, key: name, get, set, call: `Math.${name}()`, advice: mathAdvice(name), why: MATH_WHY };
}

/** The prototype of the typed arrays (%TypedArray%.prototype). */
const typedArrayPrototype = (): unknown => Object.getPrototypeOf(Uint8Array.prototype);

/**
 * `Date` while a step runs: `Date()` and `new Date()` read the wall clock and `new Date(y, m, ...)` reads
 * the time zone, so they are refused; `new Date(ms)` and `new Date(date)` (a number or a date the system
 * has) and the static functions pass through.
 */
function dateStandIn(original: (...args: unknown[]) => unknown, check: Check): unknown {
  return new Proxy(original, {
    apply(target, self, args) {
      check('Date()');
      return Reflect.apply(target, self, args);
    },
    construct(target, args, newTarget) {
      if (args.length === 0) check('new Date()');
      else if (args.length > 1) check('new Date(year, month, ...)');
      return Reflect.construct(target, args, newTarget === proxyOf.get(target) ? target : newTarget);
    },
  });
}
/** The Date stand-in made for each original (so `new` through it builds a plain Date). */
const proxyOf = new WeakMap<object, unknown>();

/** `process.hrtime` while a step runs: refused, and so is its `bigint`. */
function hrtimeStandIn(original: (...args: unknown[]) => unknown, check: Check): unknown {
  const bigint = (original as unknown as { bigint?: (...args: unknown[]) => unknown }).bigint;
  const f = function (this: unknown, ...args: unknown[]): unknown {
    check('process.hrtime()');
    return original.apply(this, args);
  };
  if (typeof bigint === 'function') {
    Object.defineProperty(f, 'bigint', {
      value: function (this: unknown, ...args: unknown[]): unknown {
        check('process.hrtime.bigint()');
        return bigint.apply(this, args);
      },
      writable: true,
      enumerable: true,
      configurable: true,
    });
  }
  return f;
}

/** `Intl` while a step runs: reading any of its properties (`Intl.NumberFormat`, ...) is refused. */
function intlStandIn(original: unknown, check: Check): unknown {
  return new Proxy(original as object, {
    get(target, key, receiver) {
      check(`Intl.${String(key)}`);
      return Reflect.get(target, key, receiver);
    },
  });
}

/**
 * Every guarded property, in the order they are replaced (and put back in the reverse order). `Date.now` is
 * replaced before `Date` itself, so that it is found on the engine's own Date.
 */
export const GUARDED: readonly GuardedProperty[] = [
  // randomness
  { holder: () => Math, key: 'random', get: (o) => o.random, set: (o, v) => void (o.random = v), call: 'Math.random()', advice: RANDOM, always: true },
  { holder: () => G.crypto, key: 'getRandomValues', get: (o) => o.getRandomValues, set: (o, v) => void (o.getRandomValues = v), call: 'crypto.getRandomValues()', advice: RANDOM, always: true },
  { holder: () => G.crypto, key: 'randomUUID', get: (o) => o.randomUUID, set: (o, v) => void (o.randomUUID = v), call: 'crypto.randomUUID()', advice: RANDOM, always: true },
  // clocks
  { holder: () => G.Date, key: 'now', get: (o) => o.now, set: (o, v) => void (o.now = v), call: 'Date.now()', advice: TIME, always: true },
  { holder: () => G.performance, key: 'now', get: (o) => o.now, set: (o, v) => void (o.now = v), call: 'performance.now()', advice: TIME, always: true },
  {
    holder: () => globalThis,
    key: 'Date',
    get: (o) => o.Date,
    set: (o, v) => void (o.Date = v),
    call: 'new Date()',
    advice: `${TIME}; new Date(ms) of a number the system computed is allowed`,
    more: { 'Date()': { advice: TIME }, 'new Date(year, month, ...)': { advice: ZONE, why: ZONE_WHY } },
    standIn: (original, check) => {
      const p = dateStandIn(original, check);
      proxyOf.set(original, p);
      return p;
    },
  },
  { holder: () => G.process, key: 'hrtime', get: (o) => o.hrtime, set: (o, v) => void (o.hrtime = v), call: 'process.hrtime()', advice: TIME, more: { 'process.hrtime.bigint()': { advice: TIME } }, standIn: hrtimeStandIn },
  { holder: () => G.process, key: 'uptime', get: (o) => o.uptime, set: (o, v) => void (o.uptime = v), call: 'process.uptime()', advice: TIME },
  { holder: () => G.process, key: 'cpuUsage', get: (o) => o.cpuUsage, set: (o, v) => void (o.cpuUsage = v), call: 'process.cpuUsage()', advice: TIME },
  { holder: () => G.process, key: 'resourceUsage', get: (o) => o.resourceUsage, set: (o, v) => void (o.resourceUsage = v), call: 'process.resourceUsage()', advice: TIME },
  // timers
  { holder: () => globalThis, key: 'setTimeout', get: (o) => o.setTimeout, set: (o, v) => void (o.setTimeout = v), call: 'setTimeout()', advice: TIMER, always: true },
  { holder: () => globalThis, key: 'setInterval', get: (o) => o.setInterval, set: (o, v) => void (o.setInterval = v), call: 'setInterval()', advice: TIMER, always: true },
  { holder: () => globalThis, key: 'setImmediate', get: (o) => o.setImmediate, set: (o, v) => void (o.setImmediate = v), call: 'setImmediate()', advice: TIMER, always: true },
  { holder: () => globalThis, key: 'queueMicrotask', get: (o) => o.queueMicrotask, set: (o, v) => void (o.queueMicrotask = v), call: 'queueMicrotask()', advice: TIMER, always: true },
  // the engine's maths (ECMAScript's "implementation-approximated" functions)
  math('exp', (o) => o.exp, (o, v) => void (o.exp = v)),
  math('expm1', (o) => o.expm1, (o, v) => void (o.expm1 = v)),
  math('log', (o) => o.log, (o, v) => void (o.log = v)),
  math('log1p', (o) => o.log1p, (o, v) => void (o.log1p = v)),
  math('log2', (o) => o.log2, (o, v) => void (o.log2 = v)),
  math('log10', (o) => o.log10, (o, v) => void (o.log10 = v)),
  math('pow', (o) => o.pow, (o, v) => void (o.pow = v)),
  math('cbrt', (o) => o.cbrt, (o, v) => void (o.cbrt = v)),
  math('hypot', (o) => o.hypot, (o, v) => void (o.hypot = v)),
  math('sin', (o) => o.sin, (o, v) => void (o.sin = v)),
  math('cos', (o) => o.cos, (o, v) => void (o.cos = v)),
  math('tan', (o) => o.tan, (o, v) => void (o.tan = v)),
  math('asin', (o) => o.asin, (o, v) => void (o.asin = v)),
  math('acos', (o) => o.acos, (o, v) => void (o.acos = v)),
  math('atan', (o) => o.atan, (o, v) => void (o.atan = v)),
  math('atan2', (o) => o.atan2, (o, v) => void (o.atan2 = v)),
  math('sinh', (o) => o.sinh, (o, v) => void (o.sinh = v)),
  math('cosh', (o) => o.cosh, (o, v) => void (o.cosh = v)),
  math('tanh', (o) => o.tanh, (o, v) => void (o.tanh = v)),
  math('asinh', (o) => o.asinh, (o, v) => void (o.asinh = v)),
  math('acosh', (o) => o.acosh, (o, v) => void (o.acosh = v)),
  math('atanh', (o) => o.atanh, (o, v) => void (o.atanh = v)),
  // the locale
  { holder: () => globalThis, key: 'Intl', get: (o) => o.Intl, set: (o, v) => void (o.Intl = v), call: 'Intl', advice: LOCALE, why: LOCALE_WHY, standIn: intlStandIn },
  { holder: () => Number.prototype, key: 'toLocaleString', get: (o) => o.toLocaleString, set: (o, v) => void (o.toLocaleString = v), call: 'Number.prototype.toLocaleString()', advice: LOCALE, why: LOCALE_WHY },
  { holder: () => BigInt.prototype, key: 'toLocaleString', get: (o) => o.toLocaleString, set: (o, v) => void (o.toLocaleString = v), call: 'BigInt.prototype.toLocaleString()', advice: LOCALE, why: LOCALE_WHY },
  { holder: () => Array.prototype, key: 'toLocaleString', get: (o) => o.toLocaleString, set: (o, v) => void (o.toLocaleString = v), call: 'Array.prototype.toLocaleString()', advice: LOCALE, why: LOCALE_WHY },
  { holder: typedArrayPrototype, key: 'toLocaleString', get: (o) => o.toLocaleString, set: (o, v) => void (o.toLocaleString = v), call: 'TypedArray.prototype.toLocaleString()', advice: LOCALE, why: LOCALE_WHY },
  { holder: () => Date.prototype, key: 'toLocaleString', get: (o) => o.toLocaleString, set: (o, v) => void (o.toLocaleString = v), call: 'Date.prototype.toLocaleString()', advice: LOCALE, why: LOCALE_WHY },
  { holder: () => Date.prototype, key: 'toLocaleDateString', get: (o) => o.toLocaleDateString, set: (o, v) => void (o.toLocaleDateString = v), call: 'Date.prototype.toLocaleDateString()', advice: LOCALE, why: LOCALE_WHY },
  { holder: () => Date.prototype, key: 'toLocaleTimeString', get: (o) => o.toLocaleTimeString, set: (o, v) => void (o.toLocaleTimeString = v), call: 'Date.prototype.toLocaleTimeString()', advice: LOCALE, why: LOCALE_WHY },
  { holder: () => String.prototype, key: 'localeCompare', get: (o) => o.localeCompare, set: (o, v) => void (o.localeCompare = v), call: 'String.prototype.localeCompare()', advice: LOCALE, why: LOCALE_WHY },
  { holder: () => String.prototype, key: 'toLocaleUpperCase', get: (o) => o.toLocaleUpperCase, set: (o, v) => void (o.toLocaleUpperCase = v), call: 'String.prototype.toLocaleUpperCase()', advice: LOCALE, why: LOCALE_WHY },
  { holder: () => String.prototype, key: 'toLocaleLowerCase', get: (o) => o.toLocaleLowerCase, set: (o, v) => void (o.toLocaleLowerCase = v), call: 'String.prototype.toLocaleLowerCase()', advice: LOCALE, why: LOCALE_WHY },
];
