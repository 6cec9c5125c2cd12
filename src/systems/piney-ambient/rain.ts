/**
 * The rain of weather 2 and 3: SetRainEffect (0x005a4840) makes fifty drops, DrawRain (0x005a8860) draws
 * them on layer 3 and then, in a storm, the thunder (thunder.ts).
 *
 * DrawRain's slip, kept: it sets WORLD +0x1c where it means the drop's "placed" flag (+0x3c), so every drop
 * is placed afresh every frame, two fieldrand draws each.
 */
import { add, fromInt, K10, type F } from './ee-vec.js';
import { w2pLane, p2wLane } from './wrap.js';
import type { FieldRng } from './rng.js';
import type { AmbientEnv } from './env.js';
import { LAYER_EFFECT, nameId, type OpList } from './ops.js';

export const EFF_FILE = nameId('field_eff');
const RAIN_NAMES = ['EFF_sfp8rai1', 'EFF_sfp8rai2', 'EFF_sfp8rai3', 'EFF_sfp8rai4'].map(nameId);
const STORM_NAMES = ['EFF_sfp8rai7', 'EFF_sfp8rai8', 'EFF_sfp8rai9', 'EFF_sfp8rai10'].map(nameId);
const SPLASH = nameId('EFF_sfp8rai6');
const ONE: F = 0x3f800000;

export const DROPS = 50;

export interface RainState {
  /** Each drop's sprite name id (picked by fieldrand(4000) / 1000). */
  name: Uint32Array;
  /** +0x30 the drop's pattern (0-19), +0x34 the splash's (0-14), +0x38 the splash shows. */
  pattern: Int32Array;
  splashPattern: Int32Array;
  splashOn: Uint8Array;
  /** +0x10 where it falls (x, y about camera 1's eye) and +0x20 the splash's place (kept, never drawn). */
  pos: Uint32Array;
  splashPos: Uint32Array;
}

/** SetRainEffect: per drop fieldrand(4000) / 1000 for its sprite, then fieldrand(20) for its pattern. */
export function makeRain(weather: number, rng: FieldRng): RainState {
  const s: RainState = {
    name: new Uint32Array(DROPS),
    pattern: new Int32Array(DROPS),
    splashPattern: new Int32Array(DROPS),
    splashOn: new Uint8Array(DROPS),
    pos: new Uint32Array(DROPS * 4),
    splashPos: new Uint32Array(DROPS * 4),
  };
  const names = weather === 2 ? RAIN_NAMES : STORM_NAMES;
  for (let i = 0; i < DROPS; i++) {
    const k = Math.floor(rng.rand(4000) / 1000);
    s.name[i] = names[k]!;
    s.pattern[i] = rng.rand(20);
  }
  return s;
}

/** The drops of a DrawRain frame (before the storm). */
export function drawDrops(s: RainState, env: AmbientEnv, rng: FieldRng, out: OpList): void {
  const bd = env.bounds;
  const P = env.player;
  const eye = env.eye1;
  for (let i = 0; i < DROPS; i++) {
    const b = i * 4;
    const x = rng.rand(3000) - 1500;
    const y = rng.rand(3000) - 1500;
    const px = add(fromInt(x), eye[0]);
    const py = add(fromInt(y), eye[1]);
    s.pos[b] = px;
    s.pos[b + 1] = py;
    const dx = w2pLane(px, P[0], bd.loX, bd.hiX, bd.spanX, bd.negSpanX);
    const dy = w2pLane(py, P[1], bd.loY, bd.hiY, bd.spanY, bd.negSpanY);
    const wx = p2wLane(dx, P[0], bd.halfX, bd.loX, bd.hiX, bd.spanX, bd.negSpanX);
    const wy = p2wLane(dy, P[1], bd.halfY, bd.loY, bd.hiY, bd.spanY, bd.negSpanY);
    const h = env.height(wx, wy);
    out.sprite(LAYER_EFFECT, EFF_FILE, s.name[i]!, wx, wy, h, ONE, s.pattern[i]!, ONE, ONE, ONE, true, true);
    s.pattern[i]!++;
    if (s.pattern[i] === 20) {
      s.pattern[i] = 0;
      s.splashPattern[i] = 0;
      s.splashOn[i] = 1;
      s.splashPos[b] = s.pos[b]!;
      s.splashPos[b + 1] = s.pos[b + 1]!;
      s.splashPos[b + 2] = add(s.pos[b + 2]!, K10);
      s.splashPos[b + 3] = s.pos[b + 3]!;
    }
    if (s.splashOn[i]) {
      const z = add(K10, env.height(wx, wy));
      out.sprite(LAYER_EFFECT, EFF_FILE, SPLASH, wx, wy, z, ONE, s.splashPattern[i]!, ONE, ONE, ONE, true, true);
      s.splashPattern[i]!++;
      if (s.splashPattern[i] === 15) s.splashOn[i] = 0;
    }
  }
}
