/**
 * The contract every world format implements (Rugrats, Llama, COLBIN, GTA, Piney). Values are in the world's
 * NATIVE units and axes: integer worlds stay integer (no lossy conversion). Systems read `up` and `scale`
 * to know which way gravity points and how big a step is.
 *
 * Hot paths (line of sight, thousands of agents) use `segmentFraction`, which takes plain numbers and
 * returns a plain number, so it allocates nothing. The object-returning calls accept an optional `out`
 * object to fill and return, for callers that want to avoid allocation too.
 */

import type { WasmMode } from './wasm-mode.js';

/** A position or direction x, y, z, in the world's native units and axes. */
export type Vec3 = [number, number, number];

/** The world formats: which game a CollisionWorld comes from. */
export type WorldKind = 'rugrats' | 'llama' | 'colbin' | 'gta' | 'piney';

/** An axis-aligned box, inclusive corners, in native units. */
export interface Bounds {
  min: Vec3;
  max: Vec3;
}

/** Which axis points up and with which sign (Rugrats: PlayStation y points down, so {axis: 1, sign: -1}). */
export interface UpAxis {
  axis: 0 | 1 | 2;
  sign: 1 | -1;
}

/** The answer of `ground`: the floor under a point and the ceiling above it. */
export interface GroundResult {
  /** True when there is a floor under the point (at or below it, along `up`). */
  hasFloor: boolean;
  /** Floor height along the up axis, in native units (NaN when none). */
  floor: number;
  /** Ceiling height above the point along the up axis (NaN when none). */
  ceiling: number;
  /** Surface material or 0 when the format has none. */
  material: number;
  /** What the floor belongs to: tile, triangle or face index (-1 when none). */
  id: number;
  /** Format-specific status, e.g. the Rugrats query's result 0/1/2 (0 when not meaningful). */
  status: number;
}

/** The answer of `segment`: the first thing a segment hits, if anything. */
export interface SegmentResult {
  /** True when something was hit. */
  hit: boolean;
  /** Fraction along from→to of the hit point, in [0, 1]; 1 when nothing was hit. */
  fraction: number;
  /** The hit point (the segment's end when nothing was hit). */
  point: Vec3;
  /** The surface's normal at the hit (its scale is the format's: unit length or fixed point). */
  normal: Vec3;
  /** What was hit: tile, polygon, triangle, wall or face index (-1 when nothing). */
  id: number;
  /** Material of the surface hit (0 when the format has none). */
  material: number;
  /** A short label of the kind of thing hit, e.g. "wall", "floor", "sphere", "box", "face", "object". */
  what: string;
  /** Format-specific status, e.g. the Rugrats segment result 0/1/2. */
  status: number;
}

/** A moving body: an upright capsule or cylinder of `radius` with `height` along up, feet at the position. */
export interface Body {
  radius: number;
  height: number;
  /** Half extents of an oriented box body, for worlds whose engine moves boxes (COLBIN). Optional. */
  halfExtents?: Vec3;
  /** Highest step the body may climb without a wall, in native units (formats may ignore it). */
  stepHeight?: number;
}

/** Something a body touched during a move. */
export interface Contact {
  /** "floor", "ceiling", "wall", "exit", "death", ... */
  kind: string;
  /** The surface's normal, facing the body. */
  normal: Vec3;
  /** What was touched, as `GroundResult.id` and `SegmentResult.id` name it (-1 when unknown). */
  id: number;
  material: number;
}

/** The answer of `move`: where the body ends up and what it touched. */
export interface MoveResult {
  /** Where the body's feet end up. */
  position: Vec3;
  /** True when the body stands on a floor after the move. */
  grounded: boolean;
  contacts: Contact[];
}

/**
 * The contract every world format implements: queries in the world's native units and axes (integer worlds stay
 * integer). `up` and `scale` tell systems which way gravity points and how big a step is. The calls that return
 * an object take an optional `out` to fill and return, so a caller can avoid allocating; `segmentFraction`
 * allocates nothing.
 */
