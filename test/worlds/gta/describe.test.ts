/**
 * Building collision models from a JSON description or an OBJ file: every version, bounds computed, face
 * groups built for big COL2/COL3 meshes, and strict errors naming the JSON path or the OBJ line. An OBJ
 * builds the models a JSON description of the same geometry builds (a property over random files).
 */
import fc from 'fast-check';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { buildColFromDescription, buildColFromJson } from '../../../src/worlds/gta/describe.js';
import { buildColFromObj } from '../../../src/worlds/gta/describe-obj.js';
import { parseColFile } from '../../../src/worlds/gta/parse.js';
import { writeColFile } from '../../../src/worlds/gta/write.js';
import { ColScene } from '../../../src/worlds/gta/query.js';
import { runCli } from '../../cli/run-cli.js';
import { tempDir } from '../../setup/temp-dir.js';

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

  it('an OBJ builds the models the JSON description of its geometry builds (every version, both up axes, fans, negative and a/b/c indices, shadows, materials)', () => {
    const coord = fc.oneof(fc.integer({ min: -32000, max: 32000 }).map((i) => i / 128), fc.double({ min: -250, max: 250, noNaN: true }));
    const face = (vertices: number) =>
      fc.record({
        v: fc.array(fc.nat(vertices - 1), { minLength: 3, maxLength: 6 }),
        form: fc.array(fc.constantFrom('plain', 'negative', 'slashes'), { minLength: 6, maxLength: 6 }),
        shadow: fc.boolean(),
        material: fc.nat(255),
      });
    const file = fc.integer({ min: 3, max: 30 }).chain((n) =>
      fc.record({
        version: fc.constantFrom(1, 2, 3) as fc.Arbitrary<1 | 2 | 3>,
        up: fc.constantFrom('y', 'z') as fc.Arbitrary<'y' | 'z'>,
        vertices: fc.array(fc.tuple(coord, coord, coord), { minLength: n, maxLength: n }),
        objects: fc.array(fc.array(face(n), { minLength: 1, maxLength: 12 }), { minLength: 1, maxLength: 3 }),
      }),
    );
    fc.assert(
      fc.property(file, ({ version, up, vertices, objects }) => {
        const lines = vertices.map((c) => `v ${c.map(String).join(' ')}`);
        // What the file says, as a JSON description per object: polygons fanned, vertices in first-use order.
        const written = vertices.map((c) => c.map((x) => Number(String(x))));
        const gta = (c: number[]) => (up === 'y' ? [c[0]!, -c[2]! + 0, c[1]!] : c);
        const docs = objects.map((faces, o) => {
          lines.push(`o part${o}`, 'g main');
          let inShadow = false;
          const meshes = { mesh: { vertices: [] as number[][], faces: [] as { v: number[]; material: number }[], seen: new Map<number, number>() }, shadow: { vertices: [] as number[][], faces: [] as { v: number[]; material: number }[], seen: new Map<number, number>() } };
          for (const f of faces) {
            const shadow = version === 3 && f.shadow;
            if (shadow !== inShadow) lines.push(shadow ? 'g part shadow' : 'g main');
            inShadow = shadow;
            lines.push(`usemtl gta-surface-${f.material}`);
            lines.push(`f ${f.v.map((k, i) => (f.form[i] === 'negative' ? String(k - vertices.length) : f.form[i] === 'slashes' ? `${k + 1}/1/1` : String(k + 1))).join(' ')}`);
            const m = shadow ? meshes.shadow : meshes.mesh;
            const at = (k: number) => {
              let nw = m.seen.get(k);
              if (nw === undefined) {
                nw = m.vertices.length;
                m.seen.set(k, nw);
                m.vertices.push(gta(written[k]!));
              }
              return nw;
            };
            for (let k = 1; k + 1 < f.v.length; k++) m.faces.push({ v: [at(f.v[0]!), at(f.v[k]!), at(f.v[k + 1]!)], material: f.material });
          }
          const doc: Record<string, unknown> = { name: `part${o}`, version };
          if (meshes.mesh.faces.length) doc['mesh'] = { vertices: meshes.mesh.vertices, faces: meshes.mesh.faces };
          if (meshes.shadow.faces.length) doc['shadow'] = { vertices: meshes.shadow.vertices, faces: meshes.shadow.faces };
          return doc;
        });
        const fromObj = buildColFromObj(lines.join('\n'), { version, up });
        const fromJson = docs.map((d) => buildColFromDescription(d));
        expect(fromObj.models).toEqual(fromJson.map((b) => b.models[0]));
        expect(fromObj.snapped).toBe(fromJson.reduce((n, b) => n + b.snapped, 0));
      }),
      { numRuns: 150 },
    );
  });

  it('retrosim col build writes the file from JSON and from OBJ', () => {
    const dir = tempDir('retrosim-build-');
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
