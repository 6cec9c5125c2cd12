/**
 * Converting GTA collision models between versions: what each direction loses is counted and refused unless
 * lossy; face groups are built as the game expects; and a converted model answers the same ray, sphere and
 * ground queries as the original, exactly when nothing was lost and within the 1/128 quantisation otherwise.
 */
import { existsSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { ColConvertError, convertColModel, conversionLosses, faceGroupsValid } from '../../../src/worlds/gta/convert.js';
import { canonicalFlags, emptyMesh, encodeColName, type ColMesh, type ColModel } from '../../../src/worlds/gta/model.js';
import { parseColFile } from '../../../src/worlds/gta/parse.js';
import { writeColFile } from '../../../src/worlds/gta/write.js';
import { ColScene } from '../../../src/worlds/gta/query.js';
import { MAX_FACES_PER_GROUP } from '../../../src/worlds/gta/build.js';
import { modelArb } from './arbitrary.js';
import { runCli } from '../../cli/run-cli.js';

const fixtureDir = fileURLToPath(new URL('../../../../shared/fixtures/gta-col/', import.meta.url));
const present = existsSync(fixtureDir);
if (!present) console.warn(`gta-col fixtures: ${fixtureDir} is absent, so the conversions of real files are skipped`);
const load = (name: string): Uint8Array => new Uint8Array(readFileSync(fixtureDir + name));
const asset = (name: string): Uint8Array => new Uint8Array(readFileSync(fileURLToPath(new URL(`../../../assets/worlds/gta/${name}`, import.meta.url))));

const Q = 1 / 128;

/** A COLL height field: n × n cells of `size`, arbitrary float corners, slopes of at most 1. */
const heightFieldArb = fc
  .record({
    n: fc.integer({ min: 2, max: 6 }),
    size: fc.double({ min: 1, max: 20, noNaN: true }),
    ox: fc.double({ min: -100, max: 100, noNaN: true }),
    oy: fc.double({ min: -100, max: 100, noNaN: true }),
    oz: fc.double({ min: -50, max: 50, noNaN: true }),
    seed: fc.array(fc.double({ min: -0.5, max: 0.5, noNaN: true }), { minLength: 49, maxLength: 49 }),
    material: fc.integer({ min: 0, max: 255 }),
  })
  .map(({ n, size, ox, oy, oz, seed, material }) => {
    const vs: number[] = [];
    for (let j = 0; j <= n; j++) for (let i = 0; i <= n; i++) vs.push(ox + i * size, oy + j * size, oz + seed[(j * 7 + i) % 49]! * size);
    const idx: number[] = [];
    const id = (i: number, j: number) => j * (n + 1) + i;
    for (let j = 0; j < n; j++) {
      for (let i = 0; i < n; i++) {
        idx.push(id(i, j), id(i + 1, j), id(i + 1, j + 1));
        idx.push(id(i, j), id(i + 1, j + 1), id(i, j + 1));
      }
    }
    const mesh: ColMesh = {
      vertexCount: vs.length / 3, vertices: Float32Array.from(vs), faceCount: idx.length / 3, indices: Uint32Array.from(idx),
      surfaces: Uint8Array.from(idx.flatMap((_, k) => (k % 3 === 0 ? [material, 0, 0, 0] : []))),
    };
    const m: ColModel = {
      version: 1, name: 'field', nameBytes: encodeColName('field'), modelId: 0, bounds: { min: [ox, oy, oz - size], max: [ox + n * size, oy + n * size, oz + size], center: [0, 0, 0], radius: 1e4 },
      flags: 0, spheres: [], boxes: [], lines: new Float32Array(0), mesh, faceGroups: null, shadow: null, col4Unknown: 0,
    };
    m.bounds = { min: m.bounds.min.map(Math.fround) as never, max: m.bounds.max.map(Math.fround) as never, center: [0, 0, 0], radius: 1e4 };
    return { m, n, size, ox, oy, oz };
  });

describe('GTA conversion: losses', () => {
  it('COLL float vertices off the 1/128 grid are refused for COL2/COL3, counted, and converted with lossy', () => {
    fc.assert(
      fc.property(heightFieldArb, ({ m }) => {
        const losses = conversionLosses(m, 3);
        let off = 0;
        for (let v = 0; v < m.mesh.vertexCount; v++) if ([0, 1, 2].some((k) => !Number.isInteger(m.mesh.vertices[v * 3 + k]! * 128))) off++;
        fc.pre(off > 0);
        expect(losses.find((l) => l.kind === 'vertex-precision')?.count).toBe(off);
        expect(() => convertColModel(m, 3)).toThrow(ColConvertError);
        expect(() => convertColModel(m, 3)).toThrow(/not on the 1\/128 grid.*--lossy/);
        const c = convertColModel(m, 3, { lossy: true });
        expect(c.losses).toEqual(losses);
        for (let i = 0; i < c.model.mesh.vertices.length; i++) expect(Math.abs(c.model.mesh.vertices[i]! - m.mesh.vertices[i]!)).toBeLessThan(Q);
        // The faces are grouped as the game expects: consecutive runs of at most 50, covering every face.
        if (m.mesh.faceCount > MAX_FACES_PER_GROUP) {
          expect(c.faceGroups).toBe('built');
          expect(faceGroupsValid(c.model.faceGroups!, c.model.mesh.faceCount)).toBe(true);
          for (const g of c.model.faceGroups!) expect(g.last - g.first + 1).toBeLessThanOrEqual(MAX_FACES_PER_GROUP);
        }
        // It writes and reads back as itself.
        expect(parseColFile(writeColFile([c.model])).models[0]).toEqual(c.model);
      }),
      { numRuns: 60 },
    );
  });

  it('coordinates beyond ±256 are counted as lost by range; COL2 drops the shadow; COLL drops groups, shadow and light', () => {
    const m: ColModel = {
      version: 1, name: 'far', nameBytes: new Uint8Array(22), modelId: 0, bounds: { min: [0, 0, 0], max: [300, 1, 1], center: [0, 0, 0], radius: 300 }, flags: 0,
      spheres: [], boxes: [], lines: Float32Array.from([0, 0, 0, 1, 1, 1]),
      mesh: { vertexCount: 4, vertices: Float32Array.from([0, 0, 0, 300, 0, 0, 0, 1, 0, 5, 5, 5]), faceCount: 1, indices: Uint32Array.from([0, 1, 2]), surfaces: Uint8Array.from([1, 2, 3, 4]) },
      faceGroups: null, shadow: null, col4Unknown: 0,
    };
    expect(conversionLosses(m, 2).map((l) => [l.kind, l.count])).toEqual([['vertex-range', 1], ['unreferenced-vertices', 1], ['face-piece-brightness', 1], ['lines', 1]]);
    const town = parseColFile(asset('town.col')).models;
    const ramp = town.find((x) => x.name === 'town_ramp')!;
    expect(conversionLosses(ramp, 2).map((l) => l.kind)).toEqual(['shadow-mesh']);
    expect(conversionLosses(ramp, 3)).toEqual([]);
    const ground = town.find((x) => x.name === 'town_ground')!;
    const toColl = conversionLosses(ground, 1).map((l) => l.kind);
    expect(toColl).toContain('face-groups');
    const c = convertColModel(ground, 1, { lossy: true });
    expect(c.model.faceGroups).toBeNull();
    // The light bytes travel in the COLL surface, so converting back finds them.
    const back = convertColModel(c.model, 3, { faceGroups: 'keep' });
    expect(Array.from(back.model.mesh.surfaces)).toEqual(Array.from(ground.mesh.surfaces));
  });

  it.skipIf(!present)('real files: COL3 → COL2 → COL3 gives the file back byte for byte; COLL → COL3 refuses without --lossy', () => {
    for (const name of ['col3_mtrafi_2models.col', 'col3_pump_facegroups_pad.col']) {
      const f = parseColFile(load(name));
      const two = f.models.map((m) => convertColModel(m, 2));
      expect(two.every((c) => c.losses.length === 0 && c.faceGroups === 'kept' && c.faceOrder === null)).toBe(true);
      const three = two.map((c) => convertColModel(c.model, 3).model);
      expect(Buffer.from(writeColFile(three, f.trailing)).equals(Buffer.from(load(name)))).toBe(true);
    }
    const r = runCli(['col', 'convert', fixtureDir + 'coll_fcabin.col', '--to', 'COL3', '--out', '/tmp/retrosim-test-convert/fcabin3.col']);
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/119 vertices are not on the 1\/128 grid/);
    const ok = runCli(['col', 'convert', fixtureDir + 'coll_fcabin.col', '--to', 'COL3', '--out', '/tmp/retrosim-test-convert/fcabin3.col', '--lossy', '--json']);
    expect(ok.code).toBe(0);
    const out = JSON.parse(ok.stdout);
    expect(out.models[0].losses.map((l: { kind: string; count: number }) => [l.kind, l.count])).toEqual([['vertex-precision', 119]]);
    expect(out.models[0].faceGroups).toBe('built');
    // The reported order is a permutation of the 256 faces, and the written faces follow it.
    const order: number[] = out.models[0].faceOrder;
    expect([...order].sort((a, b) => a - b)).toEqual(Array.from({ length: 256 }, (_, i) => i));
    const src = parseColFile(load('coll_fcabin.col')).models[0]!;
    const dst = parseColFile(new Uint8Array(readFileSync('/tmp/retrosim-test-convert/fcabin3.col'))).models[0]!;
    for (let k = 0; k < 256; k++) expect(Array.from(dst.mesh.indices.subarray(k * 3, k * 3 + 3))).toEqual(Array.from(src.mesh.indices.subarray(order[k]! * 3, order[k]! * 3 + 3)));
    expect(r.stderr.split('\n').filter(Boolean)).toHaveLength(1);
  });
});

