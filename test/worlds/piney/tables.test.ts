import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { FormatError } from '../../../src/binary/format-error.js';
import { loadPineyTables, parsePineyTables } from '../../../src/worlds/piney/tables.js';
import { defaultPineyTables, pineyAssetPath } from '../../../src/node/assets.js';
import { tempDir } from '../../setup/temp-dir.js';

const raw = () => JSON.parse(readFileSync(pineyAssetPath('field-tables.json'), 'utf8')) as Record<string, any>;
const bytes = (v: unknown) => new TextEncoder().encode(JSON.stringify(v));

function expectFormatError(v: unknown, detail: RegExp) {
  let err: unknown;
  try {
    parsePineyTables(v);
  } catch (e) {
    err = e;
  }
  expect(err).toBeInstanceOf(FormatError);
  expect((err as FormatError).message).toMatch(detail);
}

describe('the shipped tables', () => {
  const t = defaultPineyTables();
  const arrays = new Set(Object.values(t.objects).flat());
  const rows = [...arrays].flat();

  it('are labelled synthetic and shaped like the game\'s: 168 rows in 55 arrays', () => {
    expect(t.synthetic).toBe(true);
    expect(t.note).toMatch(/SYNTHETIC/);
    expect(arrays.size).toBe(55);
    expect(rows.length).toBe(168);
  });
  it('have the flat-bit mix 0x2 / 0x4 / 0x8 = 118 / 5 / 45, one bit per row, and rotflag 71 / 12 / 85', () => {
    const count = (f: (r: (typeof rows)[number]) => boolean) => rows.filter(f).length;
    expect([count((r) => r.flat === 2), count((r) => r.flat === 4), count((r) => r.flat === 8)]).toEqual([118, 5, 45]);
    expect([0, 1, 2].map((k) => count((r) => r.rotflag === k))).toEqual([71, 12, 85]);
  });
  it('carry every row the reference reveals', () => {
    const size = (r: { w: number; h: number }) => [r.w, r.h];
    expect(size(t.objects.enter[10]![0]!)).toEqual([3, 2]);
    expect(t.objects.enter[10]![0]!.flat & 2).toBe(2);
    expect(size(t.objects.enter[7]![0]!)).toEqual([3, 3]);
    expect(size(t.objects.enter[1]![0]!)).toEqual([2, 2]);
    expect(size(t.objects.enter[5]![0]!)).toEqual([3, 4]);
    const key7 = t.objects.key[7]!;
    expect([1, 2, 3, 6]).toContain(key7.length);
    expect(key7[0]!.anm).toBe('ANM_sfi2tow1a');
    expect(size(key7[0]!)).toEqual([3, 1]);
    expect(t.objects.lake[10]![0]!.clump).toBe('CMP_sfp4lak1');
    expect(size(t.objects.lake[10]![0]!)).toEqual([1, 1]);
    expect(t.objects.tree[1]!.length).toBeGreaterThanOrEqual(5);
    expect(t.objects.sub[8]!.filter((r) => r.clump === 'CMP_sfk3roc1').length).toBe(2);
    expect(t.objects.base[7]!.length).toBe(6);
    expect(t.objects.base[7]!.filter((r) => /^CMP_sfi3tom[123]$/.test(r.clump) && r.type === 1).length).toBe(3);
    expect(t.smallMeshNames[10]).toContain('MDL_sfp5tur3');
    expect(t.baseMeshNames[10]![0]).toBe('MDL_sfp5tur1');
  });
  it('point the non-lake types\' lake entries at their key rows, and the lake types at a lake piece', () => {
    for (let type = 0; type <= 10; type++) {
      if (t.lakeFieldTypes.includes(type)) expect(t.objects.lake[type]!.every((r) => r.flat === 4)).toBe(true);
      else expect(t.objects.lake[type]).toBe(t.objects.key[type]);
    }
  });
  it('hold the public constants', () => {
    expect(t.hillCounts).toEqual([{ small: 3, large: 1 }, { small: 5, large: 1 }, { small: 8, large: 1 }]);
    expect(t.largeHill).toEqual({ range: 10, base: 20 });
    expect(t.smallHill).toEqual({ range: 10, base: 10 });
    expect(t.objectCounts).toEqual({ key: 20, sub: 30, base: 35, tree: 35 });
    expect(t.noEntranceEvents).toEqual([113, 112, 111, 110, 109, 82, 81, 80, 79, 78, 57, 56, 55, 54, 53, 42, 41, 40, 39, 28]);
    expect(t.lakeFieldTypes).toEqual([10, 2, 3, 9, 8]);
    expect(t.treeRowTypes).toEqual([1]);
  });
  it('are exactly what their generator script writes', () => {
    const out = join(tempDir('piney-tables-'), 't.json');
    execFileSync(process.execPath, [pineyAssetPath('make-field-tables.mjs'), out]);
    expect(readFileSync(out, 'utf8')).toBe(readFileSync(pineyAssetPath('field-tables.json'), 'utf8'));
  });
  it('name every required key of the JSON schema', () => {
    const schema = JSON.parse(readFileSync(pineyAssetPath('field-tables.schema.json'), 'utf8')) as { required: string[] };
    const r = raw();
    for (const k of schema.required) expect(r, k).toHaveProperty(k);
  });
});

