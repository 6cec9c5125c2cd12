/**
 * A field's weather and ambient pictures as WORLD holds them: what WORLD::Init (gcmn 0x005a4cd0) and the
 * tail of WORLD::Generate (0x005a6da0) make, and what WORLD::Draw (0x005a97b0) and DrawEffect (0x005a9070)
 * draw of it each frame, in the game's order:
 *
 *   A  first call only, weather 4/5: ten DrawSnow on layer 0 (the flakes settle)
 *   B  types 0-3: the heat haze (layer 6)
 *   C  weather 2/3: DrawRain (the drops, then the storm)
 *   D  type 7: the fires' smoke (ccRand)
 *   E  weather 4/5: DrawSnow (layer 3); F type 0: the embers
 *   G  types 2, 3, 5, 6: the 2D smoke
 *   H  night, hacked or type 9: type 9's roamers (not in rain), else the five FIREFLYs
 *   I  TOBJ Move and Draw; J BIRD Move and Draw (layer 5)
 *   K  the lens flare (layer 3); L type 0: DrawSteam(1)
 *
 * The state is plain data (typed arrays, arrays, numbers) so that structuredClone saves and restores it.
 */
import { add, fromU32, div, fromInt, ONE, type F, type V4 } from './ee-vec.js';
import type { FieldRng, CcRng } from './rng.js';
import type { AmbientEnv } from './env.js';
import type { FieldWeather } from './weather.js';
import { makeSnow, stepAndDrawSnow, SNOW_EMBER, SNOW_HEAVY, SNOW_LIGHT, type SnowState } from './snow.js';
import { makeSmoke2d, drawSmoke2d, type Smoke2dState } from './smoke.js';
import { makeRain, drawDrops, type RainState } from './rain.js';
import { makeThunder, drawStorm, type ThunderState } from './thunder.js';
import { drawFires } from './fires.js';
import { makeFirefly, moveFirefly, drawFirefly, flyOf, type Firefly } from './firefly.js';
import { makeRoamer, moveFirefly2, drawFirefly2, type Firefly2, type FireflyDraw, type Fly } from './firefly2.js';
import { makeTobj, moveTobj, drawTobj, tobjHums, type TobjState } from './tobj.js';
import { makeBird, moveBird, type BirdState } from './bird.js';
import { drawLensFlare } from './lens-flare.js';
import { drawHaze } from './haze.js';
import { drawSteam } from './steam.js';
import { resetSteam, type AmbientStatics } from './statics.js';
import { LAYER_CHAR, LAYER_EFFECT, LAYER_SYS, MODEL_BIRD, nameId, type OpList } from './ops.js';
import { EFF_FILE } from './rain.js';

const ROAMER_NAME = nameId('EFF_sfzfir1');
const BIRD_CLUMP = nameId('CMP_sfp8how1');
const K1000: F = 0x447a0000;

export interface AmbientState {
  weather: FieldWeather;
  /** ccGame.server (+0x1c): which traveller a TOBJ is. */
  server: number;
  /** WORLD +0x38: the snowflakes, or type 0's sixteen embers. */
  snow: SnowState | null;
  smoke: Smoke2dState | null;
  rain: RainState | null;
  thunder: ThunderState | null;
  /** Type 7's fires (+0x358, +0x360): places SetSpecialObj finds (game data, supplied). */
  fires: V4[];
  fireflies: Firefly[];
  roamers: Firefly2[];
  tobj: TobjState | null;
  /** TOBJ::Init started the hum (the airship, the whale) and it has not yet gone out. */
  humPending: boolean;
  bird: BirdState | null;
  haze: boolean;
  /** +0x34: Draw has run once. */
  drawn: boolean;
  /** The lens flare's sun: the background dummy's place, or null where there is none. */
  sun: V4 | null;
  /** Ω's runners' dummies (OBJ_dummy_rei0/1) in the sleigh's frame. */
  runnerOffsets: V4[];
}

/**
 * WORLD::Init's part, drawing from `rng` right after GO seeded it: the snow (or embers), the 2D smoke, the
 * steam's reset, the haze. `env.centre` is WORLD_MAN's centre as Init sees it and `env.height` the ground
 * before the map exists.
 */
export function initAmbient(w: FieldWeather, server: number, env: AmbientEnv, st: AmbientStatics, rng: FieldRng): AmbientState {
  const ty = w.type;
  let snow: SnowState | null = null;
  if (w.weather === 5) snow = makeSnow(SNOW_HEAVY, 200, ty, env, rng);
  else if (w.weather === 4) snow = makeSnow(SNOW_LIGHT, 100, ty, env, rng);
  if (ty === 0) snow = makeSnow(SNOW_EMBER, 16, ty, env, rng);
  const smoke = ty === 2 || ty === 3 || ty === 5 || ty === 6 ? makeSmoke2d(rng) : null;
  if (ty === 0) resetSteam(st);
  return {
    weather: w,
    server,
    snow,
    smoke,
    rain: null,
    thunder: null,
    fires: [],
    fireflies: [],
    roamers: [],
    tobj: null,
    humPending: false,
    bird: null,
    haze: ty <= 3,
    drawn: false,
    sun: null,
    runnerOffsets: [
      [0, 0, 0, ONE],
      [0, 0, 0, ONE],
    ],
  };
}

