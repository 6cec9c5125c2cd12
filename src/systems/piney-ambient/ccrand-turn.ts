/**
 * A ccRand turn: the low 16 bits of a ccRand word read as a signed 16-bit angle s, turned into radians by
 * the game's DEG2RAD, (pi · s) / 32768 in EE single precision (multiply, then divide). The high 16 bits of
 * the word are not used.
 */
import { ccRandTurnS16 } from '../../rng/ccrand.js';
import { deg2rad, type F } from './ee-vec.js';

export function ccRandTurn(word: number): F {
  return deg2rad(ccRandTurnS16(word));
}