export interface CollisionWorld {
  readonly kind: WorldKind;
  /** A human-readable name (file name or level name). */
  readonly name: string;
  /** Everything solid lies inside these bounds. */
  readonly bounds: Bounds;
  /** Which way is up. */
  readonly up: UpAxis;
  /** Native units per metre, roughly: lets systems pick speeds and sizes per world. */
  readonly scale: number;
  /** Whether coordinates are integers in this world (Rugrats, COLBIN fixed point). */
  readonly integer: boolean;
  /** A position where a body can stand, for the player's start. */
  spawnPoint(): Vec3;
  /**
   * Maps two uniform numbers in [0, 1) to a position where a body can stand, or null when that spot is not
   * open. Deterministic: the same (u, v) gives the same answer. Used to scatter agents with a seeded stream.
   */
  sampleOpen(u: number, v: number): Vec3 | null;
  /** The floor at or below `pos` (along `up`) and the ceiling above it, by the format's rules. */
  ground(pos: Vec3, out?: GroundResult): GroundResult;
  /** The first thing the segment from → to hits, by the format's rules. */
  segment(from: Vec3, to: Vec3, out?: SegmentResult): SegmentResult;
  /**
   * The fraction in [0, 1] along from→to of the first hit, or -1 when the segment is clear. Must agree with
   * `segment` (same hit, same fraction) and allocate nothing.
   */
  segmentFraction(fx: number, fy: number, fz: number, tx: number, ty: number, tz: number): number;
  /**
   * Optional: `segmentFraction` of segments `start .. end − 1` of `segments` (6 numbers each: from x, y, z, then
   * to x, y, z), each answer into `out` at the segment's index, bit for bit the same. A world implements it when
   * stages over the batch (prove the easy segments clear in one pass, then walk the rest) are faster than one
   * segment after another; `losBatch` uses it when present. Throws a RangeError (`checkSegmentBatch`) when the
   * range is not within the batch or `out` is too short.
   */
  segmentFractions?(segments: Float64Array, start: number, end: number, out: Float64Array): void;
  /**
   * Optional: sets whether the world's hot walks run in WebAssembly (`WasmMode`: the Piney field's segment cast,
   * the GTA scene's segment walk and the Rugrats line-of-sight walk, behind `segmentFractions`) and says whether
   * they now do. The answers are the same bit for bit either way;
   * `on` throws an Error when this engine cannot compile the kernels. A world without it has no kernels.
   */
  setWasm?(mode: WasmMode): boolean;
  /**
   * Optional, with `setWasm`: the mode last set (the world's `wasm` option until then). Line of sight's pair walk
   * over this world's agents follows it too (`pairSegments`); a world without it has its pairs walked in
   * JavaScript.
   */
  readonly wasmMode?: WasmMode;
  /**
   * Moves a body standing at `from` by `delta` (native units) by the format's rules: walls stop or push it, its
   * feet follow the floor. The caller's gravity or jump goes in delta's up component.
   */
  move(body: Body, from: Vec3, delta: Vec3, out?: MoveResult): MoveResult;
  /**
   * Optional: `move` for the first `n` bodies of a batch at once, with the same answers bit for bit (see
   * `MoveBatch` for what goes in and comes out). A world implements it when moving many bodies as stages over
   * arrays is faster than one `move` after another; the movement system uses it when present.
   */
  moveMany?(batch: MoveBatch, n: number): void;
}

/**
 * Many moves in structure-of-arrays form, for `CollisionWorld.moveMany`. Body i has `radius[i]`, `height[i]`
 * and `step[i]` (its `stepHeight`), stands at (x, y, z)[i] and moves by (dx, dy, dz)[i]. After the call,
 * (x, y, z)[i] is the position `move` answers, `grounded[i]` is 1 when it is grounded, `hitWall[i]` is 1 when
 * any of its contacts is a wall, and `wall[i]` is then the id of its last wall contact. The other contacts
 * (floors, exits, deaths) are not reported: the triggers system asks the world for them itself.
 */
