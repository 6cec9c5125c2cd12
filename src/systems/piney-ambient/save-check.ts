/**
 * Checks a saved ambient state before it is put back (a snapshot may come from a file) and builds the state
 * to restore from it, field by field, in the live state's key order. The live state of the same field is
 * the template: what never changes during a run (the weather, the server, the snow's kind and count, the
 * fireflies' sprites and splines, the sun, ...) must equal it; every array has the live length; every EE
 * float is a u32 bit pattern; counters and indices are integers in their ranges (a thunder bolt 0..3, a
 * spline key within its keys, a pattern 0..99); a firefly's spark count is the number of its sparks, and a
 * spark has none of its own. Anything else is a FormatError naming the path (`save.state.fireflies[2]...`),
 * so no later frame can index past an array or loop on a restored number.
 */
import { FormatError } from '../../binary/format-error.js';
import { Saved } from '../../binary/saved-value.js';
import type { F, V4 } from './ee-vec.js';
import { lt, le, NEG_PI, PI } from './ee-vec.js';
import type { AmbientState } from './ambient.js';
import type { AmbientStatics } from './statics.js';
import type { SnowState } from './snow.js';
import type { Smoke2dState } from './smoke.js';
import type { RainState } from './rain.js';
import type { ThunderState } from './thunder.js';
import type { Firefly } from './firefly.js';
import type { Firefly2 } from './firefly2.js';
import type { TobjState } from './tobj.js';
import type { BirdState } from './bird.js';
import type { Spline } from './spline.js';
import type { WalkState } from './walk.js';

export const SAVE_FORMAT = 'piney-ambient save';

/** Most operations a saved frame list may hold (a real frame draws a few hundred). */
export const MAX_SAVED_OPS = 4096;
/** Most live smoke puffs a save may hold, and the longest life one may have left (real puffs live 8–30 frames). */
export const MAX_SAVED_PUFFS = 4096;
export const MAX_PUFF_LIFE = 65535;
/** The operation kinds (OP_SPRITE .. OP_FLASH). */
const OP_KINDS = [1, 9] as const;
/** FIREFLY2's spread (15), the same for every one. */
const SPREAD: F = 0x41700000;
/** The walk's field: 0 ≤ x, y < 48000. */
const FIELD: F = 0x473b8000;

const I32 = [-0x80000000, 0x7fffffff] as const;

function f32(v: Saved): F {
  return v.u32();
}
function i32(v: Saved): number {
  return v.int(I32[0], I32[1]);
}
function v4(v: Saved): V4 {
  const a = v.array(4, 4);
  return [f32(a[0]!), f32(a[1]!), f32(a[2]!), f32(a[3]!)];
}
function v4s(v: Saved, n: number): V4[] {
  return v.array(n, n).map(v4);
}
function nil(v: Saved): null {
  v.equals(null, 'null (this field has none)');
  return null;
}

/** Structural equality of plain data (typed arrays by element, numbers by Object.is). */
function same(a: unknown, b: unknown): boolean {
  if (Object.is(a, b)) return true;
  if (ArrayBuffer.isView(a) || ArrayBuffer.isView(b)) {
    if (!ArrayBuffer.isView(a) || !ArrayBuffer.isView(b) || a.constructor !== b.constructor) return false;
    const x = a as unknown as ArrayLike<number>;
    const y = b as unknown as ArrayLike<number>;
    if (x.length !== y.length) return false;
    for (let i = 0; i < x.length; i++) if (!Object.is(x[i], y[i])) return false;
    return true;
  }
  if (Array.isArray(a) || Array.isArray(b)) {
    if (!Array.isArray(a) || !Array.isArray(b) || a.length !== b.length) return false;
    return a.every((x, i) => same(x, b[i]));
  }
  if (typeof a === 'object' && typeof b === 'object' && a !== null && b !== null) {
    const ka = Object.keys(a);
    const kb = Object.keys(b);
    return ka.length === kb.length && ka.every((k) => Object.hasOwn(b, k) && same((a as Record<string, unknown>)[k], (b as Record<string, unknown>)[k]));
  }
  return false;
}

