/**
 * The contract every world format implements (Rugrats, Llama, COLBIN, GTA, Piney). Values are in the world's
 * NATIVE units and axes: integer worlds stay integer (no lossy conversion). Systems read `up` and `scale`
 * to know which way gravity points and how big a step is.
 *
 * Hot paths (line of sight, thousands of agents) use `segmentFraction`, which takes plain numbers and
 * returns a plain number, so it allocates nothing. The object-returning calls accept an optional `out`
 * object to fill and return, for callers that want to avoid allocation too.
 */

export type Vec3 = [number, number, number];

export type WorldKind = 'rugrats' | 'llama' | 'colbin' | 'gta' | 'piney';

export interface Bounds {
  min: Vec3;
  max: Vec3;
}

/** Which axis points up and with which sign (Rugrats: PlayStation y points down, so {axis: 1, sign: -1}). */
export interface UpAxis {
  axis: 0 | 1 | 2;
  sign: 1 | -1;
}

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

export interface SegmentResult {
  hit: boolean;
  /** Fraction along from→to of the hit point, in [0, 1]; 1 when nothing was hit. */
  fraction: number;
  point: Vec3;
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

export interface Contact {
  /** "floor", "ceiling", "wall", "exit", "death", ... */
  kind: string;
  normal: Vec3;
  id: number;
  material: number;
}

export interface MoveResult {
  position: Vec3;
  /** True when the body stands on a floor after the move. */
  grounded: boolean;
  contacts: Contact[];
}

export interface CollisionWorld {
  readonly kind: WorldKind;
  /** A human-readable name (file name or level name). */
  readonly name: string;
  readonly bounds: Bounds;
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
  ground(pos: Vec3, out?: GroundResult): GroundResult;
  segment(from: Vec3, to: Vec3, out?: SegmentResult): SegmentResult;
  /**
   * The fraction in [0, 1] along from→to of the first hit, or -1 when the segment is clear. Must agree with
   * `segment` (same hit, same fraction) and allocate nothing.
   */
  segmentFraction(fx: number, fy: number, fz: number, tx: number, ty: number, tz: number): number;
  move(body: Body, from: Vec3, delta: Vec3, out?: MoveResult): MoveResult;
}

export function newGroundResult(): GroundResult {
  return { hasFloor: false, floor: NaN, ceiling: NaN, material: 0, id: -1, status: 0 };
}

export function newSegmentResult(): SegmentResult {
  return { hit: false, fraction: 1, point: [0, 0, 0], normal: [0, 0, 0], id: -1, material: 0, what: '', status: 0 };
}

export function newMoveResult(): MoveResult {
  return { position: [0, 0, 0], grounded: false, contacts: [] };
}
