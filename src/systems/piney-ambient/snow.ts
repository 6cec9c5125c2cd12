/**
 * SNOW (gcmn 0x00503650-0x00504380): the snow fields' flakes (kind 0 light, 1 heavy) and field type 0's
 * embers (kind 2), kept as parallel typed arrays so a frame of 200 flakes allocates nothing.
 *
 * Creation draws (fieldrand): a light flake 7, a heavy one 8, an ember 7.
 */
import { add, sub, mul, div, lt, le, eq, fromInt, toInt, orderKey, roundTripsExactly, ONE, TWO, K10, K100, MINUS_ONE, HALF, type F } from './ee-vec.js';
import { w2pLane, p2wLane, type WrapBounds } from './wrap.js';
import { fr, type FieldRng } from './rng.js';
import type { AmbientEnv } from './env.js';
import { nameId, type OpList } from './ops.js';

export const SNOW_LIGHT = 0;
export const SNOW_HEAVY = 1;
export const SNOW_EMBER = 2;

const K1300: F = 0x44a28000;
const K2600: F = 0x45228000;
const K1300_NEG: F = 0xc4a28000;
/** The order keys of ±1300 (see ee-vec's orderKey). */
const KEY_1300 = orderKey(K1300);
const KEY_M1300 = orderKey(K1300_NEG);
const K800: F = 0x44480000;
const MINUS_500: F = 0xc3fa0000;
/** The sideways spread a and the fall's scale b by kind. */
const SPREAD: readonly F[] = [0x42480000, 0x43480000, 0x41700000];
const FALL: readonly F[] = [TWO, 0x40800000, ONE];

/** The sprites: type 5's flakes, type 6's, and the embers. */
const FLAKES_5 = ['EFF_sfg8sno1', 'EFF_sfg8sno2', 'EFF_sfg8sno3', 'EFF_sfg8sno4'].map(nameId);
const FLAKES_6 = ['EFF_sfh8sno1', 'EFF_sfh8sno2', 'EFF_sfh8sno3', 'EFF_sfh8sno4'].map(nameId);
const EMBER = nameId('EFF_sfa8fir1');

/**
 * The field's own CCS file (fieldccs[type], WORLD +0x6148), where the snow and embers' sprites are. The
 * table's file names are game data; the file is named by its slot.
 */
export function fieldFile(type: number): string {
  return `fieldccs[${type}]`;
}

export interface SnowState {
  kind: number;
  count: number;
  /** The sprite's file and, per flake, its name id. */
  file: number;
  name: Uint32Array;
  /** The ember's life and frames to its next turn. */
  timer: Int32Array;
  turn: Int32Array;
  /** +0x30 place, +0x40 velocity, and the sprite's place (4 lanes each). */
  pos: Uint32Array;
  vel: Uint32Array;
  spritePos: Uint32Array;
}

export function emptySnow(kind: number, count: number, type: number): SnowState {
  return {
    kind,
    count,
    file: nameId(fieldFile(type)),
    name: new Uint32Array(count),
    timer: new Int32Array(count),
    turn: new Int32Array(count),
    pos: new Uint32Array(count * 4),
    vel: new Uint32Array(count * 4),
    spritePos: new Uint32Array(count * 4),
  };
}

/** The sideways drift: (fieldrand(a) − a/2) / 10 for x, then y. */
function drift(s: SnowState, i: number, rng: FieldRng): void {
  const a = SPREAD[s.kind]!;
  const n = toInt(a);
  const half = div(a, TWO);
  s.vel[i * 4] = div(sub(fr(rng, n), half), K10);
  s.vel[i * 4 + 1] = div(sub(fr(rng, n), half), K10);
}

/**
 * The start calcPos and calcPos2 share: two draws place the particle within 1300 of the centre (x, y, and
 * w = 1 written); returns the ground's height there.
 */
function placeNearCentre(s: SnowState, i: number, env: AmbientEnv, rng: FieldRng): F {
  const x = fr(rng, 2600);
  const y = fr(rng, 2600);
  const b = i * 4;
  const px = add(env.centre[0], sub(x, K1300));
  const py = add(env.centre[1], sub(y, K1300));
  s.pos[b] = px;
  s.pos[b + 1] = py;
  s.pos[b + 3] = ONE;
  return env.height(px, py);
}

/** calcPos (0x005028e0): a flake within 1300 of the centre, 800 above the ground (never below 0), falling. */
function calcPos(s: SnowState, i: number, env: AmbientEnv, rng: FieldRng): void {
  const b = i * 4;
  let h = placeNearCentre(s, i, env, rng);
  if (lt(h, 0)) h = 0;
  s.pos[b + 2] = add(K800, h);
  drift(s, i, rng);
  const f = fromInt(rng.rand(5) + 1);
  s.vel[b + 2] = mul(mul(MINUS_ONE, f), FALL[s.kind]!);
  s.vel[b + 3] = ONE;
}

