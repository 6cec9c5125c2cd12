/**
 * WORLD::DrawSteam(1) (0x005ad600), field type 0's steam vents: asleep, or a burst of 2-6 effSmoke puffs
 * (t 109) at a vent within 1,000 of the player, chosen with its hiss (ccSeOn3D(43)) at the first of eight
 * bursts 3-6 frames apart; then asleep 120-270 frames. Its state is the game's function statics.
 */
import { add, div, fromInt, fromU32, ONE, K100, type V4 } from './ee-vec.js';
import { p2w } from './wrap.js';
import type { FieldRng } from './rng.js';
import type { AmbientEnv } from './env.js';
import type { AmbientStatics } from './statics.js';
import type { OpList } from './ops.js';

export const STEAM_SE = 43;
export const STEAM_SMOKE_T = 109;
const K20 = 0x41a00000;

export function drawSteam(st: AmbientStatics, env: AmbientEnv, rng: FieldRng, out: OpList): void {
  if (st.steamSleep !== 0) {
    st.steamSleep--;
    return;
  }
  if (st.steamNum === 0) {
    const x = rng.rand(2000) - 1000;
    const y = rng.rand(2000) - 1000;
    // The offset goes through P2W with the old vent's z carried.
    const d: V4 = [fromInt(x), fromInt(y), st.steamPos[2], st.steamPos[3]];
    const p = p2w(d, env.player, env.bounds);
    p[2] = add(K20, env.height(p[0], p[1]));
    p[3] = ONE;
    st.steamPos = p;
    out.sound3d(STEAM_SE, p);
  }
  st.steamSleep = rng.rand(4) + 3;
  const n = rng.rand(5) + 2;
  for (let i = 0; i < n; i++) {
    const vx = div(fromU32(rng.rand(50)), K100);
    const vy = div(fromU32(rng.rand(50)), K100);
    const vz = fromU32(rng.rand(10) + 10);
    const s = rng.rand(5) + 3;
    st.steamLife = (rng.rand(3) + 1) * 10;
    out.smoke(st.steamPos, [vx, vy, vz, ONE], fromInt(s), st.steamLife, STEAM_SMOKE_T, 512, 32);
  }
  st.steamNum++;
  if (st.steamNum === 8) {
    st.steamSleep = (rng.rand(6) + 4) * 30;
    st.steamNum = 0;
  }
  st.steamSleep--;
}
