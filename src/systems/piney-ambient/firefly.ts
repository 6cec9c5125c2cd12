/**
 * FIREFLY (gcmn firefly.cpp 0x005b1ed0..): the fields' fireflies at night (or, hacked, the data bugs): five
 * made by Generate's tail, each flying a loop of three closed natural splines about its base with a trail,
 * throwing off FIREFLY2 sparks. Hacked, it is EFF_sfzdigi0 with a trail of EFF_sfzdigi1 glyphs (a new trail
 * sprite every sixth frame, each drawn with pattern fieldrand(15)) and no sparks.
 *
 * Creation draws 13: pattern, x, y, the base's lift, the x shape, four y keys (the fourth wasted: key 3 is
 * key 0), four z keys (likewise).
 */
import {
  add,
  sub,
  div,
  lt,
  le,
  fromInt,
  toInt,
  normalize,
  vadd,
  vsub,
  planarLength,
  ONE,
  HALF,
  K100,
  type F,
  type V4,
} from './ee-vec.js';
import { nearest, p2w, w2p } from './wrap.js';
import { makeSpline, stepSpline, type Spline } from './spline.js';
import { drawFirefly2, moveFirefly2, newFirefly2, type Firefly2, type FireflyDraw, type Fly } from './firefly2.js';
import type { FieldRng } from './rng.js';
import { camRot, type AmbientEnv, type HeightFn } from './env.js';
import { LAYER_EFFECT, nameId, type OpList } from './ops.js';
import { EFF_FILE } from './rain.js';

const K600: F = 0x44160000;
const K1200: F = 0x44960000;
const K2500: F = 0x451c4000;
const FAR: F = 0x453b8000; // 3000
const HIDDEN: F = 0xc3fa0000; // -500, GetHeight on a hidden chip
const TENTH: F = 0x3dcccccd;
const QUICK_SCALE: F = 0x3f333333; // 0.7
const DRIFT_SCALE: F = HALF;
const DRIFT_SPEED: F = 0x3fc00000; // 1.5
const QUICK_SPEED: F = 0x40a00000; // 5.0
const HACKED_SCALE: F = 0x4019999a; // 2.4
const TRAIL_FIRST: F = 0x3f19999a; // 0.6
const TRAIL_STEP: F = 0x3d23d70a; // 0.04

/** Generate places each firefly at fieldrand(cvt.w.s(48000.0)) each way: the field's size. */
const FIELD_SIZE_INT = toInt(0x473b8000);

const NAME = nameId('EFF_sfpfir_1');
const TRAIL = nameId('EFF_sfpfir_2');
const HACKED_NAME = nameId('EFF_sfzdigi0');
const HACKED_TRAIL = nameId('EFF_sfzdigi1');
/** The sprite FIREFLY's sparks are drawn with. */
const SPARK_NAME = NAME;

export interface Firefly {
  hacked: boolean;
  name: number;
  scale: F;
  trailName: number;
  trailScale: F[];
  transparency: F;
  pattern: number;
  sparks: (Firefly2 | null)[];
  count: number;
  trailLen: number;
  trailTimer: number;
  trailPeriod: number;
  trailMax: number;
  pos: V4;
  base: V4;
  last: V4;
  trail: V4[];
  splines: [Spline, Spline, Spline];
}

/** new FIREFLY at a random place of the field, SetBasePosition and Init (Generate's tail). */
export function makeFirefly(hacked: boolean, height: HeightFn, rng: FieldRng): Firefly {
  const pattern = rng.rand(100);
  const x = fromInt(rng.rand(FIELD_SIZE_INT));
  const y = fromInt(rng.rand(FIELD_SIZE_INT));
  const z = height(x, y);
  const base: V4 = [x, y, add(z, fromInt(rng.rand(200) + 100)), 0];
  const xs: F[] = rng.rand(100) >= 51 ? [0, K600, K1200, K600, 0] : [K1200, K600, 0, K600, K1200];
  const ys: F[] = [0, 1, 2, 3].map(() => fromInt(rng.rand(1200)));
  const zs: F[] = [0, 1, 2, 3].map(() => fromInt(rng.rand(350)));
  ys[3] = ys[0]!;
  zs[3] = zs[0]!;
  const period = hacked ? 600 : 300;
  const trailScale: F[] = [];
  let s = TRAIL_FIRST;
  for (let i = 0; i < 16; i++) {
    trailScale.push(hacked ? HACKED_SCALE : s);
    s = sub(s, TRAIL_STEP);
  }
  return {
    hacked,
    name: hacked ? HACKED_NAME : NAME,
    scale: hacked ? HACKED_SCALE : ONE,
    trailName: hacked ? HACKED_TRAIL : TRAIL,
    trailScale,
    transparency: 0,
    pattern,
    sparks: [null, null, null],
    count: 0,
    trailLen: 0,
    trailTimer: hacked ? 6 : 1,
    trailPeriod: hacked ? 6 : 1,
    trailMax: hacked ? 16 : 8,
    pos: [0, 0, 0, 0],
    base,
    last: [...base] as V4,
    trail: Array.from({ length: 16 }, () => [0, 0, 0, 0] as V4),
    splines: [makeSpline(xs, period), makeSpline(ys, period), makeSpline(zs, period)],
  };
}

