import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { generateField, mapFnv, FieldParamError } from '../../../src/worlds/piney/generate.js';
import { CHIPS, FLAT_LAKE, FLAT_LEVEL, FLAT_SLOPE, NoSiteError, type FieldParams, type PineyField } from '../../../src/worlds/piney/field-state.js';
import { HIDDEN_HEIGHT } from '../../../src/worlds/piney/get-height.js';
import { placeObjects } from '../../../src/worlds/piney/objects.js';
import { setCover } from '../../../src/worlds/piney/cover.js';
import { setStart } from '../../../src/worlds/piney/start.js';
import { fieldSummary } from '../../../src/worlds/piney/summary.js';
import { defaultPineyTables } from '../../../src/node/assets.js';
import { eeToNumber } from '../../../src/numeric/ee-float.js';

const base: FieldParams = { seed: 1420855, fieldType: 10, weather: 0, ground: 1, object: 1, event: 0, protect: false };

const params = fc.record({
  seed: fc.nat({ max: 0xffffffff }),
  fieldType: fc.integer({ min: 0, max: 10 }),
  weather: fc.integer({ min: 0, max: 9 }),
  ground: fc.integer({ min: 0, max: 2 }),
  object: fc.integer({ min: 0, max: 2 }),
  event: fc.oneof(fc.constant(0), fc.constant(0), fc.constantFrom(14, 1, 28, 60, 100, 113)),
  protect: fc.boolean(),
});

/** Chips an object's footprint covers, as the game's linear check index x·40 + y. */
const footprint = (o: { x: number; y: number; w: number; h: number }) => {
  const out: number[] = [];
  for (let i = o.x; i < o.x + o.w; i++) for (let j = o.y; j < o.y + o.h; j++) out.push(i * CHIPS + j);
  return out;
};

describe('generator parameters', () => {
  it('rejects field type 11 and ground 3 (the port\'s FieldType / Ground errors)', () => {
    expect(() => generateField({ ...base, fieldType: 11 }, defaultPineyTables())).toThrow(FieldParamError);
    expect(() => generateField({ ...base, ground: 3 }, defaultPineyTables())).toThrow(/ground/);
    expect(() => generateField({ ...base, seed: -1 }, defaultPineyTables())).toThrow(FieldParamError);
    expect(() => generateField({ ...base, seed: 1.5 }, defaultPineyTables())).toThrow(FieldParamError);
  });
  it('a start scan with no free chip ends with NoSiteError instead of looping', () => {
    const f = generateField(base, defaultPineyTables(), 'cover');
    f.check.fill(1);
    expect(() => setStart(f)).toThrow(NoSiteError);
  });
});

describe('draw counts', () => {
  it('MakeField draws 6400 after Init\'s burn, for every type and weather', () => {
    const t = defaultPineyTables();
    for (let type = 0; type <= 10; type++) {
      for (const weather of [0, 3, 4, 9]) {
        const f = generateField({ ...base, fieldType: type, weather }, t, 'makefield');
        expect(f.initDraws).toBe(t.initDraws[type]![weather]);
        expect(f.rng.count).toBe(f.initDraws + 6400);
      }
    }
  });
  it('skipInit starts Generate at count 0', () => {
    expect(generateField({ ...base, fieldType: 0, skipInit: true }, defaultPineyTables(), 'makefield').rng.count).toBe(6400);
  });
  it('per step: entrance 2 per try, lake 1 + 2 per try, cover 2 per unhidden chip, start at least 1', () => {
    fc.assert(
      fc.property(params, (p) => {
        const hills = generateField(p, defaultPineyTables(), 'hills');
        const ent = generateField(p, defaultPineyTables(), 'entrance');
        const lake = generateField(p, defaultPineyTables(), 'lake');
        const obj = generateField(p, defaultPineyTables(), 'objects');
        const cover = generateField(p, defaultPineyTables(), 'cover');
        const all = generateField(p, defaultPineyTables());
        expect((ent.rng.count - hills.rng.count) % 2).toBe(0);
        const lakeDraws = lake.rng.count - ent.rng.count;
        if (defaultPineyTables().lakeFieldTypes.includes(p.fieldType)) expect(lakeDraws % 2).toBe(1);
        else expect(lakeDraws).toBe(0);
        let open = 0;
        for (let c = 0; c < CHIPS * CHIPS; c++) if (cover.check[CHIPS * CHIPS + c] !== 1 && cover.check3[c] === 0) open++;
        expect(cover.rng.count - obj.rng.count).toBe(2 * open);
        expect(cover.coverCount).toBe(open);
        expect(all.rng.count).toBeGreaterThan(cover.rng.count);
      }),
      { numRuns: 15 },
    );
  });
  it('hills: one size draw + 25 key draws + 2 per site try per attempt', () => {
    fc.assert(
      fc.property(params, (p) => {
        const before = generateField(p, defaultPineyTables(), 'makefield').rng.count;
        const f = generateField(p, defaultPineyTables(), 'hills');
        const d = f.rng.count - before;
        // Every attempt costs 26 + 2k (k ≤ 100 tries), so the total is even and at least 28 per hill.
        expect(d % 2).toBe(0);
        expect(d).toBeGreaterThanOrEqual(28 * f.hills.length);
        const t = defaultPineyTables().hillCounts[p.ground]!;
        expect(f.hills.length).toBe(t.small + t.large);
      }),
      { numRuns: 20 },
    );
  });
});