/** calcPos2 (0x00502ba0): an ember on the ground within 1300 of the centre, rising. */
function calcPos2(s: SnowState, i: number, env: AmbientEnv, rng: FieldRng): void {
  const b = i * 4;
  s.pos[b + 2] = placeNearCentre(s, i, env, rng);
  drift(s, i, rng);
  const f = fromInt(rng.rand(3) + 2);
  s.vel[b + 2] = mul(f, FALL[s.kind]!);
  s.vel[b + 3] = ONE;
}

/**
 * The flake height probe `GetHeight(x, y != -500)`: the comparison went into the argument, so the game
 * asks about y 0 or 1 (a slip, kept).
 */
export function snowProbeY(y: F): F {
  return eq(y, MINUS_500) ? 0 : ONE;
}

/** SNOW(stream, kind) for flake i of `s`. */
function makeOne(s: SnowState, i: number, type: number, env: AmbientEnv, rng: FieldRng): void {
  const b = i * 4;
  s.pos[b + 3] = 0;
  s.spritePos[b + 3] = ONE;
  if (s.kind === SNOW_EMBER) {
    s.turn[i] = rng.rand(10) + 3;
    s.timer[i] = rng.rand(50) + 10;
    s.name[i] = EMBER;
    calcPos2(s, i, env, rng);
    return;
  }
  // A quarter each by fieldrand(100); the game compares the float against 25, 50, 75, which for these
  // integers is the integer comparison.
  const r = rng.rand(100);
  const k = r < 25 ? 0 : r < 50 ? 1 : r < 75 ? 2 : 3;
  s.name[i] = (type === 5 ? FLAKES_5 : FLAKES_6)[k]!;
  calcPos(s, i, env, rng);
  const z0 = fromInt(rng.rand(800));
  const px = s.pos[b]!;
  const py = s.pos[b + 1]!;
  s.pos[b + 2] = eq(env.height(px, snowProbeY(py)), 0) ? z0 : add(z0, env.height(px, py));
  if (s.kind === SNOW_HEAVY) s.vel[b + 2] = fromInt(-(rng.rand(40) + 10));
}

/** WORLD::Init's snow: `count` SNOWs of `kind` made in order. */
export function makeSnow(kind: number, count: number, type: number, env: AmbientEnv, rng: FieldRng): SnowState {
  const s = emptySnow(kind, count, type);
  for (let i = 0; i < count; i++) makeOne(s, i, type, env, rng);
  return s;
}

/**
 * SNOW::Move (0x00503e80) of flake i: pos += vel; the place brought within 1300 of the player each way
 * (each move putting the whole place back through P2W); the sprite at P2W(W2P(pos)); a flake below 0
 * placed again, an ember turned and renewed on its timers.
 *
 * The common path is written with one add per EE operation and the wrap tests as order-key comparisons, so
 * the JIT keeps the bit patterns unboxed; the rare paths are separate functions. Subtractions are adds of
 * the sign-flipped operand, which is what sub.s is.
 */
function moveOne(s: SnowState, i: number, env: AmbientEnv, rng: FieldRng, P0: F, P1: F, nP0: F, nP1: F): void {
  const b = i * 4;
  const pos = s.pos;
  const vel = s.vel;
  const bd = env.bounds;
  // pos += vel in all four lanes; w is then set to 1, so its sum is not needed.
  const px = add(pos[b]!, vel[b]!);
  const py = add(pos[b + 1]!, vel[b + 1]!);
  const pz = add(pos[b + 2]!, vel[b + 2]!);
  // W2P: d = p − P, wrapped once into lo..hi.
  let dx = add(px, nP0);
  let kx = orderKey(dx);
  let wrapped = false;
  if (kx < bd.keyLoX) {
    dx = add(dx, bd.spanX);
    wrapped = true;
  } else if (kx > bd.keyHiX) {
    dx = add(dx, bd.negSpanX);
    wrapped = true;
  }
  let dy = add(py, nP1);
  let ky = orderKey(dy);
  if (ky < bd.keyLoY) {
    dy = add(dy, bd.spanY);
    wrapped = true;
  } else if (ky > bd.keyHiY) {
    dy = add(dy, bd.negSpanY);
    wrapped = true;
  }
  kx = orderKey(dx);
  ky = orderKey(dy);
  const sp = s.spritePos;
  if (kx > KEY_1300 || kx < KEY_M1300 || ky > KEY_1300 || ky < KEY_M1300) {
    keepNear(s, b, dx, dy, env, P0, P1);
  } else {
    pos[b] = px;
    pos[b + 1] = py;
    if (!wrapped && roundTripsExactly(px, P0) && roundTripsExactly(py, P1)) {
      // d unwrapped lies within the bounds, so P2W adds nothing to d + P, which is exactly p here.
      sp[b] = px;
      sp[b + 1] = py;
    } else {
      spriteP2W(sp, b, dx, dy, kx, ky, bd, P0, P1);
    }
  }
  pos[b + 2] = pz;
  pos[b + 3] = ONE;
  sp[b + 2] = pz;
  sp[b + 3] = ONE;
  if (s.kind !== SNOW_EMBER) {
    if (orderKey(pz) < 0) {
      calcPos(s, i, env, rng);
      if (s.kind === SNOW_HEAVY) vel[b + 2] = fromInt(-(rng.rand(40) + 10));
    }
    return;
  }
  emberTimers(s, i, env, rng);
}

