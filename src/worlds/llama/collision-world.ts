import { Saved } from '../../binary/saved-value.js';
import type { Body, Bounds, CollisionWorld, Contact, GroundResult, MoveResult, SegmentResult, UpAxis, Vec3 } from '../world.js';
import { newGroundResult, newMoveResult, newSegmentResult } from '../world.js';
import { setContactAt, setPointAlong, setSegmentMiss } from '../results.js';
import { LlamaCollision, POLY_STRIDE, WALL_PASSES } from './collision.js';
import { LLAMA_SCALE, positionCellOf, type LlamaConventions } from './conventions.js';
import { floorContactKind, MATERIAL_DEATH } from './materials.js';
import { detectMap, parseMap, type LlamaMap } from './map-parse.js';
import { polygonCorners } from './polygon-geometry.js';
import { visibleCells } from './regions.js';
import { detectTrak, parseTrak, type Trak } from './trak-parse.js';
import { DEFAULT_LIMITS, type Limits } from '../../limits.js';
import { INFINITY_SLOT } from '../../numeric/special-doubles.js';

export { detectMap, detectTrak };

/** Game space: y up. */
export const LLAMA_UP: UpAxis = { axis: 1, sign: 1 };

/** How far above the world's top a downward probe starts (spawn, sampleOpen). */
const PROBE_ABOVE = 1;

/**
 * The Llama tile-grid world behind the shared CollisionWorld contract, in game space (units = tiles, y up,
 * z = grid row). Tile swaps are simulation state: `setSwap` switches one, `swapStates` reads them all.
 */
export class LlamaWorld implements CollisionWorld {
  readonly kind = 'llama' as const;
  readonly up: UpAxis = LLAMA_UP;
  readonly scale = LLAMA_SCALE;
  readonly integer = false;
  readonly bounds: Bounds;
  /** @internal The placed collision geometry the queries run on. */
  readonly collision: LlamaCollision;
  private readonly swapState: Uint8Array;

  constructor(
    readonly trak: Trak,
    readonly map: LlamaMap,
    readonly name: string,
    conventions?: Partial<LlamaConventions>,
  ) {
    this.collision = new LlamaCollision(trak, map, conventions);
    this.swapState = new Uint8Array(map.swapCount);
    this.bounds = this.computeBounds();
  }

  /** The conventions in force (the defaults with the overrides given at load). */
  get conventions(): LlamaConventions {
    return this.collision.conventions;
  }

  // ---- tile swaps (simulation state) ----

  /** How many tile swaps the level has. */
  get swapCount(): number {
    return this.swapState.length;
  }

  /** Switches swap `index` to its alternative model (on) or back. Throws RangeError for a bad index. */
  setSwap(index: number, on: boolean): void {
    if (!Number.isInteger(index) || index < 0 || index >= this.swapState.length) {
      throw new RangeError(`swap index ${index} is not in 0..${this.swapState.length - 1}`);
    }
    this.swapState[index] = on ? 1 : 0;
    const tile = this.collision.swapTile[index]!;
    if (tile >= 0) this.collision.variant[tile] = on ? 1 : 0;
  }

  /** Whether swap `index` is switched to its alternative model. */
  getSwap(index: number): boolean {
    return this.swapState[index] === 1;
  }

  /** All swap states (0/1) in swap order: the numbers that go in the state hash. */
  swapStates(): number[] {
    return Array.from(this.swapState);
  }

  /** The world's simulation state for the state hash: the swap states. */
  hashState(): number[] {
    return this.swapStates();
  }

  /** Snapshot of the run-time state (the simulation's optional StatefulWorld hooks). */
  saveState(): { swaps: number[] } {
    return { swaps: this.swapStates() };
  }

  /** Puts back a saved state: `{ swaps }` with one 0 or 1 per swap; anything else is a FormatError naming the field. */
  restoreState(s: unknown): void {
    const v = new Saved(s, 'state').object(['swaps']);
    const swaps = v.get('swaps').array(this.swapState.length, this.swapState.length).map((x) => x.int(0, 1));
    this.setSwapStates(swaps);
  }

  /** Restores all swap states (e.g. from a saved state); the array must have swapCount entries. */
  setSwapStates(states: ArrayLike<number>): void {
    if (states.length !== this.swapState.length) throw new RangeError(`expected ${this.swapState.length} swap states, got ${states.length}`);
    for (let i = 0; i < states.length; i++) this.setSwap(i, states[i] !== 0);
  }

