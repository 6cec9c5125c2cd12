// The heading of a direction, as an integer angle (65536 units to a turn), the same on every engine.
import { ANGLE_UNITS_PER_TURN, detAtan2 } from 'retrosim';

const headingOf = (d0, d1) => Math.round((detAtan2(d1, d0) * ANGLE_UNITS_PER_TURN) / (2 * Math.PI)) & 0xffff;
console.log(headingOf(1, 0), headingOf(0, 1), headingOf(-1, 0), headingOf(0, -1), headingOf(3, 4));
