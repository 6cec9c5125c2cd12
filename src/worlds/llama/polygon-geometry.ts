/**
 * Corners of a convex collision polygon given as planes (surface plane 0, edge planes 1..e), each
 * (nx, ny, nz, D) with the inside where n·p − D ≥ 0. Used by the checker (extent, ±8 rule, neighbouring
 * cells) and for the world's bounds; not on the query hot path.
 */

/** Tolerance of the corner inside test, in units (well below a 4.12 step). */
export const CORNER_TOLERANCE = 1e-6;

/**
 * The corners (flat x, y, z) of the polygon whose planes start at `planes[base]`: every intersection of the
 * surface plane with two edge planes that lies inside all edge planes. Empty when the planes bound nothing.
 */
export function polygonCorners(planes: ArrayLike<number>, base: number, edges: number): number[] {
  const out: number[] = [];
  const a0 = planes[base]!, b0 = planes[base + 1]!, c0 = planes[base + 2]!, d0 = planes[base + 3]!;
  for (let i = 1; i <= edges; i++) {
    for (let j = i + 1; j <= edges; j++) {
      const oi = base + i * 4, oj = base + j * 4;
      const a1 = planes[oi]!, b1 = planes[oi + 1]!, c1 = planes[oi + 2]!, d1 = planes[oi + 3]!;
      const a2 = planes[oj]!, b2 = planes[oj + 1]!, c2 = planes[oj + 2]!, d2 = planes[oj + 3]!;
      const det = a0 * (b1 * c2 - c1 * b2) - b0 * (a1 * c2 - c1 * a2) + c0 * (a1 * b2 - b1 * a2);
      if (!(det > 1e-9 || det < -1e-9)) continue;
      const x = (d0 * (b1 * c2 - c1 * b2) - b0 * (d1 * c2 - c1 * d2) + c0 * (d1 * b2 - b1 * d2)) / det;
      const y = (a0 * (d1 * c2 - c1 * d2) - d0 * (a1 * c2 - c1 * a2) + c0 * (a1 * d2 - d1 * a2)) / det;
      const z = (a0 * (b1 * d2 - d1 * b2) - b0 * (a1 * d2 - d1 * a2) + d0 * (a1 * b2 - b1 * a2)) / det;
      let inside = true;
      for (let k = 1; k <= edges && inside; k++) {
        const o = base + k * 4;
        if (planes[o]! * x + planes[o + 1]! * y + planes[o + 2]! * z - planes[o + 3]! < -CORNER_TOLERANCE) inside = false;
      }
      if (!inside) continue;
      let dup = false;
      for (let q = 0; q < out.length && !dup; q += 3) {
        const dx = out[q]! - x, dy = out[q + 1]! - y, dz = out[q + 2]! - z;
        if (dx * dx + dy * dy + dz * dz < CORNER_TOLERANCE * CORNER_TOLERANCE) dup = true;
      }
      if (!dup) out.push(x, y, z);
    }
  }
  return out;
}

/**
 * Whether the xz projection of the corners overlaps the open square [x0, x0+1)×[z0, z0+1) by more than
 * `margin` (separating axes: x, z and each projected edge's normal).
 */
export function cornersOverlapCell(corners: readonly number[], x0: number, z0: number, margin: number): boolean {
  const n = corners.length / 3;
  if (n === 0) return false;
  let minX = Infinity, maxX = -Infinity, minZ = Infinity, maxZ = -Infinity;
  for (let i = 0; i < n; i++) {
    const x = corners[i * 3]!, z = corners[i * 3 + 2]!;
    if (x < minX) minX = x;
    if (x > maxX) maxX = x;
    if (z < minZ) minZ = z;
    if (z > maxZ) maxZ = z;
  }
  if (maxX <= x0 + margin || minX >= x0 + 1 - margin || maxZ <= z0 + margin || minZ >= z0 + 1 - margin) return false;
  // Separating axes: perpendiculars of every pair of corners, which include the hull's edges (n is small).
  // Any axis that separates proves the shapes disjoint, so the extra (non-edge) axes are harmless.
  for (let i = 0; i < n; i++) {
    for (let j = i + 1; j < n; j++) {
      const ax = -(corners[j * 3 + 2]! - corners[i * 3 + 2]!);
      const az = corners[j * 3]! - corners[i * 3]!;
      const len2 = ax * ax + az * az;
      if (len2 < 1e-18) continue;
      let pMin = Infinity, pMax = -Infinity;
      for (let k = 0; k < n; k++) {
        const v = corners[k * 3]! * ax + corners[k * 3 + 2]! * az;
        if (v < pMin) pMin = v;
        if (v > pMax) pMax = v;
      }
      let sMin = Infinity, sMax = -Infinity;
      for (const [cx, cz] of [[x0, z0], [x0 + 1, z0], [x0, z0 + 1], [x0 + 1, z0 + 1]] as const) {
        const v = cx * ax + cz * az;
        if (v < sMin) sMin = v;
        if (v > sMax) sMax = v;
      }
      const m = margin * Math.abs(ax) + margin * Math.abs(az);
      if (pMax <= sMin + m || pMin >= sMax - m) return false;
    }
  }
  return true;
}