/**
 * Generate's tail after SetStartPos, with `rng` where the layout left it: the TOBJ gate (for servers 0-4),
 * the rain, the thunder, the fireflies, type 9's roamers and type 10's bird.
 */
export function generateTail(s: AmbientState, start: V4, entrance: V4, env: AmbientEnv, rng: FieldRng): void {
  const w = s.weather;
  const ty = w.type;
  if (s.server >= 0 && s.server <= 4 && rng.rand(100) >= 86) {
    s.tobj = makeTobj(s.server, rng);
    s.humPending = tobjHums(s.server);
  }
  if (w.weather === 2 || w.weather === 3) s.rain = makeRain(w.weather, rng);
  if (w.weather === 3) s.thunder = makeThunder();
  if ((w.time === 2 || w.hacked) && ty !== 9) {
    for (let i = 0; i < 5; i++) s.fireflies.push(makeFirefly(w.hacked, env.height, rng));
  }
  if (ty === 9) {
    const fly = flyOf(env);
    for (let i = 0; i < 15; i++) s.roamers.push(makeTailRoamer(start, fly, rng));
  }
  if (ty === 10 && w.time !== 2 && w.weather !== 2 && w.weather !== 3) s.bird = makeBird(entrance[0], entrance[1]);
}

/**
 * One of type 9's fifteen roamers as Generate makes it (11 draws): its direction (three of
 * (fieldrand(2000) − 1000) / 1000), the start lifted by fieldrand(300), then the FIREFLY2 itself.
 */
export function makeTailRoamer(start: V4, fly: Fly, rng: FieldRng): Firefly2 {
  const dirc: V4 = [0, 0, 0, 0];
  for (let k = 0; k < 3; k++) dirc[k] = div(fromInt(rng.rand(2000) - 1000), K1000);
  const base: V4 = [...start] as V4;
  base[2] = add(base[2], fromU32(rng.rand(300)));
  return makeRoamer(rng, dirc, base, fly);
}

/** DrawSnow: nothing unless weather 4/5; every flake moved, then every one drawn on `layer`. */
function drawSnow(s: AmbientState, layer: number, env: AmbientEnv, rng: FieldRng, out: OpList): void {
  if (s.snow && (s.weather.weather === 4 || s.weather.weather === 5)) stepAndDrawSnow(s.snow, layer, env, rng, out);
}

/** One awake frame of WORLD::Draw's weather and ambient pictures, appended to `out` in the game's order. */
export function drawAmbient(s: AmbientState, env: AmbientEnv, st: AmbientStatics, rng: FieldRng, cc: CcRng, out: OpList): void {
  const w = s.weather;
  const ty = w.type;
  if (s.humPending) {
    // tobjSeLoopStart ran inside GO in the game; its message goes out once, before this frame's sounds.
    out.humStart();
    s.humPending = false;
  }
  if (!s.drawn) {
    s.drawn = true;
    if (w.weather === 4 || w.weather === 5) for (let i = 0; i < 10; i++) drawSnow(s, LAYER_SYS, env, rng, out);
  }
  if (s.haze) drawHaze(ty, env, out);
  if (w.weather === 2 || w.weather === 3) {
    // The thunder's countdown is drawn at the game's first DrawRain, even a rain-only one.
    if (st.tcnt === null) st.tcnt = rng.rand(60) + 60;
    if (s.rain) drawDrops(s.rain, env, rng, out);
    if (w.weather === 3 && s.thunder) drawStorm(s.thunder, st, env, rng, out);
  }
  if (ty === 7) drawFires(s.fires, env, cc, out);
  drawSnow(s, LAYER_EFFECT, env, rng, out);
  if (ty === 0 && s.snow) stepAndDrawSnow(s.snow, LAYER_EFFECT, env, rng, out);
  if (s.smoke) drawSmoke2d(s.smoke, rng, out);
  if (w.time === 2 || w.hacked || ty === 9) {
    if (ty === 9) {
      if (w.weather !== 2 && w.weather !== 3) {
        const fly = flyOf(env);
        const draws: FireflyDraw[] = [];
        for (const r of s.roamers) {
          moveFirefly2(r, fly, rng);
          draws.length = 0;
          drawFirefly2(r, fly, draws);
          for (const d of draws) {
            out.sprite(LAYER_EFFECT, EFF_FILE, ROAMER_NAME, d.pos[0], d.pos[1], d.pos[2], d.pos[3], d.pattern, d.scale, d.scale, d.transparency, true, true);
          }
        }
      }
    } else {
      for (const f of s.fireflies) {
        moveFirefly(f, env, ty, rng);
        drawFirefly(f, env, rng, out);
      }
    }
  }
  if (s.tobj) {
    moveTobj(s.tobj, env, st, rng);
    drawTobj(s.tobj, s.runnerOffsets, out);
  }
  if (s.bird) {
    const m = moveBird(s.bird, env);
    out.model(LAYER_CHAR, MODEL_BIRD, EFF_FILE, BIRD_CLUMP, m, ONE, null);
  }
  if (w.lensFlare && s.sun) drawLensFlare(s.sun, env, out);
  if (ty === 0) drawSteam(st, env, rng, out);
}