  // ---- regions ----

  /** Which cells a camera at game-space (x, z) sees (1 = visible), by its cell's region mask. */
  visibleCells(x: number, z: number): Uint8Array {
    return visibleCells(this.map, x, z);
  }

  // ---- queries ----

  /**
   * The highest floor at or below `pos` in its cell and the lowest ceiling above it; `material` is the floor's
   * material (MATERIAL_*) and `id` its tile index.
   */
  ground(pos: Vec3, out: GroundResult = newGroundResult()): GroundResult {
    const x = pos[0], y = pos[1], z = pos[2];
    const s = this.collision.query(x, z, y, y);
    const c = this.collision;
    out.hasFloor = s.floorPoly >= 0;
    out.floor = s.floor;
    out.ceiling = s.ceiling;
    out.material = s.floorPoly >= 0 ? c.material[s.floorPoly]! : 0;
    out.id = s.floorPoly >= 0 ? c.polyTile[s.floorPoly]! : -1;
    out.status = 0;
    return out;
  }

  /** The fraction along the segment of the first polygon it crosses (either side), or −1; allocates nothing. */
  segmentFraction(fx: number, fy: number, fz: number, tx: number, ty: number, tz: number): number {
    const p = this.segmentPolygonOf(fx, fy, fz, tx, ty, tz);
    return p < 0 ? -1 : this.hitT;
  }

  /**
   * `segmentPolygon` with the segment handed over in an array: six doubles passed to a call the engine does not
   * inline would be boxed, an allocation per segment. Small, so callers take it in whole.
   */
  private segmentPolygonOf(fx: number, fy: number, fz: number, tx: number, ty: number, tz: number): number {
    const s = this.seg;
    s[0] = fx; s[1] = fy; s[2] = fz;
    s[3] = tx; s[4] = ty; s[5] = tz;
    return this.segmentPolygon(s);
  }

  /**
   * The first polygon the segment crosses (either side): its point, its normal facing the start, its tile as
   * `id`, its material, and `what` "floor", "ceiling" or "wall".
   */
  segment(from: Vec3, to: Vec3, out: SegmentResult = newSegmentResult()): SegmentResult {
    const fx = from[0], fy = from[1], fz = from[2];
    const tx = to[0], ty = to[1], tz = to[2];
    const p = this.segmentPolygonOf(fx, fy, fz, tx, ty, tz);
    const c = this.collision;
    if (p < 0) return setSegmentMiss(out, tx, ty, tz);
    const t = this.hitT;
    out.hit = true;
    out.fraction = t;
    setPointAlong(out.point, fx, fy, fz, tx, ty, tz, t);
    const o = p * POLY_STRIDE;
    // The normal faces the segment's start.
    const flip = c.planeDistance(p, 0, fx, fy, fz) < 0 ? -1 : 1;
    out.normal[0] = c.planes[o]! * flip;
    out.normal[1] = c.planes[o + 1]! * flip;
    out.normal[2] = c.planes[o + 2]! * flip;
    out.id = c.polyTile[p]!;
    out.material = c.material[p]!;
    const tile = c.polyTile[p]!;
    out.what = p < c.rangeOf(tile, 1) ? 'floor' : p < c.rangeOf(tile, 2) ? 'ceiling' : 'wall';
    out.status = 0;
    return out;
  }

  private hitT = 1;
  /** The segment `segmentPolygon` walks (see `segmentPolygonOf`). */
  private readonly seg = new Float64Array(6);

