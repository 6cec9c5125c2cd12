/**
 * The drawing's function statics, which in the game live as long as it runs and so carry over from one
 * field to the next: DrawRain's thunder counters (gcmn 0x00378d24-40), DrawSteam's vent (0x00378d5c-74,
 * 0x00730580) and TOBJ::Move's balloon cloth scrolls (0x00378da0, 0x00378da8). GO(1) does not reset them;
 * only type 0's Init resets part of the steam's (DrawSteam(0)).
 */
import type { F, V4 } from './ee-vec.js';

export interface AmbientStatics {
  /** DrawRain's bolt countdown: null until the game's first DrawRain draws it (fieldrand(60) + 60). */
  tcnt: number | null;
  /** The flash countdown (750 in the executable), the thunder sound's countdown and whether it is due. */
  tcnt2: number;
  secnt: number;
  seflag: boolean;
  /** DrawSteam: a puff's life, frames asleep, its step (0.5), bursts so far and the vent's place. */
  steamLife: number;
  steamSleep: number;
  steamStep: F;
  steamNum: number;
  steamPos: V4;
  /** TOBJ's balloon cloths: the U and V scrolls and what the last Move wrote into the materials. */
  clothU: F;
  clothV: F;
  clothShown: [number, number];
}

/** The statics as the executable starts them. */
export function initialStatics(): AmbientStatics {
  return {
    tcnt: null,
    tcnt2: 750,
    secnt: 0,
    seflag: false,
    steamLife: 0,
    steamSleep: 0,
    steamStep: 0x3f000000,
    steamNum: 0,
    steamPos: [0, 0, 0, 0],
    clothU: 0,
    clothV: 0,
    clothShown: [0, 0],
  };
}

/** DrawSteam(0), from type 0's Init: sleep, step and num start again; life and the vent's place stay. */
export function resetSteam(st: AmbientStatics): void {
  st.steamSleep = 0;
  st.steamStep = 0x3f000000;
  st.steamNum = 0;
}

export function copyStatics(st: AmbientStatics): AmbientStatics {
  return { ...st, steamPos: [...st.steamPos] as V4, clothShown: [st.clothShown[0], st.clothShown[1]] };
}
