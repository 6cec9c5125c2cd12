/**
 * DrawRain's storm (weather 3), after the drops: a bolt (EFF_sfp8thu1-4) 12,000 ahead of the camera, up to
 * 45 degrees either side, 900 up, every 30-59 frames (the first after 60-119), shown four frames at WORLD's
 * offset; a screen flash every 900-1,499 frames (the first at 750) and its thunder (sound 236) 29-48 frames
 * after. The counters are the game's function statics.
 *
 * Slips kept: the bolt's sideways offset fieldrand(6000) − 3000 is converted as unsigned (a negative one
 * lands near 2^32); the offset is added to the bolt's place for the draw and taken off again, so the place
 * drifts by the rounding.
 */
import { add, sub, mul, div, lt, le, fromU32, rotMatrix, apply, MINUS_ONE, K100, ONE, type V4 } from './ee-vec.js';
import type { FieldRng } from './rng.js';
import { camRot, type AmbientEnv } from './env.js';
import type { AmbientStatics } from './statics.js';
import { LAYER_EFFECT, nameId, type OpList } from './ops.js';
import { EFF_FILE } from './rain.js';

export const THUNDER_SE = 236;
const BOLTS = ['EFF_sfp8thu1', 'EFF_sfp8thu2', 'EFF_sfp8thu3', 'EFF_sfp8thu4'].map(nameId);
const K_M12000 = 0xc63b8000;
const K900 = 0x44610000;
/** 0.785, and ±3.14, the bolt's turn about the camera's heading and where it is mirrored. */
const QUARTER_TURN = 0x3f48f5c3;
const K_M314 = 0xc048f5c3;
const K314 = 0x4048f5c3;
const K512 = 0x44000000;
const K384 = 0x43c00000;

export interface ThunderState {
  /** The four bolts' places (each kept between strikes), the one struck and the frames it shows. */
  pos: V4[];
  index: number;
  frames: number;
}

export function makeThunder(): ThunderState {
  return { pos: [0, 1, 2, 3].map(() => [0, 0, 0, ONE] as V4), index: 0, frames: 0 };
}

/** The bolt's sideways offset as the game converts it: the int difference read as unsigned. */
export function boltOffset(r6000: number): number {
  return fromU32((r6000 - 3000) >>> 0);
}

export function drawStorm(th: ThunderState, st: AmbientStatics, env: AmbientEnv, rng: FieldRng, out: OpList): void {
  st.tcnt = (st.tcnt ?? 0) - 1;
  st.tcnt2--;
  if (st.tcnt === 0) {
    th.index = Math.floor(rng.rand(4000) / 1000);
    const e = th.pos[th.index]!;
    e[0] = 0;
    e[1] = K_M12000;
    e[1] = add(e[1], boltOffset(rng.rand(6000)));
    e[2] = K900;
    const r = sub(div(fromU32(rng.rand(157)), K100), QUARTER_TURN);
    let rz = camRot(env)[2];
    const z = add(rz, r);
    if (lt(z, K_M314) || !le(z, K314)) rz = mul(MINUS_ONE, rz);
    rz = add(rz, r);
    th.pos[th.index] = apply(rotMatrix(0, 0, rz), e);
    th.frames = 4;
    st.tcnt = rng.rand(30) + 30;
  }
  if (st.tcnt2 === 0) {
    out.flash(10, 0x80ffffff, 0, 0, K512, K384);
    st.tcnt2 = rng.rand(600) + 900;
    st.secnt = rng.rand(20) + 30;
    st.seflag = true;
  }
  if (st.seflag) st.secnt--;
  if (st.secnt === 0 && st.seflag) {
    out.sound(THUNDER_SE);
    st.seflag = false;
  }
  if (th.frames !== 0) {
    const e = th.pos[th.index]!;
    e[0] = add(e[0], env.ofsX);
    e[1] = add(e[1], env.ofsY);
    out.sprite(LAYER_EFFECT, EFF_FILE, BOLTS[th.index]!, e[0], e[1], e[2], e[3], 0, ONE, ONE, ONE, false, true);
    e[0] = sub(e[0], env.ofsX);
    e[1] = sub(e[1], env.ofsY);
    th.frames--;
  }
}