  /**
   * The first polygon a segment crosses (both sides count), walking the grid cells it passes in order and
   * testing in each cell only that cell's tiles, for the part of the segment inside that cell. Sets hitT.
   */
  private segmentPolygon(seg: Float64Array): number {
    const fx = seg[0]!, fy = seg[1]!, fz = seg[2]!, tx = seg[3]!, ty = seg[4]!, tz = seg[5]!;
    const c = this.collision;
    const W = c.width, H = c.height;
    // Not the literal: merged with it, the next crossings and the best hit would be boxed, per cell (INFINITY_SLOT).
    const inf = INFINITY_SLOT[0]!;
    if (!(Number.isFinite(fx) && Number.isFinite(fy) && Number.isFinite(fz) && Number.isFinite(tx) && Number.isFinite(ty) && Number.isFinite(tz))) return -1;
    const dx = tx - fx, dy = ty - fy, dz = tz - fz;
    if (!(Number.isFinite(dx) && Number.isFinite(dy) && Number.isFinite(dz))) return -1;
    // Clip to the grid's xz rectangle.
    let t0 = 0, t1 = 1;
    if (dx === 0) {
      if (!(fx >= 0 && fx < W)) return -1;
    } else {
      let a = (0 - fx) / dx, b = (W - fx) / dx;
      if (a > b) { const s = a; a = b; b = s; }
      if (a > t0) t0 = a;
      if (b < t1) t1 = b;
    }
    if (dz === 0) {
      if (!(fz >= 0 && fz < H)) return -1;
    } else {
      let a = (0 - fz) / dz, b = (H - fz) / dz;
      if (a > b) { const s = a; a = b; b = s; }
      if (a > t0) t0 = a;
      if (b < t1) t1 = b;
    }
    if (!(t0 <= t1)) return -1;
    const xm = fx + dx * t0, zm = fz + dz * t0;
    let col = Math.floor(xm), row = Math.floor(zm);
    if (col >= W) col = W - 1;
    if (row >= H) row = H - 1;
    if (col < 0) col = 0;
    if (row < 0) row = 0;
    const stepX = dx > 0 ? 1 : dx < 0 ? -1 : 0;
    const stepZ = dz > 0 ? 1 : dz < 0 ? -1 : 0;
    let tMaxX = dx > 0 ? (col + 1 - fx) / dx : dx < 0 ? (col - fx) / dx : inf;
    let tMaxZ = dz > 0 ? (row + 1 - fz) / dz : dz < 0 ? (row - fz) / dz : inf;
    const tDX = dx !== 0 ? 1 / Math.abs(dx) : inf;
    const tDZ = dz !== 0 ? 1 / Math.abs(dz) : inf;
    const eps = c.conventions.edgeEpsilon;
    const pl = c.planes;
    let t = t0;
    for (let guard = W + H + 4; guard > 0; guard--) {
      let tNext = tMaxX < tMaxZ ? tMaxX : tMaxZ;
      if (tNext > t1) tNext = t1;
      const cell = col + row * W;
      let best = -1;
      let bestT = inf;
      const end = c.cellStart[cell + 1]!;
      for (let k = c.cellStart[cell]!; k < end; k++) {
        const tile = c.cellTiles[k]!;
        const slot = (tile * 2 + c.variant[tile]!) * 4;
        const pEnd = c.ranges[slot + 3]!;
        for (let p = c.ranges[slot]!; p < pEnd; p++) {
          if (c.active[p] === 0) continue;
          const o = p * POLY_STRIDE;
          const nx = pl[o]!, ny = pl[o + 1]!, nz = pl[o + 2]!, d = pl[o + 3]!;
          const sf = nx * fx + ny * fy + nz * fz - d;
          const st = nx * tx + ny * ty + nz * tz - d;
          if ((sf > 0 && st > 0) || (sf < 0 && st < 0) || sf === st) continue;
          const th = sf / (sf - st);
          if (!(th >= t && th <= tNext) || !(th < bestT)) continue;
          if (!c.insideEdges(p, fx + dx * th, fy + dy * th, fz + dz * th, eps)) continue;
          best = p;
          bestT = th;
        }
      }
      if (best >= 0) {
        this.hitT = bestT;
        return best;
      }
      if (tNext >= t1) break;
      if (tMaxX < tMaxZ) {
        col += stepX;
        t = tMaxX;
        tMaxX += tDX;
      } else {
        row += stepZ;
        t = tMaxZ;
        tMaxZ += tDZ;
      }
      if (col < 0 || col >= W || row < 0 || row >= H) break;
    }
    return -1;
  }

