import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { FieldRand } from '../../../src/rng/fieldrand.js';
import { field } from './harness.js';
import { birdFar } from '../../../src/systems/piney-ambient/bird.js';
import { fadeSmokeAlpha } from '../../../src/systems/piney-ambient/smoke.js';
import { boltOffset, drawStorm, makeThunder } from '../../../src/systems/piney-ambient/thunder.js';
import { emberTransparency } from '../../../src/systems/piney-ambient/snow.js';
import { moveFirefly2, newFirefly2, type Fly } from '../../../src/systems/piney-ambient/firefly2.js';
import { drawTobj, makeTobj } from '../../../src/systems/piney-ambient/tobj.js';
import { initialStatics } from '../../../src/systems/piney-ambient/statics.js';
import { OpList, OP_MASK } from '../../../src/systems/piney-ambient/ops.js';
import { FIELD_BOUNDS } from '../../../src/systems/piney-ambient/wrap.js';
import { envOf, viewAt, BLANK_HEIGHT } from '../../../src/systems/piney-ambient/env.js';
import { k, value, add, sub, ONE, type F, type V4 } from '../../../src/systems/piney-ambient/ee-vec.js';

describe("the game's slips, kept", () => {
  it('DrawRain places every drop again every frame: exactly 100 draws a frame (101 on the first, with the thunder countdown)', () => {
    // Type 4 row 4: rain by day, nothing else that draws; server 5 has no TOBJ gate.
    const f = field({ seed: 31337, type: 4, row: 4, server: 5 });
    f.s.step();
    f.s.step();
    let c = f.rng.fieldrand.count;
    expect(f.inst.runtime.statics.tcnt).toBeNull();
    f.s.step();
    expect(f.rng.fieldrand.count - c).toBe(101);
    // Rain only, yet the first DrawRain drew the bolt countdown.
    expect(f.inst.runtime.statics.tcnt).not.toBeNull();
    for (let i = 0; i < 200; i++) {
      c = f.rng.fieldrand.count;
      f.s.step();
      expect(f.rng.fieldrand.count - c).toBe(100);
    }
  });

  it("BIRD's far test is sqrt(d.y + d.y + d.x^2) > 9600", () => {
    // 9,700 away along y: far in truth, not by the slipped test.
    expect(birdFar([0, k(9700), 0, ONE])).toBe(false);
    // 9,601 along x: the slipped test sees x^2 (minus 20).
    expect(birdFar([k(9601), k(-10), 0, ONE])).toBe(true);
    // A negative sum has no root: not far.
    expect(birdFar([k(10), k(-50000), 0, ONE])).toBe(false);
    fc.assert(
      fc.property(fc.integer({ min: -30000, max: 30000 }), fc.integer({ min: -30000, max: 30000 }), (x, y) => {
        const s = 2 * y + x * x;
        expect(birdFar([k(x), k(y), 0, ONE])).toBe(s > 9600 * 9600);
      }),
    );
  });

  it("the 2D smoke's transparency is an int: from 1 to 0 in one frame", () => {
    expect(fadeSmokeAlpha(1)).toBe(0);
    expect(fadeSmokeAlpha(0)).toBe(0);
    const f = field({ seed: 8080, type: 2, row: 0 });
    const seen = new Set<number>();
    for (let i = 0; i < 2000; i++) {
      f.s.step();
      const ops = f.inst.runtime.ops;
      for (let j = 0; j < ops.length; j++) {
        if (ops.kind(j) !== OP_MASK) continue;
        const o = ops.toJSON(j);
        if (o.op === 'mask') seen.add(o.alpha);
      }
    }
    expect([...seen].sort()).toEqual([0, ONE]);
  });

  it("the bolt's sideways offset is converted as unsigned: a negative one lands near 2^32", () => {
    expect(value(boltOffset(3005))).toBe(5);
    expect(value(boltOffset(0))).toBeGreaterThan(4.29e9);
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 5999 }), (r) => {
        const v = value(boltOffset(r));
        if (r >= 3000) expect(v).toBe(r - 3000);
        else expect(v).toBeGreaterThan(4.29e9);
      }),
    );
  });

  it('FIREFLY2::SetBasePosition2 asks the height at the offset, not at the place', () => {
    const asked: [number, number][] = [];
    const height = (x: F, y: F): F => {
      asked.push([value(x), value(y)]);
      return k(7);
    };
    const player: V4 = [k(30000), k(30000), 0, ONE];
    const fly: Fly = { player, bounds: FIELD_BOUNDS, eye: [k(10000), k(10000), 0, ONE], rot: [0, 0, 0, 0], height };
    const rng = new FieldRand(5);
    const f = newFirefly2(rng);
    f.kind = 1;
    f.life = 300;
    f.pos = [k(30000), k(30000), 0, ONE]; // more than 2,000 from the eye: put back about the player
    moveFirefly2(f, fly, rng);
    expect(asked.length).toBe(1);
    const [hx, hy] = asked[0]!;
    // The offset is within 1,500·√2 of the origin, far from the player's place.
    expect(Math.hypot(hx, hy)).toBeLessThan(2200);
    // The place is the player plus the offset, its z the height asked (7), moved once by its velocity.
    expect(Math.abs(value(f.pos[0]) - 30000 - hx)).toBeLessThan(5);
    expect(Math.abs(value(f.pos[1]) - 30000 - hy)).toBeLessThan(5);
  });
});

