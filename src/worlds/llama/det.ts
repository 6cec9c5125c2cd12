/**
 * Deterministic helpers built only from + − × ÷ (exact under IEEE 754 everywhere), so everything that feeds
 * simulation state is the same on every machine: the sine and cosine of MAP angles (4096 per turn). Square roots come from numeric/det-math.ts.
 */
import { taylorSin } from '../../numeric/det-math.js';

const TWO_PI = 6.283185307179586;

/** sin of r/4096 turns for 0 ≤ r ≤ 1024 by its Taylor series (error far below a double's rounding here). */
function sinQuarter(r: number): number {
  return taylorSin((r * TWO_PI) / 4096, 11);
}

/** Scratch output of sinCosTurn. */
export const sinCosOut = { sin: 0, cos: 1 };

/**
 * sin and cos of an angle in 4096ths of a turn (any integer; taken modulo one turn), into `sinCosOut`.
 * Quarter turns are exact (0, ±1), and the result is symmetric by construction.
 */
export function sinCosTurn(angle: number): typeof sinCosOut {
  const a = angle & 0xfff;
  const q = a >> 10;
  const r = a & 1023;
  const s = r === 0 ? 0 : sinQuarter(r);
  const c = r === 0 ? 1 : sinQuarter(1024 - r);
  switch (q) {
    case 0: sinCosOut.sin = s; sinCosOut.cos = c; break;
    case 1: sinCosOut.sin = c; sinCosOut.cos = -s; break;
    case 2: sinCosOut.sin = -s; sinCosOut.cos = -c; break;
    default: sinCosOut.sin = -c; sinCosOut.cos = s; break;
  }
  // −0 would print as 0 but behaves the same; normalise so results compare with ===.
  if (sinCosOut.sin === 0) sinCosOut.sin = 0;
  if (sinCosOut.cos === 0) sinCosOut.cos = 0;
  return sinCosOut;
}