export function flyOf(env: AmbientEnv): Fly {
  return { player: env.player, bounds: env.bounds, eye: env.eye, rot: camRot(env), height: env.height };
}

/** FIREFLY::Move (0x005b30a0). */
export function moveFirefly(f: Firefly, env: AmbientEnv, fieldType: number, rng: FieldRng): void {
  // The fade in has no clamp.
  if (lt(f.transparency, ONE)) f.transparency = add(f.transparency, TENTH);
  for (let k = 0; k < 3; k++) f.pos[k] = add(f.base[k]!, stepSpline(f.splines[k]!));
  f.trailTimer--;
  if (f.trailTimer === 0) {
    for (let i = f.trailMax - 1; i >= 1; i--) f.trail[i] = f.trail[i - 1]!;
    f.trail[0] = [...f.last] as V4;
    if (f.trailLen < f.trailMax) f.trailLen++;
    f.trailTimer = f.trailPeriod;
  }
  const vel = vsub(f.last, f.pos);
  f.last = [...f.pos] as V4;
  f.pattern++;
  if (f.pattern >= 100) f.pattern = 0;
  const d = w2p(f.pos, env.player, env.bounds);
  if (!le(planarLength(d), FAR)) {
    // A new base within 2,500 of the player on the ground (no lift here).
    f.transparency = 0;
    f.base[0] = sub(fromInt(rng.rand(5000)), K2500);
    f.base[1] = sub(fromInt(rng.rand(5000)), K2500);
    f.base = p2w(f.base, env.player, env.bounds);
    f.base[2] = fieldType === 4 ? 0 : env.height(f.base[0], f.base[1]);
  }
  if (f.hacked) return;
  if (f.count < 3 && rng.rand(100) >= 81) {
    let k = f.sparks.findIndex((s) => s === null);
    if (k < 0) k = 3;
    f.count++;
    const s = newFirefly2(rng);
    if (rng.rand(100) >= 41) {
      const v = normalize(vel);
      for (let c = 0; c < 3; c++) v[c] = add(v[c]!, sub(div(fromInt(rng.rand(100)), K100), HALF));
      s.life = rng.rand(30) + 60;
      s.vel = v;
      s.scale = DRIFT_SCALE;
      s.speed = DRIFT_SPEED;
    } else {
      const v: V4 = [0, 0, 0, 0];
      for (let c = 0; c < 3; c++) v[c] = sub(div(fromInt(rng.rand(200)), K100), ONE);
      s.life = rng.rand(5) + 15;
      s.base = [...f.pos] as V4;
      s.vel = v;
      s.scale = QUICK_SCALE;
      s.speed = QUICK_SPEED;
    }
    s.spark = true;
    s.pos = [...f.pos] as V4;
    if (k < 3) f.sparks[k] = s;
  }
  const fly = flyOf(env);
  for (let k = 0; k < 3; k++) {
    const s = f.sparks[k];
    if (!s) continue;
    moveFirefly2(s, fly, rng);
    if (s.scale === QUICK_SCALE) s.pos = vadd(f.pos, s.moved);
    if (s.life === 0) {
      f.sparks[k] = null;
      f.count--;
    }
  }
}

/** FIREFLY::Draw (0x005b3a60) on layer 3. */
export function drawFirefly(f: Firefly, env: AmbientEnv, rng: FieldRng, out: OpList): void {
  if (f.base[2] === HIDDEN) return;
  f.pos = nearest(f.pos, env.player, env.bounds);
  const p = f.pos;
  out.sprite(LAYER_EFFECT, EFF_FILE, f.name, p[0], p[1], p[2], p[3], f.hacked ? 0 : f.pattern, f.scale, f.scale, f.transparency, false, true);
  const n = Math.min(f.trailLen, 16);
  for (let i = 0; i < n; i++) {
    const t = nearest(f.trail[i]!, env.player, env.bounds);
    f.trail[i] = t;
    const pattern = f.hacked ? rng.rand(15) : f.pattern;
    const sc = f.trailScale[i]!;
    out.sprite(LAYER_EFFECT, EFF_FILE, f.trailName, t[0], t[1], t[2], t[3], pattern, sc, sc, ONE, false, true);
  }
  if (f.count !== 0) {
    const fly = flyOf(env);
    for (const s of f.sparks) {
      if (!s) continue;
      const draws: FireflyDraw[] = [];
      drawFirefly2(s, fly, draws);
      for (const dr of draws) {
        out.sprite(LAYER_EFFECT, EFF_FILE, SPARK_NAME, dr.pos[0], dr.pos[1], dr.pos[2], dr.pos[3], dr.pattern, dr.scale, dr.scale, dr.transparency, true, true);
      }
    }
  }
}
