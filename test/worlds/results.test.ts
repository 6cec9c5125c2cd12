import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { setContactAt, setGroundMiss, setPointAlong, setSegmentMiss } from '../../src/worlds/results.js';
import { newGroundResult, newSegmentResult, type Contact, type Vec3 } from '../../src/worlds/world.js';

describe('world result helpers', () => {
  it('no ground clears every field a floor wrote', () => {
    const out = newGroundResult();
    Object.assign(out, { hasFloor: true, floor: 3, ceiling: 9, material: 2, id: 5, status: 1 });
    expect(setGroundMiss(out)).toBe(out);
    expect(out).toEqual(newGroundResult());
  });

  it('a miss clears every field a hit wrote and puts the point at the end', () => {
    const out = newSegmentResult();
    out.hit = true;
    out.fraction = 0.25;
    out.normal[0] = 1;
    out.id = 7;
    out.material = 3;
    out.what = 'wall';
    out.status = 2;
    const point = out.point;
    expect(setSegmentMiss(out, 4, -5, 6)).toBe(out);
    expect(out).toEqual({ hit: false, fraction: 1, point: [4, -5, 6], normal: [0, 0, 0], id: -1, material: 0, what: '', status: 0 });
    expect(out.point).toBe(point);
  });

  it('the point along a segment is the start at 0 and the end at 1 for integer coordinates', () => {
    const int = fc.integer({ min: -(2 ** 30), max: 2 ** 30 });
    fc.assert(
      fc.property(int, int, int, int, int, int, (fx, fy, fz, tx, ty, tz) => {
        const p: Vec3 = [NaN, NaN, NaN];
        setPointAlong(p, fx, fy, fz, tx, ty, tz, 0);
        expect(p).toEqual([fx, fy, fz]);
        setPointAlong(p, fx, fy, fz, tx, ty, tz, 1);
        expect(p).toEqual([tx, ty, tz]);
      }),
    );
  });

  it('a contact slot is reused when filled, else the spare, else a new object', () => {
    const contacts: Contact[] = [];
    const first = setContactAt(contacts, 0, 'floor', 0, 0, 1, 5, 2);
    expect(contacts).toEqual([{ kind: 'floor', normal: [0, 0, 1], id: 5, material: 2 }]);
    expect(setContactAt(contacts, 0, 'wall', 1, 0, 0, 9, 0)).toBe(first);
    expect(first).toEqual({ kind: 'wall', normal: [1, 0, 0], id: 9, material: 0 });
    const spare: Contact = { kind: 'x', normal: [9, 9, 9], id: 0, material: 0 };
    expect(setContactAt(contacts, 1, 'ceiling', 0, 0, -1, 3, 1, spare)).toBe(spare);
    expect(contacts[1]).toEqual({ kind: 'ceiling', normal: [0, 0, -1], id: 3, material: 1 });
    expect(setContactAt(contacts, 1, 'wall', 0, 1, 0, 4, 0, { kind: '', normal: [0, 0, 0], id: 0, material: 0 })).toBe(spare);
  });
});
