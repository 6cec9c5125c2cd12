import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { FieldRand } from '../../../src/rng/fieldrand.js';
import { field, drawsOf } from './harness.js';
import { drawSteam, STEAM_SE } from '../../../src/systems/piney-ambient/steam.js';
import { drawStorm, makeThunder } from '../../../src/systems/piney-ambient/thunder.js';
import { makeTobj, moveTobj, drawTobj } from '../../../src/systems/piney-ambient/tobj.js';
import { makeBird, moveBird, BIRD_TURN } from '../../../src/systems/piney-ambient/bird.js';
import { drawLensFlare } from '../../../src/systems/piney-ambient/lens-flare.js';
import { makeSpline, stepSpline } from '../../../src/systems/piney-ambient/spline.js';
import { initialStatics } from '../../../src/systems/piney-ambient/statics.js';
import { OpList, OP_MODEL, OP_SPRITE, OP_SOUND3D, OP_SMOKE, OP_HUM, OP_HUM_START } from '../../../src/systems/piney-ambient/ops.js';
import { envOf, viewAt, BLANK_HEIGHT, type AmbientEnv } from '../../../src/systems/piney-ambient/env.js';
import { k, value, ONE, PI, type V4 } from '../../../src/systems/piney-ambient/ee-vec.js';

const AT: V4 = [k(24000), k(24000), 0, ONE];
const env: AmbientEnv = envOf(viewAt(AT), BLANK_HEIGHT);

function kinds(out: OpList): number[] {
  const r: number[] = [];
  for (let i = 0; i < out.length; i++) r.push(out.kind(i));
  return r;
}

describe("type 0's steam", () => {
  it('eight bursts 3-6 frames apart of 2-6 puffs (t 109), the hiss at the first, then 120-270 frames asleep', () => {
    const st = initialStatics();
    const rng = new FieldRand(2024);
    const bursts: number[] = [];
    const hisses: number[] = [];
    for (let f = 0; f < 3000; f++) {
      const out = new OpList();
      drawSteam(st, env, rng, out);
      const ks = kinds(out);
      const puffs = ks.filter((x) => x === OP_SMOKE).length;
      if (puffs) {
        expect(puffs).toBeGreaterThanOrEqual(2);
        expect(puffs).toBeLessThanOrEqual(6);
        for (let i = 0; i < out.length; i++) {
          const o = out.toJSON(i);
          if (o.op === 'smoke') expect(o.t).toBe(109);
        }
        bursts.push(f);
      }
      if (ks.includes(OP_SOUND3D)) {
        const o = out.toJSON(0);
        expect(o.op === 'sound3d' && o.se).toBe(STEAM_SE);
        hisses.push(f);
      }
    }
    expect(hisses.length).toBeGreaterThan(3);
    // Every hiss starts a cycle of eight bursts.
    for (const h of hisses) {
      const i = bursts.indexOf(h);
      expect(i).toBeGreaterThanOrEqual(0);
      const cycle = bursts.slice(i, i + 8);
      if (cycle.length < 8) continue;
      for (let j = 1; j < 8; j++) {
        expect(cycle[j]! - cycle[j - 1]!).toBeGreaterThanOrEqual(3);
        expect(cycle[j]! - cycle[j - 1]!).toBeLessThanOrEqual(6);
      }
      const next = bursts[i + 8];
      if (next !== undefined) {
        expect(next - cycle[7]!).toBeGreaterThanOrEqual(120);
        expect(next - cycle[7]!).toBeLessThanOrEqual(270);
        expect(hisses).toContain(next);
      }
    }
  });
});

describe('the storm', () => {
  it('the first bolt after 60-119 frames, then every 30-59, each shown four frames', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 0xffffffff }), (seed) => {
        const rng = new FieldRand(seed);
        const st = initialStatics();
        st.tcnt = rng.rand(60) + 60;
        const first = st.tcnt;
        const th = makeThunder();
        const strikes: number[] = [];
        const shown: number[] = [];
        for (let f = 1; f <= 400; f++) {
          const before = th.frames;
          const out = new OpList();
          drawStorm(th, st, env, rng, out);
          if (th.frames === 3 && before !== 4) strikes.push(f);
          if (kinds(out).includes(OP_SPRITE)) shown.push(f);
        }
        expect(strikes[0]).toBe(first);
        for (let i = 1; i < strikes.length; i++) {
          expect(strikes[i]! - strikes[i - 1]!).toBeGreaterThanOrEqual(30);
          expect(strikes[i]! - strikes[i - 1]!).toBeLessThanOrEqual(59);
        }
        // Each strike is shown on its own frame and the three after (cut short by the end of the run).
        expect(shown.length).toBe(strikes.reduce((n, f) => n + Math.min(4, 401 - f), 0));
      }),
      { numRuns: 30 },
    );
  });
});

