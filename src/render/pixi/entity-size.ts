/**
 * How large an entity is drawn on screen: its size in pixels at a zoom, kept between a floor and a ceiling so
 * an arrow never reads as a speck and small levels seen close up stay readable. Every layer that draws on or
 * around the agents (the arrows, the selection's rings, the falling marks, the seats) sizes from here.
 */

/** Entities are drawn at least this many screen pixels across (an arrow smaller than this reads as a speck) ... */
export const MIN_ENTITY_PIXELS = 12;
/** ... and at most this many, so small levels seen close up stay readable. */
export const MAX_ENTITY_PIXELS = 22;

/** The on-screen size in pixels of an entity of radius r at a zoom (screen pixels per map unit). */
export function entityPixels(r: number, player: boolean, zoom: number): number {
  const k = player ? 1.5 : 1;
  return Math.min(k * MAX_ENTITY_PIXELS, Math.max(k * MIN_ENTITY_PIXELS, 2 * r * zoom * k));
}

/** How far outside the view, in map units, a body is still drawn (the largest arrow's width twice over). */
export function bodyMargin(zoom: number): number {
  return (2 * MAX_ENTITY_PIXELS) / zoom;
}