/** A value that never changes during a run: it must be the live one. */
function constant<T>(v: Saved, live: T): T {
  if (!same(v.value, live)) v.fail("differs from this field's, which never changes during a run");
  return structuredClone(live);
}

function snow(v: Saved, live: SnowState): SnowState {
  v.object(Object.keys(live));
  const n = live.count;
  return {
    kind: constant(v.get('kind'), live.kind),
    count: constant(v.get('count'), live.count),
    file: constant(v.get('file'), live.file),
    name: constant(v.get('name'), live.name),
    timer: v.get('timer').typed(Int32Array, n).slice(),
    turn: v.get('turn').typed(Int32Array, n).slice(),
    pos: v.get('pos').typed(Uint32Array, 4 * n).slice(),
    vel: v.get('vel').typed(Uint32Array, 4 * n).slice(),
    spritePos: v.get('spritePos').typed(Uint32Array, 4 * n).slice(),
  };
}

function smoke(v: Saved, live: Smoke2dState): Smoke2dState {
  v.object(Object.keys(live));
  return {
    puffs: v.get('puffs').typed(Int32Array, live.puffs.length).slice(),
    count: v.get('count').int(0, 5),
    active: i32(v.get('active')),
    sleep: i32(v.get('sleep')),
    alpha: i32(v.get('alpha')),
  };
}

function rain(v: Saved, live: RainState): RainState {
  v.object(Object.keys(live));
  const n = live.name.length;
  const pattern = v.get('pattern').typed(Int32Array, n);
  v.get('pattern').elementsIn(pattern, 0, 19);
  const splashPattern = v.get('splashPattern').typed(Int32Array, n);
  v.get('splashPattern').elementsIn(splashPattern, 0, 15);
  const splashOn = v.get('splashOn').typed(Uint8Array, n);
  v.get('splashOn').elementsIn(splashOn, 0, 1);
  return {
    name: constant(v.get('name'), live.name),
    pattern: pattern.slice(),
    splashPattern: splashPattern.slice(),
    splashOn: splashOn.slice(),
    pos: v.get('pos').typed(Uint32Array, 4 * n).slice(),
    splashPos: v.get('splashPos').typed(Uint32Array, 4 * n).slice(),
  };
}

function thunder(v: Saved, live: ThunderState): ThunderState {
  v.object(Object.keys(live));
  return { pos: v4s(v.get('pos'), live.pos.length), index: v.get('index').int(0, live.pos.length - 1), frames: v.get('frames').int(0, 4) };
}

function spline(v: Saved, live: Spline): Spline {
  v.object(Object.keys(live));
  return {
    keys: constant(v.get('keys'), live.keys),
    frame: i32(v.get('frame')),
    key: v.get('key').int(0, live.keys.length - 1),
    period: constant(v.get('period'), live.period),
    wrapped: v.get('wrapped').bool(),
  };
}

/** The sparks of a firefly: each null or a spark of `kind`; returns them and checks `count` is their number. */
function sparks(v: Saved, countAt: Saved, kind: number): { sparks: (Firefly2 | null)[]; count: number } {
  const list = v.array(3, 3).map((x) => (x.value === null ? null : spark(x, kind)));
  const count = countAt.int(0, 3);
  const have = list.filter((x) => x !== null).length;
  if (count !== have) countAt.fail(`${count} sparks counted, ${have} present`);
  return { sparks: list, count };
}

const FIREFLY2_KEYS = ['kind', 'spark', 'scale', 'vel', 'transparency', 'speed', 'spread', 'pattern', 'count', 'sparks', 'timer', 'life', 'pos', 'base', 'moved'];

