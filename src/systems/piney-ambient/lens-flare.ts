/**
 * The lens flare in a field: LENSFLARE::Draw(bg, DMY_<x>_<b+1>point, 1) (0x00503360). Mode 1 asks
 * ccCheckCameraDeg about the camera's own place, so it tests only that the camera looks within 67.5 degrees
 * of +x; the sun is the background dummy taken to the player's side, and each of the six flares likewise.
 * No draws.
 */
import { add, sub, mul, vadd, vsub, vscale, apply, rotMatrix, rad2deg, type F, type V4 } from './ee-vec.js';
import { atan2f } from '../../numeric/libm-ee.js';
import { nearest, p2w, w2p } from './wrap.js';
import { camRot, type AmbientEnv } from './env.js';
import { LAYER_EFFECT, nameId, type OpList } from './ops.js';
import { EFF_FILE } from './rain.js';

/** The six flares in the order the constructor makes them. */
const FLARES = ['EFF_sflenz_2', 'EFF_sflenz_3', 'EFF_sflenz_4', 'EFF_sflenz_5', 'EFF_sflenz_6', 'EFF_sflenz_1'].map(nameId);
/** How far from the sun toward the point before the eye each flare stands (@973). */
const ALONG: readonly F[] = [0x3e4ccccd, 0x3e99999a, 0x3f000000, 0x3f0ccccd, 0x3f400000, 0x3f4ccccd];
const K_M2500: F = 0xc51c4000;
const K500: F = 0x43fa0000;
const K_M0_2: F = 0xbe4ccccd;
const K_M200: F = 0xc3480000;
/** ccCheckCameraDeg(.., 12288): 67.5 degrees in 16-bit angles. */
export const VIEW_DEG = 12288;
const ONE: F = 0x3f800000;

/** ccCheckCameraDeg(pos, deg): pos within deg of where the eye looks, on the ground, about the player. */
export function checkCameraDeg(pos: V4, eye: V4, view: V4, deg: number, env: AmbientEnv): boolean {
  const c = w2p(eye, env.player, env.bounds);
  const v = w2p(view, env.player, env.bounds);
  const p = w2p(pos, env.player, env.bounds);
  const a = rad2deg(atan2f(sub(p[1], c[1]), sub(p[0], c[0])));
  const b = rad2deg(atan2f(sub(v[1], c[1]), sub(v[0], c[0])));
  const x = ((deg + (a - b)) << 16) >> 16;
  return x > 0 && x < 2 * deg;
}

/** The six flares' places for the sun at `sun`. */
export function flarePoints(sun: V4, env: AmbientEnv): V4[] {
  const rot = camRot(env);
  const m = rotMatrix(rot[0], rot[1], rot[2]);
  const out: V4[] = [];
  for (let i = 0; i < 6; i++) {
    let ahead = apply(m, [0, K_M2500, 0, env.view[3]]);
    ahead = vadd(ahead, env.eye);
    ahead[2] = add(ahead[2], K500);
    let v = vsub(sun, ahead);
    v[0] = mul(v[0], K_M0_2);
    v[1] = mul(v[1], K_M0_2);
    v[2] = 0;
    v = vadd(v, ahead);
    v[2] = K_M200;
    out.push(vadd(vscale(vsub(v, sun), ALONG[i]!), sun));
  }
  return out;
}

/** The field's lens flare for the sun dummy's place `dummy` (relative, as the background holds it). */
export function drawLensFlare(dummy: V4, env: AmbientEnv, out: OpList): void {
  if (!checkCameraDeg(env.eye, env.eye, env.view, VIEW_DEG, env)) return;
  const sun = p2w(dummy, env.player, env.bounds);
  const pts = flarePoints(sun, env);
  for (let i = 0; i < 6; i++) {
    const p = nearest(pts[i]!, env.player, env.bounds);
    out.sprite(LAYER_EFFECT, EFF_FILE, FLARES[i]!, p[0], p[1], p[2], p[3], 0, ONE, ONE, ONE, false, false);
  }
}
