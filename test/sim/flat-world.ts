/**
 * A small collision world for kernel tests: a flat floor at y = 0 (y up) inside a square arena, with a few
 * axis-aligned box walls. Moves slide along walls axis by axis. `integer: true` rounds every answer to whole
 * units, like the integer worlds.
 */
import type { Body, Bounds, CollisionWorld, GroundResult, MoveResult, SegmentResult, UpAxis, Vec3 } from '../../src/worlds/world.js';
import { newGroundResult, newMoveResult, newSegmentResult } from '../../src/worlds/world.js';

export interface Box {
  minX: number;
  minZ: number;
  maxX: number;
  maxZ: number;
}

export interface FlatWorldOptions {
  size?: number;
  boxes?: Box[];
  integer?: boolean;
  scale?: number;
}

export class FlatWorld implements CollisionWorld {
  readonly kind = 'rugrats' as const;
  readonly name = 'flat test world';
  readonly bounds: Bounds;
  readonly up: UpAxis = { axis: 1, sign: 1 };
  readonly scale: number;
  readonly integer: boolean;
  readonly size: number;
  readonly boxes: Box[];
  moves = 0;

  constructor(o: FlatWorldOptions = {}) {
    this.size = o.size ?? 100;
    this.boxes = o.boxes ?? [
      { minX: 20, minZ: 20, maxX: 30, maxZ: 60 },
      { minX: 60, minZ: 40, maxX: 90, maxZ: 50 },
    ];
    this.integer = o.integer ?? false;
    this.scale = o.scale ?? 1;
    this.bounds = { min: [0, 0, 0], max: [this.size, 10, this.size] };
  }

  private blocked(x: number, z: number, r: number): boolean {
    if (!(x - r >= 0 && z - r >= 0 && x + r <= this.size && z + r <= this.size)) return true;
    for (const b of this.boxes) if (x + r > b.minX && x - r < b.maxX && z + r > b.minZ && z - r < b.maxZ) return true;
    return false;
  }

  spawnPoint(): Vec3 {
    return [5, 0, 5];
  }

  sampleOpen(u: number, v: number): Vec3 | null {
    let x = u * this.size;
    let z = v * this.size;
    if (this.integer) {
      x = Math.floor(x);
      z = Math.floor(z);
    }
    return this.blocked(x, z, 1) ? null : [x, 0, z];
  }

  ground(pos: Vec3, out: GroundResult = newGroundResult()): GroundResult {
    const inside = pos[0] >= 0 && pos[0] <= this.size && pos[2] >= 0 && pos[2] <= this.size && pos[1] >= 0;
    out.hasFloor = inside;
    out.floor = inside ? 0 : NaN;
    out.ceiling = NaN;
    out.material = 0;
    out.id = inside ? 0 : -1;
    out.status = 0;
    return out;
  }

  segment(from: Vec3, to: Vec3, out: SegmentResult = newSegmentResult()): SegmentResult {
    const f = this.segmentFraction(from[0], from[1], from[2], to[0], to[1], to[2]);
    out.hit = f >= 0;
    out.fraction = f >= 0 ? f : 1;
    for (let i = 0; i < 3; i++) out.point[i] = from[i]! + (to[i]! - from[i]!) * out.fraction;
    out.normal = [0, 0, 0];
    out.id = f >= 0 ? 1 : -1;
    out.material = 0;
    out.what = f >= 0 ? 'box' : '';
    out.status = 0;
    return out;
  }

  segmentFraction(fx: number, _fy: number, fz: number, tx: number, _ty: number, tz: number): number {
    // Sampled at 64 steps: coarse, but exact enough for tests that only need a consistent answer.
    for (let i = 0; i <= 64; i++) {
      const t = i / 64;
      if (this.blocked(fx + (tx - fx) * t, fz + (tz - fz) * t, 0)) return t;
    }
    return -1;
  }

  move(body: Body, from: Vec3, delta: Vec3, out: MoveResult = newMoveResult()): MoveResult {
    this.moves++;
    let x = from[0];
    let z = from[2];
    const r = body.radius;
    out.contacts.length = 0;
    const tx = x + delta[0];
    if (!this.blocked(tx, z, r)) x = tx;
    else out.contacts.push({ kind: 'wall', normal: [delta[0] > 0 ? -1 : 1, 0, 0], id: 1, material: 0 });
    const tz = z + delta[2];
    if (!this.blocked(x, tz, r)) z = tz;
    else out.contacts.push({ kind: 'wall', normal: [0, 0, delta[2] > 0 ? -1 : 1], id: 2, material: 0 });
    if (this.integer) {
      x = Math.round(x);
      z = Math.round(z);
    }
    out.position[0] = x;
    out.position[1] = 0;
    out.position[2] = z;
    out.grounded = true;
    return out;
  }
}

/** A FlatWorld with run-time state (a count of moves, like a world whose tiles change), saved with snapshots. */
export class StatefulFlatWorld extends FlatWorld {
  hashState(): number[] {
    return [this.moves];
  }
  saveState(): { moves: number } {
    return { moves: this.moves };
  }
  restoreState(s: unknown): void {
    this.moves = (s as { moves: number }).moves;
  }
}