/** A spark (FIREFLY2 thrown off by a firefly): of its parent's kind, with no sparks of its own. */
function spark(v: Saved, kind: number): Firefly2 {
  v.object(FIREFLY2_KEYS);
  v.get('kind').equals(kind, `kind ${kind} (its firefly's)`);
  v.get('spark').equals(true, 'true (a spark)');
  v.get('spread').equals(SPREAD, 'the spread 15');
  v.get('count').equals(0, '0 (a spark throws off no sparks)');
  v.get('sparks').array(3, 3).forEach(nil);
  return {
    kind,
    spark: true,
    scale: f32(v.get('scale')),
    vel: v4(v.get('vel')),
    transparency: f32(v.get('transparency')),
    speed: f32(v.get('speed')),
    spread: SPREAD,
    pattern: v.get('pattern').int(0, 99),
    count: 0,
    sparks: [null, null, null],
    timer: i32(v.get('timer')),
    life: i32(v.get('life')),
    pos: v4(v.get('pos')),
    base: v4(v.get('base')),
    moved: v4(v.get('moved')),
  };
}

/** Type 9's roamer (a FIREFLY2 of kind 1 that is not a spark). */
function roamer(v: Saved, live: Firefly2): Firefly2 {
  v.object(FIREFLY2_KEYS);
  const s = sparks(v.get('sparks'), v.get('count'), live.kind);
  return {
    kind: constant(v.get('kind'), live.kind),
    spark: constant(v.get('spark'), live.spark),
    scale: constant(v.get('scale'), live.scale),
    vel: v4(v.get('vel')),
    transparency: f32(v.get('transparency')),
    speed: constant(v.get('speed'), live.speed),
    spread: constant(v.get('spread'), live.spread),
    pattern: v.get('pattern').int(0, 99),
    count: s.count,
    sparks: s.sparks,
    timer: i32(v.get('timer')),
    life: i32(v.get('life')),
    pos: v4(v.get('pos')),
    base: v4(v.get('base')),
    moved: v4(v.get('moved')),
  };
}

function firefly(v: Saved, live: Firefly): Firefly {
  v.object(Object.keys(live));
  const s = sparks(v.get('sparks'), v.get('count'), 0);
  if (live.hacked && s.count !== 0) v.get('count').fail('a hacked firefly throws off no sparks');
  return {
    hacked: constant(v.get('hacked'), live.hacked),
    name: constant(v.get('name'), live.name),
    scale: constant(v.get('scale'), live.scale),
    trailName: constant(v.get('trailName'), live.trailName),
    trailScale: constant(v.get('trailScale'), live.trailScale),
    transparency: f32(v.get('transparency')),
    pattern: v.get('pattern').int(0, 99),
    sparks: s.sparks,
    count: s.count,
    trailLen: v.get('trailLen').int(0, live.trailMax),
    trailTimer: v.get('trailTimer').int(1, live.trailPeriod),
    trailPeriod: constant(v.get('trailPeriod'), live.trailPeriod),
    trailMax: constant(v.get('trailMax'), live.trailMax),
    pos: v4(v.get('pos')),
    base: v4(v.get('base')),
    last: v4(v.get('last')),
    trail: v4s(v.get('trail'), live.trail.length),
    splines: v.get('splines').array(3, 3).map((x, i) => spline(x, live.splines[i]!)) as [Spline, Spline, Spline],
  };
}

function tobj(v: Saved, live: TobjState): TobjState {
  v.object(Object.keys(live));
  return {
    server: constant(v.get('server'), live.server),
    timer: i32(v.get('timer')),
    far: v.get('far').bool(),
    sleep: i32(v.get('sleep')),
    pos: v4(v.get('pos')),
    rot: v4(v.get('rot')),
    angle: f32(v.get('angle')),
    speed: constant(v.get('speed'), live.speed),
    alpha: f32(v.get('alpha')),
  };
}

function bird(v: Saved, live: BirdState): BirdState {
  v.object(Object.keys(live));
  return { turn: f32(v.get('turn')), angle: f32(v.get('angle')), home: constant(v.get('home'), live.home), pos: v4(v.get('pos')), far: v.get('far').bool() };
}

