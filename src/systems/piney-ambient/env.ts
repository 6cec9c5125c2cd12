/**
 * What a frame of the ambient drawing reads of the world around it (the game's player, cameras and WORLD
 * offsets), and what it reads of the generated field (the ground's height).
 */
import { ONE, type F, type V4 } from './ee-vec.js';
import { FIELD_BOUNDS, type WrapBounds } from './wrap.js';

/** WORLD::GetHeight at (x, y), floats as bits. */
export type HeightFn = (x: F, y: F) => F;

/** The ground before Generate has made the map: the game reads heap garbage, eemu and the port read 0. */
export const BLANK_HEIGHT: HeightFn = () => 0;

/** One frame's view of the world. */
export interface AmbientView {
  /** The player's place (plw +0x40), which W2P / P2W wrap about. */
  player: V4;
  /** WORLD_MAN::GetCenter (+0x80): where the snow is placed about. */
  centre: V4;
  /** WORLD.ofs_x, ofs_y (+0x6140, +0x6144): the storm's bolt is shown at this offset. */
  ofsX: F;
  ofsY: F;
  /** cameraGetPos(camID) and cameraGetPos(1). */
  eye: V4;
  eye1: V4;
  /** The point camera camID looks at (the lens flare's view). */
  view: V4;
  /** cameraGetRot(1) and cameraGetRot2(1); eyeView (checkCameraType() == 1) picks the second. */
  rot: V4;
  rot2: V4;
  eyeView: boolean;
  /** The frame counter's low bit (ccSys +0x358 & 1): type 7's fires smoke on even frames only. */
  odd: boolean;
}

/** The view plus the field: what every step of the drawing is given. */
export interface AmbientEnv extends AmbientView {
  height: HeightFn;
  bounds: WrapBounds;
}

export function camRot(env: AmbientView): V4 {
  return env.eyeView ? env.rot2 : env.rot;
}

/** A view with everything at `p` (for set-up steps that read only the centre and the player). */
export function viewAt(p: V4): AmbientView {
  const at: V4 = [p[0], p[1], p[2], ONE];
  return {
    player: at,
    centre: at,
    ofsX: p[0],
    ofsY: p[1],
    eye: at,
    eye1: at,
    view: at,
    rot: [0, 0, 0, 0],
    rot2: [0, 0, 0, 0],
    eyeView: false,
    odd: false,
  };
}

export function envOf(view: AmbientView, height: HeightFn, bounds: WrapBounds = FIELD_BOUNDS): AmbientEnv {
  return envInto({ ...view, height, bounds }, view, height, bounds);
}

/** Fills `env` with `view` (no allocation: the display task reuses one environment object). */
export function envInto(env: AmbientEnv, view: AmbientView, height: HeightFn, bounds: WrapBounds = FIELD_BOUNDS): AmbientEnv {
  env.player = view.player;
  env.centre = view.centre;
  env.ofsX = view.ofsX;
  env.ofsY = view.ofsY;
  env.eye = view.eye;
  env.eye1 = view.eye1;
  env.view = view.view;
  env.rot = view.rot;
  env.rot2 = view.rot2;
  env.eyeView = view.eyeView;
  env.odd = view.odd;
  env.height = height;
  env.bounds = bounds;
  return env;
}
