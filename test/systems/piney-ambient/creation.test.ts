import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { FieldRand } from '../../../src/rng/fieldrand.js';
import { makeSnow, SNOW_EMBER, SNOW_HEAVY, SNOW_LIGHT, snowProbeY } from '../../../src/systems/piney-ambient/snow.js';
import { makeSmoke2d } from '../../../src/systems/piney-ambient/smoke.js';
import { makeRain } from '../../../src/systems/piney-ambient/rain.js';
import { makeFirefly } from '../../../src/systems/piney-ambient/firefly.js';
import { makeTobj } from '../../../src/systems/piney-ambient/tobj.js';
import { generateTail, initAmbient, makeTailRoamer } from '../../../src/systems/piney-ambient/ambient.js';
import { fieldWeather } from '../../../src/systems/piney-ambient/weather.js';
import { initialStatics } from '../../../src/systems/piney-ambient/statics.js';
import { BLANK_HEIGHT, envOf, viewAt } from '../../../src/systems/piney-ambient/env.js';
import { FIELD_BOUNDS } from '../../../src/systems/piney-ambient/wrap.js';
import { k, value, ONE, type V4 } from '../../../src/systems/piney-ambient/ee-vec.js';
import { drawsOf } from './harness.js';

const START: V4 = [k(24600), k(24600), 0, ONE];
const env = envOf(viewAt(START), BLANK_HEIGHT);
const seed = fc.integer({ min: 0, max: 0xffffffff });

describe('creation draw counts (fieldrand)', () => {
  it('a light flake 7, a heavy flake 8, an ember 7', () => {
    fc.assert(
      fc.property(seed, fc.integer({ min: 1, max: 20 }), (s, n) => {
        const r = new FieldRand(s);
        expect(drawsOf(r, () => makeSnow(SNOW_LIGHT, n, 5, env, r))).toBe(7 * n);
        expect(drawsOf(r, () => makeSnow(SNOW_HEAVY, n, 6, env, r))).toBe(8 * n);
        expect(drawsOf(r, () => makeSnow(SNOW_EMBER, n, 0, env, r))).toBe(7 * n);
      }),
      { numRuns: 50 },
    );
  });

  it('the 2D smoke 21, the rain 100', () => {
    fc.assert(
      fc.property(seed, fc.constantFrom(2, 3), (s, w) => {
        const r = new FieldRand(s);
        expect(drawsOf(r, () => makeSmoke2d(r))).toBe(21);
        expect(drawsOf(r, () => makeRain(w, r))).toBe(100);
      }),
      { numRuns: 50 },
    );
  });

  it('a FIREFLY 13 (hacked or not), a type-9 FIREFLY2 11', () => {
    fc.assert(
      fc.property(seed, fc.boolean(), (s, hacked) => {
        const r = new FieldRand(s);
        expect(drawsOf(r, () => makeFirefly(hacked, BLANK_HEIGHT, r))).toBe(13);
        const fly = { player: START, bounds: FIELD_BOUNDS, eye: START, rot: [0, 0, 0, 0] as V4, height: BLANK_HEIGHT };
        expect(drawsOf(r, () => makeTailRoamer(START, fly, r))).toBe(11);
      }),
      { numRuns: 50 },
    );
  });

  it('a TOBJ 4 after its gate, for every server', () => {
    fc.assert(
      fc.property(seed, fc.integer({ min: 0, max: 4 }), (s, server) => {
        const r = new FieldRand(s);
        expect(drawsOf(r, () => makeTobj(server, r))).toBe(4);
      }),
      { numRuns: 50 },
    );
  });

  it("Generate's tail: 1 (+4 TOBJ) (+100 rain) (+65 fireflies) (+165 roamers)", () => {
    fc.assert(
      fc.property(seed, fc.integer({ min: 0, max: 10 }), fc.integer({ min: 0, max: 9 }), fc.boolean(), fc.integer({ min: 0, max: 6 }), (s, t, b, hacked, server) => {
        const w = fieldWeather(t, b, hacked);
        const st = initialStatics();
        const state = initAmbient(w, server, env, st, new FieldRand(s));
        const r = new FieldRand(s ^ 0x5a5a5a5a);
        const n = drawsOf(r, () => generateTail(state, START, START, env, r));
        let expected = server <= 4 ? 1 : 0;
        if (state.tobj) expected += 4;
        if (w.weather === 2 || w.weather === 3) expected += 100;
        if ((w.time === 2 || hacked) && t !== 9) expected += 65;
        if (t === 9) expected += 165;
        expect(n).toBe(expected);
        expect(state.fireflies.length).toBe((w.time === 2 || hacked) && t !== 9 ? 5 : 0);
        expect(state.roamers.length).toBe(t === 9 ? 15 : 0);
        expect(state.bird !== null).toBe(t === 10 && w.time !== 2 && w.weather !== 2 && w.weather !== 3);
        expect(state.thunder !== null).toBe(w.weather === 3);
      }),
      { numRuns: 300 },
    );
  });

  it('the TOBJ gate makes one at 86 or more', () => {
    // Find seeds whose first step mod 100 is above and below the gate, and check the outcome.
    const w = fieldWeather(1, 0, false);
    let made = 0;
    let not = 0;
    for (let s = 1; s < 400; s++) {
      const probe = new FieldRand(s).rand(100);
      const state = initAmbient(w, 0, env, initialStatics(), new FieldRand(0));
      generateTail(state, START, START, env, new FieldRand(s));
      expect(state.tobj !== null).toBe(probe >= 86);
      if (state.tobj) made++;
      else not++;
    }
    expect(made).toBeGreaterThan(0);
    expect(not).toBeGreaterThan(0);
  });
});

