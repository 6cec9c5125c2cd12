import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { CcRand } from '../../../src/rng/ccrand.js';
import { drawFires } from '../../../src/systems/piney-ambient/fires.js';
import { ccRandTurn } from '../../../src/systems/piney-ambient/ccrand-turn.js';
import { OpList } from '../../../src/systems/piney-ambient/ops.js';
import { envOf, viewAt, BLANK_HEIGHT } from '../../../src/systems/piney-ambient/env.js';
import { k, value, ONE, type V4 } from '../../../src/systems/piney-ambient/ee-vec.js';
import { defaultPineyTables } from '../../../src/node/assets.js';

const FIRE: V4 = [k(20000), k(21000), k(50), ONE];

describe('ccRand turns', () => {
  it('take the low 16 bits as a signed angle: the first words after ccInitRand(0) give 30697, 89, 17769', () => {
    const cc = new CcRand();
    cc.init(0);
    const words = [cc.nextU32(), cc.nextU32(), cc.nextU32()];
    expect(words).toEqual([0x889c77e9, 0xc8c10059, 0x4f014569]);
    const turns = words.map(ccRandTurn).map(value);
    [30697, 89, 17769].forEach((s, i) => expect(turns[i]).toBeCloseTo((Math.PI * s) / 32768, 5));
  });

  it('ignore the high half and stay within [-pi, pi)', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 0xffff }), fc.integer({ min: 0, max: 0xffff }), (lo, hi) => {
        const a = ccRandTurn(((hi << 16) | lo) >>> 0);
        expect(a).toBe(ccRandTurn(lo));
        const s = lo >= 0x8000 ? lo - 0x10000 : lo;
        expect(value(a)).toBeCloseTo((Math.PI * s) / 32768, 5);
        // EE truncation: never beyond the exact value's magnitude by more than rounding of pi itself.
        expect(Math.abs(value(a))).toBeLessThanOrEqual(Math.PI + 1e-6);
      }),
    );
  });
});

describe("type 7's fires", () => {
  it('puff on an even frame within reach: three ccRand words, thrown 10 along Rz(c)·Ry(b)·Rx(a)·x', () => {
    const cc = new CcRand();
    cc.init(0);
    const out = new OpList();
    const env = envOf({ ...viewAt([k(20100), k(21000), 0, ONE]), odd: false }, BLANK_HEIGHT);
    drawFires([[...FIRE] as V4], env, cc, out);
    expect(cc.draws).toBe(3);
    expect(out.length).toBe(1);
    const op = out.toJSON(0);
    if (op.op !== 'smoke') throw new Error('not a smoke');
    // The first turn (30697, about x) leaves the x axis where it is; b (89) and c (17769) move it.
    const [b, c] = [89, 17769].map((s) => (Math.PI * s) / 32768);
    const dir = [Math.cos(c!) * Math.cos(b!), Math.sin(c!) * Math.cos(b!), -Math.sin(b!)];
    expect(value(op.pos[0]!)).toBeCloseTo(20000 + 10 * dir[0]!, 2);
    expect(value(op.pos[1]!)).toBeCloseTo(21000 + 10 * dir[1]!, 2);
    expect(value(op.pos[2]!)).toBeCloseTo(50 + 10 * dir[2]!, 2);
    expect(value(op.v[0]!)).toBeCloseTo(dir[0]!, 4);
    expect(value(op.v[1]!)).toBeCloseTo(dir[1]!, 4);
    expect(value(op.v[2]!)).toBeCloseTo(dir[2]! + 2.5, 4);
    expect([op.s, op.life, op.t, op.fadeIn, op.fadeOut]).toEqual([ONE, 8, 208, 512, 32]);
  });

  it('draw nothing on odd frames or beyond 6,500 of the eye', () => {
    const cc = new CcRand();
    cc.init(0);
    const out = new OpList();
    drawFires([[...FIRE] as V4], envOf({ ...viewAt([k(20100), k(21000), 0, ONE]), odd: true }, BLANK_HEIGHT), cc, out);
    drawFires([[...FIRE] as V4], envOf({ ...viewAt([k(26600), k(21000), 0, ONE]), odd: false }, BLANK_HEIGHT), cc, out);
    expect(cc.draws).toBe(0);
    expect(out.length).toBe(0);
    drawFires([[...FIRE] as V4], envOf({ ...viewAt([k(26400), k(21000), 0, ONE]), odd: false }, BLANK_HEIGHT), cc, out);
    expect(cc.draws).toBe(3);
  });

  it('each fire in list order, and the fires are brought to the player side of the map', () => {
    const cc = new CcRand();
    cc.init(0);
    const out = new OpList();
    // A fire at x 47,000 is 1,500 from a player at x 500 across the seam.
    const fires: V4[] = [[k(47000), k(100), 0, ONE], [k(900), k(100), 0, ONE]];
    drawFires(fires, envOf({ ...viewAt([k(500), k(100), 0, ONE]), odd: false }, BLANK_HEIGHT), cc, out);
    expect(cc.draws).toBe(6);
    expect(value(fires[0]![0])).toBe(-1000);
    expect(value(fires[1]![0])).toBe(900);
  });
});

describe('fires found on the field', () => {
  it("SetSpecialObj's walk: each animated object's nodes in order, y outer, x inner", async () => {
    const { pineySite, firesAt } = await import('../../../src/systems/piney-ambient/site.js');
    const { field } = await import('./harness.js');
    const site = pineySite({ seed: 12345, type: 7, row: 0, ground: 0, object: 0 }, defaultPineyTables());
    expect(site.animatedObjects.length).toBeGreaterThan(0);
    const nodes: V4[] = [[0, 0, k(300), ONE], [k(100), 0, k(300), ONE]];
    const fires = firesAt(site.animatedObjects, nodes);
    expect(fires.length).toBe(2 * site.animatedObjects.length);
    site.animatedObjects.forEach((o, i) => {
      expect(value(fires[2 * i]![0])).toBe(value(o[0]));
      expect(value(fires[2 * i + 1]![0])).toBeCloseTo(value(o[0]) + 100, 1);
      expect(value(fires[2 * i]![2])).toBeCloseTo(value(o[2]) + 300, 2);
    });
    const f = field({ seed: 12345, type: 7, row: 0, fireNodes: nodes, site });
    expect(f.inst.state.fires).toEqual(fires);
    // Another type takes no fires from nodes.
    expect(field({ seed: 12345, type: 6, row: 0, fireNodes: nodes }).inst.state.fires).toEqual([]);
  });
});
