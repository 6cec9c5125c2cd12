/**
 * Field type 7's fires (WORLD +0x358 count, +0x360 list, placed by SetSpecialObj): on even frames each fire
 * within 6,500 of the eye puffs one effSmoke, thrown 10 out along a direction turned by three ccRand turns
 * about x, then y, then z. A fire that is too far, or any fire on an odd frame, draws no ccRand.
 */
import { add, lt, unit, rotX, rotY, rotZ, apply, groundDistance, ONE, K10, type V4 } from './ee-vec.js';
import { nearest } from './wrap.js';
import type { CcRng } from './rng.js';
import type { AmbientEnv } from './env.js';
import type { OpList } from './ops.js';
import { ccRandTurn } from './ccrand-turn.js';

export const FIRE_REACH = 0x45cb2000; // 6500.0
export const FIRE_SMOKE_T = 208;
const K2_5 = 0x40200000;

/** One frame of every fire's smoke, in list order; the fires are brought to the player's side (and kept). */
export function drawFires(fires: V4[], env: AmbientEnv, cc: CcRng, out: OpList): void {
  for (let i = 0; i < fires.length; i++) {
    const fire = nearest(fires[i]!, env.player, env.bounds);
    fires[i] = fire;
    if (!lt(groundDistance(env.eye, fire), FIRE_REACH) || env.odd) continue;
    let m = rotX(unit(), ccRandTurn(cc.nextU32()));
    m = rotY(m, ccRandTurn(cc.nextU32()));
    m = rotZ(m, ccRandTurn(cc.nextU32()));
    const off = apply(m, [K10, 0, 0, ONE]);
    const pos: V4 = [add(fire[0], off[0]), add(fire[1], off[1]), add(fire[2], off[2]), fire[3]];
    const v = apply(m, [ONE, 0, 0, ONE]);
    v[2] = add(v[2], K2_5);
    out.smoke(pos, v, ONE, 8, FIRE_SMOKE_T, 512, 32);
  }
}