describe('TOBJ', () => {
  it('respawns with 5 draws (7 for server 3) and sleeps 30-129 frames after', () => {
    for (const server of [0, 1, 2, 3, 4]) {
      const rng = new FieldRand(100 + server);
      const t = makeTobj(server, rng);
      const st = initialStatics();
      t.timer = 1;
      const n = drawsOf(rng, () => moveTobj(t, env, st, rng));
      expect(n).toBe(server === 3 ? 7 : 5);
      expect(t.sleep).toBeGreaterThanOrEqual(30);
      expect(t.sleep).toBeLessThanOrEqual(129);
      expect(t.timer).toBeGreaterThanOrEqual(230);
      expect(t.timer).toBeLessThanOrEqual(729);
    }
  });

  it('hums (servers 0, 2, 4) while its transparency is not 0; the hum starts once, first in the first drawn list', () => {
    for (const server of [0, 1, 2, 3, 4]) {
      const t = makeTobj(server, new FieldRand(9));
      t.timer = 500;
      const out = new OpList();
      drawTobj(t, [], out);
      const hums = kinds(out).filter((x) => x === OP_HUM).length;
      expect(hums).toBe([0, 2, 4].includes(server) ? 1 : 0);
      expect(kinds(out).filter((x) => x === OP_MODEL).length).toBe(server === 4 ? 3 : 1);
    }
    // Find a field with a TOBJ on server 0: the hum-start goes out once.
    for (let seed = 1; seed < 200; seed++) {
      const f = field({ seed, type: 1, row: 0, server: 0 });
      if (!f.inst.state.tobj) continue;
      let starts = 0;
      for (let i = 0; i < 20; i++) {
        f.s.step();
        const ks = kinds(f.inst.runtime.ops);
        starts += ks.filter((x) => x === OP_HUM_START).length;
        if (i === 2) expect(ks[0]).toBe(OP_HUM_START);
      }
      expect(starts).toBe(1);
      return;
    }
    throw new Error('no field with a TOBJ found');
  });
});

describe('BIRD', () => {
  it('flies 20 a frame, turns back home after half a turn, and never draws', () => {
    const b = makeBird(k(20000), k(20000));
    const home = [...b.home];
    let turned = 0;
    for (let f = 0; f < 400; f++) {
      const before = b.turn;
      moveBird(b, env);
      if (b.turn !== before) {
        turned++;
        expect(b.pos.slice(0, 3)).toEqual(home.slice(0, 3));
      }
    }
    // It starts at pi heading out, so it turns back at once; each half turn after is about 200 frames.
    expect(turned).toBeGreaterThanOrEqual(2);
    expect(value(b.angle)).toBeLessThanOrEqual(value(PI) + value(BIRD_TURN));
  });
});

describe('the lens flare', () => {
  it('six sprites without depth test when the camera looks within 67.5 degrees of +x, none otherwise', () => {
    const sun: V4 = [k(30000), k(2000), k(8000), ONE];
    const look = (heading: number): number => {
      // The camera 600 behind the player along the heading (sin h, -cos h).
      const h = heading;
      const eye: V4 = [k(Math.fround(24000 - 600 * Math.sin(h))), k(Math.fround(24000 + 600 * Math.cos(h))), k(300), ONE];
      const e = envOf({ ...viewAt(AT), eye, view: AT, rot: [0, 0, k(Math.fround(h)), 0], rot2: [0, 0, k(Math.fround(h)), 0] }, BLANK_HEIGHT);
      const out = new OpList();
      drawLensFlare(sun, e, out);
      for (let i = 0; i < out.length; i++) {
        const o = out.toJSON(i);
        expect(o.op === 'sprite' && o.ztest).toBe(false);
      }
      return out.length;
    };
    // Heading pi/2 looks along +x; -pi/2 along -x.
    expect(look(Math.PI / 2)).toBe(6);
    expect(look(Math.PI / 2 + 1.0)).toBe(6);
    expect(look(-Math.PI / 2)).toBe(0);
    expect(look(0)).toBe(0);
  });
});

describe("FIREFLY's splines", () => {
  it('loop with a period of P + 10 frames (310, or 610 hacked)', () => {
    for (const period of [300, 600]) {
      const sp = makeSpline([0, k(600), k(1200), k(600), 0], period);
      const first: number[] = [];
      for (let i = 0; i < period + 10; i++) first.push(stepSpline(sp));
      for (let i = 0; i < period + 10; i++) expect(stepSpline(sp)).toBe(first[i]);
      expect(first.slice(0, 10)).not.toEqual(first.slice(period, period + 10));
    }
  });
});

describe('the drawn frame', () => {
  it('types 0-3 draw the haze on layer 6 every frame; type 0 its 16 embers on layer 3', () => {
    const f = field({ seed: 3, type: 0, row: 0 });
    for (let i = 0; i < 50; i++) {
      f.s.step();
      if (i < 2) continue;
      const ops = f.inst.runtime.ops.toArray();
      const haze = ops.filter((o) => o.op === 'model' && o.what === 'haze');
      expect(haze.length).toBe(1);
      expect(haze[0]!.op === 'model' && haze[0]!.layer).toBe(6);
      const embers = ops.filter((o) => o.op === 'sprite' && o.name === 'EFF_sfa8fir1');
      expect(embers.length).toBe(16);
    }
  });
});
