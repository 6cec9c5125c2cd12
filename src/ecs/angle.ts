/**
 * Deterministic sine and cosine of integer angles (1/65536 turn, see ANGLE_UNITS_PER_TURN), from a table
 * built at load time with + − × ÷ only (which IEEE 754 rounds the same everywhere), never Math.sin/cos,
 * whose results differ between engines.
 */
import { ANGLE_UNITS_PER_TURN } from './components.js';
import { taylorSin } from '../numeric/det-math.js';

const QUARTER = ANGLE_UNITS_PER_TURN / 4;

/** sin of quarter-turn angles 0..16384 (index = angle units). */
const QUARTER_SINE = (() => {
  const t = new Float64Array(QUARTER + 1);
  const step = (2 * 3.141592653589793) / ANGLE_UNITS_PER_TURN;
  for (let a = 0; a <= QUARTER; a++) {
    // Taylor series to x^31: for x ≤ π/2 the next term is below 1e-30, far under a double's last bit.
    t[a] = taylorSin(a * step, 15);
  }
  t[0] = 0;
  t[QUARTER] = 1;
  return t;
})();

/** Wraps any integer angle to 0..65535. */
export function wrapAngle(a: number): number {
  return a & (ANGLE_UNITS_PER_TURN - 1);
}

/** The sine of an integer angle (65536 per turn; any integer, wrapped), the same on every engine. */
export function sinAngle(angle: number): number {
  const a = angle & (ANGLE_UNITS_PER_TURN - 1);
  if (a <= QUARTER) return QUARTER_SINE[a]!;
  if (a <= 2 * QUARTER) return QUARTER_SINE[2 * QUARTER - a]!;
  if (a <= 3 * QUARTER) return -QUARTER_SINE[a - 2 * QUARTER]!;
  return -QUARTER_SINE[4 * QUARTER - a]!;
}

/** The cosine of an integer angle (65536 per turn; any integer, wrapped), the same on every engine. */
export function cosAngle(angle: number): number {
  return sinAngle(angle + QUARTER);
}
