import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { OpList, nameId, OP_KIND_NAMES } from '../../../src/systems/piney-ambient/ops.js';
import { unit, ONE, type V4 } from '../../../src/systems/piney-ambient/ee-vec.js';

const word = fc.integer({ min: 0, max: 0xffffffff });
const v4 = fc.tuple(word, word, word, word) as fc.Arbitrary<V4>;

describe('the op list', () => {
  it('gives every kind back in its plain form, in order, with all fields', () => {
    const l = new OpList(1);
    const pos: V4 = [1, 2, 3, ONE];
    l.sprite(3, nameId('field_eff'), nameId('EFF_x'), 1, 2, 3, ONE, 7, ONE, 5, 9, true, false);
    l.smoke(pos, [4, 5, 6, ONE], ONE, -8, 208, 512, 32);
    l.mask(3, ONE, 10, 20);
    l.model(5, 1, nameId('t1'), nameId('ANM_sft1s1a'), unit(), 0x3f4ccccd, { length: 42, alpha: 103 });
    l.sound(236);
    l.sound3d(43, pos);
    l.humStart();
    l.hum(pos, 0x3c23d70a);
    l.flash(10, 0x80ffffff, 0, 0, 0x44000000, 0x43c00000);
    expect(l.toArray()).toEqual([
      { op: 'sprite', layer: 3, file: 'field_eff', name: 'EFF_x', pos: [1, 2, 3, ONE], pattern: 7, scale: [ONE, 5], rotate: 0, transparency: 9, fog: true, ztest: false },
      { op: 'smoke', pos: [1, 2, 3, ONE], v: [4, 5, 6, ONE], s: ONE, life: -8, t: 208, fadeIn: 512, fadeOut: 32 },
      { op: 'mask', layer: 3, alpha: ONE, x: 10, y: 20 },
      { op: 'model', layer: 5, what: 'tobj', file: 't1', name: 'ANM_sft1s1a', matrix: [ONE, 0, 0, 0, 0, ONE, 0, 0, 0, 0, ONE, 0, 0, 0, 0, ONE], alpha: 0x3f4ccccd, shadow: { length: 42, alpha: 103 } },
      { op: 'sound', se: 236 },
      { op: 'sound3d', se: 43, pos: [1, 2, 3, ONE] },
      { op: 'humStart', se: 44 },
      { op: 'hum', pos: [1, 2, 3, ONE], rate: 0x3c23d70a },
      { op: 'flash', frames: 10, colour: 0x80ffffff, rect: [0, 0, 0x44000000, 0x43c00000] },
    ]);
    expect(l.counts()).toEqual(Object.fromEntries(OP_KIND_NAMES.filter((n) => n).map((n) => [n, 1])));
  });

  it('a run of sprites is word for word the same as one sprite call each', () => {
    fc.assert(
      fc.property(fc.array(fc.tuple(v4, word), { minLength: 0, maxLength: 50 }), fc.integer({ min: 0, max: 5 }), (items, pre) => {
        const names = new Uint32Array(items.map(([, n]) => n));
        const pos = new Uint32Array(items.flatMap(([p]) => p));
        const a = new OpList(1);
        const b = new OpList(1);
        for (let i = 0; i < pre; i++) {
          a.mask(3, ONE, i, i);
          b.mask(3, ONE, i, i);
        }
        a.spriteRun(3, 9, names, pos, items.length, ONE, 0x3f000000, true, false);
        items.forEach(([p, n]) => b.sprite(3, 9, n, p[0], p[1], p[2], p[3], 0, ONE, ONE, 0x3f000000, true, false));
        expect(a.equals(b)).toBe(true);
      }),
      { numRuns: 100 },
    );
  });

  it('copies, appends and compares word for word; a cleared slot leaves nothing behind', () => {
    fc.assert(
      fc.property(fc.array(fc.tuple(v4, v4), { minLength: 1, maxLength: 40 }), (items) => {
        const a = new OpList(2);
        for (const [p, v] of items) {
          a.smoke(p, v, 1, 2, 3, 4, 5);
          a.sprite(3, 1, 2, p[0], p[1], p[2], p[3], 1, 1, 1, 1, false, true);
        }
        const b = new OpList(1);
        b.copyFrom(a);
        expect(b.equals(a)).toBe(true);
        expect(b.digest()).toBe(a.digest());
        const c = new OpList(1);
        c.append(a);
        c.append(a);
        expect(c.length).toBe(2 * a.length);
        // A sprite written over a slot that held a smoke op carries none of its words.
        const d = new OpList(1);
        d.smoke(items[0]![0], items[0]![1], 1, 2, 3, 4, 5);
        d.clear();
        d.sprite(3, 1, 2, 0, 0, 0, 0, 1, 1, 1, 1, false, true);
        const e = new OpList(1);
        e.sprite(3, 1, 2, 0, 0, 0, 0, 1, 1, 1, 1, false, true);
        expect(d.equals(e)).toBe(true);
      }),
      { numRuns: 100 },
    );
  });
});