describe('table validation', () => {
  it('accepts the shipped file through the byte loader', () => {
    expect(loadPineyTables(bytes(raw())).objects.key.length).toBe(11);
  });
  it('refuses non-UTF-8, non-JSON, oversized and wrong-format input with a FormatError', () => {
    expect(() => loadPineyTables(new Uint8Array([0xff, 0xfe, 0x00]))).toThrow(FormatError);
    expect(() => loadPineyTables(new TextEncoder().encode('{"format":'))).toThrow(/not JSON/);
    expect(() => loadPineyTables(new Uint8Array(5 * 1024 * 1024))).toThrow(/limit/);
    expectFormatError({ ...raw(), format: 'other' }, /\$\.format/);
    expectFormatError(null, /must be an object/);
  });
  it('names the path of a bad row field', () => {
    const r = raw();
    r.objectTables.rows.KeyObjTBL_P[1].w = 0;
    expectFormatError(r, /KeyObjTBL_P\[1\]\.w/);
    const r2 = raw();
    r2.objectTables.rows.SubObjTBL_A[0].h = 40;
    expectFormatError(r2, /SubObjTBL_A\[0\]\.h/);
  });
  it('refuses an entry naming a missing array, an empty array, a big lake row and short tree-row tables', () => {
    const r = raw();
    r.objectTables.key[3] = 'Nope';
    expectFormatError(r, /"Nope"/);
    const r2 = raw();
    r2.objectTables.rows.KeyObjTBL_A = [];
    expectFormatError(r2, /KeyObjTBL_A/);
    const r3 = raw();
    r3.objectTables.rows.LakeObjTBL_P[0].w = 4;
    expectFormatError(r3, /lake row/);
    const r4 = raw();
    r4.objectTables.rows.TreeObjTBL_B = r4.objectTables.rows.TreeObjTBL_B.slice(0, 4);
    expectFormatError(r4, /at least 5 rows/);
  });
  it('refuses hill sizes FRACTAL2 or the site draw cannot take, percentages above 1, short Init rows', () => {
    const r = raw();
    r.hills.small.base = 3;
    expectFormatError(r, /hills\.small\.base/);
    const r2 = raw();
    r2.hills.large = { range: 10, base: 75 };
    expectFormatError(r2, /hills\.large\.base/);
    const r3 = raw();
    r3.percent[1] = '0x3f800001';
    expectFormatError(r3, /percent\[1\]/);
    const r4 = raw();
    r4.initDraws[5] = [1, 2, 3];
    expectFormatError(r4, /initDraws\[5\]/);
    const r5 = raw();
    r5.divisions[0].kind = 'lamp';
    expectFormatError(r5, /divisions\[0\]\.kind/);
  });
  it('throws only FormatError for any value put at any place in the file (fuzz)', () => {
    const base = raw();
    const paths: string[][] = [];
    const walk = (v: unknown, p: string[]) => {
      paths.push(p);
      if (v && typeof v === 'object') for (const k of Object.keys(v)) walk((v as Record<string, unknown>)[k], [...p, k]);
    };
    walk(base, []);
    fc.assert(
      fc.property(fc.nat(paths.length - 1), fc.anything(), (i, value) => {
        const r = structuredClone(base);
        const p = paths[i]!;
        if (p.length === 0) return;
        let o = r;
        for (const k of p.slice(0, -1)) o = o[k];
        o[p[p.length - 1]!] = value;
        try {
          parsePineyTables(r);
        } catch (e) {
          expect(e).toBeInstanceOf(FormatError);
        }
      }),
      { numRuns: 400 },
    );
  });
});