export interface MoveBatch {
  /** How many bodies the arrays hold. */
  readonly capacity: number;
  readonly x: Float64Array;
  readonly y: Float64Array;
  readonly z: Float64Array;
  readonly dx: Float64Array;
  readonly dy: Float64Array;
  readonly dz: Float64Array;
  readonly radius: Float64Array;
  readonly height: Float64Array;
  readonly step: Float64Array;
  readonly grounded: Uint8Array;
  readonly hitWall: Uint8Array;
  readonly wall: Int32Array;
}

/**
 * Checks a batch of segments before it is cast: `start .. end − 1` whole segments of `segments` (6 numbers each)
 * and room for `end` answers in an output of `outLength`. Throws a RangeError naming what does not fit.
 */
export function checkSegmentBatch(segments: Float64Array, start: number, end: number, outLength: number): void {
  const n = Math.floor(segments.length / 6);
  if (!(Number.isInteger(start) && Number.isInteger(end) && start >= 0 && start <= end && end <= n)) {
    throw new RangeError(`segment range ${start}..${end} is not within the batch's ${n} segments`);
  }
  if (outLength < end) throw new RangeError(`output arrays hold ${outLength} answers, ${end} needed`);
}

/** A MoveBatch of `capacity` bodies (every array zeroed). */
export function newMoveBatch(capacity: number): MoveBatch {
  const f = () => new Float64Array(capacity);
  return { capacity, x: f(), y: f(), z: f(), dx: f(), dy: f(), dz: f(), radius: f(), height: f(), step: f(), grounded: new Uint8Array(capacity), hitWall: new Uint8Array(capacity), wall: new Int32Array(capacity) };
}

/**
 * `moveMany`'s answers by one `move` per body: what a world without `moveMany` gives, and the reference a
 * world's own `moveMany` must match bit for bit (the tests compare them).
 */
export function moveEach(world: CollisionWorld, batch: MoveBatch, n: number, body: Body = { radius: 0, height: 0, stepHeight: 0 }, out: MoveResult = newMoveResult()): void {
  const from: Vec3 = [0, 0, 0];
  const delta: Vec3 = [0, 0, 0];
  for (let i = 0; i < n; i++) {
    body.radius = batch.radius[i]!;
    body.height = batch.height[i]!;
    body.stepHeight = batch.step[i]!;
    from[0] = batch.x[i]!;
    from[1] = batch.y[i]!;
    from[2] = batch.z[i]!;
    delta[0] = batch.dx[i]!;
    delta[1] = batch.dy[i]!;
    delta[2] = batch.dz[i]!;
    const r = world.move(body, from, delta, out);
    batch.x[i] = r.position[0];
    batch.y[i] = r.position[1];
    batch.z[i] = r.position[2];
    batch.grounded[i] = r.grounded ? 1 : 0;
    let hit = 0;
    let wall = -1;
    for (let k = 0; k < r.contacts.length; k++) {
      const ct = r.contacts[k]!;
      if (ct.kind === 'wall') {
        hit = 1;
        wall = ct.id;
      }
    }
    batch.hitWall[i] = hit;
    batch.wall[i] = wall;
  }
}

/** A fresh GroundResult with no floor, to pass as `out` and reuse. */
export function newGroundResult(): GroundResult {
  return { hasFloor: false, floor: NaN, ceiling: NaN, material: 0, id: -1, status: 0 };
}

/** A fresh SegmentResult with no hit, to pass as `out` and reuse. */
export function newSegmentResult(): SegmentResult {
  return { hit: false, fraction: 1, point: [0, 0, 0], normal: [0, 0, 0], id: -1, material: 0, what: '', status: 0 };
}

/** A fresh MoveResult, to pass as `out` and reuse. */
export function newMoveResult(): MoveResult {
  return { position: [0, 0, 0], grounded: false, contacts: [] };
}
