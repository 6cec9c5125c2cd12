import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { FieldRand } from '../../../src/rng/fieldrand.js';
import { emptySnow, stepAndDrawSnow, SNOW_HEAVY, SNOW_EMBER, makeSnow } from '../../../src/systems/piney-ambient/snow.js';
import { OpList } from '../../../src/systems/piney-ambient/ops.js';
import { envOf, viewAt, BLANK_HEIGHT } from '../../../src/systems/piney-ambient/env.js';
import { w2p, p2w } from '../../../src/systems/piney-ambient/wrap.js';
import { add, sub, le, lt, k, value, ONE, type V4 } from '../../../src/systems/piney-ambient/ee-vec.js';

const K1300 = k(1300);
const K2600 = k(2600);

/** SNOW::Move's place as the reference sheet states it (§2.3), with the generic W2P/P2W. */
function referenceMove(pos: V4, vel: V4, player: V4): { pos: V4; sprite: V4 } {
  let p: V4 = [add(pos[0], vel[0]), add(pos[1], vel[1]), add(pos[2], vel[2]), add(pos[3], vel[3])];
  p[3] = ONE;
  const d = w2p(p, player);
  for (const i of [0, 1]) {
    if (!le(d[i]!, K1300)) {
      d[i] = sub(d[i]!, K2600);
      p = p2w(d, player);
    }
    if (lt(d[i]!, k(-1300))) {
      d[i] = add(d[i]!, K2600);
      p = p2w(d, player);
    }
  }
  return { pos: p, sprite: p2w(d, player) };
}

const coord = fc.double({ min: -1000, max: 49000, noNaN: true }).map((x) => k(Math.fround(x)));
const speed = fc.double({ min: -60, max: 60, noNaN: true }).map((x) => k(Math.fround(x)));

describe('SNOW::Move', () => {
  it("the typed-array Move gives the sheet's place and sprite place, bit for bit", () => {
    fc.assert(
      fc.property(
        fc.array(fc.tuple(coord, coord, speed, speed), { minLength: 1, maxLength: 30 }),
        coord,
        coord,
        (flakes, px, py) => {
          const player: V4 = [px, py, 0, ONE];
          const s = emptySnow(SNOW_HEAVY, flakes.length, 5);
          flakes.forEach(([x, y, vx, vy], i) => {
            s.pos.set([x, y, k(5000), ONE], i * 4);
            s.vel.set([vx, vy, k(-10), ONE], i * 4);
          });
          const expected = flakes.map(([x, y, vx, vy]) => referenceMove([x, y, k(5000), ONE], [vx, vy, k(-10), ONE], player));
          const rng = new FieldRand(1);
          stepAndDrawSnow(s, 3, envOf(viewAt(player), BLANK_HEIGHT), rng, new OpList());
          expect(rng.count).toBe(0);
          expected.forEach((e, i) => {
            expect(Array.from(s.pos.subarray(i * 4, i * 4 + 4))).toEqual(e.pos);
            expect(Array.from(s.spritePos.subarray(i * 4, i * 4 + 4))).toEqual(e.sprite);
          });
        },
      ),
      { numRuns: 300 },
    );
  });

  it('a flake that falls below 0 is placed again (5 draws, and 1 more for a heavy flake)', () => {
    const rng = new FieldRand(9);
    const at: V4 = [k(24000), k(24000), 0, ONE];
    const env = envOf(viewAt(at), BLANK_HEIGHT);
    const s = makeSnow(SNOW_HEAVY, 1, 5, env, rng);
    s.pos[2] = k(5);
    s.vel[2] = k(-10);
    const c = rng.count;
    stepAndDrawSnow(s, 3, env, rng, new OpList());
    expect(rng.count - c).toBe(6);
    expect(value(s.pos[2]!)).toBe(800);
    expect(value(s.vel[2]!)).toBeLessThanOrEqual(-10);
  });

  it('embers draw only on their turn and at the end of their life', () => {
    const rng = new FieldRand(4);
    const at: V4 = [k(24000), k(24000), 0, ONE];
    const env = envOf(viewAt(at), BLANK_HEIGHT);
    const s = makeSnow(SNOW_EMBER, 16, 0, env, rng);
    for (let f = 0; f < 300; f++) {
      let expected = 0;
      for (let i = 0; i < 16; i++) {
        if (s.turn[i] === 1) expected += 3;
        if (s.timer[i] === 1) expected += 6;
      }
      const c = rng.count;
      stepAndDrawSnow(s, 3, env, rng, new OpList());
      expect(rng.count - c).toBe(expected);
    }
  });
});