describe('other quirks, kept', () => {
  it('an ember jumps from 1 to 0.31 and fades over its last 32 frames', () => {
    expect(emberTransparency(32)).toBe(ONE);
    expect(value(emberTransparency(31))).toBeCloseTo(0.31, 6);
    expect(value(emberTransparency(1))).toBeCloseTo(0.01, 6);
  });

  it("TOBJ at timer 100 exactly shows its default transparency (neither fade runs)", () => {
    const t = makeTobj(0, new FieldRand(1));
    t.timer = 100;
    t.alpha = k(0.25);
    const out = new OpList();
    drawTobj(t, [], out);
    const m = out.toArray().find((o) => o.op === 'model');
    expect(m && m.op === 'model' ? m.alpha : null).toBe(0x3f4ccccd);
    expect(t.alpha).toBe(k(0.25));
  });

  it("the bolt's place drifts by the rounding of adding WORLD's offset and taking it off", () => {
    const th = makeThunder();
    th.frames = 4;
    th.index = 0;
    th.pos[0] = [k(Math.fround(0.1)), k(Math.fround(-12345.678)), k(900), ONE];
    const st = initialStatics();
    st.tcnt = 1000;
    const ofs = k(24000.25);
    const env = { ...envOf(viewAt([ofs, ofs, 0, ONE]), BLANK_HEIGHT) };
    const before = th.pos[0][0];
    drawStorm(th, st, env, new FieldRand(1), new OpList());
    expect(th.pos[0][0]).toBe(sub(add(before, ofs), ofs));
    expect(th.pos[0][0]).not.toBe(before);
  });

  it('the thunder counters carry over to the next field (function statics)', () => {
    const a = field({ seed: 1, type: 8, row: 6, server: 5 });
    for (let i = 0; i < 702; i++) a.s.step();
    // 700 storm frames: 50 to go before the flash.
    expect(a.inst.runtime.statics.tcnt2).toBe(50);
    const b = field({ seed: 2, type: 10, row: 7, server: 5, statics: a.inst.runtime.statics });
    const flashes: number[] = [];
    b.events.on('flash', (e) => flashes.push(e.frame));
    for (let i = 0; i < 100; i++) b.s.step();
    expect(flashes).toEqual([52]);
  });
});

describe('statics across fields', () => {
  it("type 0's Init resets the steam's sleep, step and count but keeps its life and vent; other types keep all", () => {
    const a = field({ seed: 3, type: 0, row: 0 });
    for (let i = 0; i < 400; i++) a.s.step();
    const st = a.inst.runtime.statics;
    st.steamSleep = 17;
    st.steamNum = 5;
    st.steamStep = k(0.75);
    const life = st.steamLife;
    const pos = [...st.steamPos];
    expect(life).toBeGreaterThan(0);
    const kept = { ...st, steamPos: [...st.steamPos] };
    field({ seed: 4, type: 2, row: 0, statics: st });
    expect({ ...st, steamPos: [...st.steamPos] }).toEqual(kept);
    field({ seed: 5, type: 0, row: 1, statics: st });
    expect([st.steamSleep, st.steamNum, st.steamStep]).toEqual([0, 0, k(0.5)]);
    expect(st.steamLife).toBe(life);
    expect(st.steamPos).toEqual(pos);
  });
});
