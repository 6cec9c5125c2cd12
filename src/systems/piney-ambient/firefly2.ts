/**
 * FIREFLY2 (gcmn firefly.cpp, Move 0x005b5050, Draw 0x005b5eb0): a firefly that wanders about a base and
 * throws off sparks. Kind 0 are FIREFLY's sparks; kind 1 are field type 9's fifteen roamers, which keep
 * within 2,000 of the camera and are put back about the player past that.
 *
 * Slip kept: SetBasePosition2 asks the ground's height at the offset, not at the place.
 */
import {
  add,
  sub,
  mul,
  div,
  lt,
  le,
  fromInt,
  fromU32,
  toInt,
  rotMatrix,
  apply,
  vadd,
  planarLength,
  groundDistance,
  ONE,
  TWO,
  HALF,
  K10,
  K100,
  MINUS_ONE,
  type F,
  type V4,
} from './ee-vec.js';
import { w2p, p2w, type WrapBounds } from './wrap.js';
import type { FieldRng } from './rng.js';
import type { HeightFn } from './env.js';

/** How far across from the player a kind-0 firefly moves and any firefly is drawn. */
const REACH: F = 0x447a0000; // 1000
/** How far on the ground from the camera a kind-1 firefly roams. */
const ROAM: F = 0x44fa0000; // 2000
const TENTH: F = 0x3dcc_cccd;
const SCALE_ROAMER: F = 0x3fc00000; // 1.5
const SCALE_DRIFT: F = 0x3f400000; // 0.75
const SCALE_QUICK: F = 0x3f99999a; // 1.2
const SPARK_ALPHA: F = 0x3e4ccccd; // 0.2
const SPREAD: F = 0x41700000; // 15

export interface Firefly2 {
  /** 0 wanders about its base, 1 roams about the camera (type 9). */
  kind: number;
  /** A spark of another firefly. */
  spark: boolean;
  scale: F;
  vel: V4;
  transparency: F;
  speed: F;
  spread: F;
  /** The sprite's pattern, 0-99. */
  pattern: number;
  count: number;
  sparks: (Firefly2 | null)[];
  /** Frames to the next turn, and life. */
  timer: number;
  life: number;
  pos: V4;
  base: V4;
  moved: V4;
}

/** What a firefly reads of the world. */
export interface Fly {
  player: V4;
  bounds: WrapBounds;
  /** cameraGetPos(camID), and the camera's turn (the eye view's or camera 1's). */
  eye: V4;
  rot: V4;
  height: HeightFn;
}

/** One firefly's draw: ccEff::Draw(pos, pattern) with its transparency and scale. */
export interface FireflyDraw {
  pos: V4;
  pattern: number;
  transparency: F;
  scale: F;
}

/** new FIREFLY2: fieldrand(20) + 10 for the timer, then fieldrand(100) for the pattern. */
export function newFirefly2(rng: FieldRng): Firefly2 {
  const timer = rng.rand(20) + 10;
  const pattern = rng.rand(100);
  return {
    kind: 0,
    spark: false,
    scale: ONE,
    vel: [0, 0, ONE, 0],
    transparency: 0,
    speed: ONE,
    spread: SPREAD,
    pattern,
    count: 0,
    sparks: [null, null, null],
    timer,
    life: 0,
    pos: [0, 0, 0, 0],
    base: [0, 0, 0, 0],
    moved: [0, 0, 0, 0],
  };
}

/** (fieldrand(2000) − 1000) / 1000. */
function wander(rng: FieldRng): F {
  return div(fromInt(rng.rand(2000) - 1000), REACH);
}

/** SetBasePosition(p) (0x005b49f0). */
function setBase(f: Firefly2, rng: FieldRng, p: V4, fly: Fly): void {
  f.base = [...p] as V4;
  const n = f.kind === 0 ? 500 : 3000;
  const off = f.kind === 0 ? 250 : 1500;
  f.pos[0] = fromInt(rng.rand(n) - off);
  f.pos[1] = fromInt(rng.rand(n) - off);
  f.pos = vadd(f.pos, f.base);
  // The z fieldrand(100) is drawn for both kinds; kind 1 then puts it on the ground plus fieldrand(300).
  f.pos[2] = fromU32(rng.rand(100));
  if (f.kind === 1) {
    const h = fly.height(f.pos[0], f.pos[1]);
    f.pos[2] = add(h, fromU32(rng.rand(300)));
  }
  f.pos[3] = ONE;
}

/**
 * SetBasePosition2(p) (0x005b4ba0): kind 1's offset (fieldrand(3000) − 1500 each way, z fieldrand(300)),
 * turned by the camera's heading; its z then the ground's height at the offset itself (a slip, kept: the
 * drawn z is overwritten), plus the base.
 */
function setBase2(f: Firefly2, rng: FieldRng, p: V4, fly: Fly): void {
  f.base = [...p] as V4;
  if (f.kind === 0) {
    f.pos[0] = fromInt(rng.rand(500) - 250);
    f.pos[1] = fromInt(rng.rand(500) - 250);
  } else {
    f.pos[0] = fromInt(rng.rand(3000) - 1500);
    f.pos[1] = fromInt(rng.rand(3000) - 1500);
    f.pos[2] = fromInt(rng.rand(300));
    f.pos = apply(rotMatrix(0, 0, fly.rot[2]), f.pos);
    f.pos[2] = fly.height(f.pos[0], f.pos[1]);
  }
  f.pos = vadd(f.pos, f.base);
  f.pos[3] = ONE;
}