/** Vertical ray down through (x, y): the floor's height, or NaN. */
function floorAt(s: ColScene, x: number, y: number): number {
  const t = s.segmentFraction(x, y, 500, x, y, -500);
  return t < 0 ? NaN : 500 - 1000 * t;
}

describe('GTA conversion: the converted model answers the same queries', () => {
  it('lossless (COL3 → COL2 → COLL with groups rebuilt): identical ray fractions and sphere overlaps', () => {
    let ran = 0;
    fc.assert(
      fc.property(
        modelArb(3),
        fc.array(fc.tuple(fc.double({ min: -300, max: 300, noNaN: true }), fc.double({ min: -300, max: 300, noNaN: true }), fc.double({ min: -300, max: 300, noNaN: true })), { minLength: 12, maxLength: 12 }),
        (m, pts) => {
          fc.pre(m.mesh.faceCount > 0 || m.spheres.length > 0 || m.boxes.length > 0);
          ran++;
          const two = convertColModel(m, 2, { lossy: true, faceGroups: 'build' }).model;
          const coll = convertColModel(two, 1, { lossy: true }).model;
          const scenes = [m, two, coll].map((x) => new ColScene([x]));
          for (let k = 0; k + 1 < pts.length; k += 2) {
            const [a, b] = [pts[k]!, pts[k + 1]!];
            const f = scenes.map((s) => s.segmentFraction(a[0], a[1], a[2], b[0], b[1], b[2]));
            expect(f[1]).toBe(f[0]);
            expect(f[2]).toBe(f[0]);
            const o = scenes.map((s) => s.sphereOverlaps(a[0], a[1], a[2], Math.abs(b[0]) / 10));
            expect(o[1]).toBe(o[0]);
            expect(o[2]).toBe(o[0]);
          }
        },
      ),
      { numRuns: 150 },
    );
    expect(ran).toBeGreaterThan(50);
  });

  it('lossy (COLL floats → COL3): ground heights within the quantisation, and every stable sphere answer kept', () => {
    let compared = 0;
    fc.assert(
      fc.property(heightFieldArb, fc.double({ min: 0.2, max: 3, noNaN: true }), fc.double({ min: 0.05, max: 4, noNaN: true }), ({ m, n, size, ox, oy }, r, lift) => {
        const c = convertColModel(m, 3, { lossy: true }).model;
        const a = new ColScene([m]);
        const b = new ColScene([c]);
        for (let j = 0; j < n; j++) {
          for (let i = 0; i < n; i++) {
            for (const [u, v] of [[0.7, 0.3], [0.3, 0.7]] as const) {
              const x = ox + (i + u) * size, y = oy + (j + v) * size;
              const h0 = floorAt(a, x, y), h1 = floorAt(b, x, y);
              expect(Number.isFinite(h0)).toBe(true);
              // Each vertex moves by less than 1/128 per axis; the slope is at most 1: at most 3/128 in height.
              expect(Math.abs(h1 - h0)).toBeLessThanOrEqual(3 * Q + 1e-9);
              // A sphere above the point: when its answer does not change for radii 2/128 either side, the
              // converted geometry (within √3/128 of the original) gives the same answer.
              const z = h0 + lift;
              const lo = a.sphereOverlaps(x, y, z, r - 2 * Q), hi = a.sphereOverlaps(x, y, z, r + 2 * Q);
              if (lo === hi) {
                compared++;
                expect(b.sphereOverlaps(x, y, z, r)).toBe(lo);
              }
            }
          }
        }
      }),
      { numRuns: 60 },
    );
    expect(compared).toBeGreaterThan(500);
  });

  it('an empty model converts to every version', () => {
    const m: ColModel = { version: 3, name: 'e', nameBytes: new Uint8Array(22), modelId: 0, bounds: { min: [0, 0, 0], max: [0, 0, 0], center: [0, 0, 0], radius: 0 }, flags: 0, spheres: [], boxes: [], lines: new Float32Array(0), mesh: emptyMesh(), faceGroups: null, shadow: null, col4Unknown: 0 };
    m.flags = canonicalFlags(m);
    for (const to of [1, 2, 3] as const) expect(parseColFile(writeColFile([convertColModel(m, to).model])).models[0]!.version).toBe(to);
  });
});
