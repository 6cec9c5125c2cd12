/**
 * A stand-in for the player and camera tasks (priorities 33-49 in the game), which run before the field's
 * display: the player walks 10 units a frame along a slowly turning heading (2^-9 radian a frame, in EE
 * arithmetic with the VU sine and cosine), on the ground, wrapped into the field; the camera stands 600
 * behind and 300 above, looking at the player. Deterministic: it depends only on the start and the ground.
 */
import { add, sub, mul, lt, le, vuCosSin, ONE, PI, TWO_PI, type F, type V4 } from './ee-vec.js';
import type { AmbientView, HeightFn } from './env.js';

const K10: F = 0x41200000;
const K_M10: F = 0xc1200000;
const K600: F = 0x44160000;
const K300: F = 0x43960000;
const FIELD: F = 0x473b8000; // 48000
/** 2^-9 radian a frame. */
const TURN: F = 0x3b000000;

export interface WalkState {
  x: F;
  y: F;
  heading: F;
  steps: number;
}

export class Walk {
  state: WalkState;

  constructor(
    start: V4,
    private readonly height: HeightFn,
  ) {
    this.state = { x: start[0], y: start[1], heading: 0, steps: 0 };
  }

  /** The view where the walk stands now (no step). */
  view(odd: boolean): AmbientView {
    const { x, y, heading } = this.state;
    const [s, c] = vuCosSin(heading);
    const z = this.height(x, y);
    const player: V4 = [x, y, z, ONE];
    const eye: V4 = [sub(x, mul(K600, s)), add(y, mul(K600, c)), add(z, K300), ONE];
    const rot: V4 = [0, 0, heading, 0];
    return {
      player,
      centre: [x, y, 0, ONE],
      ofsX: x,
      ofsY: y,
      eye,
      eye1: eye,
      view: player,
      rot,
      rot2: rot,
      eyeView: false,
      odd,
    };
  }

  /** One frame's step. */
  step(): void {
    const st = this.state;
    let h = add(st.heading, TURN);
    if (!le(h, PI)) h = sub(h, TWO_PI);
    const [s, c] = vuCosSin(h);
    let x = add(st.x, mul(K10, s));
    let y = add(st.y, mul(K_M10, c));
    if (lt(x, 0)) x = add(x, FIELD);
    if (!lt(x, FIELD)) x = sub(x, FIELD);
    if (lt(y, 0)) y = add(y, FIELD);
    if (!lt(y, FIELD)) y = sub(y, FIELD);
    this.state = { x, y, heading: h, steps: st.steps + 1 };
  }
}
