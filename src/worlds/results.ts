/**
 * Filling the result objects of `src/worlds/world.ts` in place, the same way in every world. Each helper
 * writes into an object the caller owns and allocates nothing (a contact is created only when its slot is
 * empty), so the worlds' `out` parameters stay allocation-free.
 */
import type { Contact, GroundResult, SegmentResult, Vec3 } from './world.js';

/** Fills `out` as no ground: no floor or ceiling (NaN), material 0, id −1, status 0. */
export function setGroundMiss(out: GroundResult): GroundResult {
  out.hasFloor = false;
  out.floor = NaN;
  out.ceiling = NaN;
  out.material = 0;
  out.id = -1;
  out.status = 0;
  return out;
}

/** Fills `out` as a segment that hit nothing: fraction 1, the point at the segment's end (x, y, z), no normal. */
export function setSegmentMiss(out: SegmentResult, x: number, y: number, z: number): SegmentResult {
  out.hit = false;
  out.fraction = 1;
  out.point[0] = x;
  out.point[1] = y;
  out.point[2] = z;
  out.normal[0] = out.normal[1] = out.normal[2] = 0;
  out.id = -1;
  out.material = 0;
  out.what = '';
  out.status = 0;
  return out;
}

/** Writes into `point` the point at fraction t along (fx, fy, fz) → (tx, ty, tz): from + (to − from)·t. */
export function setPointAlong(point: Vec3, fx: number, fy: number, fz: number, tx: number, ty: number, tz: number, t: number): void {
  point[0] = fx + (tx - fx) * t;
  point[1] = fy + (ty - fy) * t;
  point[2] = fz + (tz - fz) * t;
}

/**
 * Writes contact `i` of a move's contact list into the object already in that slot, or else into `spare`
 * (a world's own earlier contact object, so a caller that empties the list before each move costs no
 * allocation), or a new one; returns the contact written.
 */
export function setContactAt(
  contacts: Contact[],
  i: number,
  kind: string,
  nx: number,
  ny: number,
  nz: number,
  id: number,
  material: number,
  spare?: Contact,
): Contact {
  let c = contacts[i];
  if (!c) {
    c = spare ?? { kind, normal: [nx, ny, nz], id, material };
    contacts[i] = c;
  }
  c.kind = kind;
  c.normal[0] = nx;
  c.normal[1] = ny;
  c.normal[2] = nz;
  c.id = id;
  c.material = material;
  return c;
}
