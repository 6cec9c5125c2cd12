/**
 * A GTA `.col` opened without its placements: the runtime then puts every model once at the origin (as Node
 * does without `<stem>.placements.json` beside the file), so a town of several models shows as one pile. The
 * page says so and offers to add the placements file; this is the decision and the words, without any DOM.
 *
 * No DOM here: Node tests run it.
 */
import type { CollisionWorld } from '../../worlds/world.js';
import type { GtaWorld } from '../../worlds/gta/collision-world.js';

/** True for a GTA world of several models opened without placements (each model then sits at the origin). */
export function placementsMissing(world: CollisionWorld, hasPlacements: boolean): boolean {
  if (world.kind !== 'gta' || hasPlacements) return false;
  return (world as GtaWorld).scene.models.length > 1;
}

/** The banner's words for a COL `file` of `models` models opened without placements. */
export function placementsMissingText(file: string, models: number): string {
  const stem = file.replace(/\.col$/i, '');
  return `${file} holds ${models} models but came without its placements, so every model is drawn at the origin, piled on each other. Add ${stem}.placements.json (drop it here, or pick it) to put each model in its place.`;
}
