/**
 * Path smoothing that cuts only the corners the movement system walks: from each kept point, the farthest
 * later point of the path (up to `SMOOTH_LOOKAHEAD` ahead) that a body walking straight at it, as the
 * navigation system steers, reaches to the bit (standing, no hazard on the way) becomes the next kept point.
 * Every shortcut is checked by walking it (`walk.ts`), so the smoothed path is walked exactly as the path it
 * came from: it ends at the same points, on the same floors.
 */
import type { CollisionWorld, Vec3 } from '../worlds/world.js';
import { newWalker, resetWalker, samePos, walkBudget, walkTo, type NavBody, type Walker } from './walk.js';

/** How many points ahead a shortcut may reach from a kept point. */
export const SMOOTH_LOOKAHEAD = 24;

/** Whether a body standing at `from` walks straight at `to` and arrives there to the bit (`w` is reused). */
export function walksStraight(w: Walker, from: Readonly<Vec3>, to: Readonly<Vec3>): boolean {
  resetWalker(w, from);
  const d0 = Math.abs(to[w.a0] - from[w.a0]);
  const d1 = Math.abs(to[w.a1] - from[w.a1]);
  if (!walkTo(w, to[w.a0], to[w.a1], walkBudget(d0 > d1 ? d0 : d1, w.body.speed))) return false;
  return samePos(w.pos, to);
}

/**
 * The path's points with the corners cut that the body walks: a subsequence of `points` that keeps the first
 * and the last, each step of it walked straight (checked). Needs the world the graph was built on.
 */
export function smoothPath(world: CollisionWorld, body: NavBody, points: readonly Vec3[]): Vec3[] {
  if (points.length <= 2) return points.map((p) => [p[0], p[1], p[2]] as Vec3);
  const w = newWalker(world, body, points[0]!);
  const out: Vec3[] = [[...points[0]!] as Vec3];
  let k = 0;
  while (k < points.length - 1) {
    let next = k + 1;
    for (let j = Math.min(points.length - 1, k + SMOOTH_LOOKAHEAD); j > k + 1; j--) {
      if (walksStraight(w, points[k]!, points[j]!)) {
        next = j;
        break;
      }
    }
    out.push([...points[next]!] as Vec3);
    k = next;
  }
  return out;
}