/** The weather and ambient state of the field, against the live one. */
export function checkAmbientState(v: Saved, live: AmbientState): AmbientState {
  v.object(Object.keys(live));
  const opt = <T>(key: string, l: T | null, f: (x: Saved, l: T) => T): T | null => (l === null ? nil(v.get(key)) : f(v.get(key), l));
  const fires = v.get('fires');
  return {
    weather: constant(v.get('weather'), live.weather),
    server: constant(v.get('server'), live.server),
    snow: opt('snow', live.snow, snow),
    smoke: opt('smoke', live.smoke, smoke),
    rain: opt('rain', live.rain, rain),
    thunder: opt('thunder', live.thunder, thunder),
    fires: v4s(fires, live.fires.length),
    fireflies: v.get('fireflies').array(live.fireflies.length, live.fireflies.length).map((x, i) => firefly(x, live.fireflies[i]!)),
    roamers: v.get('roamers').array(live.roamers.length, live.roamers.length).map((x, i) => roamer(x, live.roamers[i]!)),
    tobj: opt('tobj', live.tobj, tobj),
    humPending: v.get('humPending').bool(),
    bird: opt('bird', live.bird, bird),
    haze: constant(v.get('haze'), live.haze),
    drawn: v.get('drawn').bool(),
    sun: constant(v.get('sun'), live.sun),
    runnerOffsets: constant(v.get('runnerOffsets'), live.runnerOffsets),
  };
}

/** The drawing's function statics. */
export function checkStatics(v: Saved, live: AmbientStatics): AmbientStatics {
  v.object(Object.keys(live));
  const tcnt = v.get('tcnt');
  const shown = v.get('clothShown').array(2, 2).map(i32);
  return {
    tcnt: tcnt.value === null ? null : i32(tcnt),
    tcnt2: i32(v.get('tcnt2')),
    secnt: i32(v.get('secnt')),
    seflag: v.get('seflag').bool(),
    steamLife: i32(v.get('steamLife')),
    steamSleep: i32(v.get('steamSleep')),
    steamStep: f32(v.get('steamStep')),
    steamNum: v.get('steamNum').int(0, 7),
    steamPos: v4(v.get('steamPos')),
    clothU: f32(v.get('clothU')),
    clothV: f32(v.get('clothV')),
    clothShown: [shown[0]!, shown[1]!],
  };
}

/** A saved frame list: `{ words, length }` with `length` operations of known kinds. */
export function checkOps(v: Saved, stride: number): { words: Uint32Array; length: number } {
  v.object(['words', 'length']);
  const length = v.get('length').int(0, MAX_SAVED_OPS);
  const words = v.get('words').typed(Uint32Array, length * stride);
  for (let i = 0; i < length; i++) {
    const k = words[i * stride]!;
    if (k < OP_KINDS[0] || k > OP_KINDS[1]) v.get('words').get(i * stride).fail(`operation ${i} has kind ${k}, not one of ${OP_KINDS[0]}..${OP_KINDS[1]}`);
  }
  return { words: words.slice(), length };
}

/** The live smoke puffs' lives left: at most MAX_SAVED_PUFFS, each 1..MAX_PUFF_LIFE. */
export function checkPuffs(v: Saved): number[] {
  return v.array(0, MAX_SAVED_PUFFS).map((x) => x.int(1, MAX_PUFF_LIFE));
}

/** The stand-in walk's state: a place in the field (0 ≤ x, y < 48000), a heading in −π..π and a step count. */
export function checkWalkState(s: unknown, path = 'view'): WalkState {
  const v = new Saved(s, path, SAVE_FORMAT).object(['x', 'y', 'heading', 'steps']);
  const inField = (k: string): F => {
    const x = f32(v.get(k));
    if (!le(0, x) || !lt(x, FIELD)) v.get(k).fail(`0x${x.toString(16)} is not a float in 0..48000 (the field)`);
    return x;
  };
  const x = inField('x');
  const y = inField('y');
  const heading = f32(v.get('heading'));
  if (!le(NEG_PI, heading) || !le(heading, PI)) v.get('heading').fail(`0x${heading.toString(16)} is not a float in −π..π`);
  return { x, y, heading, steps: v.get('steps').count() };
}

/** A FormatError of the ambient save (for checks written elsewhere). */
export function saveError(path: string, detail: string): FormatError {
  return new FormatError(SAVE_FORMAT, -1, `${path}: ${detail}`);
}
