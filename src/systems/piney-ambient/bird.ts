/**
 * BIRD (gcmn 0x005d1440..): type 10's hawk, CMP_sfp8how1 of field_eff, flying out from the dungeon entrance
 * at 20 a frame and turning 0.0314 a frame; past half a turn it is back at the entrance and turns the other
 * way. No fieldrand or ccRand draws.
 *
 * Slip kept: its far test is sqrt(d.y + d.y + d.x²) > 9,600 (d.y where d.y² was meant); the flag is never
 * read.
 */
import { add, sub, mul, lt, le, neg, fromInt, toInt, vadd, posRotZYX, rootExceeds, ONE, PI, type F, type M4, type V4 } from './ee-vec.js';
import { sinf, cosf } from '../../numeric/libm-ee.js';
import { w2p, p2w } from './wrap.js';
import type { AmbientEnv } from './env.js';

export const BIRD_TURN: F = 0x3d00adfd; // 0.0314
const K20: F = 0x41a00000;
const K_M20: F = 0xc1a00000;
const K800: F = 0x44480000;
const FAR_SQUARED = 9600 * 9600;

export interface BirdState {
  turn: F;
  angle: F;
  home: V4;
  pos: V4;
  far: boolean;
}

/** BIRD::Init then SetPos(entrance): home and place 800 up over the entrance, heading pi. */
export function makeBird(x: F, y: F): BirdState {
  const home: V4 = [x, y, K800, 0];
  return { turn: BIRD_TURN, angle: PI, home, pos: [...home] as V4, far: false };
}

/** The slipped far test: sqrt(d.y + d.y + d.x·d.x) > 9600, the root in double. */
export function birdFar(d: V4): boolean {
  return rootExceeds(add(d[1], add(d[1], mul(d[0], d[0]))), FAR_SQUARED);
}

/** BIRD::Move (0x005d1590): returns the matrix it is drawn with (made before the turn). */
export function moveBird(b: BirdState, env: AmbientEnv): M4 {
  const sx = fromInt(toInt(mul(K20, sinf(b.angle))));
  const sy = fromInt(toInt(mul(K_M20, cosf(b.angle))));
  const d = w2p(b.pos, env.player, env.bounds);
  b.pos = vadd(p2w(d, env.player, env.bounds), [sx, sy, 0, ONE]);
  b.far = birdFar(d);
  const m = posRotZYX(b.pos, 0, 0, b.angle);
  b.angle = add(b.angle, b.turn);
  if (!le(b.turn, 0)) {
    if (!lt(b.angle, PI)) {
      b.angle = sub(b.angle, b.turn);
      b.turn = neg(BIRD_TURN);
      b.pos = [b.home[0], b.home[1], b.home[2], b.pos[3]];
    }
  } else if (le(b.angle, neg(PI))) {
    b.angle = sub(b.angle, b.turn);
    b.turn = BIRD_TURN;
    b.pos = [b.home[0], b.home[1], b.home[2], b.pos[3]];
  }
  return m;
}