  /**
   * Moves a body (feet at `from`, radius and height from `body`) by `delta`, the reference model's way:
   * walls first (horizontal push-out in the cell of the new position), then floor and ceiling (vertical).
   * No step-up: only floors at or below the higher of the start and end feet count (`body.stepHeight` is
   * ignored). Floors of material 16 give an "exit" contact and of material 30 a "death" contact instead of
   * "floor".
   */
  move(body: Body, from: Vec3, delta: Vec3, out: MoveResult = newMoveResult()): MoveResult {
    const c = this.collision;
    let nContacts = 0;
    const contacts = out.contacts;
    // A body of undefined size (negative, NaN, infinite) is treated as a point.
    const r = body.radius > 0 && body.radius < Infinity ? body.radius : 0;
    const height = body.height > 0 && body.height < Infinity ? body.height : 0;
    const hh = height / 2;
    const fx = from[0], fy = from[1], fz = from[2];
    let x = fx + delta[0], y = fy + delta[1], z = fz + delta[2];
    const pos = out.position;
    if (!(Number.isFinite(x) && Number.isFinite(y) && Number.isFinite(z) && Number.isFinite(fx) && Number.isFinite(fy) && Number.isFinite(fz))) {
      // Undefined input: the body stays where it was (or at the origin when even that is not finite).
      pos[0] = Number.isFinite(fx) ? fx : 0;
      pos[1] = Number.isFinite(fy) ? fy : 0;
      pos[2] = Number.isFinite(fz) ? fz : 0;
      out.grounded = false;
      contacts.length = 0;
      return out;
    }
    const eps = c.conventions.edgeEpsilon;
    const pl = c.planes;
    // Walls: one-sided, acting on a body that starts in front of the wall plane and ends within reach.
    const cyS = fy + hh;
    for (let pass = 0; pass < WALL_PASSES; pass++) {
      let pushed = false;
      const cell = positionCellOf(x, z, c.width, c.height);
      if (cell < 0) break;
      const cy = y + hh;
      const end = c.cellStart[cell + 1]!;
      for (let k = c.cellStart[cell]!; k < end; k++) {
        const tile = c.cellTiles[k]!;
        const slot = (tile * 2 + c.variant[tile]!) * 4;
        const wEnd = c.ranges[slot + 3]!;
        for (let p = c.ranges[slot + 2]!; p < wEnd; p++) {
          if (c.active[p] === 0) continue;
          const o = p * POLY_STRIDE;
          const nx = pl[o]!, ny = pl[o + 1]!, nz = pl[o + 2]!, d = pl[o + 3]!;
          const hLen = c.planeHorizontal[p * 5]!;
          if (hLen < 1e-9) continue;
          const reach = r * hLen + hh * c.planeVertical[p * 5]!;
          const sEnd = nx * x + ny * cy + nz * z - d;
          if (!(sEnd < reach)) continue;
          if (nx * fx + ny * cyS + nz * fz - d < -eps) continue;
          // Within the edge planes, each widened by the body's support along its normal.
          const e = c.edgeCount[p]!;
          let within = true;
          for (let q = 1; q <= e; q++) {
            const oq = o + q * 4;
            const margin = r * c.planeHorizontal[p * 5 + q]! + hh * c.planeVertical[p * 5 + q]!;
            if (!(pl[oq]! * x + pl[oq + 1]! * cy + pl[oq + 2]! * z - pl[oq + 3]! + margin > eps)) {
              within = false;
              break;
            }
          }
          if (!within) continue;
          const amount = (reach - sEnd) / (hLen * hLen);
          x += nx * amount;
          z += nz * amount;
          pushed = true;
          if (!this.hasWallContact(contacts, nContacts, c.polyTile[p]!, p)) nContacts = this.setContact(contacts, nContacts, 'wall', p);
        }
      }
      if (!pushed) break;
    }
    // Ceiling, then floor (the floor wins in a space too low for the body).
    const yLow = fy < y ? fy : y;
    const yHigh = fy > y ? fy : y;
    const s = c.query(x, z, yHigh, yLow + height);
    const floorPoly = s.floorPoly;
    const floorH = s.floor;
    if (s.ceilingPoly >= 0 && y + height > s.ceiling) {
      y = s.ceiling - height;
      nContacts = this.setContact(contacts, nContacts, 'ceiling', s.ceilingPoly);
    }
    let grounded = false;
    if (floorPoly >= 0 && y <= floorH + eps) {
      y = floorH;
      grounded = true;
      nContacts = this.setContact(contacts, nContacts, floorContactKind(c.material[floorPoly]!), floorPoly);
    }
    pos[0] = x;
    pos[1] = y;
    pos[2] = z;
    out.grounded = grounded;
    contacts.length = nContacts;
    return out;
  }

