/**
 * TOBJ (gcmn 0x005d04c0..): the server's traveller that now and then crosses a field (Generate draws
 * fieldrand(100) and makes one at 86 or more): Δ's airship (server 0), Θ's balloon (1, its two cloths
 * scrolled), Λ's whale (2), Σ's (3, standing) and Ω's sleigh (4, with two runners). It shows for a while,
 * fading in and out, then sleeps. The airship and the whale hum (seData[44]).
 *
 * Creation draws: 4 after the gate (angle, timer, x, y). A respawn draws 5, or 7 for server 3.
 * Quirks kept: at timer 100 exactly neither fade runs and the default transparency is shown; the balloon's
 * rot.x is taken from the place relative to the player before the respawn; Ω's sleigh calls tobjSeLoop
 * although no hum was started for it.
 */
import {
  add,
  sub,
  mul,
  div,
  lt,
  le,
  neg,
  fromInt,
  fromU32,
  toInt,
  vadd,
  posRotZYX,
  apply,
  getDirc,
  rootExceeds,
  ONE,
  K10,
  type F,
  type M4,
  type V4,
} from './ee-vec.js';
import { sinf, cosf } from '../../numeric/libm-ee.js';
import { w2p, p2w } from './wrap.js';
import type { FieldRng } from './rng.js';
import type { AmbientEnv } from './env.js';
import type { AmbientStatics } from './statics.js';
import { LAYER_CHAR, MODEL_TOBJ, MODEL_TOBJ_RUNNER_0, MODEL_TOBJ_RUNNER_1, nameId, type OpList } from './ops.js';

/** 57.29578: degrees per radian. */
const DEG: F = 0x42652ee0;
const K2400: F = 0x45160000;
const K4000: F = 0x457a0000;
const K6000: F = 0x45bb8000;
const K1600: F = 0x44c80000;
const K2500: F = 0x451c4000;
const K2000: F = 0x44fa0000;
const K4: F = 0x40800000;
const K3: F = 0x40400000;
const K256: F = 0x43800000;
const K4096: F = 0x45800000;
/** 1.0472 (60 degrees): Σ's fixed tilt. */
const SIGMA_TILT: F = 0x3f860a92;
/** 0.8: the airship's and the whale's full transparency; 0.01 the fade step. */
const CAP_08: F = 0x3f4ccccd;
const FADE: F = 0x3c23d70a;
const CLOTH_U_STEP: F = 0x3b449ba6; // 0.003
const CLOTH_V_STEP: F = 0x3ac49ba6; // 0.0015
/** 19200²: beyond 19200 of the player it is not drawn. */
const FAR_SQUARED = 19200 * 19200;

/** tobjCCS[server] and tobjAnm[server] (gcmn 0x006576a0, 0x006576c0), and Ω's runners' animation. */
export const TOBJ_FILES = ['t1', 't2', 'se3_5wh1', 't4', 't5'] as const;
export const TOBJ_ANIMS = ['ANM_sft1s1a', 'ANM_sft2bas1a', 'ANM_se3_5wh1a', 'ANM_sft4s1a', 'ANM_sft5sle0'] as const;
const RUNNER_ANIM = nameId('ANM_sft5run0');

export interface TobjState {
  server: number;
  /** Frames of this crossing, beyond 19200 of the player, frames asleep between crossings. */
  timer: number;
  far: boolean;
  sleep: number;
  pos: V4;
  rot: V4;
  angle: F;
  speed: F;
  alpha: F;
}

/** TOBJ::Init (0x005d0560) for `server`, after Generate's gate. */
export function makeTobj(server: number, rng: FieldRng): TobjState {
  const angle = div(fromInt(rng.rand(360) - 180), DEG);
  let timer = rng.rand(600) + 630;
  const pos: V4 = [0, 0, 0, 0];
  if (server !== 3) {
    pos[0] = fromU32(rng.rand(12000));
    pos[1] = fromU32(rng.rand(12000));
  } else {
    pos[0] = sub(fromU32(rng.rand(5000)), K2500);
    pos[1] = sub(fromU32(rng.rand(5000)), K2500);
  }
  let rot: V4 = [0, 0, angle, ONE];
  if (server === 3) {
    // Σ stands tilted and respawns on its first Move.
    rot = [SIGMA_TILT, 0, 0, ONE];
    timer = 1;
  }
  return { server, timer, far: false, sleep: 0, pos, rot, angle, speed: K10, alpha: 0 };
}

/** Whether TOBJ::Init starts the hum (tobjSeLoopStart): the airship and the whale. */
export function tobjHums(server: number): boolean {
  return server === 0 || server === 2;
}

/** `above` plus the ground's height where that is above 0. */
function above(env: AmbientEnv, pos: V4, base: F): F {
  const h = env.height(pos[0], pos[1]);
  return le(h, 0) ? base : add(base, h);
}

