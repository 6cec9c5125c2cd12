/**
 * The ground's colours: one function from a floor height and a material to a colour, used by the raster for
 * every pixel and by the legend for every ground swatch, so the legend shows exactly the colours drawn.
 *
 * Heights are read through the world's own distribution of heights, not linearly between the lowest and the
 * highest: most levels are one wide floor with a few high things (a town's ground and its roofs, a field's
 * plain and its hills), and a linear ramp paints them all one colour. A height's place on the ramp is mostly
 * its rank among the drawn heights (ties at the middle of their ranks) and a little its linear place, so the
 * common heights spread over the ramp and the rare high ones still end at its top. The ramp runs from deep
 * indigo through muted violet, olive and ochre to sand, its luminance rising all along (no cyan, bright green,
 * red or yellow: those are the agents', the player's and the selection's).
 *
 * Pure data (no pixi.js): Node tests check it.
 */

/** The ground ramp, low to high: [place 0..1, RGB]. */
export const GROUND_RAMP: readonly (readonly [number, readonly [number, number, number]])[] = [
  [0, [30, 38, 84]],
  [0.25, [80, 72, 122]],
  [0.5, [102, 124, 66]],
  [0.75, [176, 130, 72]],
  [1, [238, 222, 186]],
];

/** How much a height's place is its rank among the drawn heights (the rest is its linear place). */
export const RANK_WEIGHT = 0.75;
/** Quantiles the palette keeps of the drawn heights (enough for a smooth ramp, small to keep). */
const QUANTILES = 1024;

/** The ramp's colour at place `t` (clamped to 0..1) into `out` (RGB bytes, rounded). */
export function rampColour(t: number, out: number[] = [0, 0, 0]): number[] {
  const x = Math.max(0, Math.min(1, Number.isFinite(t) ? t : 0));
  let i = 0;
  while (i < GROUND_RAMP.length - 2 && x > GROUND_RAMP[i + 1]![0]) i++;
  const [t0, a] = GROUND_RAMP[i]!;
  const [t1, b] = GROUND_RAMP[i + 1]!;
  const f = t1 > t0 ? (x - t0) / (t1 - t0) : 0;
  for (let k = 0; k < 3; k++) out[k] = Math.round(a[k]! + (b[k]! - a[k]!) * f);
  return out;
}

/** A material's tint: the colour and how much (0..1) of the ground's colour it replaces; null for none. */
export type MaterialTint = (material: number) => { rgb: readonly [number, number, number]; weight: number } | null;

/** The ground's colour function for one world's drawn heights. */
export interface GroundPalette {
  /** The lowest and highest height drawn ("higher is more", native units); NaN when nothing is. */
  readonly low: number;
  readonly high: number;
  /** A height's place on the ramp, 0..1 (rank mostly, linear a little). */
  place(height: number): number;
  /** The colour of a floor at `height` of `material`, before the slope's light (RGB bytes, rounded). */
  colour(height: number, material: number, out?: number[]): number[];
  /** The height at which `share` (0..1) of the drawn pixels are lower or level. */
  quantile(share: number): number;
}

/**
 * The palette of a set of drawn heights (NaN entries are no floor and are left out), with a world's material
 * tints. Sorting the heights is the only cost (once per world).
 */
export function groundPalette(heights: ArrayLike<number>, tint: MaterialTint = () => null): GroundPalette {
  const finite: number[] = [];
  for (let i = 0; i < heights.length; i++) {
    const h = heights[i]!;
    if (Number.isFinite(h)) finite.push(h);
  }
  const sorted = Float64Array.from(finite).sort();
  const n = sorted.length;
  const low = n ? sorted[0]! : NaN;
  const high = n ? sorted[n - 1]! : NaN;
  const span = high > low ? high - low : 1;
  // Quantiles q[k]: the height at rank k / K.
  const K = Math.max(1, Math.min(QUANTILES, n - 1));
  const q = new Float64Array(K + 1);
  for (let k = 0; k <= K; k++) q[k] = n ? sorted[Math.round((k / K) * (n - 1))]! : 0;
  // Each quantile's place: the middle of the ranks of the quantiles equal to it (ties share one place).
  const mid = new Float64Array(K + 1);
  for (let a = 0; a <= K; ) {
    let b = a;
    while (b < K && q[b + 1] === q[a]) b++;
    mid.fill((a + b) / 2 / K, a, b + 1);
    a = b + 1;
  }
  const rank = (h: number): number => {
    if (!n || h < q[0]!) return 0;
    if (h > q[K]!) return 1;
    // The first quantile at or above h.
    let lo = 0;
    let hi = K;
    while (lo < hi) {
      const m = (lo + hi) >> 1;
      if (q[m]! < h) lo = m + 1;
      else hi = m;
    }
    if (q[lo] === h) return mid[lo]!;
    const a = q[lo - 1]!;
    const b = q[lo]!;
    return (lo - 1 + (h - a) / (b - a)) / K;
  };
  const place = (h: number): number => {
    if (!Number.isFinite(h)) return 0;
    const lin = Math.max(0, Math.min(1, (h - low) / span));
    return RANK_WEIGHT * rank(h) + (1 - RANK_WEIGHT) * lin;
  };
  return {
    low,
    high,
    place,
    colour(h, material, out = [0, 0, 0]) {
      rampColour(place(h), out);
      const t = tint(material);
      if (t) for (let k = 0; k < 3; k++) out[k] = Math.round(out[k]! * (1 - t.weight) + t.rgb[k]! * t.weight);
      return out;
    },
    quantile(share) {
      if (!n) return NaN;
      return sorted[Math.round(Math.max(0, Math.min(1, share)) * (n - 1))]!;
    },
  };
}
