/**
 * A tiny world for system tests: a floor at height 0 where x < ledgeX (and nowhere else), walls nowhere,
 * gravity handled by the caller. Up can be +y or −y (the PlayStation habit), coordinates integer or not.
 * Floor id = 1 + floor(x / 10) (so floors can be told apart), material = that id too.
 */
import type { Body, Bounds, CollisionWorld, GroundResult, MoveResult, SegmentResult, UpAxis, Vec3 } from '../../src/worlds/world.js';
import { newGroundResult, newMoveResult, newSegmentResult } from '../../src/worlds/world.js';

export class LedgeWorld implements CollisionWorld {
  readonly kind = 'rugrats' as const;
  readonly name = 'ledge test world';
  readonly bounds: Bounds;
  readonly up: UpAxis;
  readonly scale: number;
  readonly integer: boolean;
  /** A wall (for segments only): the plane x = wallX blocks sight. */
  wallX = Infinity;

  constructor(
    readonly ledgeX = 50,
    o: { upSign?: 1 | -1; integer?: boolean; scale?: number } = {},
  ) {
    this.up = { axis: 1, sign: o.upSign ?? 1 };
    this.integer = o.integer ?? false;
    this.scale = o.scale ?? 1;
    this.bounds = { min: [0, this.up.sign > 0 ? 0 : -10, 0], max: [100, this.up.sign > 0 ? 10 : 0, 100] };
  }
  private hasFloor(x: number, z: number): boolean {
    return x >= 0 && x < this.ledgeX && z >= 0 && z <= 100;
  }
  spawnPoint(): Vec3 {
    return [5, 0, 5];
  }
  sampleOpen(u: number, v: number): Vec3 | null {
    const x = this.integer ? Math.floor(u * this.ledgeX) : u * this.ledgeX;
    const z = this.integer ? Math.floor(v * 100) : v * 100;
    return [x, 0, z];
  }
  ground(pos: Vec3, out: GroundResult = newGroundResult()): GroundResult {
    const f = this.hasFloor(pos[0], pos[2]) && this.up.sign * pos[1] >= 0;
    out.hasFloor = f;
    out.floor = f ? 0 : NaN;
    out.ceiling = NaN;
    out.id = f ? 1 + Math.floor(pos[0] / 10) : -1;
    out.material = f ? out.id : 0;
    out.status = 0;
    return out;
  }
  segmentFraction(fx: number, _fy: number, _fz: number, tx: number): number {
    if ((fx < this.wallX) === (tx < this.wallX) || fx === tx) return -1;
    return (this.wallX - fx) / (tx - fx);
  }
  segment(from: Vec3, to: Vec3, out: SegmentResult = newSegmentResult()): SegmentResult {
    const f = this.segmentFraction(from[0], from[1], from[2], to[0]);
    out.hit = f >= 0;
    out.fraction = f >= 0 ? f : 1;
    for (let i = 0; i < 3; i++) out.point[i] = from[i]! + (to[i]! - from[i]!) * out.fraction;
    out.what = f >= 0 ? 'wall' : '';
    return out;
  }
  move(_body: Body, from: Vec3, delta: Vec3, out: MoveResult = newMoveResult()): MoveResult {
    const x = from[0] + delta[0], y = from[1] + delta[1], z = from[2] + delta[2];
    out.contacts.length = 0;
    if (this.hasFloor(x, z) && this.up.sign * y <= 0 && this.up.sign * from[1] >= 0) {
      out.position[0] = x;
      out.position[1] = 0;
      out.position[2] = z;
      out.grounded = true;
      return out;
    }
    out.position[0] = x;
    out.position[1] = y;
    out.position[2] = z;
    out.grounded = false;
    return out;
  }
}