/** TOBJ::Move (0x005d0db0). */
export function moveTobj(t: TobjState, env: AmbientEnv, st: AmbientStatics, rng: FieldRng): void {
  if (t.sleep !== 0) {
    t.sleep--;
    return;
  }
  let d: V4 = [0, 0, 0, 0];
  if (t.server === 0 || t.server === 2 || t.server === 4) {
    const sx = mul(t.speed, sinf(t.angle));
    const sy = mul(neg(t.speed), cosf(t.angle));
    t.pos = vadd(t.pos, [sx, sy, 0, ONE]);
    d = w2p(t.pos, env.player, env.bounds);
    t.pos = p2w(d, env.player, env.bounds);
    t.far = rootExceeds(add(mul(d[0], d[0]), mul(d[1], d[1])), FAR_SQUARED);
    t.pos[2] = above(env, t.pos, K2400);
  } else if (t.server === 1) {
    t.far = false;
    st.clothShown = [toInt(mul(st.clothU, K4096)), toInt(mul(st.clothV, K4096))];
    st.clothU = add(st.clothU, CLOTH_U_STEP);
    if (!le(st.clothU, ONE)) st.clothU = sub(st.clothU, ONE);
    st.clothV = add(st.clothV, CLOTH_V_STEP);
    if (!le(st.clothV, ONE)) st.clothV = sub(st.clothV, ONE);
    d = w2p(t.pos, env.player, env.bounds);
    t.pos = p2w(d, env.player, env.bounds);
    t.pos[2] = above(env, t.pos, K4000);
  } else if (t.server === 3) {
    t.far = false;
    d = w2p(t.pos, env.player, env.bounds);
    t.pos = p2w(d, env.player, env.bounds);
    t.pos[2] = above(env, t.pos, K6000);
  }
  t.timer--;
  if (t.timer !== 0) return;
  // The respawn: a new heading, crossing time and place within 7,500 of the player.
  t.angle = div(fromInt(rng.rand(360) - 180), DEG);
  t.rot[2] = t.angle;
  t.timer = rng.rand(500) + 230;
  t.alpha = 0;
  t.pos = [...env.player] as V4;
  t.pos[0] = add(t.pos[0], fromInt(rng.rand(15000) - 7500));
  t.pos[1] = add(t.pos[1], fromInt(rng.rand(15000) - 7500));
  t.pos[2] = above(env, t.pos, K2400);
  if (t.server === 1) {
    t.pos[2] = add(t.pos[2], K1600);
    t.rot[2] = 0;
    t.rot[0] = div(getDirc([t.pos[0], t.pos[1], 0, 0], d), K4);
  }
  if (t.server === 3) {
    t.pos = [...env.player] as V4;
    t.pos[0] = add(t.pos[0], sub(fromU32(rng.rand(4000)), K2000));
    t.pos[1] = add(t.pos[1], sub(fromU32(rng.rand(4000)), K2000));
  }
  t.sleep = rng.rand(100) + 30;
}

/** TOBJ::Draw (0x005d08d0) on layer 5. `runnerOffsets` are Ω's runner dummies in the sleigh's frame. */
export function drawTobj(t: TobjState, runnerOffsets: readonly V4[], out: OpList): void {
  if (t.sleep !== 0) return;
  const cap = t.server === 0 || t.server === 2 ? CAP_08 : ONE;
  let shown = t.server === 0 ? CAP_08 : ONE;
  if (t.timer > 100 && lt(t.alpha, ONE)) {
    t.alpha = add(t.alpha, FADE);
    if (!le(t.alpha, cap)) t.alpha = cap;
    shown = t.alpha;
  }
  if (t.timer < 100) {
    t.alpha = sub(t.alpha, FADE);
    if (lt(t.alpha, 0)) t.alpha = 0;
    shown = t.alpha;
  }
  if (t.server === 3) t.rot = [SIGMA_TILT, 0, 0, t.rot[3]];
  const m = posRotZYX(t.pos, t.rot[0], t.rot[1], t.rot[2]);
  // The hum follows it while its transparency is not zero, far or not.
  if ((t.server === 0 || t.server === 2 || t.server === 4) && (t.alpha & 0x7fffffff) !== 0) out.hum(t.pos, t.alpha);
  if (t.far) return;
  const shadow = { length: mul(K3, t.pos[2]), alpha: ((toInt(mul(K256, t.alpha)) + 1) >> 1) & 0xff };
  const file = nameId(TOBJ_FILES[t.server]!);
  out.model(LAYER_CHAR, MODEL_TOBJ, file, nameId(TOBJ_ANIMS[t.server]!), m, shown, shadow);
  if (t.server === 4) {
    for (let k = 0; k < 2; k++) {
      const p = apply(m as M4, runnerOffsets[k] ?? [0, 0, 0, ONE]);
      const rm = posRotZYX(p, t.rot[0], 0, t.rot[2]);
      out.model(LAYER_CHAR, k === 0 ? MODEL_TOBJ_RUNNER_0 : MODEL_TOBJ_RUNNER_1, file, RUNNER_ANIM, rm, shown, shadow);
    }
  }
}