describe('what Init makes', () => {
  it('Init: 200 heavy flakes for weather 5, 100 light for 4, 16 embers for type 0, the smoke for 2, 3, 5, 6', () => {
    for (let t = 0; t <= 10; t++) {
      for (let b = 0; b <= 9; b++) {
        const w = fieldWeather(t, b, false);
        const r = new FieldRand(77);
        const state = initAmbient(w, 0, env, initialStatics(), r);
        const snow = state.snow;
        if (t === 0) expect(snow?.count).toBe(16);
        else if (w.weather === 5) expect(snow?.count).toBe(200);
        else if (w.weather === 4) expect(snow?.count).toBe(100);
        else expect(snow).toBeNull();
        expect(state.smoke !== null).toBe([2, 3, 5, 6].includes(t));
        expect(state.haze).toBe(t <= 3);
      }
    }
  });

  it("Init's flakes sit about the start position: within 1300 each way, z below 800 on the blank ground", () => {
    const r = new FieldRand(4242);
    const s = makeSnow(SNOW_HEAVY, 200, 5, env, r);
    for (let i = 0; i < s.count; i++) {
      const x = value(s.pos[i * 4]!);
      const y = value(s.pos[i * 4 + 1]!);
      const z = value(s.pos[i * 4 + 2]!);
      expect(Math.abs(x - 24600)).toBeLessThanOrEqual(1300);
      expect(Math.abs(y - 24600)).toBeLessThanOrEqual(1300);
      expect(z).toBeGreaterThanOrEqual(0);
      expect(z).toBeLessThan(800);
      expect(Number.isInteger(z)).toBe(true);
    }
  });

  it("a flake's height probe asks GetHeight(x, y != -500): y 0 or 1 (a slip, kept)", () => {
    expect(snowProbeY(k(-500))).toBe(0);
    expect(snowProbeY(k(1234))).toBe(ONE);
    const asked: number[] = [];
    const env2 = envOf(viewAt(START), (_x, y) => {
      asked.push(y);
      return 0;
    });
    makeSnow(SNOW_LIGHT, 5, 5, env2, new FieldRand(3));
    // Per flake: calcPos asks at its place, then the probe asks at y = 1.0 (its y is never -500 here).
    expect(asked.length).toBe(10);
    for (let i = 0; i < 5; i++) expect(asked[2 * i + 1]).toBe(ONE);
  });
});

describe("Generate's tail from the reference's layout states (piney-ambient.md §5)", () => {
  const cases = [
    // [seed after layout, count, type, row, TOBJ gate draw]
    { seed: 2613795997, count: 10186, type: 10, row: 0, gate: 58 },
    { seed: 1518714998, count: 10125, type: 7, row: 0, gate: 55 },
    { seed: 4016937597, count: 10103, type: 1, row: 3, gate: 98 },
    { seed: 486618396, count: 11495, type: 5, row: 6, gate: 33 },
  ];
  for (const c of cases) {
    it(`type ${c.type}: the gate draws ${c.gate}`, () => {
      const probe = new FieldRand();
      probe.restore({ seed: c.seed, count: c.count });
      expect(probe.rand(100)).toBe(c.gate);
      const rng = new FieldRand();
      rng.restore({ seed: c.seed, count: c.count });
      const state = initAmbient(fieldWeather(c.type, c.row, false), 0, env, initialStatics(), new FieldRand(0));
      generateTail(state, START, START, env, rng);
      expect(state.tobj !== null).toBe(c.gate >= 86);
    });
  }

  it("type 1 / 0xc0ffee's TOBJ: angle, timer, x, y from 291, 108, 8745, 11090", () => {
    const rng = new FieldRand();
    rng.restore({ seed: 4016937597, count: 10103 });
    const state = initAmbient(fieldWeather(1, 3, false), 0, env, initialStatics(), new FieldRand(0));
    generateTail(state, START, START, env, rng);
    const t = state.tobj!;
    expect(t.timer).toBe(108 + 630);
    expect(value(t.pos[0])).toBe(8745);
    expect(value(t.pos[1])).toBe(11090);
    expect(value(t.angle)).toBeCloseTo((291 - 180) / 57.29578, 5);
    expect(state.humPending).toBe(true);
    // Type 1, row 3: cloudy by day; nothing else is made.
    expect(rng.count).toBe(10103 + 5);
  });
});
