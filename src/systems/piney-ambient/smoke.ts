/**
 * The 2D smoke of field types 2, 3, 5, 6: WORLD's ccMask of TEX_sfsmo1 (field_eff), up to five puffs
 * drifting right across the screen (SetSmoke2d 0x005a6a50; DrawEffect 0x005a93ac).
 */
import { sub, le, fromInt, toInt, type F } from './ee-vec.js';
import type { FieldRng } from './rng.js';
import { LAYER_EFFECT, type OpList } from './ops.js';

export interface Smoke2dState {
  /** +0x6178: x, y, dx, dy of the five puffs in screen pixels. */
  puffs: Int32Array;
  /** +0x61c8 puffs shown, +0x61cc frames shown, +0x61d0 frames asleep. */
  count: number;
  active: number;
  sleep: number;
  /** +0x61d4: the transparency, an int in the game (1 shown, 0 gone). */
  alpha: number;
}

/** 0.005, the fade step that an int transparency cannot take. */
const FADE: F = 0x3ba3d70a;
const K512: F = 0x44000000;
const K384: F = 0x43c00000;

/** SetSmoke2d(i): x −fieldrand(512), y fieldrand(384), dx fieldrand(20) + 20, dy fieldrand(20) − 10. */
function setPuff(p: Int32Array, i: number, rng: FieldRng): void {
  const b = i * 4;
  p[b] = -rng.rand(512);
  p[b + 1] = rng.rand(384);
  p[b + 2] = rng.rand(20) + 20;
  p[b + 3] = rng.rand(20) - 10;
}

/** WORLD::Init's: asleep fieldrand(300) + 150, then five puffs (21 draws). */
export function makeSmoke2d(rng: FieldRng): Smoke2dState {
  const sleep = rng.rand(300) + 150;
  const puffs = new Int32Array(20);
  for (let i = 0; i < 5; i++) setPuff(puffs, i, rng);
  return { puffs, count: 0, active: 0, sleep, alpha: 0 };
}

/**
 * The transparency's fade, `(int)(alpha − 0.005)` on an int: it goes from 1 to 0 in one frame (a slip,
 * kept).
 */
export function fadeSmokeAlpha(alpha: number): number {
  return toInt(sub(fromInt(alpha), FADE));
}

/** DrawEffect's frame of the 2D smoke. */
export function drawSmoke2d(s: Smoke2dState, rng: FieldRng, out: OpList): void {
  if (s.sleep !== 0) {
    s.sleep--;
    if (s.sleep === 0) {
      s.active = rng.rand(300) + 150;
      s.alpha = 1;
      s.count = rng.rand(4) + 1;
    }
    return;
  }
  if (s.active !== 0) {
    s.active--;
  } else {
    if (s.alpha !== 0) s.alpha = fadeSmokeAlpha(s.alpha);
    if (le(fromInt(s.alpha), 0)) s.sleep = rng.rand(300) + 150;
  }
  const alpha = fromInt(s.alpha);
  const n = Math.min(s.count, 5);
  const p = s.puffs;
  for (let i = 0; i < n; i++) {
    const b = i * 4;
    out.mask(LAYER_EFFECT, alpha, fromInt(p[b]!), fromInt(p[b + 1]!));
    const x = (p[b]! + p[b + 2]!) | 0;
    const y = (p[b + 1]! + p[b + 3]!) | 0;
    p[b] = x;
    p[b + 1] = y;
    if (!le(fromInt(x), K512) || !le(fromInt(y), K384) || y < -512) setPuff(p, i, rng);
  }
}