describe('field properties', () => {
  it('no two hills\' tested cores overlap, and the large hills come first with their sizes in range', () => {
    fc.assert(
      fc.property(params, (p) => {
        const f = generateField(p, defaultPineyTables(), 'hills');
        const t = defaultPineyTables();
        const large = t.hillCounts[p.ground]!.large;
        f.hills.forEach((h, i) => {
          const s = i < large ? t.largeHill : t.smallHill;
          expect(h.size).toBeGreaterThanOrEqual(s.base);
          expect(h.size).toBeLessThan(s.base + s.range);
        });
        const core = (h: { x: number; y: number; size: number }) =>
          footprint({ x: h.x >> 1, y: h.y >> 1, w: h.size >> 1, h: h.size >> 1 });
        if (p.event !== 0) {
          // The story centre (chips 19–21, marked in mnt before the hills) is never under a hill's core.
          for (const h of f.hills) for (const c of core(h)) expect(Math.abs(Math.floor(c / CHIPS) - 20) <= 1 && Math.abs((c % CHIPS) - 20) <= 1).toBe(false);
        }
        for (let i = 0; i < f.hills.length; i++) {
          const a = new Set(core(f.hills[i]!));
          for (let j = i + 1; j < f.hills.length; j++) for (const c of core(f.hills[j]!)) expect(a.has(c)).toBe(false);
        }
      }),
      { numRuns: 40 },
    );
  });

  it('objects never share a chip, avoid the story centre, and the levelled and slope-tested ones avoid hills', () => {
    fc.assert(
      fc.property(params, (p) => {
        const f = generateField(p, defaultPineyTables());
        const owner = new Map<number, number>();
        f.objects.forEach((o, k) => {
          for (const c of footprint(o)) {
            expect(owner.has(c), `object ${k} (${o.kind}) on chip ${c} of object ${owner.get(c)}`).toBe(false);
            owner.set(c, k);
            if (p.event !== 0) {
              const x = Math.floor(c / CHIPS);
              const y = c % CHIPS;
              expect(x >= 19 && x <= 21 && y >= 19 && y <= 21).toBe(false);
            }
            if (o.kind !== 'tree' || !defaultPineyTables().treeRowTypes.includes(p.fieldType)) {
              if (o.row.flat & (FLAT_LEVEL | FLAT_LAKE | FLAT_SLOPE) || o.kind === 'entrance') expect(f.mnt[c]).toBe(0);
            }
          }
        });
      }),
      { numRuns: 40 },
    );
  });

  it('levelled objects stand at 0 on a flattened site; the others have a real GetHeight, never the hidden −500', () => {
    fc.assert(
      fc.property(params, (p) => {
        const f = generateField(p, defaultPineyTables());
        for (const o of f.objects) {
          if (o.level) expect(o.z).toBe(0);
          else expect(o.z).not.toBe(HIDDEN_HEIGHT);
        }
        // A levelled object's own cells were zeroed (a later hill never comes after the objects).
        for (const o of f.objects.filter((x) => x.level && x.kind !== 'lake')) {
          expect(f.map[2 * o.x * 80 + 2 * o.y]).toBe(0);
        }
      }),
      { numRuns: 25 },
    );
  });

  it('a generated field regenerates identically', () => {
    fc.assert(
      fc.property(params, (p) => {
        const a = generateField(p, defaultPineyTables());
        const b = generateField(p, defaultPineyTables());
        expect(fieldSummary(b)).toEqual(fieldSummary(a));
        expect(b.map).toEqual(a.map);
        expect(b.check).toEqual(a.check);
        expect(b.check3).toEqual(a.check3);
        expect(b.objects.map((o) => [o.kind, o.index, o.x, o.y, o.z])).toEqual(a.objects.map((o) => [o.kind, o.index, o.x, o.y, o.z]));
        expect(b.coverQuadrant).toEqual(a.coverQuadrant);
      }),
      { numRuns: 20 },
    );
  });

  it('stopping after a step and running the rest gives the same field as one run', () => {
    fc.assert(
      fc.property(params, (p) => {
        const part = generateField(p, defaultPineyTables(), 'lake');
        placeObjects(part);
        setCover(part);
        setStart(part);
        const whole = generateField(p, defaultPineyTables());
        expect(mapFnv(part.map)).toBe(mapFnv(whole.map));
        expect(part.rng.save()).toEqual(whole.rng.save());
        expect(part.start).toEqual(whole.start);
      }),
      { numRuns: 15 },
    );
  });

  it('a story area starts at chip (20, 20); protect changes only the RNG, not the layout', () => {
    const a = generateField({ ...base, event: 60, protect: false }, defaultPineyTables());
    const b = generateField({ ...base, event: 60, protect: true }, defaultPineyTables());
    expect(a.start).toEqual([20, 20]);
    expect(b.start).toEqual([20, 20]);
    expect(mapFnv(a.map)).toBe(mapFnv(b.map));
    expect(a.rng.count).toBeLessThanOrEqual(b.rng.count);
  });

  it('a story area in the no-entrance list gets no entrance; event 14 has its entrance within 8000 of the start', () => {
    const none = generateField({ ...base, event: 28 }, defaultPineyTables());
    expect(none.entrance).toBeNull();
    expect(none.objects.some((o) => o.kind === 'entrance')).toBe(false);
    for (const seed of [1, 2, 3, 4, 5]) {
      const near = generateField({ ...base, seed, event: 14 }, defaultPineyTables(), 'entrance');
      const far = generateField({ ...base, seed, event: 15 }, defaultPineyTables(), 'entrance');
      const d = (f: PineyField) => {
        const o = f.objects[0]!;
        const dx = eeToNumber(o.wx) - 24600;
        const dy = eeToNumber(o.wy) - 24600;
        return dx * dx + dy * dy;
      };
      expect(d(near)).toBeLessThan(8000 * 8000 + 1);
      expect(d(far)).toBeGreaterThanOrEqual(8000 * 8000 - 1);
    }
  });
});
