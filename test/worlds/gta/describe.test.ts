/**
 * Building collision models from a JSON description or an OBJ file: every version, bounds computed, face
 * groups built for big COL2/COL3 meshes, and strict errors naming the JSON path or the OBJ line.
 */
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { buildColFromDescription, buildColFromJson, buildColFromObj } from '../../../src/worlds/gta/describe.js';
import { parseColFile } from '../../../src/worlds/gta/parse.js';
import { writeColFile } from '../../../src/worlds/gta/write.js';
import { ColScene } from '../../../src/worlds/gta/query.js';
import { runCli } from '../../cli/run-cli.js';

const crate = {
  version: 3,
  models: [
    {
      name: 'crate',
      spheres: [{ center: [0, 0, 3], radius: 0.5, material: 7 }],
      boxes: [{ min: [-1, -1, 0], max: [1, 1, 2], material: 2, light: 0x31 }],
      mesh: { vertices: [[-4, -4, 0], [4, -4, 0], [4, 4, 0], [-4, 4, 0]], faces: [[0, 1, 2], { v: [0, 2, 3], material: 4, light: 0x12 }], material: 1 },
      shadow: { vertices: [[-1, -1, 0.01], [1, -1, 0.01], [0, 1, 0.01]], faces: [[0, 1, 2]] },
    },
  ],
};

