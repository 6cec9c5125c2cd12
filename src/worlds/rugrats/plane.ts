/**
 * The plane test (0x80068510) and the sloped height built on it, in the plain integer reading (the routine's
 * exact arithmetic is not public; each choice below is listed in docs/formats/rugrats-col.md):
 *
 * - PLANE_DISTANCE: the signed distance of a point from the plane is the dot product of the 4.12 normal with
 *   (point − corner), 32-bit wrapping products and sums, shifted right arithmetically by 12 (as the GTE's sf=1
 *   shift does), giving world units.
 * - PLANE_FRACTION: a segment a→b crosses when the two distances are not both positive, not both negative and
 *   not equal; the crossing is at t = da × 4096 / (da − db), the product wrapping and the division truncating
 *   toward zero. A t outside 0..4096 (only possible after a wrap) is no crossing.
 * - LERP: the point at t is a + (b − a) × t / 4096, wrapping product, truncating division.
 */

/** No crossing within the segment. */
export const PLANE_MISS = -1;

/** Signed distance in world units of (dx, dy, dz) = point − corner from the plane with 4.12 normal n. */
export function planeDistance(nx: number, ny: number, nz: number, dx: number, dy: number, dz: number): number {
  return ((Math.imul(nx, dx) + Math.imul(ny, dy) + Math.imul(nz, dz)) | 0) >> 12;
}

/**
 * Where a→b crosses the plane through p with normal n, as a 4.12 fraction 0..4096 of the way from a to b, or
 * PLANE_MISS. All arguments are 32-bit integers.
 */
export function planeFraction(
  ax: number, ay: number, az: number,
  bx: number, by: number, bz: number,
  px: number, py: number, pz: number,
  nx: number, ny: number, nz: number,
): number {
  const da = planeDistance(nx, ny, nz, (ax - px) | 0, (ay - py) | 0, (az - pz) | 0);
  const db = planeDistance(nx, ny, nz, (bx - px) | 0, (by - py) | 0, (bz - pz) | 0);
  return crossingFraction(da, db);
}

/** The crossing fraction from the two ends' distances (see PLANE_FRACTION above), or PLANE_MISS. */
export function crossingFraction(da: number, db: number): number {
  if (da === db || (da > 0 && db > 0) || (da < 0 && db < 0)) return PLANE_MISS;
  const t = (Math.imul(da, 4096) / ((da - db) | 0)) | 0;
  return t >= 0 && t <= 4096 ? t : PLANE_MISS;
}

/**
 * The plane test for a flat plane (normal (0, ∓4096, 0), `ny` = ∓4096) at height h: the same arithmetic as
 * planeFraction with the zero products left out, so the answers are identical.
 */
export function flatPlaneFraction(ay: number, by: number, h: number, ny: number): number {
  return crossingFraction(Math.imul(ny, (ay - h) | 0) >> 12, Math.imul(ny, (by - h) | 0) >> 12);
}

/** a + (b − a) × t / 4096 with a wrapping product and a division truncating toward zero. */
export function lerpFp12(a: number, b: number, t: number): number {
  return (a + ((Math.imul((b - a) | 0, t) / 4096) | 0)) | 0;
}

/**
 * The x and z of the corner a tile's planes go through (0x8002af20): the cell's low corner, or for a tile of
 * half 3 the high corner (x | 1023, z | 1023). `half3` says which.
 */
export const cornerX = (x: number, half3: boolean): number => (half3 ? x | 1023 : x & -1024);
export const cornerZ = (z: number, half3: boolean): number => (half3 ? z | 1023 : z & -1024);

/** How far above and below the flat height the vertical line of a sloped height reaches. */
export const SLOPE_REACH = 1024;

/**
 * The height of a tile's plane at (x, z): where the vertical line from h − 1024 to h + 1024 meets the plane
 * through the corner (at height h) with normal n. SLOPE_MISS_KEEPS_FLAT: when the line does not meet the
 * plane (a steep or vertical normal), the flat height h is kept.
 */
export function slopedHeight(h: number, nx: number, ny: number, nz: number, x: number, z: number, half3: boolean): number {
  const top = (h - SLOPE_REACH) | 0;
  const bottom = (h + SLOPE_REACH) | 0;
  const t = planeFraction(x, top, z, x, bottom, z, cornerX(x, half3), h, cornerZ(z, half3), nx, ny, nz);
  return t === PLANE_MISS ? h : lerpFp12(top, bottom, t);
}