/** P2W of d for the sprite: r = d + P, brought to the player's side. */
function spriteP2W(sp: Uint32Array, b: number, dx: F, dy: F, kx: number, ky: number, bd: WrapBounds, P0: F, P1: F): void {
  {
    let rx = add(dx, P0);
    if (orderKey(P0) < bd.keyHalfX) {
      if (kx > bd.keyHiX) rx = add(rx, bd.negSpanX);
    } else if (kx < bd.keyLoX) rx = add(rx, bd.spanX);
    let ry = add(dy, P1);
    if (orderKey(P1) < bd.keyHalfY) {
      if (ky > bd.keyHiY) ry = add(ry, bd.negSpanY);
    } else if (ky < bd.keyLoY) ry = add(ry, bd.spanY);
    sp[b] = rx;
    sp[b + 1] = ry;
  }
}

/**
 * The rare path of Move: a lane beyond 1300 of the player moves 2600 back, the place put through P2W after
 * each move (the caller has checked that at least one move happens).
 */
function keepNear(s: SnowState, b: number, dx: F, dy: F, env: AmbientEnv, P0: F, P1: F): void {
  const bd = env.bounds;
  let px = s.pos[b]!;
  let py = s.pos[b + 1]!;
  for (let step = 0; step < 4; step++) {
    const lane = step >> 1;
    const d = lane === 0 ? dx : dy;
    let nd = d;
    if (step % 2 === 0 ? !le(d, K1300) : lt(d, K1300_NEG)) nd = step % 2 === 0 ? sub(d, K2600) : add(d, K2600);
    else continue;
    if (lane === 0) dx = nd;
    else dy = nd;
    px = p2wLane(dx, P0, bd.halfX, bd.loX, bd.hiX, bd.spanX, bd.negSpanX);
    py = p2wLane(dy, P1, bd.halfY, bd.loY, bd.hiY, bd.spanY, bd.negSpanY);
  }
  s.pos[b] = px;
  s.pos[b + 1] = py;
  // After a move the sprite is P2W(d) as well.
  s.spritePos[b] = p2wLane(dx, P0, bd.halfX, bd.loX, bd.hiX, bd.spanX, bd.negSpanX);
  s.spritePos[b + 1] = p2wLane(dy, P1, bd.halfY, bd.loY, bd.hiY, bd.spanY, bd.negSpanY);
}

/** An ember's timers: a new drift on its turn, a new place and life at the end of its life. */
function emberTimers(s: SnowState, i: number, env: AmbientEnv, rng: FieldRng): void {
  const b = i * 4;
  const bd = env.bounds;
  const P = env.player;
  s.timer[i]!--;
  s.turn[i]!--;
  if (s.turn[i] === 0) {
    s.turn[i] = rng.rand(10) + 3;
    drift(s, i, rng);
  }
  if (s.timer[i] === 0) {
    calcPos2(s, i, env, rng);
    const pos = s.pos;
    const sp = s.spritePos;
    const qx = w2pLane(pos[b]!, P[0], bd.loX, bd.hiX, bd.spanX, bd.negSpanX);
    const qy = w2pLane(pos[b + 1]!, P[1], bd.loY, bd.hiY, bd.spanY, bd.negSpanY);
    sp[b] = p2wLane(qx, P[0], bd.halfX, bd.loX, bd.hiX, bd.spanX, bd.negSpanX);
    sp[b + 1] = p2wLane(qy, P[1], bd.halfY, bd.loY, bd.hiY, bd.spanY, bd.negSpanY);
    sp[b + 2] = pos[b + 2]!;
    sp[b + 3] = ONE;
    s.timer[i] = rng.rand(60) + 20;
  }
}

/** An ember's transparency: timer/100 over its last 32 frames (so it jumps from 1 to 0.31), else 1. */
export function emberTransparency(timer: number): F {
  return timer < 32 ? div(fromInt(timer), K100) : ONE;
}

/** Every flake moved, then every one drawn (DrawSnow; type 0's embers the same in DrawEffect). */
export function stepAndDrawSnow(s: SnowState, layer: number, env: AmbientEnv, rng: FieldRng, out: OpList): void {
  const n = s.count;
  const P0 = env.player[0];
  const P1 = env.player[1];
  const nP0 = (P0 ^ 0x80000000) >>> 0;
  const nP1 = (P1 ^ 0x80000000) >>> 0;
  for (let i = 0; i < n; i++) moveOne(s, i, env, rng, P0, P1, nP0, nP1);
  const sp = s.spritePos;
  if (s.kind !== SNOW_EMBER) {
    out.spriteRun(layer, s.file, s.name, sp, n, ONE, ONE, false, true);
    return;
  }
  for (let i = 0; i < n; i++) {
    const b = i * 4;
    out.sprite(layer, s.file, s.name[i]!, sp[b]!, sp[b + 1]!, sp[b + 2]!, sp[b + 3]!, 0, HALF, HALF, emberTransparency(s.timer[i]!), false, true);
  }
}
