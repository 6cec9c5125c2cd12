/**
 * The heat haze of field types 0-3 (ANM_sfzair1a of sfzair1, OBJ_sfzair00 duplicated): drawn on layer 6
 * 3,000 ahead of the player along the camera's heading (6,000 for types 2 and 3), scaled 1.3 across, at
 * transparency 0.7; its texture is the picture drawn so far. No draws.
 */
import { vadd, apply, rotMatrix, posRotXYZScale, ONE, type F, type V4 } from './ee-vec.js';
import { nearest } from './wrap.js';
import { camRot, type AmbientEnv } from './env.js';
import { LAYER_REFLECT, MODEL_HAZE, nameId, type OpList } from './ops.js';

const AHEAD_NEAR: F = 0xc53b8000; // -3000
const AHEAD_FAR: F = 0xc5bb8000; // -6000
const SCALE_X: F = 0x3fa66666; // 1.3
const ALPHA: F = 0x3f333333; // 0.7
const HAZE_FILE = nameId('sfzair1');
const HAZE_ANIM = nameId('ANM_sfzair1a');

export function drawHaze(fieldType: number, env: AmbientEnv, out: OpList): void {
  const pos: V4 = [env.player[0], env.player[1], 0, env.player[3]];
  const ahead = fieldType <= 1 ? AHEAD_NEAR : AHEAD_FAR;
  const cr = camRot(env);
  const rot: V4 = [0, 0, cr[2], cr[3]];
  // All three turns run even at angle 0: the VU sine and cosine's rounding shows.
  const m = rotMatrix(rot[0], rot[1], rot[2]);
  let off = vadd(apply(m, [0, ahead, 0, ONE]), pos);
  off[3] = ONE;
  off = nearest(off, env.player, env.bounds);
  const matrix = posRotXYZScale(off, rot, SCALE_X, ONE, ONE);
  out.model(LAYER_REFLECT, MODEL_HAZE, HAZE_FILE, HAZE_ANIM, matrix, ALPHA, null);
}