  /** Fills contact slot n (reusing the object already there) from polygon p; returns n + 1. */
  private setContact(contacts: Contact[], n: number, kind: string, p: number): number {
    const c = this.collision;
    const o = p * POLY_STRIDE;
    setContactAt(contacts, n, kind, c.planes[o]!, c.planes[o + 1]!, c.planes[o + 2]!, c.polyTile[p]!, c.material[p]!);
    return n + 1;
  }

  /** Whether a wall contact with this tile and normal is already among the first n (a second pass). */
  private hasWallContact(contacts: Contact[], n: number, tile: number, p: number): boolean {
    const c = this.collision;
    for (let i = 0; i < n; i++) {
      const ct = contacts[i]!;
      if (ct.kind === 'wall' && ct.id === tile && ct.normal[0] === c.planes[p * POLY_STRIDE] && ct.normal[2] === c.planes[p * POLY_STRIDE + 2]) return true;
    }
    return false;
  }

  /** Whether a body standing at `pos` is on a death plane (for systems that respawn it). */
  onDeathPlane(pos: Vec3): boolean {
    const g = this.collision.query(pos[0], pos[2], pos[1], pos[1]);
    return g.floorPoly >= 0 && this.collision.material[g.floorPoly] === MATERIAL_DEATH;
  }

  // ---- placement ----

  /**
   * The start: the first cell in row-major order whose highest floor (probing from above the world) is an
   * ordinary floor with room for the default body under its ceiling, at the cell centre.
   */
  spawnPoint(): Vec3 {
    const c = this.collision;
    for (let row = 0; row < c.height; row++) {
      for (let col = 0; col < c.width; col++) {
        const p = this.standAt(col + 0.5, row + 0.5);
        if (p) return p;
      }
    }
    return [c.width / 2, 0, c.height / 2];
  }

  /** Feet on the highest ordinary floor at (u, v) of the grid (each in [0, 1)) with room for the body, or null. */
  sampleOpen(u: number, v: number): Vec3 | null {
    if (!(u >= 0 && u < 1 && v >= 0 && v < 1)) return null;
    return this.standAt(u * this.collision.width, v * this.collision.height);
  }

  private standAt(x: number, z: number): Vec3 | null {
    const c = this.collision;
    const top = this.bounds.max[1] + PROBE_ABOVE;
    const g = c.query(x, z, top, top);
    if (g.floorPoly < 0) return null;
    const m = c.material[g.floorPoly]!;
    if (floorContactKind(m) !== 'floor') return null;
    const floor = g.floor;
    const ceil = c.query(x, z, floor, floor + c.conventions.bodyHeight);
    if (ceil.ceilingPoly >= 0 && ceil.ceiling - floor < c.conventions.bodyHeight) return null;
    return [x, floor, z];
  }

  private computeBounds(): Bounds {
    const c = this.collision;
    let minY = Infinity, maxY = -Infinity;
    const n = c.active.length;
    for (let p = 0; p < n; p++) {
      if (c.active[p] === 0) continue;
      const corners = polygonCorners(c.planes, p * POLY_STRIDE, c.edgeCount[p]!);
      for (let k = 1; k < corners.length; k += 3) {
        const yv = corners[k]!;
        if (yv < minY) minY = yv;
        if (yv > maxY) maxY = yv;
      }
    }
    if (!(minY <= maxY)) {
      minY = 0;
      maxY = 0;
    }
    return { min: [0, minY, 0], max: [c.width, maxY, c.height] };
  }
}

/**
 * Parses a `.trak` and a `.map` file (chunk sequences or whole WADs) and opens them as a world named `name`,
 * with `conventions` overriding the defaults. Throws FormatError for bytes that do not parse.
 */
export function loadLlamaWorld(trak: Uint8Array, map: Uint8Array, name: string, conventions?: Partial<LlamaConventions>, limits: Readonly<Limits> = DEFAULT_LIMITS): LlamaWorld {
  const t = parseTrak(trak, limits);
  const m = parseMap(map, t.models.map((model) => model.vertices.length / 6), limits);
  return new LlamaWorld(t, m, name, conventions);
}