describe('GTA models from a description', () => {
  it('builds a COL3 model with every part, its bounds computed, and it reads back as built', () => {
    const b = buildColFromDescription(crate);
    const m = b.models[0]!;
    expect([m.version, m.name, m.spheres.length, m.boxes.length, m.mesh.faceCount, m.shadow!.faceCount]).toEqual([3, 'crate', 1, 1, 2, 1]);
    expect(m.bounds.min).toEqual([-4, -4, 0]);
    expect(m.bounds.max).toEqual([4, 4, 3.5]);
    expect(Array.from(m.mesh.surfaces)).toEqual([1, 0, 0, 0, 4, 0, 0, 0x12]);
    expect(parseColFile(writeColFile(b.models)).models[0]).toEqual(m);
    // Its floor answers a query where the description says.
    const s = new ColScene(b.models);
    expect(s.segmentFraction(3, 3, 10, 3, 3, -10)).toBe(0.5);
  });

  it('every version; big COL2/COL3 meshes get face groups of at most 50 faces; off-grid vertices snap and are counted', () => {
    const n = 8;
    const vertices: number[][] = [];
    const faces: number[][] = [];
    for (let j = 0; j <= n; j++) for (let i = 0; i <= n; i++) vertices.push([i + 0.001, j, (i * j) / 100]);
    for (let j = 0; j < n; j++) for (let i = 0; i < n; i++) {
      const a = j * (n + 1) + i;
      faces.push([a, a + 1, a + n + 2], [a, a + n + 2, a + n + 1]);
    }
    for (const version of [1, 2, 3]) {
      const b = buildColFromDescription({ version, name: 'grid', mesh: { vertices, faces } });
      const m = b.models[0]!;
      expect(m.version).toBe(version);
      expect(m.mesh.faceCount).toBe(128);
      if (version === 1) {
        expect(m.faceGroups).toBeNull();
        expect(b.snapped).toBe(0);
      } else {
        expect(m.faceGroups!.length).toBeGreaterThanOrEqual(3);
        for (const g of m.faceGroups!) expect(g.last - g.first + 1).toBeLessThanOrEqual(50);
        expect(b.snapped).toBeGreaterThan(0);
      }
      expect(parseColFile(writeColFile(b.models)).models[0]).toEqual(m);
    }
  });

  it('refuses bad descriptions with the JSON path', () => {
    const bad: [unknown, RegExp][] = [
      [{ models: [{ name: 'x', mesh: { vertices: [[0, 0, 0]], faces: [[0, 0, 1]] } }] }, /\$\.models\[0\]\.mesh\.faces\[0\]\[2\]: must be an integer 0\.\.0/],
      [{ models: [{ spheres: [{ center: [0, 0], radius: 1 }] }] }, /\$\.models\[0\]\.spheres\[0\]\.center: must be \[x, y, z\]/],
      [{ models: [{ boxes: [{ min: [0, 0, 2], max: [1, 1, 1] }] }] }, /\$\.models\[0\]\.boxes\[0\]\.min\[2\]: min 2 is above max 1/],
      [{ version: 2, models: [{ shadow: { vertices: [], faces: [] } }] }, /\$\.models\[0\]\.shadow: COL2 has no shadow mesh/],
      [{ models: [{ mesh: { vertices: [[300, 0, 0]], faces: [[0, 0, 0]] } }] }, /\$\.models\[0\]\.mesh\.vertices\[0\]\[0\]: 300 is beyond COL3/],
      [{ models: [{ mesh: { vertices: [], faces: [], colour: 1 } }] }, /\$\.models\[0\]\.mesh\.colour: unknown key/],
      [{ models: [{ name: 'a name far longer than twenty-one' }] }, /\$\.models\[0\]\.name: must be at most 21/],
      [{ models: [{ spheres: [{ center: [0, 0, 0], radius: 1, material: 256 }] }] }, /material: must be an integer 0\.\.255/],
      [{ models: [{ mesh: { vertices: [[0, 0, 0]], faces: [{ v: [0, 0, 0], flag: 1 }] } }] }, /faces\[0\]\.flag: COL3 faces have no flag byte/],
      [{ models: [] }, /\$\.models: needs at least one model/],
      [{ models: [{ spheres: [{ center: [0, 0, 1e39], radius: 1 }] }] }, /beyond the float32 range/],
    ];
    for (const [doc, re] of bad) expect(() => buildColFromDescription(doc), JSON.stringify(doc)).toThrow(re);
    expect(() => buildColFromJson(new TextEncoder().encode('{'))).toThrow(/not UTF-8 JSON/);
  });

  it('builds from OBJ (Y up by default, o = model, g shadow, usemtl N) and refuses bad lines by number', () => {
    const obj = ['# a ramp', 'mtllib ramp.mtl', 'o ramp', 'v 0 0 0', 'v 4 0 0', 'v 4 1 -4', 'v 0 1 -4', 'usemtl gta-surface-9', 'f 1 2 3 4', 'g ramp shadow', 'usemtl 0', 'f 1/1 2/2 3/3', 'o post', 'v 0 0 0', 'v 0 2 0', 'v 1 0 0', 'f -3 -2 -1'].join('\n');
    const b = buildColFromObj(obj);
    expect(b.models.map((m) => [m.name, m.mesh.faceCount, m.shadow?.faceCount ?? 0])).toEqual([['ramp', 2, 1], ['post', 1, 0]]);
    const ramp = b.models[0]!;
    expect(Array.from(ramp.mesh.surfaces)).toEqual([9, 0, 0, 0, 9, 0, 0, 0]);
    // OBJ (x, y, z) is GTA (x, −z, y): the ramp rises along GTA +y to 1 m.
    expect(ramp.bounds.min).toEqual([0, 0, 0]);
    expect(ramp.bounds.max).toEqual([4, 4, 1]);
    const z = buildColFromObj(obj, { up: 'z' }).models[0]!;
    expect(z.bounds.max).toEqual([4, 1, 0]);
    for (const [text, re] of [
      ['v 0 0 0\nv 1 0 0\nf 1 2 3', /OBJ line 3: vertex 3 does not exist/],
      ['v 0 0 x', /OBJ line 1: "x" is not a finite number/],
      ['usemtl grass', /OBJ line 1: material "grass" does not end in its surface number/],
      ['curv 0 1', /OBJ line 1: unknown statement "curv"/],
      ['v 0 0 0\nv 1 0 0\nv 0 1 0\ng shadow\nf 1 2 3', /has a shadow group, but COL2/],
      ['v 0 0 0', /no faces/],
    ] as const) expect(() => buildColFromObj(text, { version: text.includes('shadow') ? 2 : 3 })).toThrow(re);
  });

  it('retrosim col build writes the file from JSON and from OBJ', () => {
    const dir = mkdtempSync(join(tmpdir(), 'retrosim-build-'));
    writeFileSync(join(dir, 'crate.json'), JSON.stringify(crate));
    const r = runCli(['col', 'build', join(dir, 'crate.json'), '--out', join(dir, 'crate.col'), '--json']);
    expect(r.code).toBe(0);
    const out = JSON.parse(r.stdout);
    expect(out.models[0]).toMatchObject({ version: 3, name: 'crate', spheres: 1, boxes: 1, faces: 2, shadowFaces: 1 });
    expect(parseColFile(new Uint8Array(readFileSync(join(dir, 'crate.col')))).models[0]!.name).toBe('crate');
    writeFileSync(join(dir, 'tri.obj'), 'v 0 0 0\nv 1 0 0\nv 0 0 -1\nf 1 2 3\n');
    const o = runCli(['col', 'build', join(dir, 'tri.obj'), '--out', join(dir, 'tri.col'), '--version', 'COLL', '--name', 'tri', '--json']);
    expect(o.code).toBe(0);
    expect(JSON.parse(o.stdout).models[0]).toMatchObject({ version: 1, name: 'tri', faces: 1 });
    const e = runCli(['col', 'build', join(dir, 'crate.json'), '--out', join(dir, 'x.col'), '--version', 'COL2']);
    expect(e.code).toBe(2);
    writeFileSync(join(dir, 'bad.json'), '{"models":[{"boxes":[{"min":[0,0,0]}]}]}');
    const bad = runCli(['col', 'build', join(dir, 'bad.json'), '--out', join(dir, 'x.col')]);
    expect(bad.code).toBe(1);
    expect(bad.stderr).toMatch(/\$\.models\[0\]\.boxes\[0\]\.max: must be an array/);
  });
});