/** Field type 9's roamer: new FIREFLY2, Init (life, scale 1.5), SetDirc(dirc) and SetBasePosition(base). */
export function makeRoamer(rng: FieldRng, dirc: V4, base: V4, fly: Fly): Firefly2 {
  const f = newFirefly2(rng);
  f.life = rng.rand(200) + 220;
  f.scale = SCALE_ROAMER;
  f.kind = 1;
  f.speed = TWO;
  f.vel = dirc;
  setBase(f, rng, base, fly);
  return f;
}

function brighten(f: Firefly2): void {
  if (lt(f.transparency, ONE)) {
    f.transparency = add(f.transparency, TENTH);
    if (!le(f.transparency, ONE)) f.transparency = ONE;
  }
}

/** A new spark in the first free slot (else the last): drifting back from the firefly's way, or quick. */
function spawn(f: Firefly2, rng: FieldRng): void {
  let k = f.sparks.findIndex((s) => s === null);
  if (k < 0) k = 2;
  f.count++;
  const s = newFirefly2(rng);
  const v: V4 = [0, 0, 0, 0];
  if (rng.rand(100) >= 61) {
    const dx = sub(div(fromU32(rng.rand(100)), K100), HALF);
    v[0] = mul(MINUS_ONE, f.vel[0]);
    v[1] = mul(MINUS_ONE, f.vel[1]);
    v[2] = mul(MINUS_ONE, f.vel[2]);
    v[0] = add(v[0], dx);
    v[1] = add(v[1], sub(div(fromU32(rng.rand(100)), K100), HALF));
    v[2] = add(v[2], sub(div(fromU32(rng.rand(100)), K100), HALF));
    s.life = rng.rand(30) + 60;
    s.scale = SCALE_DRIFT;
  } else {
    for (let c = 0; c < 3; c++) v[c] = sub(div(fromU32(rng.rand(200)), K100), ONE);
    s.life = rng.rand(5) + 5;
    s.speed = TWO;
    s.base = [...f.pos] as V4;
    s.scale = SCALE_QUICK;
  }
  s.spark = true;
  s.pos = [...f.pos] as V4;
  s.vel = v;
  if (f.kind === 1) s.kind = 1;
  s.transparency = SPARK_ALPHA;
  f.sparks[k] = s;
}

/** FIREFLY2::Move. */
export function moveFirefly2(f: Firefly2, fly: Fly, rng: FieldRng): void {
  const rel = w2p(f.pos, fly.player, fly.bounds);
  // Where SetBasePosition2 takes a kind-1 firefly back at the end of its life.
  let back = fly.eye;
  if (f.kind === 0) {
    if (!le(planarLength(rel), REACH)) return;
  } else if (!le(groundDistance(fly.eye, f.pos), ROAM)) {
    f.transparency = 0;
    back = fly.player;
    setBase2(f, rng, back, fly);
    f.vel[0] = wander(rng);
    f.vel[1] = wander(rng);
    f.vel[2] = wander(rng);
  }
  if (f.spark) {
    brighten(f);
  } else {
    if (f.life > 100) brighten(f);
    if (f.life < 100) f.transparency = div(fromInt(f.life), K100);
  }
  f.life--;
  for (let k = 0; k < 3; k++) f.pos[k] = add(f.pos[k]!, mul(f.vel[k]!, f.speed));
  for (let k = 0; k < 3; k++) f.moved[k] = add(f.moved[k]!, mul(f.vel[k]!, f.speed));
  f.pattern++;
  if (f.pattern >= 100) f.pattern = 0;
  if (!f.spark && f.count < 3 && rng.rand(100) >= 61) spawn(f, rng);
  if (f.count !== 0) {
    for (let k = 0; k < 3; k++) {
      const s = f.sparks[k];
      if (!s) continue;
      moveFirefly2(s, fly, rng);
      if (s.life === 0) {
        f.sparks[k] = null;
        f.count--;
      }
    }
  }
  if (f.spark) return;
  f.timer--;
  if (f.timer === 0) {
    if (f.kind === 0) {
      f.timer = rng.rand(20) + 10;
      const n = toInt(f.spread);
      const half = div(f.spread, TWO);
      f.vel[0] = div(sub(fromU32(rng.rand(n)), half), K10);
      f.vel[1] = div(sub(fromU32(rng.rand(n)), half), K10);
    } else {
      f.timer = rng.rand(60) + 60;
      f.vel[0] = wander(rng);
      f.vel[1] = wander(rng);
      f.vel[2] = wander(rng);
    }
  }
  if (f.life === 0) {
    if (f.kind === 0) setBase(f, rng, rel, fly);
    else setBase2(f, rng, back, fly);
    f.life = rng.rand(200) + 220;
  }
}

/** FIREFLY2::Draw into `out`: the firefly (within 1,000 across of the player), then its sparks. */
export function drawFirefly2(f: Firefly2, fly: Fly, out: FireflyDraw[]): void {
  if (!f.spark && f.life < 100) f.transparency = mul(TENTH, fromInt(f.life));
  const rel = w2p(f.pos, fly.player, fly.bounds);
  if (!le(planarLength(rel), REACH)) return;
  out.push({ pos: p2w(rel, fly.player, fly.bounds), pattern: f.pattern, transparency: f.transparency, scale: f.scale });
  if (f.count !== 0) {
    for (const s of f.sparks) if (s) drawFirefly2(s, fly, out);
  }
}
