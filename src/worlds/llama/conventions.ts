/**
 * Every convention of the Llama (Croc-2-engine tile grid) world that the public material leaves open, each
 * in one named place. docs/formats/llama.md lists them with the reasons. A level description (and the CLI)
 * may override the ones in `LlamaConventions`; the others are fixed functions below.
 */

/** Fixed point: 4096 = 1.0 unit (one tile). */
export const FIXED_ONE = 4096;

/** Angles in MAP records: 4096 = one full turn. */
export const TURN = 4096;

/**
 * The float block's rotation: only bits 0xFF0 are used (the low nibble is ignored, anything above one turn
 * is masked away), per the reference sheet §2.
 */
export const FLOAT_ROT_MASK = 0xff0;

/** The fixed block's rotation is a Fixed32 fraction of a turn; only its angle modulo one turn matters. */
export const FIXED_ROT_MASK = 0xfff;

/** WFPC feature flag (`LlamaMap.wfpc`, `LevelDescription.wfpc`): the object section has a max-particles word. */
export const WFPC_MAX_PARTICLES = 0x10;
/** WFPC feature flag: the MAP has a tile-swap block (the builder sets it when a tile has a swap). */
export const WFPC_TILE_SWAPS = 0x10000;
/** WFPC feature flag: the object section has camera points (their layout is not public, so the checker skips that section). */
export const WFPC_CAMERA_POINTS = 0x200000;
/** WFPC feature flag: polygons of materials 17 and 18 do not collide. */
export const WFPC_IGNORE_MATERIALS_17_18 = 0x8000000;

/**
 * The choices the public material leaves open, which a level (or a caller of loadLlamaWorld) may override;
 * DEFAULT_CONVENTIONS holds the defaults.
 */
export interface LlamaConventions {
  /**
   * The plane equation of collision planes. +1: n·p = d, inside/front is n·p − d ≥ 0 (the reference's
   * "convention A", which its minimal level's expected answers use). −1: n·p + d = 0 (front: n·p + d ≥ 0).
   */
  planeSign: 1 | -1;
  /** Collision normals are stored ×127 (the seed) or ×128 (the "1.0.7" source label). */
  normalScale: 127 | 128;
  /**
   * Rotation sense about y in game space. +1: rotation 1024 turns local +z to +x (the seed: "rotation 0
   * faces +z, 90° faces +x"); this is also ArgonautReverse's export-space matrix seen with z negated.
   */
  rotationSense: 1 | -1;
  /** Tolerance of the edge-plane inside test and of the floor/ceiling candidate test, in units. */
  edgeEpsilon: number;
  /** The llama's collision radius and height (script values, not public): used by the CLI and spawn tests. */
  bodyRadius: number;
  /** The llama's collision height, in tiles. */
  bodyHeight: number;
}

/** n·p = d: the reference model's convention A. */
export const PLANE_SIGN: 1 | -1 = 1;
/** ×127, as the seed states and the reference's minimal level assumes (d0 = 1024 for y = 0.25). */
export const NORMAL_SCALE: 127 | 128 = 127;
/** See LlamaConventions.rotationSense. */
export const ROTATION_SENSE: 1 | -1 = 1;
/** ε = 1/4096, one fixed-point step (the reference model). */
export const EDGE_EPSILON = 1 / 4096;
/** The reference model's wall example uses radius 0.2. */
export const DEFAULT_BODY_RADIUS = 0.2;
/** A guess: about 1.5 m if one tile is about 2 m (see LLAMA_SCALE). */
export const DEFAULT_BODY_HEIGHT = 0.75;
/** Units per metre, roughly: a tile taken as about 2 m. Only a hint for systems choosing speeds. */
export const LLAMA_SCALE = 0.5;

/** The conventions used when none are given: plane sign +1, normals ×127, rotation sense +1, ε = 1/4096, body 0.2 × 0.75. */
export const DEFAULT_CONVENTIONS: Readonly<LlamaConventions> = Object.freeze({
  planeSign: PLANE_SIGN,
  normalScale: NORMAL_SCALE,
  rotationSense: ROTATION_SENSE,
  edgeEpsilon: EDGE_EPSILON,
  bodyRadius: DEFAULT_BODY_RADIUS,
  bodyHeight: DEFAULT_BODY_HEIGHT,
});

/** DEFAULT_CONVENTIONS with the given overrides applied; throws RangeError naming a value that is not one of the allowed choices. */
export function resolveConventions(over?: Partial<LlamaConventions>): LlamaConventions {
  const c: LlamaConventions = { ...DEFAULT_CONVENTIONS, ...(over ?? {}) };
  if (c.planeSign !== 1 && c.planeSign !== -1) throw new RangeError(`planeSign must be 1 or -1, got ${c.planeSign}`);
  if (c.normalScale !== 127 && c.normalScale !== 128) throw new RangeError(`normalScale must be 127 or 128, got ${c.normalScale}`);
  if (c.rotationSense !== 1 && c.rotationSense !== -1) throw new RangeError(`rotationSense must be 1 or -1, got ${c.rotationSense}`);
  for (const k of ['edgeEpsilon', 'bodyRadius', 'bodyHeight'] as const) {
    if (!Number.isFinite(c[k]) || c[k] < 0) throw new RangeError(`${k} must be a finite non-negative number, got ${c[k]}`);
  }
  return c;
}

/**
 * The cell column/row a tile is listed in, from its float-block position (export space, z negated). The
 * seed's formula floor(x) + floor(−z)·W; the public loader uses trunc(x − 0.5), which agrees for tiles
 * centred in their cell (the checker reports tiles where the two disagree). Returns −1 outside the grid.
 */
export function tileCellOf(xExport: number, zExport: number, width: number, height: number): number {
  const col = Math.floor(xExport);
  const row = Math.floor(-zExport);
  if (!(col >= 0 && col < width && row >= 0 && row < height)) return -1;
  return col + row * width;
}

/** The public loader's cell formula (C truncation), used only by the checker to flag off-centre tiles. */
export function tileCellTruncated(xExport: number, zExport: number, width: number, height: number): number {
  const col = Math.trunc(xExport - 0.5);
  const row = Math.trunc(-zExport - 0.5);
  if (!(col >= 0 && col < width && row >= 0 && row < height)) return -1;
  return col + row * width;
}

/**
 * The cell of a game-space position (x east, z = grid row): floor(x) + floor(z)·W, −1 outside the grid or
 * for non-finite input.
 */
export function positionCellOf(x: number, z: number, width: number, height: number): number {
  if (!(x >= 0 && x < width && z >= 0 && z < height)) return -1;
  return Math.floor(x) + Math.floor(z) * width;
}
